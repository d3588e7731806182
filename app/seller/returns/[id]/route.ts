import { AppError } from "@/lib/errors";
import { withDb } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { isReturnMove, moveReturn, RETURN_MOVES, storeOfReturn } from "@/lib/returns";
import { pathSegment } from "@/app/_lib/form-post";
import { deskReturnPath, postersStores } from "../../_lib/desk";
import { notFoundResponse, ownerChange, refused, seeOther, withParams } from "../../_lib/post";

// A return's buttons (`move`: approve, receive, refund, reject), for any store the poster owns.
export const POST = formRoute({ name: "seller.returns.move", session: "required" }, async ({ request, form, user, requestId }) => {
  const id = pathSegment(request, 3);
  const stores = await postersStores(user!.id);
  const back = deskReturnPath(form.return_to, "/seller/returns");
  try {
    if (!isReturnMove(form.move)) throw new AppError("parameter_invalid", "Choose one of the return's buttons.", "move");
    const move = form.move;
    const storeId = await withDb((client) => storeOfReturn(client, stores.map((s) => s.id), id));
    if (!storeId) return notFoundResponse();
    await ownerChange({ store: { id: storeId }, user: user!, requestId }, `returns.${move}`, { type: "return", id }, (tx) => moveReturn(tx, [storeId], id, move));
    return seeOther(withParams(back, { notice: RETURN_MOVES[move].to }));
  } catch (err) {
    if (err instanceof AppError && err.code === "return_not_found") return notFoundResponse();
    return refused(back, "returns", err, {});
  }
});
