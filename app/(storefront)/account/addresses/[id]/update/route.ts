import { updateAddress } from "@/lib/accounts/addresses";
import { transaction } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { accountPath, answerRefusal, seeOther } from "../../../_lib/post";

export const POST = formRoute({ name: "account.addresses.update", session: "required" }, async ({ request, form, user }) => {
  const [, id = ""] = accountPath(request);
  try {
    await transaction((tx) => updateAddress(tx, user!.id, id, form));
    return seeOther("/account?notice=address_saved");
  } catch (err) {
    return answerRefusal(err, `/account/addresses/${encodeURIComponent(id)}`, "address-edit", form);
  }
});
