import type { DbClient } from "@/lib/db";

export interface OwnedStore {
  id: string;
  slug: string;
  name: string;
  status: "active" | "suspended" | "closed";
}

/**
 * The store with this slug when `userId` owns it, else null: the dashboard answers 404 for a store
 * that exists but is someone else's, exactly as for one that does not exist.
 */
export async function ownedStore(client: DbClient, userId: string, slug: string): Promise<OwnedStore | null> {
  if (slug.length > 100) return null;
  const row = await client.storeOwner.findFirst({
    where: { userId, store: { slug } },
    select: { store: { select: { id: true, slug: true, name: true, status: true } } },
  });
  return row?.store ?? null;
}
