import { createCartLink } from "@/lib/cart/links";
import { otherMethods } from "@/lib/http/methods";
import { publicRoute } from "@/lib/http/route";
import { CartLinkRequest } from "@/lib/schemas/cart";

// No cache policy: the response is `Cache-Control: no-store` (spec 4.4 rule 7).
export const POST = publicRoute({ name: "public.cart_links", limit: "cart_links", body: CartLinkRequest }, async ({ body }) => ({
  data: await createCartLink(body),
}));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"]);
