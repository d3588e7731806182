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
export const parseForm: Policy = async (ctx, next) => {
  const lists = await readForm(ctx.request);
  const form: Record<string, string> = Object.create(null);
  for (const [name, values] of Object.entries(lists)) form[name] = values[values.length - 1]!;
  ctx.body = form;
  ctx.formLists = lists;
  return next();
};

async function readForm(request: Request): Promise<Record<string, string[]>> {
  const lists: Record<string, string[]> = Object.create(null);
  const type = request.headers.get("content-type") ?? "";
  if (!FORM_TYPE.test(type) || !request.body) return lists;
  const bytes = await readBodyBytes(request, tooLarge);
  try {
    const data = await new Response(new Uint8Array(bytes), { headers: { "Content-Type": type } }).formData();
    for (const [name, value] of data) if (typeof value === "string") (lists[name] ??= []).push(value);
    return lists;
  } catch {
    return Object.create(null);
  }
}

function tooLarge() {
  return new AppError("body_too_large", `The form is larger than ${MAX_BODY_BYTES} bytes.`);
}
