import nodemailer, { type Transporter } from "nodemailer";
import { config } from "@/lib/config";
import type { DbClient } from "@/lib/db";
import { unseal } from "@/lib/keys";
import { logEvent } from "@/lib/log";
import { LINK_PLACEHOLDER, LINK_SEAL } from "./send";

/**
 * One attempt at sending an e-mail (an `email` job, after the transaction that wrote it
 * committed). Outbox mode writes the JSON line a developer signs in with (its link only where
 * links are kept in clear: never in production); smtp mode hands the message to SMTP_URL's server
 * and logs neither link nor body (a sign-in link is a secret once it leaves the machine). A failure is recorded on the row and thrown, so the queue retries it;
 * the last one marks the row `failed`. A message sent whose row could not then be marked is sent
 * again on the retry: at least once.
 */
export async function deliverEmail(client: DbClient, id: string, { lastAttempt }: { lastAttempt: boolean }, now = new Date()): Promise<void> {
  const email = await client.outboxEmail.findUnique({ where: { id } });
  if (!email || email.status !== "queued") return;
  const { smtp } = config();
  // A sealed link goes back into the text only on its way to the SMTP server, and is dropped once
  // the message is sent or failed for good.
  const text = email.linkSealed ? email.body.replaceAll(LINK_PLACEHOLDER, unseal(LINK_SEAL, email.linkSealed)) : email.body;
  try {
    if (smtp) await transport(smtp.url).sendMail({ from: smtp.from, to: email.toAddress, subject: email.subject, text });
    await client.outboxEmail.update({ where: { id }, data: { status: "sent", attempts: { increment: 1 }, lastError: null, sentAt: now, linkSealed: null } });
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    await client.outboxEmail.update({
      where: { id },
      data: { status: lastAttempt ? "failed" : "queued", attempts: { increment: 1 }, lastError: error, ...(lastAttempt ? { linkSealed: null } : {}) },
    });
    // Servers often quote the recipient in their answer: the log names no address.
    logEvent(lastAttempt ? "error" : "warn", lastAttempt ? "email failed for good" : "email failed; it will be retried", {
      email: id,
      attempt: email.attempts + 1,
      error: error.replaceAll(email.toAddress, "<recipient>"),
    });
    throw new Error(error);
  }
  if (smtp) logEvent("info", "email sent", { email: id, attempt: email.attempts + 1 });
  else {
    process.stdout.write(
      `${JSON.stringify({ level: "info", msg: "email", to: email.toAddress, subject: email.subject, ...(email.link ? { link: email.link } : {}) })}\n`,
    );
  }
}

// Nodemailer's own timeouts wait minutes for a silent server; a job expires after 2 (QUEUES.email).
// SMTP_URL's query may set these and any other transport option (`?tls.rejectUnauthorized=false`).
const TIMEOUTS = { connectionTimeout: "10000", greetingTimeout: "10000", socketTimeout: "30000" };

let transporter: Transporter | undefined;

function transport(smtpUrl: string): Transporter {
  if (!transporter) {
    const url = new URL(smtpUrl);
    for (const [key, value] of Object.entries(TIMEOUTS)) if (!url.searchParams.has(key)) url.searchParams.set(key, value);
    transporter = nodemailer.createTransport(url.toString());
  }
  return transporter;
}
