import { AppError } from "@/lib/errors";
import { plainNotFound } from "@/lib/http/form-answer";
import { refused } from "@/app/_lib/form-post";

/**
 * What the /account form routes share. Each answers 303 to a page: with `notice` when the change
 * was made, with a signed `flash` (message, field, what was typed) when it was refused; an id that
 * is not one of the holder's (another account's, or no id at all) is a 404 and changes nothing.
 * The helpers are the shared ones (lib/http/form-answer.ts, app/_lib/form-post.ts).
 */
export { backWithFlash, seeOther } from "@/lib/http/form-answer";
export { one, pathSegment, pathSegments as accountPath, refused, type SearchParams } from "@/app/_lib/form-post";

export function notFoundResponse(what: string): Response {
  return plainNotFound(`Not found: ${what}`);
}

/** 404 for a refusal that an id is not the holder's; the page with the message for any other refusal. */
export function answerRefusal(err: unknown, back: string, formName: string, form: Record<string, string>): Response {
  if (err instanceof AppError && (err.code === "address_not_found" || err.code === "payment_method_not_found")) {
    return notFoundResponse(err.message);
  }
  return refused(back, formName, err, form);
}
