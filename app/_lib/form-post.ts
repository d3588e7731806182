import { AppError } from "@/lib/errors";
import { backWithFlash } from "@/lib/http/form-answer";
import { formMessage } from "@/lib/seller/dashboard/forms";

/**
 * What the form routes and pages of the account pages and the seller dashboard share, beyond the
 * answer itself (lib/http/form-answer.ts: `seeOther`, `withParams`, `backWithFlash`,
 * `plainNotFound`): a refusal shown on its form, the posted URL's segments, the page's query.
 * app/(storefront)/account/_lib/post.ts and app/seller/_lib/post.ts gather these for their routes.
 */

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
  return backWithFlash(page, { form: formName, message: formMessage(err, name), field: name, values: typedValues(form) });
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

/** The request path's segments after its first (`/account/<these>`, `/seller/<these>`), decoded; [] when one is malformed. */
export function pathSegments(request: Request): string[] {
  const parts = new URL(request.url).pathname.split("/").slice(2);
  try {
    return parts.map(decodeURIComponent);
  } catch {
    return [];
  }
}

/** A page's `searchParams`. */
export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** A query parameter's value; the first when it is repeated. */
export function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
