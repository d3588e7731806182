import type { NextResponse } from "next/server";
import { mergeCartIntoAccount } from "@/lib/cart/cart";
import { CART_COOKIE, cartCookieOptions } from "@/lib/cart/cookie";
import { seeOther } from "@/lib/http/form-answer";
import { safeNextPath } from "@/lib/http/next-path";
import { endSession, startSession } from "./session";
import { withDb } from "./database";

/**
 * The answer to every successful sign-in (password, e-mail link, registration): the visitor's
 * anonymous cart is merged into the account's and its cookie cleared, the session cookie is set,
 * and a 303 takes them to `next` (a path on this site) or their account page.
 */
export async function signedIn(request: { cookies: { get(name: string): { value: string } | undefined } }, userId: string, next: unknown) {
  await withDb((client) => mergeCartIntoAccount(client, request.cookies.get(CART_COOKIE)?.value, userId));
  const response = seeOther(safeNextPath(next));
  await startSession(response, userId);
  response.cookies.set(CART_COOKIE, "", { ...cartCookieOptions(), maxAge: 0 });
  return response;
}

/**
 * Signs out (this session, or with `everywhere` every session of the account, on every device)
 * and goes home; the account's cart stays with the account.
 */
export async function signedOut({ everywhere = false } = {}): Promise<NextResponse> {
  const response = seeOther("/");
  await endSession(response, { everywhere });
  return response;
}
