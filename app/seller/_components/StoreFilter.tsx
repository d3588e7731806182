import type { OwnedStore } from "@/lib/seller/dashboard/stores";

/** For owners of several stores: show one store's orders or returns, or all (a GET form). */
export function StoreFilter({ action, stores, chosen }: { action: string; stores: OwnedStore[]; chosen: string | undefined }) {
  return (
    <form method="get" action={action} className="filters" aria-label="Filter by store">
      <label>
        Store
        <select name="store" defaultValue={chosen ?? ""}>
          <option value="">All your stores</option>
          {stores.map((s) => (
            <option key={s.id} value={s.slug}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Show</button>
    </form>
  );
}
