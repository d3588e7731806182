import { acpCallerOf, acpOtherMethods, acpRoute } from "@/lib/http/protocols/acp";
import { CheckoutCreate, createAcpCheckout } from "@/lib/protocols/acp";

/** ACP createCheckoutSession: 201 with the session. */
export const POST = acpRoute("checkout.create", { body: CheckoutCreate, write: true }, async (ctx) => ({ status: 201, body: await createAcpCheckout(acpCallerOf(ctx), ctx.body) }));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = acpOtherMethods(["POST"]);
