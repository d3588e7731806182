import { ucpCaller, ucpOtherMethods, ucpRoute } from "@/lib/http/protocols/ucp";
import { CheckoutCreate, createUcpCheckout } from "@/lib/protocols/ucp";

/** UCP create_checkout (checkout-rest.md): 201 with the checkout. */
export const POST = ucpRoute("checkout.create", { body: CheckoutCreate, write: true }, async (ctx) => ({
  status: 201,
  body: await createUcpCheckout(ucpCaller(ctx), ctx.body),
}));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = ucpOtherMethods(["POST"]);
