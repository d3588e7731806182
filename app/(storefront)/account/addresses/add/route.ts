import { addAddress } from "@/lib/accounts/addresses";
import { transaction } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { refused, seeOther } from "../../_lib/post";

export const POST = formRoute({ name: "account.addresses.add", session: "required" }, async ({ form, user }) => {
  try {
    await transaction((tx) => addAddress(tx, user!.id, form, { makeDefault: form.make_default === "on" }));
    return seeOther("/account?notice=address_added");
  } catch (err) {
    return refused("/account", "address-add", err, form);
  }
});
