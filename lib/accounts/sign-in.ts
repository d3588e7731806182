import { createHash } from "node:crypto";
import type { DbClient, Prisma, PrismaClient } from "@/lib/db";
import { logEvent } from "@/lib/log";
import { consume, peek } from "@/lib/ratelimit";
import { absoluteUrl } from "@/lib/config";
import { isToken, newToken, tokenHash } from "@/lib/cart/token";
import { sendEmail } from "@/lib/email/send";
import { hashPassword, PASSWORD_MAX, verifyPassword } from "./password";
import { endAllSessions } from "./sessions";
import { checkName, checkPassword, normaliseEmail } from "./users";

/**
 * The ways in: e-mail + password, registration, and a sign-in link sent by e-mail. Each answers
 * with the user id to sign in, or says why not, without telling an unknown e-mail from a wrong
 * password. Sessions and HTTP are the caller's (lib/auth).
 */

/** A sign-in link works once, for this long. */
export const SIGN_IN_LINK_MINUTES = 15;

export type PasswordResult =
  | { state: "signed_in"; userId: string }
  | { state: "refused" }
  /** Too many failed attempts for this e-mail address lately: none is tried until `retryAfter` s. */
  | { state: "backing_off"; retryAfter: number };

/**
 * Signs in with a correct e-mail and password; anything else is refused, all alike. Failed
 * attempts are limited per e-mail address, from whatever addresses they come
 * (RATE_LIMITS.sign_in_account): past the limit an attempt is not tried, its password not even
 * hashed, until the back-off has passed. An unknown address backs off exactly as a known one. The
 * e-mailed sign-in link is not limited this way: it reaches only the address's owner, who keeps a
 * way in while someone else guesses.
 */
export async function authenticateWithPassword(client: DbClient, email: string, password: string, requestId: string | null = null): Promise<PasswordResult> {
  let address: string;
  try {
    address = normaliseEmail(email);
  } catch {
    return { state: "refused" };
  }
  // A password that no account can have is not worth a hash (and would cost one per attempt).
  if (password.length === 0 || password.length > PASSWORD_MAX) return { state: "refused" };
  const account = accountKey(address);
  const allowance = await peek("sign_in_account", "sign_in_account", account);
  if (!allowance.allowed) {
    logEvent("warn", "sign-in refused: too many failed attempts for the account", { request_id: requestId, account, retry_after: allowance.retryAfter });
    return { state: "backing_off", retryAfter: allowance.retryAfter };
  }
  const user = await client.user.findUnique({ where: { email: address }, select: { id: true, passwordHash: true } });
  // verifyPassword spends a full hash on a missing account too, so timing says nothing either.
  const ok = await verifyPassword(password, user?.passwordHash ?? null);
  if (ok && user) return { state: "signed_in", userId: user.id };
  await consume("sign_in_account", "sign_in_account", account);
  return { state: "refused" };
}

/** The account's key in rate-limit buckets and logs: no e-mail address in either. */
function accountKey(address: string): string {
  return createHash("sha256").update(address).digest("hex").slice(0, 32);
}

export type RegisterResult = { state: "created"; userId: string } | { state: "exists" };

/**
 * Creates a shopper account with a password, its address not proven yet: the address gets a
 * link to confirm it (lib/accounts/sign-in.ts `redeemSignInLink` says what confirming does).
 * Invalid fields throw (AppError naming the field). An e-mail that already has an account is left
 * untouched ("exists"): the address's owner gets an e-mail saying someone tried, with the way to
 * sign in, so the person at the form learns no more than that this address cannot be registered
 * again.
 */
export async function registerWithPassword(client: PrismaClient, input: { email: string; password: string; name?: string }): Promise<RegisterResult> {
  const email = normaliseEmail(input.email);
  const name = checkName(input.name);
  const passwordHash = await hashPassword(checkPassword(input.password));
  const row = await client.$transaction(async (tx) => {
    const [created] = await tx.$queryRaw<Array<{ id: string }>>`
      INSERT INTO users (email, name, password_hash) VALUES (${email}, ${name}, ${passwordHash})
      ON CONFLICT (email) DO NOTHING
      RETURNING id::text AS id`;
    if (created) await emailLink(tx, email, null, "confirm");
    return created;
  });
  if (row) return { state: "created", userId: row.id };
  const link = absoluteUrl("/signin");
  await client.$transaction((tx) =>
    sendEmail(tx, {
      to: email,
      subject: "Someone tried to create an account with your e-mail",
      text:
        `Someone (perhaps you) tried to create a Marketplace account with this e-mail address, which already has one.\n` +
        `Nothing was changed. To sign in, use your password or ask for a sign-in link here:\n${link}\n`,
    }),
  );
  return { state: "exists" };
}

