import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AppError } from "@/lib/errors";
import { withDb } from "@/lib/http/database";
import { decodeFlash } from "@/lib/http/flash";
import { WEBHOOK_LIMITS, type WebhookDeliveryData } from "@/lib/schemas/seller/webhooks";
import { getWebhookEndpoint, listWebhookDeliveries } from "@/lib/seller/webhooks";
import { FormState, Notice, When } from "@/app/_components/forms";
import { EndpointFields, EndpointStatus } from "../../../_components/EndpointFields";
import { one, storeOfPage, type SearchParams } from "../../../_lib/access";
import { WEBHOOK_NOTICES } from "../../../_lib/notices";
import { isNotFound } from "../../../_lib/webhooks";

export const metadata: Metadata = { title: "Webhook endpoint" };

type Props = { params: Promise<{ store: string; id: string }>; searchParams: SearchParams };

const PAGE_SIZE = 25;

const DELIVERY_STATUS_LABELS: Record<WebhookDeliveryData["status"], string> = {
  pending: "Pending",
  delivered: "Delivered",
  failed: "Failed",
  skipped: "Skipped",
};

export default async function WebhookEndpointPage({ params, searchParams }: Props) {
  const [{ store: slug, id }, sp] = await Promise.all([params, searchParams]);
  const { store } = await storeOfPage(slug, `/seller/${slug}/webhooks/${id}`);
  const endpoint = await withDb((client) => getWebhookEndpoint(client, store.id, id)).catch((err: unknown) => {
    if (isNotFound(err)) notFound();
    throw err;
  });
  const cursor = one(sp.cursor);
  let log;
  try {
    log = await withDb((client) => listWebhookDeliveries(client, store.id, { limit: PAGE_SIZE, cursor, endpoint_id: endpoint.id }));
  } catch (err) {
    if (!(err instanceof AppError) || err.param !== "cursor") throw err;
    log = await withDb((client) => listWebhookDeliveries(client, store.id, { limit: PAGE_SIZE, endpoint_id: endpoint.id }));
  }
  const flash = decodeFlash(one(sp.flash));
  const edit = new FormState("endpoint", flash);
  const remove = new FormState("delete", flash);
  const deliveries = new FormState("deliveries", flash);
  const page = `/seller/${store.slug}/webhooks/${endpoint.id}`;
  const here = cursor ? `${page}?cursor=${encodeURIComponent(cursor)}` : page;
  const enabled = endpoint.status === "enabled";
  return (
    <main className="page seller" data-page="seller-webhook" data-endpoint={endpoint.id} data-status={endpoint.status}>
      <p className="back">
        <Link href={`/seller/${store.slug}/webhooks`}>← Webhooks</Link>
      </p>
      <h1>Webhook endpoint</h1>
      <Notice notices={WEBHOOK_NOTICES} notice={one(sp.notice)} />
      <dl className="facts">
        <dt>Endpoint URL</dt>
        <dd>
          <code>{endpoint.url}</code>
        </dd>
        <dt>Description</dt>
        <dd>{endpoint.description ?? <span className="muted">none</span>}</dd>
        <dt>Events</dt>
        <dd>
          {endpoint.events.map((t) => (
            <code key={t} className="scope">
              {t}
            </code>
          ))}
        </dd>
        <dt>Status</dt>
        <dd>
          <EndpointStatus status={endpoint.status} reason={endpoint.disabled_reason} />
        </dd>
        <dt>Created</dt>
        <dd>
          <When at={endpoint.created_at} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <When at={endpoint.updated_at} />
        </dd>
      </dl>

      <section className="panel" aria-labelledby="edit-endpoint-heading">
        <h2 id="edit-endpoint-heading">Change the endpoint</h2>
        <form method="post" action={`${page}/update`} className="stacked-form" aria-labelledby="edit-endpoint-heading">
          {edit.alert()}
          <input type="hidden" name="was_url" value={endpoint.url} />
          <EndpointFields state={edit} url={endpoint.url} events={endpoint.events} description={endpoint.description} />
          <button type="submit">Save endpoint</button>
        </form>
      </section>

      <section className="panel" aria-labelledby="status-heading">
        <h2 id="status-heading">Deliveries to this endpoint</h2>
        {enabled ? (
          <p>Events are sent to it as they happen. Disable it to stop them: deliveries still waiting are skipped, and nothing is sent until you enable it.</p>
        ) : (
          <p>Nothing is sent to it while it is disabled. Enabling it sends the events that happen from then on; replay earlier ones from the delivery log.</p>
        )}
        <form method="post" action={`${page}/status`} className="inline-form" aria-labelledby="status-heading">
          <input type="hidden" name="status" value={enabled ? "disabled" : "enabled"} />
          <button type="submit" className={enabled ? "secondary" : undefined}>
            {enabled ? "Disable" : "Enable"}
          </button>
        </form>
      </section>

      <section className="panel" aria-labelledby="secret-heading">
        <h2 id="secret-heading">Signing secret</h2>
        <p>
          Each delivery is signed with the endpoint&apos;s secret (the <code>webhook-signature</code> header). The secret was shown once, when the endpoint was
          added; rotating makes a new one, shown once. The previous secret keeps signing alongside it for {WEBHOOK_LIMITS.rotationOverlapHours} hours, so
          your receiver can switch without missing an event.
        </p>
        {endpoint.previous_secret_expires_at ? (
          <p data-previous-secret-expires-at={endpoint.previous_secret_expires_at}>
            The previous secret signs too until <When at={endpoint.previous_secret_expires_at} />.
          </p>
        ) : null}
        <form method="post" action={`${page}/rotate`} className="inline-form" aria-labelledby="secret-heading">
          <button type="submit">Rotate secret</button>
        </form>
      </section>

      <section className="panel" aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete the endpoint</h2>
        <form method="post" action={`${page}/delete`} className="stacked-form" aria-labelledby="delete-heading">
          {remove.alert()}
          <label className="check">
            <input type="checkbox" {...remove.field("confirm")} required />{" "}
            <span className="check-text">Yes, delete this endpoint and its delivery log. Nothing more is sent to it.</span>
          </label>
          <button type="submit" className="danger">
            Delete endpoint
          </button>
        </form>
      </section>

      <section aria-labelledby="log-heading">
        <h2 id="log-heading">Delivery log</h2>
        <p className="muted">Newest first. A failed attempt is retried for about three days; Replay sends the event again, with the same event id.</p>
        {deliveries.alert()}
        {log.list.length === 0 ? (
          <p data-empty="true">No deliveries yet.</p>
        ) : (
          <table className="stack-table deliveries-table" aria-label="Delivery log">
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last attempt</th>
                <th scope="col">Next attempt</th>
                <th scope="col">Replay</th>
              </tr>
            </thead>
            <tbody>
              {log.list.map((d) => (
                <tr key={d.id} data-delivery={d.id} data-event-id={d.event_id} data-status={d.status} data-replay-of={d.replay_of ?? ""}>
                  <td data-label="Created">
                    <When at={d.created_at} />
                  </td>
                  <td data-label="Event">
                    <span>
                      <code>{d.event_type}</code> <code className="muted">{d.event_id}</code>
                      {d.replay_of ? <span className="muted"> (replay)</span> : null}
                    </span>
                  </td>
                  <td data-label="Status">{DELIVERY_STATUS_LABELS[d.status]}</td>
                  <td data-label="Attempts">{d.attempts}</td>
                  <td data-label="Last attempt">
                    <span>
                      {d.last_attempt_at ? (
                        <>
                          <When at={d.last_attempt_at} />
                          {d.last_status !== null ? ` · HTTP ${d.last_status}` : ""}
                        </>
                      ) : (
                        <span className="muted">none</span>
                      )}
                      {d.last_error ? <span className="muted"> · {d.last_error}</span> : null}
                    </span>
                  </td>
                  <td data-label="Next attempt">{d.next_attempt_at ? <When at={d.next_attempt_at} /> : <span className="muted">none</span>}</td>
                  <td data-label="Replay">
                    <form method="post" action={`${page}/deliveries/${d.id}/replay`} className="inline-form">
                      <input type="hidden" name="return_to" value={here} />
                      <button type="submit" className="secondary" aria-label={`Replay ${d.event_type} event ${d.event_id}`}>
                        Replay
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {log.next_cursor ? (
          <p className="pagination">
            <Link href={`${page}?cursor=${encodeURIComponent(log.next_cursor)}`} prefetch={false} rel="next">
              Older deliveries
            </Link>
          </p>
        ) : null}
      </section>
    </main>
  );
}
