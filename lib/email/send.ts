import { config } from "@/lib/config";
import type { Prisma, DbClient } from "@/lib/db";
import { QUEUES, sendInTransaction } from "@/lib/jobs/queue";
import { seal } from "@/lib/keys";

export interface Email {
  to: string;
  subject: string;
  /** Plain text. */
  text: string;
  /**
   * The one link the message exists for, a bearer secret (a sign-in or confirmation link, a
   * guest's order page): repeated in outbox mode's log line, and in production kept out of the
   * stored body and every log line (see `sendEmail`).
   */
  link?: string;
}

/** What a stored body holds where its link was, in production. */
export const LINK_PLACEHOLDER = "[link sent by e-mail only]";

/** Purpose of the key that seals links until they are sent (lib/keys.ts). */
export const LINK_SEAL = "email-links";

/**
 * Sends an e-mail after commit. The message is kept in `outbox_emails` and an `email` job is sent
 * in the same transaction, so a change that rolls back sends and logs nothing, and one that
 * commits is sent at least once (lib/email/deliver.ts works the job). It takes the caller's
 * transaction: the change the e-mail follows, or one opened for the e-mail alone.
 *
 * Where it goes is EMAIL_DELIVERY's: `outbox` (the default, development) sends nothing off the
 * machine: the job logs one JSON line with the link on stdout, which is how a developer signs in,
 * and /dev/outbox lists the rows. `smtp` sends it through SMTP_URL with nodemailer, retried with
 * backoff, and logs no link.
 *
 * A link is a bearer secret: in production (unless OUTBOX_KEEPS_LINKS=on, for tests and demos)
 * the stored body holds LINK_PLACEHOLDER where the link was, the link itself is kept only
 * encrypted (`link_sealed`) until the message is sent or fails for good, and no log line holds
 * it, so neither the logs nor a copy of the table sign anyone in.
 */
export async function sendEmail(tx: Prisma.TransactionClient, email: Email): Promise<void> {
  const inClear = config().emailLinksInClear || !email.link;
  const row = await tx.outboxEmail.create({
    data: {
      toAddress: email.to,
      subject: email.subject,
      body: inClear ? email.text : email.text.replaceAll(email.link!, LINK_PLACEHOLDER),
      link: inClear ? (email.link ?? null) : null,
      linkSealed: inClear ? null : seal(LINK_SEAL, email.link!),
    },
    select: { id: true },
  });
  await sendInTransaction(tx, QUEUES.email.name, { email: row.id });
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
export async function listOutbox(client: DbClient, limit = 50): Promise<OutboxEntry[]> {
  const rows = await client.outboxEmail.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
  return rows.map((r) => ({ id: r.id, to: r.toAddress, subject: r.subject, text: r.body, status: r.status, createdAt: r.createdAt }));
}
