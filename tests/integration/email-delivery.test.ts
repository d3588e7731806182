/**
 * E-mail after commit (lib/email/): with EMAIL_DELIVERY=smtp a real SMTP server on loopback (the
 * `smtp-server` package) receives the checkout's confirmation and the sign-in link, a server that
 * refuses a first attempt (451) receives the retry, and a checkout whose transaction rolls back
 * sends and logs nothing; with the default outbox, the log line (with its link) is written after
 * commit only. Links are bearer secrets: in production (the smtp app here, and a second outbox
 * app, both without the tests' OUTBOX_KEEPS_LINKS=on) no log line and no stored row holds one;
 * the SMTP message does. Each mode runs on an app and database of its own.
 *
 * "Rolls back" is made deterministic by a deferred trigger that fails the commit of any
 * transaction that wrote an e-mail to a `rollback-…` address: everything, the e-mail's row and
 * its job included, was written, and the commit then fails. Before the e-mail job, such a
 * transaction had already logged its line.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type PrismaClient } from "../../lib/db";
import { expectQuotedLinesIn, jsonLines } from "../helpers/operations-doc";
import { startIsolatedApp, storeIdOf, type IsolatedApp } from "../helpers/seller";

const DEADLINE_MS = 60_000;
const ROLLBACK_TRIGGER = `
  CREATE OR REPLACE FUNCTION test_fail_email() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.to_address LIKE 'rollback-%' THEN RAISE EXCEPTION 'injected failure at commit'; END IF;
      RETURN NEW;
    END $$;
  CREATE CONSTRAINT TRIGGER test_fail_email AFTER INSERT ON outbox_emails
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_fail_email();`;

const address = (prefix: string) => `${prefix}-${randomBytes(4).toString("hex")}@example.com`;
const randomIp = () => `10.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

/** Polls `read` until `done` holds; the deadline only stops a hang. */
async function waitFor<T>(read: () => T | Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`waited ${DEADLINE_MS / 1000} s for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Asks for a sign-in link as the /signin form does. */
async function requestSignInLink(app: IsolatedApp, email: string): Promise<number> {
  const res = await fetch(`${app.baseUrl}/signin/link`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.baseUrl, "Sec-Fetch-Site": "same-origin", "X-Forwarded-For": randomIp() },
    body: new URLSearchParams({ email }),
    redirect: "manual",
  });
  await res.arrayBuffer();
  return res.status;
}

/** The app's stdout so far (its request log, and the outbox's e-mail lines). */
const stdoutOf = (app: IsolatedApp) => readFileSync(app.server.serverLog, "utf8");

// ---------------------------------------------------------------------------------------------
// A real SMTP server on loopback.

interface Received {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

interface Smtp {
  url: string;
  received: Received[];
  /** The addresses whose next RCPT TO is answered 451 (once each), and those so refused. */
  refuseOnce: Set<string>;
  refused: string[];
  close(): Promise<void>;
}

/** The text of a single-part message, decoded from quoted-printable or base64. */
function parseMessage(raw: string): { subject: string; text: string } {
  const split = raw.indexOf("\r\n\r\n");
  const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(headers)?.[1]?.trim() ?? "";
  let body = raw.slice(split + 4);
  const encoding = header("Content-Transfer-Encoding").toLowerCase();
  if (encoding === "base64") body = Buffer.from(body, "base64").toString("utf8");
  else if (encoding === "quoted-printable") {
    const bytes = body.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`);
    body = decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, "%25"));
  }
  return { subject: header("Subject"), text: body.replace(/\r\n/g, "\n") };
}

async function startSmtp(): Promise<Smtp> {
  const received: Received[] = [];
  const refuseOnce = new Set<string>();
  const refused: string[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(rcpt, _session, callback) {
      if (refuseOnce.delete(rcpt.address)) {
        refused.push(rcpt.address);
        return callback(Object.assign(new Error("Greylisted: try again later"), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), ...parseMessage(Buffer.concat(chunks).toString("utf8")) });
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.server.address() as { port: number }).port));
  });
  return { url: `smtp://127.0.0.1:${port}`, received, refuseOnce, refused, close: () => new Promise<void>((r) => server.close(() => r())) };
}

// ---------------------------------------------------------------------------------------------

