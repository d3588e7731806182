import { saveTestCard } from "@/lib/accounts/payment-methods";
import { transaction } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { answerRefusal, seeOther } from "../../_lib/post";

// Nothing is typed: the form is one button, and no card number is ever read or stored.
export const POST = formRoute({ name: "account.payment_methods.test_card", session: "required" }, async ({ form, user }) => {
  try {
    const { created } = await transaction((tx) => saveTestCard(tx, user!.id));
    return seeOther(`/account?notice=${created ? "card_saved" : "card_kept"}`);
  } catch (err) {
    return answerRefusal(err, "/account", "payment-method", form);
  }
});
