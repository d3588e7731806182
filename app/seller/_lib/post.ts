import { audited, type AuditEntry } from "@/lib/audit";
import type { SessionUser } from "@/lib/http/session";
import { AppError } from "@/lib/errors";
import { plainNotFound } from "@/lib/http/form-answer";
import { withDb, type Tx } from "@/lib/http/database";
import { safeNextPath } from "@/lib/http/next-path";
import { ownedStore, type OwnedStore } from "@/lib/seller/dashboard/stores";
import { pathSegments } from "@/app/_lib/form-post";

/**
 * What the dashboard's form routes share. Each answers 303 to a page: with `notice` when the
 * change was made, with a signed `flash` (the message, the field, what was typed) when it was
 * refused (lib/http/form-answer.ts and app/_lib/form-post.ts, shared with the account pages).
 * Nothing here changes data: the routes call the seller domain functions for that.
 */

export { seeOther, withParams } from "@/lib/http/form-answer";
export { refused } from "@/app/_lib/form-post";

export function notFoundResponse(): Response {
  return plainNotFound("Not found: there is nothing here, or it belongs to a store you do not own.");
}

/** The path segments after `/seller/`, decoded: [store slug, section, id, action]. */
export const sellerPath: (request: Request) => string[] = pathSegments;

/** The store of a form post's URL when the poster owns it, else null (the route answers 404). */
export async function storeOfPost(request: Request, user: { id: string } | null): Promise<OwnedStore | null> {
  const [slug] = sellerPath(request);
  return slug && user ? withDb((client) => ownedStore(client, user.id, slug)) : null;
}

/**
 * Where to go after a post from a page that says where it came from (`return_to`): only a page
 * of this store's dashboard, so a crafted form cannot send anyone elsewhere.
 */
export function returnPath(store: OwnedStore, value: string | undefined, fallback: string): string {
  const prefix = `/seller/${store.slug}/`;
  return safeNextPath(value, fallback, (path) => path.startsWith(prefix));
}

/** The same refusal, its message led by what it is about (a listing's SKU in a table of many). */
export function about(err: unknown, subject: string, message?: string): unknown {
  if (!(err instanceof AppError)) return err;
  return new AppError(err.code, `${subject}: ${message ?? err.message}`, err.param);
}

/** Who posts a dashboard form: the signed-in owner, for one of their stores, in one request. */
export interface Poster {
  store: { id: string };
  user: SessionUser;
  requestId: string;
}

/**
 * An owner's change from the dashboard: `change` runs in a transaction that also writes it to the
 * store's audit log (lib/audit/), as `action` on `target` (or on what `created` names); a refusal
 * is recorded once the transaction has rolled back. Input checks belong inside `change`, so that
 * a refused form is recorded too.
 */
export function ownerChange<T>(
  poster: Poster,
  action: string,
  target: AuditEntry["target"],
  change: (tx: Tx) => Promise<T>,
  created?: (result: T) => AuditEntry["target"],
): Promise<T> {
  const entry: AuditEntry = { storeId: poster.store.id, actor: { type: "user", userId: poster.user.id, email: poster.user.email }, action, target, requestId: poster.requestId };
  return withDb((client) => audited(client, entry, change, created));
}
