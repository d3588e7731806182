import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import { encode } from "next-auth/jwt";
import { cookies } from "next/headers";
import type { NextResponse } from "next/server";
import { cache } from "react";
import type { Role } from "@/lib/accounts/users";
import { config, publicBaseUrl } from "@/lib/config";
import { db } from "@/lib/db";

/**
 * Sessions: next-auth v4 with the JWT strategy. The cookie holds a signed and encrypted JWT
 * (next-auth's own `encode`, keyed by AUTH_SECRET) whose `sub` is the user id; nothing else about
 * the user is trusted from it: `getSessionUser` re-reads the row, so a role change or a deleted
 * account takes effect on the next request.
 *
 * Why our own form posts instead of next-auth's sign-in endpoints: the pages must work without
 * JavaScript, and each way in (password, register, e-mail link) must also rate-limit, refuse
 * cross-site posts, merge the visitor's cart and return them to `next`, in one request. So
 * /signin, /register, /signin/link and /signout are plain HTML form posts to our route handlers
 * (lib/http/form.ts), which verify the person and then call `startSession` / `endSession`. The
 * cookie they write is exactly the one next-auth writes (name, encoding, attributes), so
 * `getServerSession` and next-auth's own /api/auth/session, /api/auth/csrf and
 * /api/auth/signout (mounted at app/api/auth/[...nextauth]) read and clear it as theirs.
 */

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
  role: Role;
}

/** next-auth's default session lifetime: 30 days. */
const MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Secure cookies exactly when the public address is https (next-auth's own rule, from our config). */
function secureCookies(): boolean {
  return publicBaseUrl().startsWith("https:");
}

/** next-auth's name for the session cookie (`__Secure-` prefixed on https). */
function sessionCookieName(): string {
  return `${secureCookies() ? "__Secure-" : ""}next-auth.session-token`;
}

function sessionCookieOptions() {
  return { httpOnly: true, sameSite: "lax" as const, path: "/", secure: secureCookies() };
}


/**
 * The options every next-auth call shares. Getters: configuration is read when a request needs
 * it, never at import (the build imports route modules without the runtime environment).
 */
export const authOptions: NextAuthOptions = {
  // No provider: every way in is our own form post (see above), so next-auth's sign-in page and
  // callbacks have nothing to offer and its sign-in page is ours.
  providers: [],
  session: { strategy: "jwt", maxAge: MAX_AGE_SECONDS },
  pages: { signIn: "/signin", signOut: "/account", error: "/signin" },
  get secret() {
    // next-auth reads its own address from NEXTAUTH_URL (for its endpoints' redirects; it warns
    // without it). Ours is PUBLIC_BASE_URL. next-auth reads `secret` before anything else, in
    // its route handler and in getServerSession alike, so this is where it learns it.
    process.env.NEXTAUTH_URL ??= publicBaseUrl();
    return config().authSecret;
  },
  get useSecureCookies() {
    return secureCookies();
  },
  callbacks: {
    // The session next-auth reports carries the user id only; everything else comes from the row.
    session: ({ session, token }) => ({ expires: session.expires, user: { id: token.sub } }) as typeof session,
  },
};

async function readSessionUser(): Promise<SessionUser | null> {
  // Without the cookie there is nothing to decode (most visitors): answer before next-auth reads
  // its options. Reading the cookies also marks the page as rendered per request.
  const jar = await cookies();
  if (!jar.has(sessionCookieName()) && !jar.has(`${sessionCookieName()}.0`)) return null;
  const session = await getServerSession(authOptions);
  const id = (session?.user as { id?: unknown } | undefined)?.id;
  if (typeof id !== "string" || !UUID.test(id)) return null;
  return db().user.findUnique({ where: { id }, select: { id: true, email: true, name: true, role: true } });
}

/**
 * The signed-in person of this request (pages and route handlers), re-read from the database;
 * null when there is no valid session or the account no longer exists. Once per request.
 */
export const getSessionUser: () => Promise<SessionUser | null> = cache(readSessionUser);

/** Signs `userId` in: sets next-auth's session cookie (HttpOnly, SameSite=Lax, Secure on https). */
export async function startSession(response: NextResponse, userId: string): Promise<void> {
  const token = await encode({ token: { sub: userId }, secret: config().authSecret, maxAge: MAX_AGE_SECONDS });
  response.cookies.set(sessionCookieName(), token, { ...sessionCookieOptions(), maxAge: MAX_AGE_SECONDS });
}

/** Signs out: clears the session cookie. */
export function endSession(response: NextResponse): void {
  response.cookies.set(sessionCookieName(), "", { ...sessionCookieOptions(), maxAge: 0 });
}
