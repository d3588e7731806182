import { acpCallerOf, acpOtherMethods, acpRoute } from "@/lib/http/protocols/acp";
import { CancelRequest, cancelAcpCheckout, REASON_CODES } from "@/lib/protocols/acp";

/** ACP cancelCheckoutSession: the body (an intent trace) may be left out; an unknown reason counts as `other`. */
export const POST = acpRoute("checkout.cancel", { body: CancelRequest, optionalBody: true, write: true }, async (ctx) => {
  const reason = ctx.body?.intent_trace?.reason_code;
  const known = reason === undefined ? undefined : (REASON_CODES as readonly string[]).includes(reason) ? reason : "other";
  return { status: 200, body: await cancelAcpCheckout(acpCallerOf(ctx), ctx.params.id!, known) };
});
export const { OPTIONS, GET, PUT, PATCH, DELETE } = acpOtherMethods(["POST"]);
