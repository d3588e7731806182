import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { withDb } from "@/lib/http/database";
import { getSessionUser } from "@/lib/http/session";
import { config } from "@/lib/config";
import { listOutbox } from "@/lib/email/send";

export const metadata: Metadata = { title: "Outbox (development)", robots: { index: false } };
export const dynamic = "force-dynamic";

const URL_IN_TEXT = /(https?:\/\/[^\s<>"]+)/g;

/**
 * The e-mails the app sent (with EMAIL_DELIVERY=outbox, only here and in the log), newest first,
 * links clickable: how a developer opens a sign-in link. Outside development it would hand anyone
 * every sign-in link, so it is served there only with DEV_OUTBOX=on, to signed-in marketplace
 * admins, never on https (tests and demos); everyone else gets the not-found page. (In production
 * the stored bodies hold no link anyway, unless OUTBOX_KEEPS_LINKS=on.)
 */
export default async function OutboxPage() {
  const audience = config().devOutbox;
  if (audience === "nobody") notFound();
  if (audience === "admins" && (await getSessionUser())?.role !== "admin") notFound();
  const emails = await withDb((client) => listOutbox(client, 50));
  const smtp = config().emailDelivery === "smtp";
  return (
    <main className="page outbox" data-page="outbox">
      <h1>Outbox</h1>
      <p className="muted">
        {smtp ? "E-mails are sent through SMTP" : "E-mails are not sent in this mode"}: the newest 50 are listed here, newest first.
      </p>
      {emails.length === 0 ? <p data-outbox-empty="">No e-mail yet.</p> : null}
      {emails.map((email) => (
        <article key={email.id} data-email-to={email.to} aria-label={`${email.subject} to ${email.to}`}>
          <h2>{email.subject}</h2>
          <p className="muted">
            To {email.to} · <span data-email-status={email.status}>{email.status}</span> · <time dateTime={email.createdAt.toISOString()}>{email.createdAt.toISOString()}</time>
          </p>
          <pre>
            {email.text.split(URL_IN_TEXT).map((part, i) =>
              i % 2 === 1 ? (
                <a key={i} href={part}>
                  {part}
                </a>
              ) : (
                part
              ),
            )}
          </pre>
        </article>
      ))}
    </main>
  );
}
