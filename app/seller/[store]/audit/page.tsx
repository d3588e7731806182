import type { Metadata } from "next";
import Link from "next/link";
import { When } from "@/app/_components/forms";
import { listAuditEvents } from "@/lib/audit";
import { AppError } from "@/lib/errors";
import { withDb } from "@/lib/http/database";
import { one, storeOfPage, type SearchParams } from "../../_lib/access";

export const metadata: Metadata = { title: "Audit log" };
export const dynamic = "force-dynamic";

const PAGE_SIZE = 50;

type Props = { params: Promise<{ store: string }>; searchParams: SearchParams };

/** The store's audit log: who changed what (keys, owners, the operator), refusals included, newest first. */
export default async function AuditLogPage({ params, searchParams }: Props) {
  const [{ store: slug }, sp] = await Promise.all([params, searchParams]);
  const { store } = await storeOfPage(slug, `/seller/${slug}/audit`);
  const cursor = one(sp.cursor);
  let page;
  try {
    page = await withDb((client) => listAuditEvents(client, store.id, { limit: PAGE_SIZE, cursor }));
  } catch (err) {
    if (!(err instanceof AppError) || err.param !== "cursor") throw err;
    page = await withDb((client) => listAuditEvents(client, store.id, { limit: PAGE_SIZE }));
  }
  return (
    <main className="page seller" data-page="seller-audit">
      <h1>Audit log</h1>
      <p>
        Every change to this store&apos;s listings, stock, shipping templates, orders, returns, API keys and webhooks, by an API key, an owner on this dashboard or the
        marketplace&apos;s operator, and every attempt that was refused, newest first. Keys with the <code>audit:read</code> scope read the same log through the API.
      </p>
      {page.list.length === 0 ? (
        <p data-empty="true">Nothing yet.</p>
      ) : (
        <table className="stack-table audit-table" aria-label="Audit log">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">On</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {page.list.map((event) => (
              <tr key={event.id} data-audit-action={event.action} data-audit-outcome={event.outcome}>
                <td data-label="When">
                  <When at={new Date(event.created_at)} />
                </td>
                <td data-label="Who">
                  {event.actor.type === "api_key" ? <code>{event.actor.label}</code> : event.actor.label}
                  <span className="muted"> ({event.actor.type === "api_key" ? "API key" : event.actor.type === "user" ? "dashboard" : "operator"})</span>
                </td>
                <td data-label="Action">
                  <code>{event.action}</code>
                </td>
                <td data-label="On">{event.target ? <code>{event.target.id ? `${event.target.type} ${event.target.id}` : event.target.type}</code> : "—"}</td>
                <td data-label="Outcome">
                  {event.outcome === "succeeded" ? (
                    "Done"
                  ) : (
                    <span>
                      Refused: <code>{event.error_code}</code>
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page.next_cursor ? (
        <p className="pagination">
          <Link href={`/seller/${store.slug}/audit?${new URLSearchParams({ cursor: page.next_cursor })}`} prefetch={false} rel="next">
            Older events
          </Link>
        </p>
      ) : null}
    </main>
  );
}
