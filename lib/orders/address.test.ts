/** Checkout's shipping address check (lib/orders/address.ts): bounded, one line each, named refusals. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { parseShippingAddress } from "./address";

const good = { full_name: " Zoë  Guest ", line1: "1 Main St", city: "Springfield", state: "IL", postal_code: "62701" };

function refusal(input: object): AppError {
  try {
    parseShippingAddress(input);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("accepted");
}

describe("parseShippingAddress", () => {
  it("trims, fills line2 and country, keeps unicode", () => {
    expect(parseShippingAddress(good)).toEqual({ full_name: "Zoë  Guest", line1: "1 Main St", line2: null, city: "Springfield", state: "IL", postal_code: "62701", country: "US" });
    expect(parseShippingAddress({ ...good, postal_code: "62701-1234", line2: "Apt 4" }).line2).toBe("Apt 4");
  });

  it("names the field of every refusal", () => {
    expect(refusal({ ...good, line1: "x".repeat(10_000) }).param).toBe("shipping_address.line1");
    expect(refusal({ ...good, city: "a\u0000b" }).param).toBe("shipping_address.city");
    expect(refusal({ ...good, state: "a\u2028b" }).param).toBe("shipping_address.state");
    expect(refusal({ ...good, postal_code: "1234" }).param).toBe("shipping_address.postal_code");
    expect(refusal({ ...good, full_name: "  " }).code).toBe("parameter_missing");
    expect(refusal({ ...good, country: "USA" }).param).toBe("shipping_address.country");
  });

  it("never throws anything but an AppError, whatever is typed", () => {
    fc.assert(
      fc.property(fc.record({ full_name: fc.string(), line1: fc.string({ maxLength: 300 }), city: fc.string(), state: fc.string(), postal_code: fc.string() }), (input) => {
        try {
          const out = parseShippingAddress(input);
          expect(out.line1.length).toBeLessThanOrEqual(200);
        } catch (err) {
          expect(err).toBeInstanceOf(AppError);
        }
      }),
    );
  });
});
