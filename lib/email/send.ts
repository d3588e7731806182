import { inTx, type Db } from "@/lib/accounts/tx";
import { db, type Prisma } from "@/lib/db";
import { QUEUES, sendInTransaction } from "@/lib/jobs/queue";

export interface Email {
  to: string;
  subject: string;
  /** Plain text. */
  text: string;
  /** The one link the message exists for (a sign-in link), repeated in outbox mode's log line. */
  link?: string;
}

/**
 * Sends an e-mail after commit. The message is kept in `outbox_emails` and an `email` job is sent
 * in the same transaction, so a change that rolls back sends and logs nothing, and one that
 * commits is sent at least once (lib/email/deliver.ts works the job). Pass the caller's
 * transaction whenever the e-mail follows a change; without one it is written on its own.
 *
 * Where it goes is EMAIL_DELIVERY's: `outbox` (the default, development) sends nothing off the
 * machine: the job logs one JSON line with the link on stdout, which is how a developer signs in,
 * and /dev/outbox lists the rows. `smtp` sends it through SMTP_URL with nodemailer (the
 * maintained SMTP client for Node, as the issue asks), retried with backoff, and logs no link.
 */
export async function sendEmail(email: Email, tx?: Prisma.TransactionClient): Promise<void> {
  await inTx(tx, async (tx) => {
    const row = await tx.outboxEmail.create({
      data: { toAddress: email.to, subject: email.subject, body: email.text, link: email.link ?? null },
      select: { id: true },
    });
    await sendInTransaction(tx, QUEUES.email.name, { email: row.id });
  });
}

export interface OutboxEntry {
  id: string;
  to: string;
  subject: string;
  text: string;
  /** queued, sent or failed. */
  status: string;
  createdAt: Date;
}

/** The newest `limit` messages of the outbox, newest first. */
export async function listOutbox(limit = 50, client: Db = db()): Promise<OutboxEntry[]> {
  const rows = await client.outboxEmail.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
  return rows.map((r) => ({ id: r.id, to: r.toAddress, subject: r.subject, text: r.body, status: r.status, createdAt: r.createdAt }));
}
