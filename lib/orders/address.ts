import { AppError } from "@/lib/errors";
import type { ShippingAddressData } from "@/lib/schemas/orders";

/**
 * A shipping address as checkout takes it: trimmed, Unicode NFC, bounded, no control characters.
 * Every refusal is a 400 `parameter_invalid` naming the field (`shipping_address.city`).
 */

export const ADDRESS_LIMITS = {
  full_name: 100,
  line1: 200,
  line2: 200,
  city: 100,
  state: 100,
  postal_code: 20,
} as const;

/** What a person types; `country` defaults to `US`. */
export interface AddressInput {
  full_name?: string;
  line1?: string;
  line2?: string | null;
  city?: string;
  state?: string;
  postal_code?: string;
  country?: string;
}

const FIELD_WORDS: Record<keyof typeof ADDRESS_LIMITS, string> = {
  full_name: "full name",
  line1: "first address line",
  line2: "second address line",
  city: "city",
  state: "state",
  postal_code: "ZIP code",
};

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const US_ZIP = /^[0-9]{5}(-[0-9]{4})?$/;
const COUNTRY = /^[A-Z]{2}$/;

function field(input: AddressInput, name: keyof typeof ADDRESS_LIMITS, prefix: string, required: boolean): string | null {
  const raw = input[name];
  const param = `${prefix}${name}`;
  if (raw !== undefined && raw !== null && typeof raw !== "string") throw new AppError("parameter_invalid", `The ${FIELD_WORDS[name]} must be text.`, param);
  const value = (raw ?? "").normalize("NFC").trim();
  if (!value) {
    if (required) throw new AppError("parameter_missing", `Enter the ${FIELD_WORDS[name]}.`, param);
    return null;
  }
  if (value.length > ADDRESS_LIMITS[name]) {
    throw new AppError("parameter_invalid", `The ${FIELD_WORDS[name]} is too long (at most ${ADDRESS_LIMITS[name]} characters).`, param);
  }
  if (CONTROL.test(value)) throw new AppError("parameter_invalid", `The ${FIELD_WORDS[name]} contains control characters; type it on one line.`, param);
  return value;
}

/** The address, checked; `prefix` is how the caller names the object (`shipping_address.`). */
export function parseShippingAddress(input: AddressInput, prefix = "shipping_address."): ShippingAddressData {
  const country = (input.country ?? "US").trim().toUpperCase();
  if (!COUNTRY.test(country)) throw new AppError("parameter_invalid", "The country must be a two-letter ISO 3166-1 code.", `${prefix}country`);
  const address: ShippingAddressData = {
    full_name: field(input, "full_name", prefix, true)!,
    line1: field(input, "line1", prefix, true)!,
    line2: field(input, "line2", prefix, false),
    city: field(input, "city", prefix, true)!,
    // Outside the US an address may have no state.
    state: field(input, "state", prefix, country === "US") ?? "",
    postal_code: field(input, "postal_code", prefix, true)!,
    country,
  };
  if (country === "US") {
    // 9 digits typed without the dash are the same ZIP+4.
    if (/^[0-9]{9}$/.test(address.postal_code)) address.postal_code = `${address.postal_code.slice(0, 5)}-${address.postal_code.slice(5)}`;
    if (!US_ZIP.test(address.postal_code)) {
      throw new AppError("parameter_invalid", "Enter a US ZIP code: 5 digits, or 5+4 like 12345-6789.", `${prefix}postal_code`);
    }
  }
  return address;
}
