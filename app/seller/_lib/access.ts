import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { getSessionUser } from "@/lib/http/session";
import { storesOwnedBy } from "@/lib/accounts/users";
import { withDb } from "@/lib/http/database";
import { ownedStore, type OwnedStore } from "@/lib/seller/dashboard/stores";

/** The signed-in user, or a redirect to the sign-in page that comes back to `path`. */
export const sellerUser = cache(async (path: string) => {
  const user = await getSessionUser();
  if (!user) redirect(`/signin?next=${encodeURIComponent(path)}`);
  return user;
});

/** The stores the signed-in user owns (a page's layout and the page itself share one query). */
export const ownedStores = cache(async (userId: string) => withDb((client) => storesOwnedBy(client, userId)));

/**
 * The store of a dashboard URL, owned by the signed-in user; anything else (no such store,
 * someone else's) is the not-found page, so a URL never tells whether another store exists.
 */
export const storeOfPage = cache(async (slug: string, path: string): Promise<{ user: { id: string; email: string }; store: OwnedStore }> => {
  const user = await sellerUser(path);
  const store = await withDb((client) => ownedStore(client, user.id, decodeSlug(slug)));
  if (!store) notFound();
  return { user, store };
});

function decodeSlug(slug: string): string {
  try {
    return decodeURIComponent(slug);
  } catch {
    return "";
  }
}

export { one, type SearchParams } from "@/app/_lib/form-post";
