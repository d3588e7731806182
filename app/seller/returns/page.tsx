import type { Metadata } from "next";
import Link from "next/link";
import { AppError } from "@/lib/errors";
import { withDb } from "@/lib/http/database";
import { listDeskReturns } from "@/lib/returns";
import { decodeFlash } from "@/lib/http/flash";
import { FormState, Notice } from "@/app/_components/forms";
import { NoStore } from "../_components/NoStore";
import { ReturnsTable } from "../_components/ReturnsTable";
import { StoreFilter } from "../_components/StoreFilter";
import { deskScope } from "../_lib/desk";
import type { SearchParams } from "../_lib/access";
import { RETURN_NOTICES } from "../_lib/notices";

export const metadata: Metadata = { title: "Returns" };
export const dynamic = "force-dynamic";

const PAGE_SIZE = 25;

/** Returns of the owner's stores (or of the one chosen), newest first, with their buttons. */
export default async function DeskReturnsPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const { stores, chosen, storeIds } = await deskScope("/seller/returns", sp.store);
  if (stores.length === 0) return <NoStore />;
  const cursor = typeof sp.cursor === "string" ? sp.cursor : undefined;
  let page;
  try {
    page = await withDb((client) => listDeskReturns(client, storeIds, { limit: PAGE_SIZE, cursor }));
  } catch (err) {
    if (!(err instanceof AppError) || err.param !== "cursor") throw err;
    page = await withDb((client) => listDeskReturns(client, storeIds, { limit: PAGE_SIZE }));
  }
  const keep: Record<string, string> = chosen ? { store: chosen.slug } : {};
  const here = `/seller/returns${Object.keys(keep).length ? `?${new URLSearchParams(keep)}` : ""}`;
  const more = new URLSearchParams({ ...keep, ...(page.next_cursor ? { cursor: page.next_cursor } : {}) });
  const flash = decodeFlash(typeof sp.flash === "string" ? sp.flash : undefined);
  return (
    <main className="page seller" data-page="seller-returns">
      <div className="page-head">
        <h1>Returns</h1>
        <Link href={chosen ? `/seller/orders?store=${chosen.slug}` : "/seller/orders"}>Orders</Link>
      </div>
      <Notice notices={RETURN_NOTICES} notice={typeof sp.notice === "string" ? sp.notice : undefined} />
      {new FormState("returns", flash).alert()}
      <p>
        A return moves from requested to approved, received and refunded, or is rejected (while requested or approved). Refund pays back the returned
        items at the price the buyer paid, to the payment method of the order.
      </p>
      {stores.length > 1 ? <StoreFilter action="/seller/returns" stores={stores} chosen={chosen?.slug} /> : null}
      {page.list.length === 0 ? (
        <p data-empty="true">No returns.</p>
      ) : (
        <ReturnsTable returns={page.list} returnTo={here} showStore={stores.length > 1 && !chosen} />
      )}
      {page.next_cursor ? (
        <p className="pagination">
          <Link href={`/seller/returns?${more}`} prefetch={false} rel="next">
            Older returns
          </Link>
        </p>
      ) : null}
    </main>
  );
}
