/**
 * decisions.md "Accounts and operator commands": register, sign in and out, the e-mailed sign-in
 * link (via /dev/outbox), session cookies, roles, the admin settings page, cross-site posts
 * refused, `next` kept on this site, the anonymous cart merged into the account's at sign-in, and
 * hostile input. Plain HTTP with a cookie jar per visitor, pages driven by accessible names
 * (tests/helpers/forms.ts) as a person without JavaScript would.
 *
 * These tests write (accounts, carts, settings), so they run on an app and database of their own.
 */
import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually";
import { alertText, fillForm, linkHref, statusText, type FilledForm } from "../helpers/forms";
import { baseUrl as sharedBaseUrl, randomClientIp } from "../helpers/http";
import { parseCartPage, parseHtml } from "../helpers/html";
import { expectQuotedLinesIn } from "../helpers/operations-doc";
import { startIsolatedApp, type IsolatedApp } from "../helpers/seller";
import { startServer, type StartedServer } from "../setup/app";

let app: IsolatedApp;

beforeAll(async () => {
  // A short back-off after failed sign-ins to one account (default 60 s), so that its end is seen.
  app = await startIsolatedApp("accounts", { DEV_OUTBOX: "on", SIGN_IN_BACKOFF_SECONDS: String(BACKOFF_SECONDS) });
});

afterAll(async () => {
  await app?.stop();
});

const SESSION_COOKIE = "next-auth.session-token";
const BACKOFF_SECONDS = 3;
const PASSWORD = "correct horse battery";

// ---------------------------------------------------------------------------------------------
// A visitor: plain HTTP with a cookie jar and an address of its own, no redirects followed
// ---------------------------------------------------------------------------------------------

interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
  setCookies: string[];
  location: string | null;
}

class Visitor {
  readonly cookies = new Map<string, string>();
  readonly ip = randomClientIp();

  async request(path: string, init: RequestInit = {}): Promise<PageResponse> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set("Cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    if (!headers.has("X-Forwarded-For")) headers.set("X-Forwarded-For", this.ip);
    headers.set("User-Agent", "marketplace-accounts-tests/1.0");
    const url = path.startsWith("http") ? path : app.baseUrl + path;
    const res = await fetch(url, { ...init, headers, redirect: "manual", signal: AbortSignal.timeout(25_000) });
    const setCookies = res.headers.getSetCookie();
    for (const line of setCookies) {
      const pair = line.split(";", 1)[0]!;
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || /;\s*max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    expect(res.status, `${init.method ?? "GET"} ${path} never answers 5xx (${text.slice(0, 300)})`).toBeLessThan(500);
    return { status: res.status, headers: res.headers, text, setCookies, location: res.headers.get("location") };
  }

  async page(path: string): Promise<string> {
    const res = await this.request(path);
    expect(res.status, `GET ${path}`).toBe(200);
    return res.text;
  }

  /** A form post as a browser sends it from this site; a header given as "" is left out. */
  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    const all: Record<string, string> = { Origin: app.baseUrl, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...headers };
    return this.request(path, {
      method: "POST",
      headers: Object.fromEntries(Object.entries(all).filter(([, v]) => v !== "")),
      body: new URLSearchParams(fields),
    });
  }

  submit(form: FilledForm, headers: Record<string, string> = {}) {
    expect(form.method).toBe("post");
    return this.post(form.action, form.fields, headers);
  }

  get signedIn(): boolean {
    return this.cookies.has(SESSION_COOKIE);
  }

  async register(email: string, password = PASSWORD, name = "Test Person", next?: string) {
    const html = await this.page(next ? `/register?next=${encodeURIComponent(next)}` : "/register");
    return this.submit(fillForm(html, "Create account", { Name: name, Email: email, Password: password }, "Create account"));
  }

  async signIn(email: string, password = PASSWORD, next?: string) {
    const html = await this.page(next ? `/signin?next=${encodeURIComponent(next)}` : "/signin");
    return this.submit(fillForm(html, "Sign in", { Email: email, Password: password }, "Sign in"));
  }

  async requestLink(email: string, next?: string) {
    const html = await this.page(next ? `/signin?next=${encodeURIComponent(next)}` : "/signin");
    return this.submit(fillForm(html, "Email me a sign-in link", { Email: email }, "Email me a sign-in link"));
  }

  async signOut() {
    const html = await this.page("/account");
    const $ = parseHtml(html);
    const form = $("form").filter((_, el) => $(el).find("button").text().trim() === "Sign out");
    expect(form.length).toBe(1);
    return this.post(form.attr("action")!, {});
  }

  /** GET /account: the profile fields, or null when it sends the visitor to sign in. */
  async profile(): Promise<{ name: string; email: string; role: string; links: string[] } | null> {
    const res = await this.request("/account");
    if (res.status !== 200) {
      expect(res.status).toBe(307);
      expect(res.location).toMatch(/\/signin\?next=%2Faccount$/);
      return null;
    }
    const $ = parseHtml(res.text);
    return {
      name: $('[data-field="name"]').text().trim(),
      email: $('[data-field="email"]').text().trim(),
      role: $('[data-field="role"]').attr("data-role") ?? "",
      links: $('nav[aria-label="Account"] a')
        .toArray()
        .map((a) => $(a).attr("href") ?? ""),
    };
  }
}

