import { ucpCaller, ucpOtherMethods, ucpRoute } from "@/lib/http/protocols/ucp";
import { cancelUcpCheckout } from "@/lib/protocols/ucp";

/** UCP cancel_checkout (no body). */
export const POST = ucpRoute("checkout.cancel", { write: true }, async (ctx) => ({ status: 200, body: await cancelUcpCheckout(ucpCaller(ctx), ctx.params.id!) }));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = ucpOtherMethods(["POST"]);
