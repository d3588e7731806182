import { protectedResourceMetadataRoute } from "@/lib/http/oauth-metadata";

export const dynamic = "force-dynamic";

/** RFC 9728 metadata of the UCP endpoint (/api/ucp): identity linking through this app's OAuth server. */
export const { GET, OPTIONS } = protectedResourceMetadataRoute("ucp");
