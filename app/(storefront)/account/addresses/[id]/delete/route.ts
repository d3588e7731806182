import { deleteAddress } from "@/lib/accounts/addresses";
import { transaction } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { accountPath, answerRefusal, seeOther } from "../../../_lib/post";

export const POST = formRoute({ name: "account.addresses.delete", session: "required" }, async ({ request, form, user }) => {
  const [, id = ""] = accountPath(request);
  try {
    await transaction((tx) => deleteAddress(tx, user!.id, id));
    return seeOther("/account?notice=address_deleted");
  } catch (err) {
    return answerRefusal(err, "/account", "address-list", form);
  }
});
