import { protectedResourceMetadataRoute } from "@/lib/http/oauth-metadata";

export const dynamic = "force-dynamic";

/** RFC 9728 metadata of the buyer API (/api/v1/buyer). */
export const { GET, OPTIONS } = protectedResourceMetadataRoute("buyer_api");
