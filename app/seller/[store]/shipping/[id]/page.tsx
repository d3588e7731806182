import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { withDb } from "@/lib/http/database";
import { decodeFlash } from "@/lib/http/flash";
import { shippingTemplateForEdit } from "@/lib/seller/dashboard/shipping";
import { FormState, Notice } from "@/app/_components/forms";
import { TemplateFields } from "../../../_components/TemplateFields";
import { one, storeOfPage, type SearchParams } from "../../../_lib/access";
import { SHIPPING_NOTICES } from "../../../_lib/notices";

export const metadata: Metadata = { title: "Edit shipping template" };

type Props = { params: Promise<{ store: string; id: string }>; searchParams: SearchParams };

export default async function EditShippingTemplatePage({ params, searchParams }: Props) {
  const [{ store: slug, id }, sp] = await Promise.all([params, searchParams]);
  const { store } = await storeOfPage(slug, `/seller/${slug}/shipping/${id}`);
  const template = await withDb((client) => shippingTemplateForEdit(client, store.id, id));
  if (!template) notFound();
  const state = new FormState("template", decodeFlash(one(sp.flash)));
  return (
    <main className="page seller" data-page="seller-shipping-edit" data-template={template.id}>
      <p className="back">
        <Link href={`/seller/${store.slug}/shipping`}>← Shipping templates</Link>
      </p>
      <h1>{template.name}</h1>
      <Notice notices={SHIPPING_NOTICES} notice={one(sp.notice)} />
      <p className="muted">
        Used by {template._count.listings} {template._count.listings === 1 ? "listing" : "listings"}: a change applies to all of them at once.
      </p>
      <form method="post" action={`/seller/${store.slug}/shipping/${template.id}/update`} className="stacked-form" aria-label="Edit shipping template">
        {state.alert()}
        <TemplateFields state={state} name={template.name} handlingDays={template.handlingDays} rates={template.rates} />
        <button type="submit">Save shipping template</button>
      </form>
    </main>
  );
}
