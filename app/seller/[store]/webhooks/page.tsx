import type { Metadata } from "next";
import Link from "next/link";
import { withDb } from "@/lib/http/database";
import { decodeFlash } from "@/lib/http/flash";
import { WEBHOOK_LIMITS } from "@/lib/schemas/seller/webhooks";
import { listWebhookEndpoints } from "@/lib/seller/webhooks";
import { FormState, Notice, When } from "@/app/_components/forms";
import { EndpointFields, EndpointStatus } from "../../_components/EndpointFields";
import { one, storeOfPage, type SearchParams } from "../../_lib/access";
import { WEBHOOK_NOTICES } from "../../_lib/notices";

export const metadata: Metadata = { title: "Webhooks" };

type Props = { params: Promise<{ store: string }>; searchParams: SearchParams };

export default async function WebhooksPage({ params, searchParams }: Props) {
  const [{ store: slug }, sp] = await Promise.all([params, searchParams]);
  const { store } = await storeOfPage(slug, `/seller/${slug}/webhooks`);
  // A store has at most endpointsMax endpoints: one page holds them all.
  const { list: endpoints } = await withDb((client) => listWebhookEndpoints(client, store.id, { limit: WEBHOOK_LIMITS.endpointsMax }));
  const state = new FormState("endpoint", decodeFlash(one(sp.flash)));
  return (
    <main className="page seller" data-page="seller-webhooks">
      <h1>Webhooks</h1>
      <Notice notices={WEBHOOK_NOTICES} notice={one(sp.notice)} />
      <p>
        Webhooks send this store&apos;s events (a new order, a shipment, a return, a listing sold out) to your own software as they happen, signed so it can
        tell they come from us. See <Link href="/help/seller-webhooks">Seller webhooks</Link>. A new endpoint&apos;s signing secret is shown once, when you add it.
      </p>
      <section className="panel" aria-labelledby="add-endpoint-heading">
        <h2 id="add-endpoint-heading">Add an endpoint</h2>
        <form method="post" action={`/seller/${store.slug}/webhooks/create`} className="stacked-form" aria-labelledby="add-endpoint-heading">
          {state.alert()}
          <EndpointFields state={state} events={[]} />
          <button type="submit">Add endpoint</button>
        </form>
      </section>
      <section aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">Endpoints of this store</h2>
        {endpoints.length === 0 ? (
          <p data-empty="true">No endpoints yet.</p>
        ) : (
          <table className="stack-table webhooks-table" aria-label="Webhook endpoints">
            <thead>
              <tr>
                <th scope="col">Endpoint URL</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((e) => (
                <tr key={e.id} data-endpoint={e.id} data-status={e.status}>
                  <td data-label="Endpoint URL">
                    <span>
                      <Link href={`/seller/${store.slug}/webhooks/${e.id}`}>
                        <code>{e.url}</code>
                      </Link>
                      {e.description ? <span className="muted"> {e.description}</span> : null}
                    </span>
                  </td>
                  <td data-label="Events">
                    <span>
                      {e.events.map((t) => (
                        <code key={t} className="scope">
                          {t}
                        </code>
                      ))}
                    </span>
                  </td>
                  <td data-label="Status">
                    <EndpointStatus status={e.status} reason={e.disabled_reason} />
                  </td>
                  <td data-label="Created">
                    <When at={e.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </main>
  );
}
