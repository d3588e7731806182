/**
 * Accounts an attacker cannot take. Sessions on the server (lib/http/session.ts): the session
 * cookie names a `sessions` row, so a copy of the cookie stops working the moment its session
 * ends: "Sign out", next-auth's own sign-out, "End all sessions" on /account (every browser of
 * the account, not another account's), a password change (every other browser), or an operator's
 * password reset (`admin user create` on an existing account). A validly signed cookie without a
 * live row (the shape before sessions were rows, an expired row, another account's row) is no
 * session. Proof of the address (lib/accounts/sign-in.ts): someone who registers another
 * person's address with a password of their own loses that password and their sessions the
 * first time the owner proves the address; an owner who registered and confirms in the same
 * browser keeps theirs. On an app and database of its own.
 */
import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrResetUser } from "@/lib/accounts/create-user";
import { createDb, type PrismaClient } from "@/lib/db";
import { parseHtml } from "../helpers/html";
import { randomClientIp } from "../helpers/http";
import { startIsolatedApp, type IsolatedApp } from "../helpers/seller";

const PASSWORD = "correct horse battery staple";
const COOKIE = "next-auth.session-token";
const SECRET = process.env.AUTH_SECRET ?? "test-secret-for-session-cookies-0123456789abcdef";

let app: IsolatedApp;
let client: PrismaClient;

beforeAll(async () => {
  app = await startIsolatedApp("account-sessions");
  client = createDb(app.database.databaseUrl);
});

afterAll(async () => {
  await client?.$disconnect();
  await app?.stop();
});

async function createUser(password = PASSWORD): Promise<{ id: string; email: string }> {
  const email = `sessions-${randomUUID().slice(0, 8)}@example.com`;
  const { id } = await client.$transaction((tx) => createOrResetUser(tx, { email, password }));
  return { id, email };
}

