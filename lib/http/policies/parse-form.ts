import { AppError } from "@/lib/errors";
import { MAX_BODY_BYTES, readBodyBytes } from "../body";
import type { Policy } from "../pipeline";

const FORM_TYPE = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

/**
 * Reads an HTML form post into `ctx.body` as `Record<string, string>` (files are dropped; a
 * repeated field keeps its last value). A body that is not a form reads as no fields, so the
 * handler answers "invalid" as it would for an empty form; more than 1 MiB is 413.
 */
export const parseForm: Policy = async (ctx, next) => {
  ctx.body = await readForm(ctx.request);
  return next();
};

async function readForm(request: Request): Promise<Record<string, string>> {
  const type = request.headers.get("content-type") ?? "";
  if (!FORM_TYPE.test(type) || !request.body) return {};
  const bytes = await readBodyBytes(request, tooLarge);
  try {
    const data = await new Response(new Uint8Array(bytes), { headers: { "Content-Type": type } }).formData();
    const form: Record<string, string> = Object.create(null);
    for (const [name, value] of data) if (typeof value === "string") form[name] = value;
    return form;
  } catch {
    return {};
  }
}

function tooLarge() {
  return new AppError("body_too_large", `The form is larger than ${MAX_BODY_BYTES} bytes.`);
}
