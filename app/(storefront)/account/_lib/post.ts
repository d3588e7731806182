import { AppError } from "@/lib/errors";
import { refused, seeOther, withParams } from "@/app/_lib/form-post";

/**
 * What the /account form routes share. Each answers 303 to a page: with `notice` when the change
 * was made, with a signed `flash` (message, field, what was typed) when it was refused; an id that
 * is not one of the holder's (another account's, or no id at all) is a 404 and changes nothing.
 */
export { refused, seeOther, withParams };

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The path segments after `/account/`, decoded: [kind, id, action]. */
export function accountPath(request: Request): string[] {
  const parts = new URL(request.url).pathname.split("/").slice(2);
  try {
    return parts.map(decodeURIComponent);
  } catch {
    return [];
  }
}

export function notFoundResponse(what: string): Response {
  return new Response(`Not found: ${what}`, {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** 404 for a refusal that an id is not the holder's; the page with the message for any other refusal. */
export function answerRefusal(err: unknown, back: string, formName: string, form: Record<string, string>): Response {
  if (err instanceof AppError && (err.code === "address_not_found" || err.code === "payment_method_not_found")) {
    return notFoundResponse(err.message);
  }
  return refused(back, formName, err, form);
}
