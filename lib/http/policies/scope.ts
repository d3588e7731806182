import { missingScopes, type Scope } from "@/lib/auth/scopes";
import { AppError } from "@/lib/errors";
import type { Policy } from "../pipeline";

/** The caller must hold every scope of `required` (with the hierarchy of lib/auth/scopes.ts). */
export function requireScopes(required: readonly Scope[]): Policy {
  return (ctx, next) => {
    const held = ctx.principal && "scopes" in ctx.principal ? ctx.principal.scopes : [];
    const missing = missingScopes(held, required);
    if (missing.length > 0) {
      throw new AppError("scope_missing", `This operation needs the scope ${missing.map((s) => `'${s}'`).join(" and ")}, which this key does not have.`);
    }
    return next();
  };
}