describe("EMAIL_DELIVERY=smtp", { timeout: 180_000 }, () => {
  let smtp: Smtp;
  let app: IsolatedApp;
  let client: PrismaClient;
  let checkout: typeof import("../../lib/checkout");
  let listingId: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    // As production runs: links out of the table and the logs.
    app = await startIsolatedApp("email-smtp", { EMAIL_DELIVERY: "smtp", SMTP_URL: smtp.url, OUTBOX_KEEPS_LINKS: undefined });
    await app.pool.query(ROLLBACK_TRIGGER);
    // Checkouts run in this process against the app's database; the app's worker sends.
    client = createDb(app.database.databaseUrl);
    (globalThis as unknown as { __marketplaceDb?: PrismaClient }).__marketplaceDb = client;
    checkout = await import("../../lib/checkout");
    const { rows } = await app.pool.query(
      `INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity, status, published_at)
       SELECT $1, id, $2, 'new', 1500, 1500, 100, 'active', now() FROM products WHERE publicly_listed ORDER BY slug LIMIT 1
       RETURNING id`,
      [await storeIdOf(app.pool, "fixture-store-a"), `MAIL-${randomBytes(4).toString("hex")}`],
    );
    listingId = rows[0].id;
  }, 180_000);

  afterAll(async () => {
    await client?.$disconnect();
    await app?.stop();
    await smtp?.close();
  });

  const placeOrder = (email: string) =>
    checkout.placeOrder(client, {
      buyer: { email },
      source: { lines: [{ listing_id: listingId, quantity: 1 }] },
      shippingAddress: { full_name: "Mae Ling", line1: "4 Post Road", city: "Austin", state: "TX", postal_code: "73301" },
      cardNumber: "4242 4242 4242 4242",
      placedVia: "storefront",
      checkoutToken: `mail:${randomBytes(16).toString("hex")}`,
    });
  const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email));
  const rowOf = async (email: string) =>
    (await app.pool.query(`SELECT status, attempts, last_error, sent_at IS NOT NULL AS sent FROM outbox_emails WHERE to_address = $1`, [email])).rows;
  /** The stored rows to `email`, every column, as text. */
  const storedOf = async (email: string) =>
    (await app.pool.query(`SELECT row_to_json(e)::text AS row, body, link, link_sealed FROM outbox_emails e WHERE to_address = $1`, [email])).rows;

  it("a checkout's confirmation arrives: from the marketplace, to the buyer, naming the order; its row says sent", async () => {
    const email = address("buyer");
    const placed = await placeOrder(email);
    const [mail] = await waitFor(() => mailsTo(email), (m) => m.length > 0, "the confirmation");
    expect(mail!.from).toBe("no-reply@127.0.0.1");
    expect(mail!.subject).toBe(`Your order ${placed.order.number}`);
    expect(mail!.text).toContain(`Thank you for your order ${placed.order.number}.`);
    // (The link's origin is this process's: the checkout ran here.)
    expect(mail!.text).toContain(`/checkout/confirmation/${placed.order.number}?key=`);
    expect(await waitFor(() => rowOf(email), (r) => r[0]?.status === "sent", "the row marked sent")).toEqual([{ status: "sent", attempts: 1, last_error: null, sent: true }]);
    expect(jsonLines(app.server.stderr())).toContainEqual(expect.objectContaining({ level: "info", msg: "email sent", attempt: 1 }));
  });

  it("a sign-in link arrives and signs in; neither stdout nor stderr shows the link", async () => {
    const email = address("signin");
    expect(await requestSignInLink(app, email)).toBe(303);
    const [mail] = await waitFor(() => mailsTo(email), (m) => m.length > 0, "the sign-in mail");
    expect(mail!.subject).toBe("Your Marketplace sign-in link");
    const link = /(http:\/\/\S+\/signin\/link\?token=[\w-]+)/.exec(mail!.text)?.[1];
    expect(link, mail!.text).toBeDefined();
    const opened = await fetch(link!, { redirect: "manual", headers: { "X-Forwarded-For": randomIp() } });
    expect(opened.status).toBe(303);
    expect(new URL(opened.headers.get("location")!, app.baseUrl).pathname).toBe("/account");
    const token = new URL(link!).searchParams.get("token")!;
    await waitFor(() => rowOf(email), (r) => r[0]?.status === "sent", "the row marked sent");
    expect(stdoutOf(app)).not.toContain(token);
    expect(app.server.stderr()).not.toContain(token);
    expect(jsonLines(stdoutOf(app)).filter((l) => l.msg === "email")).toEqual([]);
    // Nor does the table: the body has a placeholder, the sealed link is gone once sent.
    const [stored] = await storedOf(email);
    expect(stored.row).not.toContain(token);
    expect(stored.body).toContain("[link sent by e-mail only]");
    expect(stored).toMatchObject({ link: null, link_sealed: null });
  });

  it("a server that refuses the first attempt (451) receives the retry; the failure is logged without the address", async () => {
    const email = address("greylisted");
    smtp.refuseOnce.add(email);
    expect(await requestSignInLink(app, email)).toBe(303);
    await waitFor(() => smtp.refused, (r) => r.includes(email), "the refused attempt");
    const [mail] = await waitFor(() => mailsTo(email), (m) => m.length > 0, "the retry");
    expect(mail!.subject).toBe("Your Marketplace sign-in link");
    // The retry still had the link to send (sealed in the row until then).
    expect(mail!.text).toMatch(/\/signin\/link\?token=[\w-]+/);
    const [row] = await waitFor(() => rowOf(email), (r) => r[0]?.status === "sent", "the row marked sent");
    expect(row).toEqual({ status: "sent", attempts: 2, last_error: null, sent: true });
    const warning = jsonLines(app.server.stderr()).find((l) => l.msg === "email failed; it will be retried");
    expect(warning).toMatchObject({ level: "warn", attempt: 1, error: expect.stringContaining("451") });
    expect(app.server.stderr()).not.toContain(email);
    expectQuotedLinesIn(app.server.stderr(), (msg) => msg === "email sent" || msg === "email failed; it will be retried");
  });

  it("a checkout whose transaction rolls back at commit sends and logs nothing", async () => {
    const email = address("rollback");
    await expect(placeOrder(email)).rejects.toThrow(/injected failure at commit/);
    expect((await app.pool.query(`SELECT count(*)::int AS n FROM orders WHERE email = $1`, [email])).rows[0].n).toBe(0);
    expect(await rowOf(email)).toEqual([]);
    // Every e-mail job names a row that exists: the rolled-back one left no job.
    const { rows } = await app.pool.query(
      `SELECT count(*)::int AS n FROM pgboss.job j WHERE j.name = 'email' AND NOT EXISTS (SELECT 1 FROM outbox_emails e WHERE e.id::text = j.data->>'email')`,
    );
    expect(rows[0].n).toBe(0);
    // A later checkout's mail arriving shows the queue ran past the moment of the rollback.
    const later = address("after-rollback");
    await placeOrder(later);
    await waitFor(() => mailsTo(later), (m) => m.length > 0, "the later confirmation");
    expect(mailsTo(email)).toEqual([]);
    expect(stdoutOf(app)).not.toContain(email);
    expect(app.server.stderr()).not.toContain(email);
    expect(jsonLines(stdoutOf(app)).filter((l) => l.msg === "email")).toEqual([]);
  });
});

