import type { Endpoint } from "@/lib/http/describe";

// Endpoint descriptions of this part of the seller API (filled in by its implementation).
export const SHIPPING_ENDPOINTS: Endpoint[] = [];
