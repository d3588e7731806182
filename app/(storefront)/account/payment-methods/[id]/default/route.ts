import { setDefaultPaymentMethod } from "@/lib/accounts/payment-methods";
import { transaction } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { accountPath, answerRefusal, seeOther } from "../../../_lib/post";

export const POST = formRoute({ name: "account.payment_methods.default", session: "required" }, async ({ request, form, user }) => {
  const [, id = ""] = accountPath(request);
  try {
    await transaction((tx) => setDefaultPaymentMethod(tx, user!.id, id));
    return seeOther("/account?notice=method_default");
  } catch (err) {
    return answerRefusal(err, "/account", "payment-method", form);
  }
});