/**
 * E-mails a sign-in link for `email` (whether or not it has an account: opening the link creates
 * one). `next` is carried on the link, checked again when it is opened. Throws (param `email`)
 * for an address that is not valid.
 */
export async function sendSignInLink(client: PrismaClient, email: string, next: string | null): Promise<void> {
  const address = normaliseEmail(email);
  await client.$transaction((tx) => emailLink(tx, address, next, "sign_in"));
}

const LINK_EMAILS = {
  sign_in: (link: string) => ({
    subject: "Your Marketplace sign-in link",
    text:
      `Open this link to sign in to Marketplace. It works once, within ${SIGN_IN_LINK_MINUTES} minutes:\n${link}\n\n` +
      `If you did not ask for it, ignore this e-mail: nobody can sign in without the link.\n`,
  }),
  confirm: (link: string) => ({
    subject: "Confirm your Marketplace e-mail address",
    text:
      `Welcome to Marketplace. Open this link to confirm that this address is yours. It works once, within ${SIGN_IN_LINK_MINUTES} minutes ` +
      `(later, a sign-in link from the sign-in page confirms it too):\n${link}\n\n` +
      `If you did not create this account, open the link anyway: the password whoever created it chose stops working, ` +
      `they are signed out, and the account is yours.\n`,
  }),
} as const;

/** Writes a one-time link token for `address` and e-mails the link, in `tx`. */
async function emailLink(tx: Prisma.TransactionClient, address: string, next: string | null, kind: keyof typeof LINK_EMAILS): Promise<void> {
  const token = newToken();
  const query = new URLSearchParams({ token, ...(next ? { next } : {}) });
  const link = absoluteUrl(`/signin/link?${query}`);
  await tx.loginToken.create({
    data: { tokenHash: tokenHash(token), email: address, expiresAt: new Date(Date.now() + SIGN_IN_LINK_MINUTES * 60_000) },
  });
  await sendEmail(tx, { to: address, ...LINK_EMAILS[kind](link), link });
}

export type LinkResult = { state: "signed_in"; userId: string; passwordRemoved: boolean } | { state: "invalid" } | { state: "expired" };

/**
 * Redeems a sign-in link: the token is deleted as it is read (so it works once, even when opened
 * twice at the same moment); a valid one signs in the account of its e-mail, creating a shopper
 * account for a new address, and marks the address proven.
 *
 * The first proof of an address whose account has a password chosen before the address was proven
 * (whoever registered typed the address; perhaps not its owner) removes that password and ends
 * every session of the account (`passwordRemoved`), unless the link is opened in a browser signed
 * in to that very account (`signedInAs`): then whoever chose the password holds the mailbox too.
 */
export async function redeemSignInLink(client: PrismaClient, token: string, signedInAs: string | null = null): Promise<LinkResult> {
  if (!isToken(token)) return { state: "invalid" };
  return client.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<Array<{ email: string; expired: boolean }>>`
      DELETE FROM login_tokens WHERE token_hash = ${tokenHash(token)}
      RETURNING email, expires_at <= now() AS expired`;
    if (!row) return { state: "invalid" as const };
    if (row.expired) return { state: "expired" as const };
    const [existing] = await tx.$queryRaw<Array<{ id: string; unproven_password: boolean }>>`
      SELECT id::text AS id, (email_verified_at IS NULL AND password_hash IS NOT NULL) AS unproven_password
      FROM users WHERE email = ${row.email} FOR UPDATE`;
    if (existing?.unproven_password && existing.id !== signedInAs) {
      await tx.user.update({ where: { id: existing.id }, data: { passwordHash: null, emailVerifiedAt: new Date() } });
      await endAllSessions(tx, existing.id);
      return { state: "signed_in" as const, userId: existing.id, passwordRemoved: true };
    }
    const [user] = await tx.$queryRaw<Array<{ id: string }>>`
      INSERT INTO users (email, email_verified_at) VALUES (${row.email}, now())
      ON CONFLICT (email) DO UPDATE SET email_verified_at = COALESCE(users.email_verified_at, now()), updated_at = now()
      RETURNING id::text AS id`;
    return { state: "signed_in" as const, userId: user!.id, passwordRemoved: false };
  });
}

