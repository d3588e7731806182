import { db, type Prisma } from "@/lib/db";

type Db = Prisma.TransactionClient | ReturnType<typeof db>;

export interface Email {
  to: string;
  subject: string;
  /** Plain text. */
  text: string;
  /** The one link the message exists for (a sign-in link), repeated in the log line. */
  link?: string;
}

/**
 * Sends an e-mail. The only delivery today is the outbox (EMAIL_DELIVERY=outbox): the message is
 * kept in `outbox_emails` (the /dev/outbox page lists it) and announced by one JSON line on
 * stdout with its link, which is how a developer signs in with an e-mailed link. Nothing leaves
 * the machine. Pass the caller's transaction to send only if its change commits.
 */
export async function sendEmail(email: Email, client: Db = db()): Promise<void> {
  await client.outboxEmail.create({ data: { toAddress: email.to, subject: email.subject, body: email.text } });
  process.stdout.write(
    `${JSON.stringify({ level: "info", msg: "email", to: email.to, subject: email.subject, ...(email.link ? { link: email.link } : {}) })}\n`,
  );
}

export interface OutboxEntry {
  id: string;
  to: string;
  subject: string;
  text: string;
  createdAt: Date;
}

/** The newest `limit` messages of the outbox, newest first. */
export async function listOutbox(limit = 50, client: Db = db()): Promise<OutboxEntry[]> {
  const rows = await client.outboxEmail.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
  return rows.map((r) => ({ id: r.id, to: r.toAddress, subject: r.subject, text: r.body, createdAt: r.createdAt }));
}
