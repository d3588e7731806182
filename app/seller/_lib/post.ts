import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { encodeFlash } from "@/lib/http/flash";
import { formMessage } from "@/lib/seller/dashboard/forms";
import { ownedStore, type OwnedStore } from "@/lib/seller/dashboard/stores";

/**
 * What the dashboard's form routes share. Each answers 303 to a page: with `notice` when the
 * change was made, with a signed `flash` (the message, the field, what was typed) when it was
 * refused. Nothing here changes data: the routes call the seller domain functions for that.
 */

export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
}

export function withParams(path: string, params: Record<string, string | undefined>): string {
  const url = new URL(path, "http://x");
  // One message at a time: a notice or a flash of an earlier post does not stay in the URL.
  url.searchParams.delete("notice");
  url.searchParams.delete("flash");
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.pathname + url.search;
}

/** Fields worth echoing into a refused form (not the bookkeeping ones). */
function typedValues(form: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(form).filter(([k]) => k !== "return_to" && !k.startsWith("was_") && !k.startsWith("has_")));
}

/**
 * Back to `page` with the refusal shown on form `formName`. Only an AppError (a validation or
 * domain refusal) is shown; anything else is a real failure and is thrown on.
 */
export function refused(
  page: string,
  formName: string,
  err: unknown,
  form: Record<string, string>,
  field: (param: string | undefined) => string | undefined = (p) => p,
): Response {
  if (!(err instanceof AppError) || err.status >= 500) throw err;
  const name = field(err.param);
  const flash = encodeFlash({ form: formName, message: formMessage(err, name), field: name, values: typedValues(form) });
  return seeOther(withParams(page, { flash }));
}

export function notFoundResponse(): Response {
  return new Response("Not found: there is nothing here, or it belongs to a store you do not own.", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** The path segments after `/seller/`, decoded: [store slug, section, id, action]. */
export function sellerPath(request: Request): string[] {
  const parts = new URL(request.url).pathname.split("/").slice(2);
  try {
    return parts.map(decodeURIComponent);
  } catch {
    return [];
  }
}

/** The store of a form post's URL when the poster owns it, else null (the route answers 404). */
export async function storeOfPost(request: Request, user: { id: string } | null): Promise<OwnedStore | null> {
  const [slug] = sellerPath(request);
  return slug && user ? ownedStore(db(), user.id, slug) : null;
}

/**
 * Where to go after a post from a page that says where it came from (`return_to`): only a page
 * of this store's dashboard, so a crafted form cannot send anyone elsewhere.
 */
export function returnPath(store: OwnedStore, value: string | undefined, fallback: string): string {
  const prefix = `/seller/${store.slug}/`;
  if (!value || value.length > 2_000 || !value.startsWith(prefix) || value.includes("//") || /[\\\u0000-\u001f\u007f]/.test(value)) return fallback;
  return value;
}

/** The same refusal, its message led by what it is about (a listing's SKU in a table of many). */
export function about(err: unknown, subject: string, message?: string): unknown {
  if (!(err instanceof AppError)) return err;
  return new AppError(err.code, `${subject}: ${message ?? err.message}`, err.param);
}
