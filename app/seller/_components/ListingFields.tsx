import { CONDITION_LABELS, CONDITIONS } from "@/lib/schemas/catalog";
import type { TemplateOption } from "@/lib/seller/dashboard/catalog";
import type { FormState } from "@/app/_components/forms";

export interface ListingValues {
  sku: string;
  condition: string;
  price_cents: number | null;
  list_price_cents: number | null;
  quantity: number;
  allow_backorder: boolean;
  shipping_template_id: string | null;
}

export const dollars = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2));

/**
 * The offer's own fields, shared by the create and edit forms. On the edit form, `was_<field>`
 * inputs carry the values it was shown with, so that only what the person changed is sent.
 */
export function ListingFields({
  state,
  values,
  templates,
  edit = false,
}: {
  state: FormState;
  values: ListingValues;
  templates: TemplateOption[];
  edit?: boolean;
}) {
  const was = (name: string, value: string) => (edit ? <input type="hidden" name={`was_${name}`} value={value} /> : null);
  return (
    <fieldset>
      <legend>Your offer</legend>
      <div className="field-grid">
        <label>
          SKU (your own reference, unique in this store)
          <input {...state.field("sku")} defaultValue={state.value("sku", values.sku)} required maxLength={64} autoComplete="off" />
          {was("sku", values.sku)}
        </label>
        <label>
          Condition
          <select {...state.field("condition")} defaultValue={state.value("condition", values.condition)}>
            {CONDITIONS.map((c) => (
              <option key={c} value={c}>
                {CONDITION_LABELS[c]}
              </option>
            ))}
          </select>
          {was("condition", values.condition)}
        </label>
        <label>
          Price (US dollars)
          <input
            {...state.field("price")}
            defaultValue={state.value("price", dollars(values.price_cents))}
            inputMode="decimal"
            placeholder="19.99"
            required
            maxLength={20}
          />
          {was("price", dollars(values.price_cents))}
        </label>
        <label>
          List price (US dollars; blank: same as the price)
          <input
            {...state.field("list_price")}
            defaultValue={state.value("list_price", edit ? dollars(values.list_price_cents) : "")}
            inputMode="decimal"
            maxLength={20}
          />
          {was("list_price", dollars(values.list_price_cents))}
        </label>
        <label>
          Quantity in stock
          <input
            {...state.field("quantity")}
            type="number"
            min={0}
            max={1_000_000}
            step={1}
            defaultValue={state.value("quantity", values.quantity)}
            required
          />
          {was("quantity", String(values.quantity))}
        </label>
        <label>
          Shipping template
          <select {...state.field("shipping_template_id")} defaultValue={state.value("shipping_template_id", values.shipping_template_id ?? "")}>
            <option value="">None yet (needed to publish)</option>
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
          {was("shipping_template_id", values.shipping_template_id ?? "")}
        </label>
      </div>
      <label className="check">
        <input type="hidden" name="has_allow_backorder" value="1" />
        <input type="checkbox" {...state.field("allow_backorder")} defaultChecked={state.checked("allow_backorder", values.allow_backorder)} />{" "}
        Allow backorder (keep selling at zero stock)
        {edit ? <input type="hidden" name="was_allow_backorder" value={values.allow_backorder ? "on" : ""} /> : null}
      </label>
    </fieldset>
  );
}
