import { AppError } from "@/lib/errors";
import { MAX_BODY_BYTES, readBodyBytes } from "../body";
import type { Policy } from "../pipeline";

const FORM_TYPE = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

/**
 * Reads an HTML form post into `ctx.body` as `Record<string, string>` (files are dropped; a
 * repeated field keeps its last value there) and into `ctx.formLists` with every value of each
 * field in order (a group of checkboxes sharing a name). A body that is not a form reads as no
 * fields, so the handler answers "invalid" as it would for an empty form; more than 1 MiB is 413.
 */
export const parseForm: Policy = parseFormWith();

/**
 * The same, for a form that also posts files (`enctype="multipart/form-data"`): the body may be
 * up to `maxBytes`, and each non-empty file lands in `ctx.formFiles` by field name.
 */
export function parseFormWith(files?: { maxBytes: number }): Policy {
  return async (ctx, next) => {
    const { lists, fileMap } = await readForm(ctx.request, files?.maxBytes);
    if (files) ctx.formFiles = fileMap;
    return withForm(ctx, lists, next);
  };
}

function withForm(ctx: Parameters<Policy>[0], lists: Record<string, string[]>, next: Parameters<Policy>[1]) {
  const form: Record<string, string> = Object.create(null);
  for (const [name, values] of Object.entries(lists)) form[name] = values[values.length - 1]!;
  ctx.body = form;
  ctx.formLists = lists;
  return next();
}

async function readForm(request: Request, maxBytes?: number): Promise<{ lists: Record<string, string[]>; fileMap: Record<string, File> }> {
  const lists: Record<string, string[]> = Object.create(null);
  const fileMap: Record<string, File> = Object.create(null);
  const type = request.headers.get("content-type") ?? "";
  if (!FORM_TYPE.test(type) || !request.body) return { lists, fileMap };
  const max = maxBytes ?? MAX_BODY_BYTES;
  const bytes = await readBodyBytes(request, () => new AppError("body_too_large", `The form is larger than ${max} bytes.`), max);
  try {
    const data = await new Response(new Uint8Array(bytes), { headers: { "Content-Type": type } }).formData();
    for (const [name, value] of data) {
      if (typeof value === "string") (lists[name] ??= []).push(value);
      else if (maxBytes !== undefined && value.size > 0) fileMap[name] = value;
    }
    return { lists, fileMap };
  } catch {
    return { lists: Object.create(null), fileMap: Object.create(null) };
  }
}