async function request(path: string, cookie: string | null, init: { method?: string; form?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { "X-Forwarded-For": randomClientIp() };
  if (cookie) headers.Cookie = cookie;
  if (init.form) Object.assign(headers, { "Content-Type": "application/x-www-form-urlencoded", Origin: app.baseUrl, "Sec-Fetch-Site": "same-origin" });
  const res = await fetch(new URL(path, app.baseUrl), { method: init.method ?? (init.form ? "POST" : "GET"), headers, body: init.form ? new URLSearchParams(init.form) : undefined, redirect: "manual" });
  const text = await res.text();
  expect(res.status, `${path}: ${text.slice(0, 200)}`).toBeLessThan(500);
  return { status: res.status, location: res.headers.get("location"), text, setCookies: res.headers.getSetCookie() };
}

/** Signs in with the password form; answers the session cookie as a `name=value` pair. */
async function signIn(email: string, password = PASSWORD): Promise<string> {
  const res = await request("/signin/password", null, { form: { email, password, next: "/account" } });
  expect(res.status).toBe(303);
  const line = res.setCookies.find((c) => c.startsWith(`${COOKIE}=`));
  expect(line, "session cookie").toBeDefined();
  return line!.split(";", 1)[0]!;
}

/** Whether `cookie` opens /account (else it is sent to sign in). */
async function opensAccount(cookie: string): Promise<boolean> {
  const res = await request("/account", cookie);
  if (res.status === 200) return true;
  expect(res.status).toBe(307);
  expect(res.location).toMatch(/^\/signin\?next=%2Faccount$/);
  return false;
}

/** What next-auth's /api/auth/session reports for `cookie`. */
async function nextAuthSession(cookie: string) {
  return JSON.parse((await request("/api/auth/session", cookie)).text);
}

describe("sessions end on the server", () => {
  it("a copy of the cookie stops working once its session signs out; the account's other sessions go on", async () => {
    const user = await createUser();
    const [laptop, phone] = [await signIn(user.email), await signIn(user.email)];
    expect(await opensAccount(laptop)).toBe(true);
    expect(await opensAccount(phone)).toBe(true);
    expect((await nextAuthSession(laptop)).user).toEqual({ id: user.id });
    expect(await client.session.count({ where: { userId: user.id } })).toBe(2);

    const out = await request("/signout", laptop, { form: {} });
    expect(out.status).toBe(303);
    expect(out.setCookies.some((c) => c.startsWith(`${COOKIE}=;`) && /max-age=0/i.test(c))).toBe(true);
    // The copy kept after signing out: no session, here or at next-auth's endpoint.
    expect(await opensAccount(laptop)).toBe(false);
    expect((await nextAuthSession(laptop)).user).toBeUndefined();
    expect(await opensAccount(phone)).toBe(true);
    expect(await client.session.count({ where: { userId: user.id } })).toBe(1);
  });

  it("next-auth's own /api/auth/signout ends the session too", async () => {
    const user = await createUser();
    const cookie = await signIn(user.email);
    const csrf = await request("/api/auth/csrf", cookie);
    const csrfCookie = csrf.setCookies.map((c) => c.split(";", 1)[0]!).join("; ");
    const token = JSON.parse(csrf.text).csrfToken as string;
    const res = await fetch(new URL("/api/auth/signout", app.baseUrl), {
      method: "POST",
      headers: { Cookie: `${cookie}; ${csrfCookie}`, "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": randomClientIp() },
      body: new URLSearchParams({ csrfToken: token, json: "true" }),
      redirect: "manual",
    });
    expect(res.status).toBeLessThan(400);
    expect(await opensAccount(cookie)).toBe(false);
  });

  it("'End all sessions' on /account ends every session of the account, and no other account's", async () => {
    const user = await createUser();
    const other = await createUser();
    const sessions = [await signIn(user.email), await signIn(user.email), await signIn(user.email)];
    const bystander = await signIn(other.email);
    const page = parseHtml((await request("/account", sessions[0]!)).text);
    expect(page('[data-field="sessions"]').attr("data-sessions")).toBe("3");
    const form = page("form").filter((_, el) => page(el).find("button").text().trim() === "End all sessions");
    expect(form.length).toBe(1);
    const fields = Object.fromEntries(form.find("input[type=hidden]").map((_, el) => [[page(el).attr("name")!, page(el).attr("value") ?? ""]]).get());
    const res = await request(form.attr("action")!, sessions[1]!, { form: fields });
    expect(res.status).toBe(303);
    for (const cookie of sessions) expect(await opensAccount(cookie)).toBe(false);
    expect(await opensAccount(bystander)).toBe(true);
    // Posted with a session that has ended already: nothing more happens to anyone.
    expect((await request("/signout", sessions[0]!, { form: fields })).status).toBe(303);
    expect(await opensAccount(bystander)).toBe(true);
  });

  it("an operator's password reset ends the account's sessions; the new password signs in", async () => {
    const user = await createUser();
    const cookie = await signIn(user.email);
    await client.$transaction((tx) => createOrResetUser(tx, { email: user.email, password: "a brand new passphrase" }));
    expect(await opensAccount(cookie)).toBe(false);
    expect(await opensAccount(await signIn(user.email, "a brand new passphrase"))).toBe(true);
  });

  it("a validly signed cookie without a live session row is no session: the old shape, an expired row, another account's row", async () => {
    const user = await createUser();
    const other = await createUser();
    const cookie = (token: Record<string, unknown>) => encode({ token, secret: SECRET, maxAge: 3600 }).then((t) => `${COOKIE}=${t}`);
    // The shape before sessions were rows: the user id alone.
    expect(await opensAccount(await cookie({ sub: user.id }))).toBe(false);
    // Another account's live row under this account's id.
    await signIn(other.email);
    const row = await client.session.findFirstOrThrow({ where: { userId: other.id } });
    expect(await opensAccount(await cookie({ sub: user.id, sid: row.id }))).toBe(false);
    expect(await opensAccount(await cookie({ sub: other.id, sid: row.id }))).toBe(true);
    // The same row once expired.
    await client.session.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(await opensAccount(await cookie({ sub: other.id, sid: row.id }))).toBe(false);
    // Garbage in the claims.
    expect(await opensAccount(await cookie({ sub: "' OR 1=1 --", sid: "x".repeat(5_000) }))).toBe(false);
  });
});

/** The path and query of the link in the newest e-mail to `address` with `subject`. */
async function linkIn(address: string, subject: string): Promise<string> {
  const { rows } = await app.pool.query(`SELECT link FROM outbox_emails WHERE to_address = $1 AND subject = $2 ORDER BY created_at DESC, id DESC LIMIT 1`, [address, subject]);
  expect(rows[0]?.link, `an e-mail "${subject}" to ${address}`).toMatch(/\/signin\/link\?token=/);
  const url = new URL(rows[0].link);
  return url.pathname + url.search;
}

/** Registers with the /register form; answers the session cookie. */
async function register(address: string, password: string): Promise<string> {
  const res = await request("/register/create", null, { form: { name: "Someone", email: address, password, next: "" } });
  expect(res.status).toBe(303);
  const line = res.setCookies.find((c) => c.startsWith(`${COOKIE}=`));
  expect(line, "session cookie").toBeDefined();
  return line!.split(";", 1)[0]!;
}

/** Opens an e-mailed link (as `cookie`'s browser, or a fresh one); answers where it leads and the session it sets. */
async function openLink(path: string, cookie: string | null) {
  const res = await request(path, cookie);
  expect(res.status).toBe(303);
  const line = res.setCookies.find((c) => c.startsWith(`${COOKIE}=`) && !/max-age=0/i.test(c));
  return { location: res.location, cookie: line ? line.split(";", 1)[0]! : null };
}

const SIGN_IN_SUBJECT = "Your Marketplace sign-in link";
const CONFIRM_SUBJECT = "Confirm your Marketplace e-mail address";

describe("proof of the address", () => {
  it("someone registers the owner's address with their own password: the owner's first sign-in link removes it and signs them out", async () => {
    const address = `owner-${randomUUID().slice(0, 8)}@example.com`;
    const attacker = await register(address, "the attacker's own password");
    expect(await opensAccount(attacker)).toBe(true);
    // The registration sent the address a link to confirm it: it lands in the owner's mailbox.
    expect(await linkIn(address, CONFIRM_SUBJECT)).toBeTruthy();

    // The owner, in their own browser, asks for a sign-in link and opens it.
    expect((await request("/signin/link", null, { form: { email: address } })).status).toBe(303);
    const owner = await openLink(await linkIn(address, SIGN_IN_SUBJECT), null);
    expect(owner.location).toBe("/account?notice=password_removed#password");
    expect(await opensAccount(owner.cookie!)).toBe(true);
    const page = parseHtml((await request("/account?notice=password_removed", owner.cookie)).text);
    expect(page('[role="status"]').text()).toContain("no longer works");
    expect(page('form[aria-label="Set password"]').length).toBe(1);
    expect(page('form[aria-label="Set password"] input[name="current_password"]').length).toBe(0);

    // The first registrant is out, and their password signs nobody in.
    expect(await opensAccount(attacker)).toBe(false);
    const retry = await request("/signin/password", null, { form: { email: address, password: "the attacker's own password", next: "/account" } });
    expect(retry.setCookies.some((c) => c.startsWith(`${COOKIE}=`) && !/max-age=0/i.test(c))).toBe(false);

    // The owner sets a password of their own: it signs in, and their session goes on.
    const set = await request("/account/password", owner.cookie, { form: { password: "the owner's passphrase" } });
    expect(set.location).toBe("/account?notice=password_saved");
    expect(await opensAccount(owner.cookie!)).toBe(true);
    expect(await opensAccount(await signIn(address, "the owner's passphrase"))).toBe(true);
    const row = (await app.pool.query(`SELECT email_verified_at FROM users WHERE email = $1`, [address])).rows[0];
    expect(row.email_verified_at).toBeInstanceOf(Date);
  });

  it("an owner who registered and confirms in the same browser keeps the password; later links change nothing", async () => {
    const address = `self-${randomUUID().slice(0, 8)}@example.com`;
    const cookie = await register(address, "my own good passphrase");
    const confirmed = await openLink(await linkIn(address, CONFIRM_SUBJECT), cookie);
    expect(confirmed.location).toBe("/account");
    expect(await opensAccount(cookie)).toBe(true);
    // Proven now: a sign-in link opened elsewhere signs in and keeps everything.
    await request("/signin/link", null, { form: { email: address } });
    const elsewhere = await openLink(await linkIn(address, SIGN_IN_SUBJECT), null);
    expect(elsewhere.location).toBe("/account");
    expect(await opensAccount(cookie)).toBe(true);
    expect(await opensAccount(await signIn(address, "my own good passphrase"))).toBe(true);
  });

  it("an account an operator made counts as proven: a sign-in link keeps its password and sessions", async () => {
    const user = await createUser();
    const cookie = await signIn(user.email);
    await request("/signin/link", null, { form: { email: user.email } });
    expect((await openLink(await linkIn(user.email, SIGN_IN_SUBJECT), null)).location).toBe("/account");
    expect(await opensAccount(cookie)).toBe(true);
    expect(await opensAccount(await signIn(user.email))).toBe(true);
  });
});

describe("changing the password", () => {
  it("needs the current one; saving it signs every other browser out and keeps this one", async () => {
    const user = await createUser();
    const [here, there] = [await signIn(user.email), await signIn(user.email)];
    const page = parseHtml((await request("/account", here)).text);
    expect(page('form[aria-label="Change password"] input[name="current_password"]').length).toBe(1);

    const refusals: Record<string, string>[] = [{ password: "a new passphrase" }, { current_password: "not it at all", password: "a new passphrase" }, { current_password: PASSWORD, password: "short" }];
    for (const form of refusals) {
      const res = await request("/account/password", here, { form });
      expect(res.status).toBe(303);
      expect(res.location).toMatch(/^\/account\?flash=/);
      // The refusal echoes no password back (the flash is base64url JSON, then its signature).
      const flash = new URL(res.location!, app.baseUrl).searchParams.get("flash")!;
      expect(Buffer.from(flash.slice(0, flash.lastIndexOf(".")), "base64url").toString("utf8")).not.toMatch(/passphrase|not it at all|short/);
      expect(await opensAccount(there)).toBe(true);
    }
    expect(await opensAccount(await signIn(user.email))).toBe(true);

    const saved = await request("/account/password", here, { form: { current_password: PASSWORD, password: "a new passphrase" } });
    expect(saved.location).toBe("/account?notice=password_saved");
    expect(await opensAccount(here)).toBe(true);
    expect(await opensAccount(there)).toBe(false);
    expect(await opensAccount(await signIn(user.email, "a new passphrase"))).toBe(true);
    expect((await request("/account/password", null, { form: { password: "whatever it is" } })).status).not.toBe(200);
  });
});
