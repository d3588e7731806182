import { AppError } from "@/lib/errors";
import { validateJson } from "@/lib/http/body";
import { transaction } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { requestReturn } from "@/lib/returns";
import { CreateReturn } from "@/lib/schemas/orders";
import { backWithFlash, notFoundResponse, pathSegment, seeOther } from "../../../_lib/post";

/**
 * The order page's return form: `quantity.<line id>` and `reason.<line id>` for each line of one
 * store's part (`store`), lines with a quantity of 0 left out. It becomes the buyer API's body
 * `{ lines: [{ order_line_id, quantity, reason }] }`, validated by its schema and made by the same
 * domain function. 303 back to the order page: with a notice, or with the refusal on the form.
 */
export const POST = formRoute({ name: "account.orders.return", session: "required" }, async ({ request, form, user }) => {
  const number = pathSegment(request, 3);
  const page = `/account/orders/${encodeURIComponent(number)}`;
  const formName = `return-${String(form.store ?? "").slice(0, 100)}`;
  const fields: string[] = [];
  try {
    const lines: { order_line_id: string; quantity: number; reason: string | undefined }[] = [];
    for (const [name, value] of Object.entries(form)) {
      const id = /^quantity\.(.{1,64})$/s.exec(name)?.[1];
      if (id === undefined) continue;
      const typed = value.trim();
      if (typed === "" || typed === "0") continue;
      if (!/^[0-9]{1,2}$/.test(typed)) throw new AppError("parameter_invalid", "Enter how many to return as a whole number.", name);
      const reason = form[`reason.${id}`];
      if (!reason) throw new AppError("parameter_missing", "Choose a reason for each item you return.", `reason.${id}`);
      lines.push({ order_line_id: id, quantity: Number(typed), reason });
      fields.push(id);
    }
    if (lines.length === 0) throw new AppError("parameter_missing", "Enter how many of at least one item you want to return.");
    const body = validateJson(CreateReturn, { lines });
    await transaction((tx) => requestReturn(tx, user!.id, number, body));
    return seeOther(`${page}?notice=return_requested#returns`);
  } catch (err) {
    if (err instanceof AppError && err.code === "order_not_found") return notFoundResponse("your account has no such order.");
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    const field = formField(err.param, fields);
    return backWithFlash(page, { form: formName, message: plain(err), field, values: form }, "returns");
  }
});

/** `lines[2].quantity` (the body's name) -> `quantity.<id>` (the form's). */
function formField(param: string | undefined, ids: string[]): string | undefined {
  const match = param ? /^lines\[(\d+)\]\.(order_line_id|quantity|reason)$/.exec(param) : null;
  if (!match) return param === "lines" ? undefined : param;
  const id = ids[Number(match[1])];
  return id === undefined ? undefined : `${match[2] === "reason" ? "reason" : "quantity"}.${id}`;
}

/** The domain's message without the body's field names, which mean nothing on the page. */
function plain(err: AppError): string {
  if (err.code === "order_not_returnable") return err.message;
  const text = err.message.replace(/^Invalid '[^']*': /, "").replace(/^Missing required field '[^']*'\.$/, "Fill in every item you return.");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
