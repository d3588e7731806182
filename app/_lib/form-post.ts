import { AppError } from "@/lib/errors";
import { encodeFlash } from "@/lib/http/flash";
import { formMessage } from "@/lib/seller/dashboard/forms";

/**
 * What the form routes of the account pages and the seller dashboard share: each answers 303 to
 * a page, with `notice` when the change was made, or with a signed `flash` (the message, the
 * field, what was typed) when it was refused.
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

/** The request path's segment at `index` (split on "/"), decoded; "" when there is none or it is malformed. */
export function pathSegment(request: Request, index: number): string {
  const segment = new URL(request.url).pathname.split("/")[index] ?? "";
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}
