import type { DbClient } from "@/lib/db";

/**
 * A store's status (spec 2.2): only an `active` store's listings are offers anywhere public, and
 * only its keys are accepted (lib/auth/api-keys.ts). Changing it takes effect at once: the
 * stores trigger of the search migration refreshes product_search for the store's products in
 * the same statement.
 */
export type StoreStatus = "active" | "suspended" | "closed";
export const STORE_STATUSES: readonly StoreStatus[] = ["active", "suspended", "closed"];

export function isStoreStatus(value: string): value is StoreStatus {
  return (STORE_STATUSES as readonly string[]).includes(value);
}

/** The store with this slug, or null. */
export async function findStoreBySlug(client: DbClient, slug: string) {
  return client.store.findUnique({ where: { slug }, select: { id: true, slug: true, name: true, status: true } });
}

/** Sets a store's status by slug; returns the new status, or null when no store has the slug. */
export async function setStoreStatus(client: DbClient, slug: string, status: StoreStatus): Promise<StoreStatus | null> {
  const { count } = await client.store.updateMany({ where: { slug }, data: { status } });
  return count === 0 ? null : status;
}
