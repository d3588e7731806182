import { acpCallerOf, acpOtherMethods, acpRoute } from "@/lib/http/protocols/acp";
import { CheckoutUpdate, getAcpCheckout, updateAcpCheckout } from "@/lib/protocols/acp";

/** ACP getCheckoutSession and updateCheckoutSession (POST: what it names changes, the rest stays). */
export const GET = acpRoute("checkout.get", {}, async (ctx) => ({ status: 200, body: await getAcpCheckout(acpCallerOf(ctx), ctx.params.id!) }));
export const POST = acpRoute("checkout.update", { body: CheckoutUpdate, write: true }, async (ctx) => ({ status: 200, body: await updateAcpCheckout(acpCallerOf(ctx), ctx.params.id!, ctx.body) }));
export const { OPTIONS, PUT, PATCH, DELETE } = acpOtherMethods(["GET", "POST"]);
