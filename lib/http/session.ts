import type { NextAuthOptions } from "next-auth";
import { decode, encode } from "next-auth/jwt";
import { cookies } from "next/headers";
import type { NextResponse } from "next/server";
import { cache } from "react";
import type { Role } from "@/lib/accounts/users";
import { config, publicBaseUrl } from "@/lib/config";
import { endAllSessions } from "@/lib/accounts/sessions";
import { isUuid } from "@/lib/ids";
import { withDb } from "./database";

/**
 * Sessions: next-auth v4 with the JWT strategy. The cookie holds a signed and encrypted JWT
 * (next-auth's own `encode`, keyed by AUTH_SECRET) whose `sub` is the user id and `sid` the id of
 * a `sessions` row; nothing else about the user is trusted from it: `getSessionUser` re-reads the
 * user through its live session row (one indexed join), so a role change, a deleted account or an
 * ended session (sign-out, "End all sessions", an operator's password reset) takes effect on
 * the next request, even for someone holding a copy of the cookie.
 *
 * Why our own form posts instead of next-auth's sign-in endpoints: the pages must work without
 * JavaScript, and each way in (password, register, e-mail link) must also rate-limit, refuse
 * cross-site posts, merge the visitor's cart and return them to `next`, in one request. So
 * /signin, /register, /signin/link and /signout are plain HTML form posts to our route handlers
 * (lib/http/form.ts), which verify the person and then call `startSession` / `endSession`. The
 * cookie they write is exactly the one next-auth writes (name, encoding, attributes), so
 * next-auth's own /api/auth/session, /api/auth/csrf and /api/auth/signout (mounted at
 * app/api/auth/[...nextauth]) read and clear it as theirs; its session callback and sign-out
 * event consult and end the same rows.
 */

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
  role: Role;
}

/** next-auth's default session lifetime: 30 days. */
const MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

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
    // The session next-auth reports carries the user id only, and only while its row is live.
    session: async ({ session, token }) => {
      const live = (await userOfToken(token)) !== null;
      return (live ? { expires: session.expires, user: { id: token.sub } } : { expires: session.expires }) as typeof session;
    },
  },
  events: {
    // next-auth's own /api/auth/signout ends the row as /signout does.
    signOut: async ({ token }) => {
      if (!isUuid(token?.sid)) return;
      const sid = token.sid;
      await withDb((client) => client.session.deleteMany({ where: { id: sid } }));
    },
  },
};

/** The user of a decoded session token, through its live session row; null for anything else. */
async function userOfToken(token: { sub?: unknown; sid?: unknown } | null): Promise<SessionUser | null> {
  if (!token || !isUuid(token.sub) || !isUuid(token.sid)) return null;
  const sid = token.sid;
  const sub = token.sub;
  const row = await withDb((client) =>
    client.session.findFirst({
      where: { id: sid, userId: sub, expiresAt: { gt: new Date() } },
      select: { user: { select: { id: true, email: true, name: true, role: true } } },
    }),
  );
  return row?.user ?? null;
}

/** The session cookie of this request, decoded (signature and encryption checked); null without one. */
async function currentToken() {
  // Without the cookie there is nothing to decode (most visitors). Reading the cookies also marks
  // the page as rendered per request.
  const value = (await cookies()).get(sessionCookieName())?.value;
  if (!value) return null;
  try {
    return await decode({ token: value, secret: config().authSecret });
  } catch {
    return null;
  }
}

/** The id of this request's live session (the `sessions` row its cookie names), or null. */
export async function currentSessionId(): Promise<string | null> {
  const token = await currentToken();
  return (await userOfToken(token)) ? (token!.sid as string) : null;
}

async function readSessionUser(): Promise<SessionUser | null> {
  return userOfToken(await currentToken());
}

/**
 * The signed-in person of this request (pages and route handlers), re-read from the database;
 * null when there is no valid session or the account no longer exists. Once per request.
 */
export const getSessionUser: () => Promise<SessionUser | null> = cache(readSessionUser);

/**
 * Signs `userId` in: a new session row (the account's expired ones are removed on the way) and
 * next-auth's session cookie naming it (HttpOnly, SameSite=Lax, Secure on https).
 */
export async function startSession(response: NextResponse, userId: string): Promise<void> {
  const now = new Date();
  const row = await withDb(async (client) => {
    await client.session.deleteMany({ where: { userId, expiresAt: { lte: now } } });
    return client.session.create({ data: { userId, expiresAt: new Date(now.getTime() + MAX_AGE_SECONDS * 1000) }, select: { id: true } });
  });
  const token = await encode({ token: { sub: userId, sid: row.id }, secret: config().authSecret, maxAge: MAX_AGE_SECONDS });
  response.cookies.set(sessionCookieName(), token, { ...sessionCookieOptions(), maxAge: MAX_AGE_SECONDS });
}

/**
 * Signs out: ends this request's session (its row; with `everywhere`, every session of its
 * account) and clears the cookie.
 */
export async function endSession(response: NextResponse, { everywhere = false } = {}): Promise<void> {
  const token = await currentToken();
  // Only a live session may end its account's others.
  const user = await userOfToken(token);
  if (user && everywhere) await withDb((client) => endAllSessions(client, user.id));
  else if (user) await withDb((client) => client.session.deleteMany({ where: { id: token!.sid as string } }));
  response.cookies.set(sessionCookieName(), "", { ...sessionCookieOptions(), maxAge: 0 });
}
