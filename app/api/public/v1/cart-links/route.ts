import { createCartLink } from "@/lib/cart/links";
import { cartLinksEndpoint } from "@/lib/endpoints/public";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

// No cache policy: the response is `Cache-Control: no-store` (spec 4.4 rule 7).
export const POST = route(cartLinksEndpoint, async ({ body, db }) => ({ data: await createCartLink(db, body) }));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"]);
