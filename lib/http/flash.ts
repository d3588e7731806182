import { createHmac, timingSafeEqual } from "node:crypto";
import { config } from "@/lib/config";

/**
 * What a refused form post (seller dashboard, account pages, checkout) hands to the page it
 * redirects to (303): the message, the field it is about, and what the person typed, so the form
 * comes back filled in. It travels in the redirect's query string, signed with the app's secret so
 * that nobody can craft a link that makes a page show a message of their choosing, and it expires
 * after a few minutes.
 * Never put a secret in it: the URL lands in the browser's history.
 */
export interface FormFlash {
  /** Which form it belongs to (a page with several forms fills only that one). */
  form: string;
  message: string;
  /** The form field the message is about, when there is one. */
  field?: string;
  values: Record<string, string>;
}

const TTL_MS = 10 * 60 * 1000;
/** Typed values longer than this are not echoed back (the URL would grow past what proxies take). */
const VALUE_ECHO_MAX = 2_000;
const ECHO_TOTAL_MAX = 6_000;

function sign(payload: string): string {
  return createHmac("sha256", `dashboard-flash:${config().authSecret}`).update(payload).digest("base64url");
}

export function encodeFlash(flash: FormFlash, now = Date.now()): string {
  const values: Record<string, string> = {};
  let total = 0;
  for (const [name, value] of Object.entries(flash.values)) {
    if (value.length > VALUE_ECHO_MAX || total + value.length > ECHO_TOTAL_MAX) continue;
    values[name] = value;
    total += value.length;
  }
  const payload = Buffer.from(JSON.stringify({ ...flash, message: flash.message.slice(0, 500), values, exp: now + TTL_MS })).toString(
    "base64url",
  );
  return `${payload}.${sign(payload)}`;
}

/** The flash of a page's `flash` parameter, or null when it is absent, forged or expired. */
export function decodeFlash(value: unknown, now = Date.now()): FormFlash | null {
  if (typeof value !== "string" || value.length > 20_000) return null;
  const dot = value.lastIndexOf(".");
  if (dot <= 0) return null;
  const payload = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), "base64url");
  const expected = Buffer.from(sign(payload), "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as FormFlash & { exp: number };
    if (typeof parsed.exp !== "number" || parsed.exp < now) return null;
    return { form: parsed.form, message: parsed.message, field: parsed.field, values: parsed.values ?? {} };
  } catch {
    return null;
  }
}
