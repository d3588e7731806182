import { notFound } from "next/navigation";
import { storesOwnedBy } from "@/lib/accounts/users";
import { AppError } from "@/lib/errors";
import { withDb, type Tx } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { safeNextPath } from "@/lib/http/next-path";
import type { OwnedStore } from "@/lib/seller/dashboard/stores";
import { ownedStores, sellerUser } from "./access";
import { notFoundResponse, ownerChange, refused, seeOther, withParams } from "./post";
import { pathSegment } from "@/app/_lib/form-post";

/**
 * The order desk works across every store the signed-in person owns (/seller/orders,
 * /seller/returns), optionally narrowed to one (`?store=<slug>`); a store they do not own in that
 * parameter is the not-found page, like any other store's page.
 */
export async function deskScope(path: string, storeParam: string | string[] | undefined) {
  const user = await sellerUser(path);
  const stores = await ownedStores(user.id);
  const slug = typeof storeParam === "string" && storeParam !== "" ? storeParam : undefined;
  const chosen = slug === undefined ? undefined : stores.find((s) => s.slug === slug);
  if (slug !== undefined && !chosen) notFound();
  return { user, stores, chosen, storeIds: (chosen ? [chosen] : stores).map((s) => s.id) };
}

/** The stores the poster of a desk form owns: what the post may act for. */
export function postersStores(userId: string): Promise<OwnedStore[]> {
  return withDb((client) => storesOwnedBy(client, userId));
}

/** Where a desk post goes back to: a desk page named by the form, else `fallback`. */
export function deskReturnPath(value: string | undefined, fallback: string): string {
  return safeNextPath(value, fallback, (path) => /^\/seller\/(orders|returns)(\/|\?|$)/.test(path));
}

/**
 * "Mark shipped" and "Mark delivered" on an order page: the store named by the form (`store`, one
 * the poster owns), the order of the URL. 404 when either is not theirs; a refusal goes back to
 * the page on that store's form, changing nothing.
 */
export function partMoveRoute(name: string, move: (tx: Tx, storeId: string, order: string, form: Record<string, string>) => Promise<unknown>, notice: string) {
  return formRoute({ name, session: "required" }, async ({ request, form, user, requestId }) => {
    const number = pathSegment(request, 3);
    const store = (await postersStores(user!.id)).find((s) => s.slug === form.store);
    if (!store) return notFoundResponse();
    const page = `/seller/orders/${encodeURIComponent(number)}`;
    try {
      await ownerChange({ store, user: user!, requestId }, name.replace(/^seller\./, ""), { type: "order", id: number }, (tx) => move(tx, store.id, number, form));
      return seeOther(withParams(page, { notice }));
    } catch (err) {
      if (err instanceof AppError && err.code === "order_not_found") return notFoundResponse();
      return refused(page, `part-${store.slug}`, err, form);
    }
  });
}
