import { acpCallerOf, acpOtherMethods, acpRoute } from "@/lib/http/protocols/acp";
import { CheckoutComplete, completeAcpCheckout } from "@/lib/protocols/acp";

/** ACP completeCheckoutSession: one charge, one order per store. */
export const POST = acpRoute("checkout.complete", { body: CheckoutComplete, write: true }, async (ctx) => completeAcpCheckout(acpCallerOf(ctx), ctx.params.id!, ctx.body));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = acpOtherMethods(["POST"]);
