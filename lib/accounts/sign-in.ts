import { db } from "@/lib/db";
import { absoluteUrl } from "@/lib/config";
import { isToken, newToken, tokenHash } from "@/lib/cart/token";
import { sendEmail } from "@/lib/email/send";
import { hashPassword, PASSWORD_MAX, verifyPassword } from "./password";
import { checkName, checkPassword, normaliseEmail } from "./users";

/**
 * The ways in: e-mail + password, registration, and a sign-in link sent by e-mail. Each answers
 * with the user id to sign in, or says why not, without telling an unknown e-mail from a wrong
 * password. Sessions and HTTP are the caller's (lib/auth).
 */

/** A sign-in link works once, for this long. */
export const SIGN_IN_LINK_MINUTES = 15;

/** The user id for a correct e-mail and password; null for anything else, all alike. */
export async function authenticateWithPassword(email: string, password: string): Promise<string | null> {
  let address: string;
  try {
    address = normaliseEmail(email);
  } catch {
    return null;
  }
  // A password that no account can have is not worth a hash (and would cost one per attempt).
  if (password.length === 0 || password.length > PASSWORD_MAX) return null;
  const user = await db().user.findUnique({ where: { email: address }, select: { id: true, passwordHash: true } });
  // verifyPassword spends a full hash on a missing account too, so timing says nothing either.
  const ok = await verifyPassword(password, user?.passwordHash ?? null);
  return ok && user ? user.id : null;
}

export type RegisterResult = { state: "created"; userId: string } | { state: "exists" };

/**
 * Creates a shopper account with a password. Invalid fields throw (AppError naming the field). An
 * e-mail that already has an account is left untouched ("exists"): the address's owner gets an
 * e-mail saying someone tried, with the way to sign in, so the person at the form learns no more
 * than that this address cannot be registered again.
 */
export async function registerWithPassword(input: { email: string; password: string; name?: string }): Promise<RegisterResult> {
  const email = normaliseEmail(input.email);
  const name = checkName(input.name);
  const passwordHash = await hashPassword(checkPassword(input.password));
  const [row] = await db().$queryRaw<Array<{ id: string }>>`
    INSERT INTO users (email, name, password_hash) VALUES (${email}, ${name}, ${passwordHash})
    ON CONFLICT (email) DO NOTHING
    RETURNING id::text AS id`;
  if (row) return { state: "created", userId: row.id };
  const link = absoluteUrl("/signin");
  await sendEmail({
    to: email,
    subject: "Someone tried to create an account with your e-mail",
    text:
      `Someone (perhaps you) tried to create a Marketplace account with this e-mail address, which already has one.\n` +
      `Nothing was changed. To sign in, use your password or ask for a sign-in link here:\n${link}\n`,
  });
  return { state: "exists" };
}

/**
 * E-mails a sign-in link for `email` (whether or not it has an account: opening the link creates
 * one). `next` is carried on the link, checked again when it is opened. Throws (param `email`)
 * for an address that is not valid.
 */
export async function sendSignInLink(email: string, next: string | null): Promise<void> {
  const address = normaliseEmail(email);
  const token = newToken();
  const query = new URLSearchParams({ token, ...(next ? { next } : {}) });
  const link = absoluteUrl(`/signin/link?${query}`);
  await db().$transaction(async (tx) => {
    await tx.loginToken.create({
      data: { tokenHash: tokenHash(token), email: address, expiresAt: new Date(Date.now() + SIGN_IN_LINK_MINUTES * 60_000) },
    });
    await sendEmail(
      {
        to: address,
        subject: "Your Marketplace sign-in link",
        text:
          `Open this link to sign in to Marketplace. It works once, within ${SIGN_IN_LINK_MINUTES} minutes:\n${link}\n\n` +
          `If you did not ask for it, ignore this e-mail: nobody can sign in without the link.\n`,
        link,
      },
      tx,
    );
  });
}

export type LinkResult = { state: "signed_in"; userId: string } | { state: "invalid" } | { state: "expired" };

/**
 * Redeems a sign-in link: the token is deleted as it is read (so it works once, even when opened
 * twice at the same moment); a valid one signs in the account of its e-mail, creating a shopper
 * account for a new address, and marks the address verified.
 */
export async function redeemSignInLink(token: string): Promise<LinkResult> {
  if (!isToken(token)) return { state: "invalid" };
  return db().$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<Array<{ email: string; expired: boolean }>>`
      DELETE FROM login_tokens WHERE token_hash = ${tokenHash(token)}
      RETURNING email, expires_at <= now() AS expired`;
    if (!row) return { state: "invalid" as const };
    if (row.expired) return { state: "expired" as const };
    const [user] = await tx.$queryRaw<Array<{ id: string }>>`
      INSERT INTO users (email, email_verified_at) VALUES (${row.email}, now())
      ON CONFLICT (email) DO UPDATE SET email_verified_at = COALESCE(users.email_verified_at, now()), updated_at = now()
      RETURNING id::text AS id`;
    return { state: "signed_in" as const, userId: user!.id };
  });
}

