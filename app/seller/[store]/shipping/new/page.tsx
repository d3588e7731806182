import type { Metadata } from "next";
import Link from "next/link";
import { decodeFlash } from "@/lib/http/flash";
import { FormState } from "@/app/_components/forms";
import { TemplateFields } from "../../../_components/TemplateFields";
import { one, storeOfPage, type SearchParams } from "../../../_lib/access";

export const metadata: Metadata = { title: "New shipping template" };

type Props = { params: Promise<{ store: string }>; searchParams: SearchParams };

export default async function NewShippingTemplatePage({ params, searchParams }: Props) {
  const [{ store: slug }, sp] = await Promise.all([params, searchParams]);
  const { store } = await storeOfPage(slug, `/seller/${slug}/shipping/new`);
  const state = new FormState("template", decodeFlash(one(sp.flash)));
  return (
    <main className="page seller" data-page="seller-shipping-new">
      <p className="back">
        <Link href={`/seller/${store.slug}/shipping`}>← Shipping templates</Link>
      </p>
      <h1>New shipping template</h1>
      <form method="post" action={`/seller/${store.slug}/shipping/create`} className="stacked-form" aria-label="New shipping template">
        {state.alert()}
        <TemplateFields state={state} name="" handlingDays={1} rates={[]} />
        <button type="submit">Create shipping template</button>
      </form>
    </main>
  );
}
