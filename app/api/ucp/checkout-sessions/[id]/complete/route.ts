import { ucpCaller, ucpOtherMethods, ucpRoute } from "@/lib/http/protocols/ucp";
import { CheckoutComplete, completeUcpCheckout } from "@/lib/protocols/ucp";

/** UCP complete_checkout: one order per store, one charge; 200 with the completed checkout. */
export const POST = ucpRoute("checkout.complete", { body: CheckoutComplete, write: true }, async (ctx) => ({
  status: 200,
  body: await completeUcpCheckout(ucpCaller(ctx), ctx.params.id!, ctx.body),
}));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = ucpOtherMethods(["POST"]);
