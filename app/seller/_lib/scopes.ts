import type { SellerScope } from "@/lib/auth/scopes";

/** What each scope lets a key do, as the keys page and the help article say it. */
export const SCOPE_DESCRIPTIONS: Record<SellerScope, string> = {
  "listings:read": "read listings, shipping templates and the change feed",
  "listings:write": "create and update listings, publish, change status, adjust stock",
  "shipping:write": "create and update shipping templates",
  "orders:read": "read the store's orders and the orders change feed",
  "orders:write": "mark the store's orders shipped and delivered, handle returns",
  "webhooks:read": "read the store's webhook endpoints and their delivery log",
  "webhooks:write": "register, change and delete webhook endpoints, rotate their secrets, replay deliveries",
  "audit:read": "read the store's audit log",
};
