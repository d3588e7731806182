import type { Metadata } from "next";
import Link from "next/link";
import { formatCents } from "@/lib/catalog/money";
import { withDb } from "@/lib/http/database";
import { shippingTemplatesOfStore } from "@/lib/seller/dashboard/shipping";
import { Notice, When } from "@/app/_components/forms";
import { one, storeOfPage, type SearchParams } from "../../_lib/access";
import { SHIPPING_NOTICES } from "../../_lib/notices";

export const metadata: Metadata = { title: "Shipping templates" };

type Props = { params: Promise<{ store: string }>; searchParams: SearchParams };

export default async function ShippingTemplatesPage({ params, searchParams }: Props) {
  const [{ store: slug }, sp] = await Promise.all([params, searchParams]);
  const { store } = await storeOfPage(slug, `/seller/${slug}/shipping`);
  const templates = await withDb((client) => shippingTemplatesOfStore(client, store.id));
  return (
    <main className="page seller" data-page="seller-shipping">
      <div className="page-head">
        <h1>Shipping templates</h1>
        <Link className="button" href={`/seller/${store.slug}/shipping/new`}>
          New shipping template
        </Link>
      </div>
      <Notice notices={SHIPPING_NOTICES} notice={one(sp.notice)} />
      <p className="muted">Every listing needs a shipping template before it can be published. Shoppers see the US (else *) standard rate.</p>
      {templates.length === 0 ? (
        <p data-empty="true">No shipping templates yet.</p>
      ) : (
        <ul className="template-list" aria-label="Shipping templates">
          {templates.map((t) => (
            <li key={t.id} className="card" data-template={t.id}>
              <h2>
                <Link href={`/seller/${store.slug}/shipping/${t.id}`}>{t.name}</Link>
              </h2>
              <p className="muted">
                Handling {t.handlingDays} {t.handlingDays === 1 ? "day" : "days"} · used by {t._count.listings}{" "}
                {t._count.listings === 1 ? "listing" : "listings"} · updated <When at={t.updatedAt} />
              </p>
              <ul className="rates" aria-label={`Rates of ${t.name}`}>
                {t.rates.map((r, i) => (
                  <li key={i}>
                    <strong>{r.region === "*" ? "Everywhere else" : r.region}</strong> {r.service}: {r.priceCents === 0 ? "free" : formatCents(r.priceCents)}
                    {r.freeOverCents !== null ? `, free over ${formatCents(r.freeOverCents)}` : ""}, {r.minDays}–{r.maxDays} days
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
