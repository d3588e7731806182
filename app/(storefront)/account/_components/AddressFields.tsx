import { ADDRESS_LABELS, ADDRESS_MAX, type AddressField } from "@/lib/accounts/addresses";
import type { FormState } from "@/app/_components/forms";

const AUTOCOMPLETE: Record<AddressField, string> = {
  full_name: "name",
  line1: "address-line1",
  line2: "address-line2",
  city: "address-level2",
  state: "address-level1",
  postal_code: "postal-code",
  country: "country",
};

const REQUIRED: ReadonlySet<AddressField> = new Set(["full_name", "line1", "city", "postal_code", "country"]);
const ORDER: AddressField[] = ["full_name", "line1", "line2", "city", "state", "postal_code", "country"];

/**
 * The fields of an address, labelled as checkout labels them. After a refused post they show what
 * was typed, and the field the message is about points at it.
 */
export function AddressFields({ state, values }: { state: FormState; values: Partial<Record<AddressField, string | null>> }) {
  return (
    <div className="field-grid address-fields">
      {ORDER.map((name) => (
        <label key={name}>
          {ADDRESS_LABELS[name]}
          <input
            type="text"
            {...state.field(name)}
            defaultValue={state.value(name, values[name])}
            autoComplete={AUTOCOMPLETE[name]}
            maxLength={ADDRESS_MAX[name]}
            required={REQUIRED.has(name)}
          />
        </label>
      ))}
    </div>
  );
}
