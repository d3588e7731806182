import { ucpCaller, ucpOtherMethods, ucpRoute } from "@/lib/http/protocols/ucp";
import { CheckoutUpdate, getUcpCheckout, updateUcpCheckout } from "@/lib/protocols/ucp";

/** UCP get_checkout and update_checkout (PUT: the whole checkout). */
export const GET = ucpRoute("checkout.get", {}, async (ctx) => ({ status: 200, body: await getUcpCheckout(ucpCaller(ctx), ctx.params.id!) }));
export const PUT = ucpRoute("checkout.update", { body: CheckoutUpdate, write: true }, async (ctx) => ({
  status: 200,
  body: await updateUcpCheckout(ucpCaller(ctx), ctx.params.id!, ctx.body),
}));
export const { OPTIONS, POST, PATCH, DELETE } = ucpOtherMethods(["GET", "PUT"]);