describe("EMAIL_DELIVERY=outbox (the default)", { timeout: 180_000 }, () => {
  let app: IsolatedApp;

  beforeAll(async () => {
    app = await startIsolatedApp("email-outbox");
    await app.pool.query(ROLLBACK_TRIGGER);
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
  });

  const emailLines = (email: string) => jsonLines(stdoutOf(app)).filter((l) => l.msg === "email" && l.to === email);

  it("the log line, with its link, is written once the transaction commits, and never for one that rolls back", async () => {
    const rolledBack = address("rollback");
    // Its answer is not checked: the embedded database's Prisma adapter (pglite-prisma-adapter
    // 0.7.2) does not report a failed COMMIT, so an embedded app answers 303 there.
    await requestSignInLink(app, rolledBack);
    expect((await app.pool.query(`SELECT count(*)::int AS n FROM outbox_emails WHERE to_address = $1`, [rolledBack])).rows[0].n).toBe(0);

    const email = address("outbox");
    expect(await requestSignInLink(app, email)).toBe(303);
    const [line] = await waitFor(() => emailLines(email), (l) => l.length > 0, "the outbox line");
    expect(line).toEqual({ level: "info", msg: "email", to: email, subject: "Your Marketplace sign-in link", link: expect.stringMatching(/\/signin\/link\?token=/) });
    const { rows } = await app.pool.query(`SELECT status, attempts, sent_at IS NOT NULL AS sent FROM outbox_emails WHERE to_address = $1`, [email]);
    expect(rows).toEqual([{ status: "sent", attempts: 1, sent: true }]);
    expect(emailLines(rolledBack)).toEqual([]);
    expectQuotedLinesIn(stdoutOf(app), (msg) => msg === "email");
  });
});

describe("EMAIL_DELIVERY=outbox in production (links never in clear)", { timeout: 180_000 }, () => {
  let app: IsolatedApp;

  beforeAll(async () => {
    app = await startIsolatedApp("email-outbox-production", { OUTBOX_KEEPS_LINKS: undefined });
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
  });

  it("the log line names no link, and the stored e-mail holds a placeholder: neither signs anyone in", async () => {
    const email = address("production");
    expect(await requestSignInLink(app, email)).toBe(303);
    const [line] = await waitFor(() => jsonLines(stdoutOf(app)).filter((l) => l.msg === "email" && l.to === email), (l) => l.length > 0, "the outbox line");
    expect(line).toEqual({ level: "info", msg: "email", to: email, subject: "Your Marketplace sign-in link" });
    const { rows } = await app.pool.query(`SELECT row_to_json(e)::text AS row, body, link, link_sealed FROM outbox_emails e WHERE to_address = $1`, [email]);
    expect(rows).toHaveLength(1);
    expect(rows[0].body).toContain("[link sent by e-mail only]");
    expect(rows[0]).toMatchObject({ link: null, link_sealed: null });
    for (const text of [rows[0].row, stdoutOf(app), app.server.stderr()]) expect(text).not.toMatch(/signin\/link\?token=/);
  });
});
