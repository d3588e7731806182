import type { NextResponse } from "next/server";
import { randomBytes } from "node:crypto";
import { publicBaseUrl } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { DRAFT_FIELDS, type ExplicitLine } from "@/lib/checkout";
import { decodeFlash, encodeFlash, type FormFlash } from "@/lib/http/flash";
import { seeOther } from "@/lib/http/form-answer";
import { UUID } from "@/lib/ids";

/**
 * The /checkout form: its field names, reading what it posts, and handing a refusal back to the
 * page. A refusal travels in a short-lived signed cookie (what was typed is personal data, so it
 * stays out of URLs and logs), and the redirect names it with a one-time id, so the message shows
 * on that page view and not on a later visit. The card number is never echoed.
 */

export const FLASH_COOKIE = "checkout_flash";
const FLASH_SECONDS = 10 * 60;
const ECHO_BYTES_MAX = 1_500;

/** Fields the page fills back in after a refusal, with the longest value worth echoing: the draft's. */
const ECHOED = DRAFT_FIELDS;

/** The form field a domain error's `param` is about. */
export function fieldOf(param: string | undefined): string | undefined {
  if (!param) return undefined;
  if (param.startsWith("shipping_address.")) return param.slice("shipping_address.".length);
  if (param === "email" || param === "card_number") return param;
  return undefined;
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The page's one-time token: the order's checkout token (scoped to the storefront). */
export function checkoutTokenOf(form: Record<string, string>): string {
  const token = form.checkout_token ?? "";
  if (!TOKEN.test(token)) throw new AppError("parameter_invalid", "This checkout page is out of date. Check your order below and place it again.", "checkout_token");
  return `storefront:${token}`;
}

export function expectedTotalOf(form: Record<string, string>): number {
  const value = form.expected_total_cents ?? "";
  if (!/^[0-9]{1,12}$/.test(value)) throw new AppError("parameter_invalid", "This checkout page is out of date. Check your order below and place it again.", "expected_total_cents");
  return Number(value);
}

/** `listing:quantity,...` as the page showed the cart. */
export function cartLinesValue(lines: ReadonlyArray<ExplicitLine>): string {
  return lines.map((l) => `${l.listing_id}:${l.quantity}`).join(",");
}

export function expectedLinesOf(form: Record<string, string>): ExplicitLine[] {
  const value = form.cart_lines ?? "";
  const parts = value ? value.split(",") : [];
  if (value.length > 5_000 || parts.length > 100) throw new AppError("parameter_invalid", "This checkout page is out of date.", "cart_lines");
  return parts.map((part) => {
    const [id, quantity] = part.split(":");
    if (!id || !UUID.test(id) || !quantity || !/^[0-9]{1,2}$/.test(quantity)) {
      throw new AppError("parameter_invalid", "This checkout page is out of date.", "cart_lines");
    }
    return { listing_id: id.toLowerCase(), quantity: Number(quantity) };
  });
}

/** Back to /checkout with the refusal shown and what was typed (not the card number) kept. */
export function refusedCheckout(err: unknown, form: Record<string, string>): NextResponse {
  if (!(err instanceof AppError) || err.status >= 500) throw err;
  const id = randomBytes(9).toString("base64url");
  const values: Record<string, string> = {};
  let bytes = 0;
  for (const [name, max] of Object.entries(ECHOED)) {
    const value = form[name];
    if (typeof value !== "string" || value.length > max) continue;
    // A cookie holds about 4 KB: long non-Latin text is not echoed past this.
    bytes += Buffer.byteLength(value);
    if (bytes > ECHO_BYTES_MAX) break;
    values[name] = value;
  }
  const flash = encodeFlash({ form: id, message: err.message, field: fieldOf(err.param), values });
  const response = seeOther(`/checkout?refused=${id}`);
  response.cookies.set(FLASH_COOKIE, flash, {
    httpOnly: true,
    sameSite: "lax",
    path: "/checkout",
    maxAge: FLASH_SECONDS,
    secure: publicBaseUrl().startsWith("https:"),
  });
  return response;
}

/** The refusal the page was redirected with, when the cookie holds that very one. */
export function refusalOf(cookie: string | undefined, refused: unknown): FormFlash | null {
  if (typeof refused !== "string" || !cookie) return null;
  const flash = decodeFlash(cookie);
  return flash && flash.form === refused ? flash : null;
}
