import type { Role } from "@/lib/accounts/users";
import { getSessionUser } from "@/lib/http/session";
import { publicBaseUrl } from "@/lib/config";
import { plainNotFound, seeOther } from "../form-answer";
import { safeNextPath } from "../next-path";
import type { Policy } from "../pipeline";

/** `optional`: anyone, signed in or not; `required`: any signed-in person; a role list: only those roles. */
export type SessionRule = "optional" | "required" | readonly Role[];

/**
 * Caller: the session cookie. A signed-in person becomes a `user` principal; without a session a
 * rule other than `optional` sends them to /signin (303), with `next` set to the page the form was
 * on; a signed-in person without the role gets a 404, as if there were nothing there.
 */
export function sessionCaller(rule: SessionRule): Policy {
  return async (ctx, next) => {
    const user = await getSessionUser();
    if (user) {
      ctx.sessionUser = user;
      ctx.principal = { kind: "user", userId: user.id, role: user.role };
    }
    if (rule === "optional") return next();
    if (!user) {
      const back = refererPath(ctx.request);
      return seeOther(`/signin?next=${encodeURIComponent(back)}`);
    }
    if (rule !== "required" && !rule.includes(user.role)) {
      ctx.failure = "role_missing";
      return plainNotFound("Not found.");
    }
    return next();
  };
}

/** The same-site page a form was posted from, else /account. */
function refererPath(request: Request): string {
  const referer = request.headers.get("referer");
  if (!referer) return "/account";
  try {
    const url = new URL(referer);
    if (url.origin !== new URL(request.url).origin && url.origin !== publicBaseUrl()) return "/account";
    return safeNextPath(`${url.pathname}${url.search}`);
  } catch {
    return "/account";
  }
}
