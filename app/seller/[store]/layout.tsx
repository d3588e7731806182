import type { ReactNode } from "react";
import { getSessionUser } from "@/lib/http/session";
import { withDb } from "@/lib/http/database";
import { ownedStore } from "@/lib/seller/dashboard/stores";
import { StoreNav } from "../_components/StoreNav";
import { ownedStores } from "../_lib/access";

type Props = { children: ReactNode; params: Promise<{ store: string }> };

// The store's navigation, when the visitor owns it; otherwise the page alone, which sends a
// signed-out visitor to sign in and answers 404 for a store they do not own.
export default async function StoreLayout({ children, params }: Props) {
  const [{ store: slug }, user] = await Promise.all([params, getSessionUser()]);
  const store = user ? await withDb((client) => ownedStore(client, user.id, slug)) : null;
  if (!user || !store) return children;
  const stores = await ownedStores(user.id);
  return (
    <>
      <StoreNav store={store} stores={stores} />
      {children}
    </>
  );
}