function email(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

function path(location: string | null): string {
  expect(location).not.toBeNull();
  const url = new URL(location!, app.baseUrl);
  expect(url.origin).toBe(app.baseUrl);
  return url.pathname + url.search;
}

async function userRow(address: string) {
  const { rows } = await app.pool.query<{ id: string; name: string | null; role: string; password_hash: string | null; email_verified_at: Date | null }>(
    "SELECT id::text, name, role, password_hash, email_verified_at FROM users WHERE email = $1",
    [address],
  );
  return rows[0] ?? null;
}

async function countRows(sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await app.pool.query<{ n: string }>(sql, params);
  return Number(rows[0]!.n);
}

let outboxAdmin: Visitor | undefined;

/** A signed-in marketplace admin: outside development, /dev/outbox is theirs alone. */
async function admin(): Promise<Visitor> {
  if (!outboxAdmin) {
    const visitor = new Visitor();
    const address = email("outbox-admin");
    await visitor.register(address);
    await makeAdmin(address);
    outboxAdmin = visitor;
  }
  return outboxAdmin;
}

/** The sign-in link of the newest e-mail to `address`, read from /dev/outbox as a person would (an admin, here). */
async function linkFromOutbox(address: string): Promise<string> {
  const html = await (await admin()).page("/dev/outbox");
  const $ = parseHtml(html);
  const article = $("article").filter((_, el) => $(el).attr("data-email-to") === address).first();
  expect(article.length, `an e-mail to ${address} in the outbox`).toBe(1);
  const href = article.find("a").filter((_, a) => ($(a).attr("href") ?? "").includes("/signin/link?")).first().attr("href");
  expect(href).toBeTruthy();
  return href!;
}

async function makeAdmin(address: string) {
  await app.pool.query("UPDATE users SET role = 'admin' WHERE email = $1", [address]);
}

// ---------------------------------------------------------------------------------------------

describe("register", () => {
  it("the page has Name, Email, Password and 'Create account'; registering signs in as a shopper", async () => {
    const visitor = new Visitor();
    const address = email("register");
    const res = await visitor.register(address, PASSWORD, "Ada Lovelace");
    expect(res.status).toBe(303);
    expect(path(res.location)).toBe("/account");
    expect(visitor.signedIn).toBe(true);

    const row = await userRow(address);
    expect(row).toMatchObject({ name: "Ada Lovelace", role: "shopper" });
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    expect(row!.password_hash).not.toContain(PASSWORD);

    expect(await visitor.profile()).toEqual({ name: "Ada Lovelace", email: address, role: "shopper", links: ["/cart", "/account/orders", "/account/agents"] });
    // The storefront header shows the account link instead of "Sign in".
    const home = await visitor.page("/");
    expect(linkHref(home, "Your account", "header")).toBe("/account");
    expect(() => linkHref(home, "Sign in", "header")).toThrow();
  });

  it("the session cookie is next-auth's: HttpOnly, SameSite=Lax, Path=/, 30 days, not Secure on http; /api/auth/session reads it", async () => {
    const visitor = new Visitor();
    const res = await visitor.register(email("cookie"));
    const line = res.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(line, res.setCookies.join("\n")).toBeDefined();
    expect(line).toMatch(/;\s*HttpOnly/i);
    expect(line).toMatch(/;\s*SameSite=Lax/i);
    expect(line).toMatch(/;\s*Path=\/(;|$)/i);
    expect(line).toMatch(/;\s*Max-Age=2592000/i);
    expect(line).not.toMatch(/;\s*Secure/i);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toBeTruthy();

    const session = await visitor.request("/api/auth/session");
    expect(session.status).toBe(200);
    const body = JSON.parse(session.text);
    expect(Object.keys(body).sort()).toEqual(["expires", "user"]);
    expect(body.user.id).toMatch(/^[0-9a-f-]{36}$/);

    const anonymous = await new Visitor().request("/api/auth/session");
    expect(JSON.parse(anonymous.text)).toEqual({});
  });

  it("short password, bad e-mail, bad name: an error on the page, no account, not signed in", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ Password: "short" }, "password_invalid"],
      [{ Email: "not-an-email" }, "email_invalid"],
      [{ Name: "x".repeat(101) }, "name_invalid"],
    ];
    for (const [override, code] of cases) {
      const visitor = new Visitor();
      const address = email("invalid");
      const html = await visitor.page("/register");
      const res = await visitor.submit(fillForm(html, "Create account", { Name: "N", Email: address, Password: PASSWORD, ...override }, "Create account"));
      expect(res.status).toBe(303);
      expect(path(res.location)).toBe(`/register?error=${code}`);
      expect(visitor.signedIn).toBe(false);
      expect(await userRow(address)).toBeNull();
      expect(alertText(await visitor.page(path(res.location)))).toBeTruthy();
    }
  });

  it("an e-mail that has an account: not signed in, the account untouched, its owner told by e-mail", async () => {
    const address = email("taken");
    await new Visitor().register(address, PASSWORD, "Owner");
    const before = await userRow(address);

    const intruder = new Visitor();
    const res = await intruder.register(address.toUpperCase(), "another password 123", "Intruder");
    expect(path(res.location)).toBe("/register?error=exists");
    expect(intruder.signedIn).toBe(false);
    expect(await userRow(address)).toEqual(before);
    expect(alertText(await intruder.page("/register?error=exists"))).toMatch(/could not create an account/i);
    const { rows: mails } = await app.pool.query(`SELECT subject FROM outbox_emails WHERE to_address = $1 ORDER BY subject`, [address]);
    expect(mails.map((m) => m.subject)).toEqual(["Confirm your Marketplace e-mail address", "Someone tried to create an account with your e-mail"]);

    // The old password still works, the new one does not.
    expect(path((await new Visitor().signIn(address, "another password 123")).location)).toBe("/signin?error=credentials");
    expect(path((await new Visitor().signIn(address)).location)).toBe("/account");
  });
});

