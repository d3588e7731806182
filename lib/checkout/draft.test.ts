/**
 * The checkout draft (lib/checkout/draft.ts): only contact and address fields are kept, never a
 * card number or CVC, and nothing jsonb or checkout would refuse.
 */
import { describe, expect, it } from "vitest";
import { draftOf } from "./draft";

describe("draftOf", () => {
  it("keeps the contact and address fields and drops card data and unknown names", () => {
    expect(
      draftOf({ email: "a@example.com", full_name: "A B", line1: "1 Main", city: "X", state: "IL", postal_code: "62701", card_number: "4242 4242 4242 4242", cvc: "123", address: "saved" }),
    ).toEqual({ email: "a@example.com", full_name: "A B", line1: "1 Main", city: "X", state: "IL", postal_code: "62701" });
  });

  it("drops blank, over-long, control-character and non-string values", () => {
    expect(draftOf({ line1: "x".repeat(201), line2: "  ", city: "Spring\u0000field", state: "I\u0007L", full_name: 42, postal_code: "12345" })).toEqual({ postal_code: "12345" });
  });
});
