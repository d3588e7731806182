/**
 * The rules of a saved shipping address (lib/accounts/addresses.ts `normaliseAddress`, checkout's
 * `parseShippingAddress` and a US state's 2-letter code): what is tidied, and which field each
 * refusal names. The pages and the database are covered by
 * tests/integration/account-addresses.test.ts.
 */
import { describe, expect, it } from "vitest";
import { normaliseAddress, type AddressInput } from "./addresses";
import { AppError } from "@/lib/errors";

const US: AddressInput = { full_name: "Dana Example", line1: "1 Main Street", city: "Springfield", state: "IL", postal_code: "62701", country: "US" };

function refusal(input: AddressInput): { code: string; param: string | undefined; message: string } {
  try {
    normaliseAddress(input);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    return { code: e.code, param: e.param, message: e.message };
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

describe("normaliseAddress", () => {
  it("trims, NFC-normalises, upper-cases state and country, writes a 9-digit ZIP with its dash, and a blank line 2 as null", () => {
    expect(
      normaliseAddress({ ...US, full_name: "  Zoe\u0308  ", line2: "   ", state: "il", country: "us", postal_code: "627011234" }),
    ).toEqual({ full_name: "Zoë", line1: "1 Main Street", line2: null, city: "Springfield", state: "IL", postal_code: "62701-1234", country: "US" });
    expect(normaliseAddress({ ...US, postal_code: "62701-1234" }).postal_code).toBe("62701-1234");
  });

  it("takes an address outside the US without a state and with any postal code", () => {
    expect(normaliseAddress({ ...US, country: "GB", state: "", postal_code: "SW1A 1AA", city: "London" })).toMatchObject({
      state: "",
      postal_code: "SW1A 1AA",
      country: "GB",
    });
  });

  it.each([
    [{ state: "Illinois" }, "state", "parameter_invalid"],
    [{ state: "" }, "state", "parameter_missing"],
    [{ state: "I1" }, "state", "parameter_invalid"],
    [{ postal_code: "6270" }, "postal_code", "parameter_invalid"],
    [{ postal_code: "6270112345" }, "postal_code", "parameter_invalid"],
    [{ postal_code: "62701 1234" }, "postal_code", "parameter_invalid"],
    [{ country: "USA" }, "country", "parameter_invalid"],
    [{ country: "U1" }, "country", "parameter_invalid"],
    [{ country: "" }, "country", "parameter_invalid"],
    [{ full_name: "" }, "full_name", "parameter_missing"],
    [{ line1: undefined }, "line1", "parameter_missing"],
    [{ city: " " }, "city", "parameter_missing"],
    [{ full_name: "a".repeat(101) }, "full_name", "parameter_invalid"],
    [{ line1: "a".repeat(201) }, "line1", "parameter_invalid"],
    [{ line2: "a".repeat(10_000) }, "line2", "parameter_invalid"],
    [{ city: "a".repeat(101) }, "city", "parameter_invalid"],
    [{ postal_code: "1".repeat(21) }, "postal_code", "parameter_invalid"],
    [{ full_name: "Dana\u0000" }, "full_name", "parameter_invalid"],
    [{ line1: "1 Main\r\nStreet" }, "line1", "parameter_invalid"],
    [{ line2: "\u009b" }, "line2", "parameter_invalid"],
    [{ city: "Spring\u2028field" }, "city", "parameter_invalid"],
  ] as Array<[Partial<AddressInput>, string, string]>)("refuses %j naming %s", (change, param, code) => {
    expect(refusal({ ...US, ...change })).toMatchObject({ code, param });
  });

  it("keeps the 100-character bounds exact", () => {
    expect(normaliseAddress({ ...US, full_name: "a".repeat(100), city: "b".repeat(100), line1: "c".repeat(200) }).full_name).toHaveLength(100);
  });
});