describe("on https (PUBLIC_BASE_URL https://...)", () => {
  let secure: StartedServer;
  beforeAll(async () => {
    secure = await startServer({
      databaseUrl: app.database.databaseUrl,
      env: { PUBLIC_BASE_URL: "https://shop.example.test", DEV_OUTBOX: "on" },
      logPrefix: "[accounts-https]",
    });
  });
  afterAll(async () => {
    await secure?.stop();
  });

  it("the session cookie is __Secure-next-auth.session-token, Secure, HttpOnly, SameSite=Lax, and reads back", async () => {
    const visitor = new Visitor();
    const address = email("https");
    const res = await visitor.request(`${secure.baseUrl}/register/create`, {
      method: "POST",
      headers: { "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: address, password: PASSWORD, name: "" }),
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe("/account");
    const line = res.setCookies.find((c) => c.startsWith(`__Secure-${SESSION_COOKIE}=`));
    expect(line, res.setCookies.join("\n")).toBeDefined();
    expect(line).toMatch(/;\s*Secure/i);
    expect(line).toMatch(/;\s*HttpOnly/i);
    expect(line).toMatch(/;\s*SameSite=Lax/i);
    const page = await visitor.request(`${secure.baseUrl}/account`);
    expect(page.status).toBe(200);
    expect(parseHtml(page.text)('[data-field="email"]').text()).toBe(address);
    // On https, /dev/outbox is never served, DEV_OUTBOX=on or not, to an admin neither.
    await makeAdmin(address);
    expect((await visitor.request(`${secure.baseUrl}/dev/outbox`)).status).toBe(404);
  });
});

describe("sign in and sign out", () => {
  it("the sign-in page: Email, Password, 'Sign in', a link to register, and the sign-in-link form", async () => {
    const html = await new Visitor().page("/signin");
    expect(fillForm(html, "Sign in", { Email: "a@b.co", Password: "x" }, "Sign in").action).toBe("/signin/password");
    expect(fillForm(html, "Email me a sign-in link", { Email: "a@b.co" }, "Email me a sign-in link").action).toBe("/signin/link");
    expect(linkHref(html, "Create an account", "main")).toBe("/register");
    expect(linkHref(html, "Sign in", "header")).toBe("/signin");
  });

  it("sign out clears the session; signing in again restores it; /account needs a session", async () => {
    const visitor = new Visitor();
    const address = email("inout");
    await visitor.register(address);
    expect((await visitor.profile())?.email).toBe(address);

    const out = await visitor.signOut();
    expect(out.status).toBe(303);
    expect(path(out.location)).toBe("/");
    const cleared = out.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(cleared).toMatch(/Max-Age=0/i);
    expect(visitor.signedIn).toBe(false);
    expect(await visitor.profile()).toBeNull();
    expect(linkHref(await visitor.page("/"), "Sign in", "header")).toBe("/signin");

    const back = await visitor.signIn(address.toUpperCase());
    expect(back.status).toBe(303);
    expect(path(back.location)).toBe("/account");
    expect((await visitor.profile())?.email).toBe(address);
  });

  it("next-auth's own endpoints share the cookie: /api/auth/csrf then POST /api/auth/signout clears it", async () => {
    const visitor = new Visitor();
    await visitor.register(email("nextauth-signout"));
    const csrf = await visitor.request("/api/auth/csrf");
    expect(csrf.status).toBe(200);
    const { csrfToken } = JSON.parse(csrf.text);
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
    const res = await visitor.post("/api/auth/signout", { csrfToken });
    expect(res.status).toBe(302);
    expect(res.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    expect(visitor.signedIn).toBe(false);
    expect(await visitor.profile()).toBeNull();
  });

  it("a wrong password and an unknown e-mail get the same answer, and no session", async () => {
    const address = email("wrong");
    await new Visitor().register(address);
    const wrong = new Visitor();
    const a = await wrong.signIn(address, "not the password");
    const unknown = new Visitor();
    const b = await unknown.signIn(email("nobody"), "not the password");
    expect(a.status).toBe(303);
    expect(b.status).toBe(303);
    expect(a.location).toBe(b.location);
    expect(path(a.location)).toBe("/signin?error=credentials");
    expect(wrong.signedIn || unknown.signedIn).toBe(false);
    const message = alertText(await wrong.page(path(a.location)));
    expect(message).toBe("Wrong e-mail or password.");
  });

  it("a role change and a deleted account take effect on the next request", async () => {
    const visitor = new Visitor();
    const address = email("rolechange");
    await visitor.register(address);
    await app.pool.query("UPDATE users SET role = 'store_owner' WHERE email = $1", [address]);
    expect(await visitor.profile()).toMatchObject({ role: "store_owner", links: ["/cart", "/account/orders", "/account/agents", "/seller"] });
    await app.pool.query("DELETE FROM users WHERE email = $1", [address]);
    expect(await visitor.profile()).toBeNull();
  });

  it("a forged or garbled session cookie is no session", async () => {
    const visitor = new Visitor();
    visitor.cookies.set(SESSION_COOKIE, "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..garbage.garbage.garbage");
    expect(await visitor.profile()).toBeNull();
    expect(linkHref(await visitor.page("/"), "Sign in", "header")).toBe("/signin");
  });
});

describe("the e-mailed sign-in link", () => {
  it("end to end: request, read /dev/outbox, open: signed in, a shopper account made, the e-mail verified", async () => {
    const visitor = new Visitor();
    const address = email("link");
    const res = await visitor.requestLink(address);
    expect(res.status).toBe(303);
    expect(path(res.location)).toBe("/signin?notice=link_sent");
    expect(statusText(await visitor.page(path(res.location)))).toMatch(/Check your e-mail/);
    expect(await userRow(address)).toBeNull();

    const link = await linkFromOutbox(address);
    const url = new URL(link);
    expect(url.origin).toBe(app.baseUrl);
    expect(url.pathname).toBe("/signin/link");
    const token = url.searchParams.get("token")!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits

    // Only the token's SHA-256 is stored, expiring in 15 minutes.
    const { rows } = await app.pool.query<{ token_hash: Buffer; email: string; minutes: number }>(
      "SELECT token_hash, email, EXTRACT(EPOCH FROM expires_at - created_at) / 60 AS minutes FROM login_tokens WHERE email = $1",
      [address],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash.equals(createHash("sha256").update(token).digest())).toBe(true);
    expect(Number(rows[0]!.minutes)).toBeCloseTo(15, 1);

    const opened = await visitor.request(url.pathname + url.search);
    expect(opened.status).toBe(303);
    expect(path(opened.location)).toBe("/account");
    expect(visitor.signedIn).toBe(true);
    const row = await userRow(address);
    expect(row).toMatchObject({ role: "shopper", password_hash: null });
    expect(row!.email_verified_at).toBeInstanceOf(Date);
    expect((await visitor.profile())?.email).toBe(address);
  });

  it("works once: a second open is refused and signs nobody in", async () => {
    const address = email("once");
    await new Visitor().requestLink(address);
    const link = new URL(await linkFromOutbox(address));
    expect((await new Visitor().request(link.pathname + link.search)).status).toBe(303);
    const again = new Visitor();
    const res = await again.request(link.pathname + link.search);
    expect(path(res.location)).toBe("/signin?error=link_invalid");
    expect(again.signedIn).toBe(false);
    expect(alertText(await again.page("/signin?error=link_invalid"))).toMatch(/already used/);
  });

  it("two opens at the same moment sign in once", async () => {
    const address = email("race");
    await new Visitor().requestLink(address);
    const link = new URL(await linkFromOutbox(address));
    const visitors = [new Visitor(), new Visitor(), new Visitor()];
    const answers = await Promise.all(visitors.map((v) => v.request(link.pathname + link.search)));
    expect(answers.filter((a) => path(a.location) === "/account")).toHaveLength(1);
    expect(visitors.filter((v) => v.signedIn)).toHaveLength(1);
  });

  it("an expired link (past 15 minutes) is refused with its own message", async () => {
    const address = email("expired");
    await new Visitor().requestLink(address);
    const link = new URL(await linkFromOutbox(address));
    await app.pool.query("UPDATE login_tokens SET expires_at = now() - interval '1 second' WHERE email = $1", [address]);
    const visitor = new Visitor();
    const res = await visitor.request(link.pathname + link.search);
    expect(path(res.location)).toBe("/signin?error=link_expired");
    expect(visitor.signedIn).toBe(false);
    expect(await userRow(address)).toBeNull();
    expect(alertText(await visitor.page("/signin?error=link_expired"))).toMatch(/expired/);
  });

  it("unknown, malformed and missing tokens are refused, never a 5xx", async () => {
    for (const query of ["?token=" + "A".repeat(43), "?token=short", "", "?token=%00", "?token=" + "x".repeat(10_000)]) {
      const visitor = new Visitor();
      const res = await visitor.request(`/signin/link${query}`);
      expect(res.status).toBe(303);
      expect(path(res.location)).toBe("/signin?error=link_invalid");
      expect(visitor.signedIn).toBe(false);
    }
  });

  it("a link opened by whoever registered the address signs into that account and verifies its e-mail; `next` is carried", async () => {
    // (Opened in a browser not signed in to it, the first proof removes the password: tests/integration/account-security.test.ts.)
    const address = email("haspassword");
    const visitor = new Visitor();
    await visitor.register(address);
    expect((await userRow(address))!.email_verified_at).toBeNull();
    await new Visitor().requestLink(address, "/cart");
    const link = new URL(await linkFromOutbox(address));
    expect(link.searchParams.get("next")).toBe("/cart");
    const res = await visitor.request(link.pathname + link.search);
    expect(path(res.location)).toBe("/cart");
    expect((await visitor.profile())?.email).toBe(address);
    expect((await userRow(address))!.email_verified_at).toBeInstanceOf(Date);
    expect(path((await new Visitor().signIn(address)).location)).toBe("/account");
  });

  it("/dev/outbox lists the newest e-mail first", async () => {
    const first = email("order-a");
    const second = email("order-b");
    await new Visitor().requestLink(first);
    await new Visitor().requestLink(second);
    const $ = parseHtml(await (await admin()).page("/dev/outbox"));
    const order = $("article")
      .toArray()
      .map((a) => $(a).attr("data-email-to"));
    expect(order.indexOf(second)).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(second)).toBeLessThan(order.indexOf(first));
  });

  it("an invalid address asks again and sends nothing", async () => {
    const visitor = new Visitor();
    const before = await countRows("SELECT count(*) AS n FROM outbox_emails");
    const res = await visitor.requestLink("no-at-sign");
    expect(path(res.location)).toBe("/signin?error=email_invalid");
    expect(await countRows("SELECT count(*) AS n FROM outbox_emails")).toBe(before);
  });
});

describe("/dev/outbox outside development", () => {
  it("is 404 in production without DEV_OUTBOX=on (the suite's shared app)", async () => {
    const res = await fetch(`${sharedBaseUrl()}/dev/outbox`, { redirect: "manual" });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("/signin/link?");
  });

  it("with DEV_OUTBOX=on it answers signed-in admins only: a visitor and a shopper get 404 and no link", async () => {
    await new Visitor().requestLink(email("outbox-visible"));
    const shopper = new Visitor();
    await shopper.register(email("outbox-shopper"));
    for (const visitor of [new Visitor(), shopper]) {
      const res = await visitor.request("/dev/outbox");
      expect(res.status).toBe(404);
      expect(res.text).not.toContain("/signin/link?");
    }
    expect(await (await admin()).page("/dev/outbox")).toContain("/signin/link?");
  });
});

describe("cross-site posts are refused (403) and change nothing", () => {
  const CROSS = [
    ["Sec-Fetch-Site: cross-site", { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }],
    ["Origin of another site, no Sec-Fetch-Site", { Origin: "https://evil.example", "Sec-Fetch-Site": "" }],
    ["Origin: null, no Sec-Fetch-Site", { Origin: "null", "Sec-Fetch-Site": "" }],
  ] as const;

  it.each(CROSS)("%s", async (_, raw) => {
    const headers: Record<string, string> = { ...raw };
    const address = email("cross");
    const attacker = new Visitor();
    const outbox = await countRows("SELECT count(*) AS n FROM outbox_emails");

    const register = await attacker.post("/register/create", { email: address, password: PASSWORD, name: "X" }, headers);
    expect(register.status).toBe(403);
    expect(await userRow(address)).toBeNull();

    const link = await attacker.post("/signin/link", { email: address }, headers);
    expect(link.status).toBe(403);
    expect(await countRows("SELECT count(*) AS n FROM outbox_emails")).toBe(outbox);

    // A victim with an account and a session.
    const victim = new Visitor();
    const victimAddress = email("victim");
    await victim.register(victimAddress);
    const signin = await attacker.post("/signin/password", { email: victimAddress, password: PASSWORD }, headers);
    expect(signin.status).toBe(403);
    expect(attacker.signedIn).toBe(false);

    const signout = await victim.post("/signout", {}, headers);
    expect(signout.status).toBe(403);
    expect(signout.setCookies).toEqual([]);
    expect((await victim.profile())?.email).toBe(victimAddress);

    await makeAdmin(victimAddress);
    const before = await countRows("SELECT count(*) AS n FROM settings WHERE key = 'agentic_checkout'");
    const admin = await victim.post("/admin/settings", { agentic_checkout: "on" }, headers);
    expect(admin.status).toBe(403);
    expect(await countRows("SELECT count(*) AS n FROM settings WHERE key = 'agentic_checkout'")).toBe(before);
  });
});

describe("`next` returns the person where they were, on this site only", () => {
  it("a same-site path is kept through /signin, /register and the sign-in link", async () => {
    const address = email("next");
    const visitor = new Visitor();
    expect(path((await visitor.register(address, PASSWORD, "N", "/cart?from=header")).location)).toBe("/cart?from=header");
    await visitor.signOut();
    expect(path((await visitor.signIn(address, PASSWORD, "/p/some-product")).location)).toBe("/p/some-product");
    // A failed attempt keeps `next` for the next try.
    expect(path((await new Visitor().signIn(address, "wrong password", "/cart")).location)).toBe("/signin?error=credentials&next=%2Fcart");
  });

  const HOSTILE = ["//evil.com", "//evil.com/path", "/\\evil.com", "https://evil.com", "http:evil.com", "javascript:alert(1)", "/\t/evil.com", "\u0000/x", "evil.com", " //evil.com"];
  it.each(HOSTILE)("next=%j is refused: the person lands on /account", async (next) => {
    const address = email("evil");
    const visitor = new Visitor();
    await visitor.register(address);
    await visitor.signOut();
    // The page does not carry it into the form...
    const html = await visitor.page(`/signin?next=${encodeURIComponent(next)}`);
    expect(fillForm(html, "Sign in", {}, "Sign in").fields.next).toBe("");
    // ...and a post that carries it anyway is not followed.
    const res = await visitor.post("/signin/password", { email: address, password: PASSWORD, next });
    expect(res.status).toBe(303);
    expect(new URL(res.location!, app.baseUrl).origin).toBe(app.baseUrl);
    expect(res.location).toBe("/account");
  });
});

describe("roles: /admin is for marketplace admins", () => {
  it("signed out: /admin sends to /signin?next=/admin; a post to its form does too", async () => {
    const visitor = new Visitor();
    const res = await visitor.request("/admin");
    expect(res.status).toBe(307);
    expect(path(res.location)).toBe("/signin?next=%2Fadmin");
    const post = await visitor.post("/admin/settings", { agentic_checkout: "on" }, { Referer: `${app.baseUrl}/admin` });
    expect(post.status).toBe(303);
    expect(path(post.location)).toBe("/signin?next=%2Fadmin");
  });

  it("a shopper (and a store owner) gets 404 on the page and the form, and the setting stays", async () => {
    for (const role of ["shopper", "store_owner"]) {
      const visitor = new Visitor();
      const address = email(role);
      await visitor.register(address);
      await app.pool.query("UPDATE users SET role = $2 WHERE email = $1", [address, role]);
      expect((await visitor.request("/admin")).status).toBe(404);
      const before = await app.pool.query("SELECT value FROM settings WHERE key = 'agentic_checkout'");
      expect((await visitor.post("/admin/settings", { agentic_checkout: "on" })).status).toBe(404);
      expect((await app.pool.query("SELECT value FROM settings WHERE key = 'agentic_checkout'")).rows).toEqual(before.rows);
      expect((await visitor.profile())!.links).not.toContain("/admin");
    }
  });

  it("an admin sees 'Agentic checkout' (off by default), turns it on and off with 'Save'", async () => {
    const visitor = new Visitor();
    const address = email("admin");
    await visitor.register(address);
    await makeAdmin(address);
    expect((await visitor.profile())!.links).toEqual(["/cart", "/account/orders", "/account/agents", "/admin"]);

    const html = await visitor.page("/admin");
    const off = fillForm(html, "Marketplace settings", {}, "Save");
    expect(off.fields.agentic_checkout).toBeUndefined();

    const on = await visitor.submit(fillForm(html, "Marketplace settings", { "Agentic checkout": true }, "Save"));
    expect(on.status).toBe(303);
    expect(path(on.location)).toBe("/admin?notice=saved");
    expect((await app.pool.query("SELECT value FROM settings WHERE key = 'agentic_checkout'")).rows[0].value).toBe(true);
    const saved = await visitor.page("/admin?notice=saved");
    expect(statusText(saved)).toBe("Settings saved.");
    expect(fillForm(saved, "Marketplace settings", {}, "Save").fields.agentic_checkout).toBe("on");

    await visitor.submit(fillForm(saved, "Marketplace settings", { "Agentic checkout": false }, "Save"));
    expect((await app.pool.query("SELECT value FROM settings WHERE key = 'agentic_checkout'")).rows[0].value).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Cart merge
// ---------------------------------------------------------------------------------------------

const taken = new Set<string>();

/** `n` purchasable listings not used by another test (ensureStock gives them units). */
async function take(n: number): Promise<string[]> {
  const { rows } = await app.pool.query<{ id: string }>(
    `SELECT l.id::text AS id FROM listings l JOIN stores s ON s.id = l.store_id JOIN products p ON p.id = l.product_id
     WHERE l.status = 'active' AND s.status = 'active' AND p.publicly_listed AND p.slug NOT LIKE 'fixture-%'
       AND NOT (l.id = ANY($1::uuid[]))
     ORDER BY l.id LIMIT $2`,
    [[...taken], n],
  );
  expect(rows).toHaveLength(n);
  for (const r of rows) taken.add(r.id);
  return rows.map((r) => r.id);
}

async function ensureStock(ids: string[]) {
  await app.pool.query("UPDATE listings SET quantity = GREATEST(quantity, 200) WHERE id = ANY($1::uuid[])", [ids]);
}

async function cartOf(visitor: Visitor): Promise<Array<[string, number]>> {
  const page = parseCartPage(await visitor.page("/cart"));
  return page.lines.map((l): [string, number] => [l.listingId, l.quantity!]).sort(([a], [b]) => a.localeCompare(b));
}

function sorted(pairs: Array<[string, number]>) {
  return [...pairs].sort(([a], [b]) => a.localeCompare(b));
}

async function add(visitor: Visitor, listingId: string, quantity: number) {
  const res = await visitor.post("/cart/add", { listing_id: listingId, quantity: String(quantity) });
  expect(res.status).toBe(303);
  expect(path(res.location)).toBe("/cart?notice=added");
}

describe("signing in merges the anonymous cart into the account's", () => {
  it("quantities added and capped at 99 a line; the anonymous cart deleted and its cookie cleared", async () => {
    const [x, y, z] = await take(3);
    await ensureStock([x!, y!, z!]);
    const address = email("merge");
    const device1 = new Visitor();
    await device1.register(address);
    await add(device1, x!, 60);
    await add(device1, z!, 2);
    expect(device1.cookies.has("cart")).toBe(false); // signed in: the account's cart, no cookie cart
    await device1.signOut();
    expect(await cartOf(device1)).toEqual([]);

    const device2 = new Visitor();
    await add(device2, x!, 50);
    await add(device2, y!, 3);
    const cookie = device2.cookies.get("cart")!;
    expect(cookie).toBeTruthy();
    const res = await device2.signIn(address);
    expect(res.status).toBe(303);
    expect(res.setCookies.find((c) => c.startsWith("cart="))).toMatch(/Max-Age=0/i);
    expect(device2.cookies.has("cart")).toBe(false);
    expect(await cartOf(device2)).toEqual(sorted([[x!, 99], [y!, 3], [z!, 2]]));
    expect(await countRows("SELECT count(*) AS n FROM carts WHERE token_hash = $1", [createHash("sha256").update(cookie).digest()])).toBe(0);

    // The same account cart on the other device, and cart forms work on it while signed in.
    await device1.signIn(address);
    expect(await cartOf(device1)).toEqual(sorted([[x!, 99], [y!, 3], [z!, 2]]));
    const update = await device1.post("/cart/update", { listing_id: y!, quantity: "1" });
    expect(path(update.location)).toBe("/cart?notice=updated");
    expect(await cartOf(device2)).toEqual(sorted([[x!, 99], [y!, 1], [z!, 2]]));
  });

  it("registering and opening a sign-in link merge too", async () => {
    const [x, y] = await take(2);
    await ensureStock([x!, y!]);
    const visitor = new Visitor();
    await add(visitor, x!, 2);
    await visitor.register(email("merge-register"));
    expect(await cartOf(visitor)).toEqual([[x!, 2]]);

    const address = email("merge-link");
    const other = new Visitor();
    await add(other, y!, 4);
    await new Visitor().requestLink(address);
    const link = new URL(await linkFromOutbox(address));
    await other.request(link.pathname + link.search);
    expect(await cartOf(other)).toEqual([[y!, 4]]);
  });

  it("two tabs signing in at once with the same cart cookie merge it once", async () => {
    const [x] = await take(1);
    await ensureStock([x!]);
    const address = email("tabs");
    const owner = new Visitor();
    await owner.register(address);
    await add(owner, x!, 1);
    await owner.signOut();

    const tab = new Visitor();
    await add(tab, x!, 5);
    const twin = new Visitor();
    for (const [k, v] of tab.cookies) twin.cookies.set(k, v);
    const html = await tab.page("/signin");
    const form = fillForm(html, "Sign in", { Email: address, Password: PASSWORD }, "Sign in");
    const answers = await Promise.all([tab.submit(form), twin.submit(form), tab.submit(form)]);
    for (const a of answers) expect(path(a.location)).toBe("/account");
    expect(await cartOf(tab)).toEqual([[x!, 6]]);
  });

  it("a full account cart (100 offers) takes no new offers; shared offers still add up", async () => {
    const ids = await take(101);
    await ensureStock(ids);
    const address = email("fullcart");
    const owner = new Visitor();
    await owner.register(address);
    const user = await userRow(address);
    // 99 offers straight into the account's cart, then one more through the form.
    const { rows } = await app.pool.query<{ id: string }>("INSERT INTO carts (user_id) VALUES ($1) RETURNING id::text", [user!.id]);
    await app.pool.query(
      `INSERT INTO cart_lines (cart_id, listing_id, quantity, price_cents)
       SELECT $1, l.id, 1, l.price_cents FROM listings l WHERE l.id = ANY($2::uuid[])`,
      [rows[0]!.id, ids.slice(0, 99)],
    );
    await owner.signOut();

    const visitor = new Visitor();
    await add(visitor, ids[0]!, 2); // shared with the account's cart
    await add(visitor, ids[99]!, 1); // new: fits as the 100th
    await add(visitor, ids[100]!, 1); // new: no room
    await visitor.signIn(address);
    const cart = await cartOf(visitor);
    expect(cart).toHaveLength(100);
    expect(cart.find(([id]) => id === ids[0])![1]).toBe(3);
    expect(cart.some(([id]) => id === ids[99])).toBe(true);
    expect(cart.some(([id]) => id === ids[100])).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------

describe("hostile input: a clear answer, never a 5xx, nothing written", () => {
  const LONG = "x".repeat(10_000);
  const FIELDS: Array<[string, Record<string, string>]> = [
    ["10,000-character e-mail", { email: `${LONG}@example.com` }],
    ["10,000-character password", { password: LONG }],
    ["10,000-character name", { name: LONG }],
    ["NUL in the e-mail", { email: "nul\u0000@example.com" }],
    ["NUL in the name", { name: "Nul\u0000Name" }],
    ["control characters in the e-mail", { email: "a\u0007b@example.com" }],
  ];

  it.each(FIELDS)("register with %s", async (_, override) => {
    const visitor = new Visitor();
    const address = email("hostile");
    const res = await visitor.post("/register/create", { name: "N", email: address, password: PASSWORD, ...override });
    expect(res.status).toBe(303);
    expect(path(res.location)).toMatch(/^\/register\?error=(email|password|name)_invalid$/);
    expect(visitor.signedIn).toBe(false);
    expect(await countRows("SELECT count(*) AS n FROM users WHERE email = $1 OR length(email) > 300 OR email LIKE '%' || chr(7) || '%'", [address])).toBe(0);
  });

  it.each(FIELDS)("sign in and link request with %s", async (_, override) => {
    const visitor = new Visitor();
    const res = await visitor.post("/signin/password", { email: email("hostile"), password: PASSWORD, ...override });
    expect(path(res.location)).toBe("/signin?error=credentials");
    const link = await visitor.post("/signin/link", { email: email("hostile"), ...override });
    expect(link.status).toBe(303);
    expect(visitor.signedIn).toBe(false);
  });

  it("unicode e-mails: registered once, found again however they are cased or composed", async () => {
    const local = `zoë-${randomUUID().slice(0, 6)}`;
    const visitor = new Visitor();
    const res = await visitor.register(`${local.toUpperCase()}@Exämple.COM`);
    expect(path(res.location)).toBe("/account");
    const stored = `${local}@exämple.com`;
    expect((await visitor.profile())?.email).toBe(stored);
    // Decomposed (e + combining diaeresis) and upper-cased: the same account.
    const decomposed = stored.normalize("NFD").toUpperCase();
    expect(path((await new Visitor().signIn(decomposed)).location)).toBe("/account");
    expect(path((await new Visitor().register(decomposed)).location)).toBe("/register?error=exists");
  });

  it("a body over 1 MiB is 413; a body that is not a form is an empty form", async () => {
    const visitor = new Visitor();
    const big = await visitor.post("/signin/password", { email: "a@b.co", password: "y".repeat(1024 * 1024 + 10) });
    expect(big.status).toBe(413);
    const json = await visitor.request("/signin/password", {
      method: "POST",
      headers: { Origin: app.baseUrl, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" },
      body: JSON.stringify({ email: "a@b.co", password: PASSWORD }),
    });
    expect(json.status).toBe(303);
    expect(path(json.location)).toBe("/signin?error=credentials");
  });

  it("repeated fields and wrong methods do not break the forms", async () => {
    const visitor = new Visitor();
    const body = new URLSearchParams([
      ["email", "a@b.co"],
      ["email", "c@d.co"],
      ["password", "x"],
    ]);
    const res = await visitor.request("/signin/password", {
      method: "POST",
      headers: { Origin: app.baseUrl, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
    expect(res.status).toBe(303);
    expect((await visitor.request("/signin/password")).status).toBe(405);
  });
});

describe("sign-in attempts are rate-limited per client address (sign_in: 10, then 1 per second)", () => {
  it("password and link attempts share one bucket; past it, 429 with Retry-After", async () => {
    const visitor = new Visitor();
    const started = Date.now();
    let allowed = 0;
    let limited: PageResponse | undefined;
    for (let i = 0; i < 40 && !limited; i++) {
      // Invalid e-mails: no password hash, so the attempts are quick; alternate the two forms.
      const res = i % 2 ? await visitor.post("/signin/password", { email: "bad", password: "x" }) : await visitor.post("/signin/link", { email: "bad" });
      if (res.status === 429) limited = res;
      else {
        expect(res.status).toBe(303);
        expect(res.headers.get("x-ratelimit-limit")).toBe("10");
        allowed++;
      }
    }
    const seconds = (Date.now() - started) / 1000;
    // 10 at once, then one a second: however slow the machine, never more than that.
    expect(allowed).toBeLessThanOrEqual(10 + Math.ceil(seconds));
    if (seconds < 25) {
      expect(limited).toBeDefined();
      expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(limited!.text).error.code).toBe("rate_limited");
    }
    // Another address is not affected.
    expect((await new Visitor().post("/signin/password", { email: "bad", password: "x" })).status).toBe(303);
  });
});

describe("failed password sign-ins are limited per account, from any address (5, then one more every SIGN_IN_BACKOFF_SECONDS)", () => {
  it("40 wrong passwords for one account from 40 addresses are limited; another account signs in; the owner signs in after the back-off", async () => {
    const owner = email("guessed");
    const other = email("bystander");
    expect(path((await new Visitor().register(owner)).location)).toBe("/account");
    expect(path((await new Visitor().register(other)).location)).toBe("/account");

    const started = Date.now();
    const answers: string[] = [];
    let refusal: PageResponse | undefined;
    for (let i = 0; i < 40; i++) {
      // A new address each time: the per-address limit never applies.
      const res = await new Visitor().signIn(i % 2 ? owner : owner.toUpperCase(), `wrong password ${i}`);
      expect(res.status).toBe(303);
      answers.push(path(res.location));
      if (path(res.location) === "/signin?error=too_many_attempts") refusal ??= res;
    }
    const seconds = (Date.now() - started) / 1000;
    const tried = answers.filter((a) => a === "/signin?error=credentials").length;
    // Five at once, then one every BACKOFF_SECONDS: however slow the machine, never more than that.
    expect(tried).toBeGreaterThanOrEqual(5);
    expect(tried).toBeLessThanOrEqual(5 + Math.ceil(seconds / BACKOFF_SECONDS));
    expect(answers.every((a) => a === "/signin?error=credentials" || a === "/signin?error=too_many_attempts")).toBe(true);
    expect(refusal, answers.join("\n")).toBeDefined();
    // The page says why, keeping its names, and offers the e-mailed link.
    const page = await new Visitor().page(path(refusal!.location));
    expect(alertText(page)).toBe(`Too many wrong passwords for this account lately. Wait ${BACKOFF_SECONDS} seconds and try again, or ask for a sign-in link below.`);
    expect(fillForm(page, "Sign in", { Email: owner, Password: PASSWORD }, "Sign in").action).toBe("/signin/password");

    // Each refusal is one event on stderr, naming the request and the account by a hash only.
    const refusals = app.server
      .stderr()
      .split("\n")
      .filter((line) => line.includes("too many failed attempts for the account"))
      .map((line) => JSON.parse(line));
    expect(refusals.length).toBe(answers.filter((a) => a === "/signin?error=too_many_attempts").length);
    for (const line of refusals) {
      expect(Object.keys(line).sort()).toEqual(["account", "level", "msg", "request_id", "retry_after"]);
      expect(line).toMatchObject({ level: "warn", account: expect.stringMatching(/^[0-9a-f]{32}$/) });
    }
    expect(new Set(refusals.map((l) => l.account)).size).toBe(1);
    expectQuotedLinesIn(app.server.stderr(), (msg) => msg.startsWith("sign-in refused"));
    expect(app.server.stderr()).not.toContain(owner.split("@")[0]);
    expect(app.server.stderr()).not.toContain("wrong password");

    // Another account is not affected.
    const bystander = new Visitor();
    expect(path((await bystander.signIn(other)).location)).toBe("/account");
    expect(bystander.signedIn).toBe(true);

    // The owner is in again once the back-off has passed (no long lockout); a refused attempt does
    // not prolong it.
    const last = await eventually(
      async () => {
        const visitor = new Visitor();
        return { visitor, res: await visitor.signIn(owner) };
      },
      ({ res }) => path(res.location) === "/account",
      10 * BACKOFF_SECONDS * 1000,
    );
    expect(path(last.res.location)).toBe("/account");
    expect(last.visitor.signedIn).toBe(true);
  });
});
