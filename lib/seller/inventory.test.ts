/**
 * The inventory batch's rule (lib/seller/inventory.ts `planInventoryBatch`): adjustments in
 * request order, each on the quantity the ones before it left, all or none. The locking and the
 * write are covered by tests/integration/seller-inventory.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { LISTING_LIMITS } from "@/lib/schemas/seller/listings";
import { planInventoryBatch, type HeldListing } from "./inventory";

const A = "00000000-0000-4000-8000-00000000000a";
const B = "00000000-0000-4000-8000-00000000000b";

const held = (entries: Record<string, Partial<HeldListing>> = { [A]: {}, [B]: {} }) =>
  new Map(Object.entries(entries).map(([id, l]) => [id, { quantity: 10, status: "active", ...l }]));

function refusal(run: () => unknown): { code: string; param: string | undefined } {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return { code: (err as AppError).code, param: (err as AppError).param };
  }
  throw new Error("accepted");
}

describe("planInventoryBatch", () => {
  it("applies deltas and set quantities in request order, each on the running quantity", () => {
    const listings = held();
    const planned = planInventoryBatch(listings, [
      { listing_id: A, delta: -3 },
      { listing_id: B, set_quantity: 4 },
      { listing_id: A.toUpperCase(), delta: 5, expected_quantity: 7 },
    ]);
    expect(planned).toEqual([
      { listingId: A, delta: -3, after: 7 },
      { listingId: B, delta: -6, after: 4 },
      { listingId: A, delta: 5, after: 12 },
    ]);
    expect([listings.get(A)!.quantity, listings.get(B)!.quantity]).toEqual([12, 4]);
  });

  it("names the field of the first adjustment that cannot be made", () => {
    expect(refusal(() => planInventoryBatch(held(), [{ listing_id: A, delta: 1 }, { listing_id: "nope", delta: 1 }]))).toEqual({
      code: "listing_not_found",
      param: "adjustments[1].listing_id",
    });
    expect(refusal(() => planInventoryBatch(held({ [A]: { status: "archived" } }), [{ listing_id: A, delta: 1 }]))).toEqual({
      code: "listing_archived",
      param: "adjustments[0].listing_id",
    });
    expect(refusal(() => planInventoryBatch(held(), [{ listing_id: A, delta: -1 }, { listing_id: A, delta: 1, expected_quantity: 10 }]))).toEqual({
      code: "stale_quantity",
      param: "adjustments[1].expected_quantity",
    });
    expect(refusal(() => planInventoryBatch(held(), [{ listing_id: A, delta: -11 }]))).toEqual({ code: "quantity_negative", param: "adjustments[0].delta" });
    expect(refusal(() => planInventoryBatch(held(), [{ listing_id: B, set_quantity: LISTING_LIMITS.quantityMax + 1 }]))).toEqual({
      code: "parameter_invalid",
      param: "adjustments[0].set_quantity",
    });
  });

  it("ends where the deltas add up to, with one planned adjustment per request", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 20 }), (deltas) => {
        const listings = held({ [A]: {} });
        const planned = planInventoryBatch(
          listings,
          deltas.map((delta) => ({ listing_id: A, delta })),
        );
        expect(planned).toHaveLength(deltas.length);
        expect(listings.get(A)!.quantity).toBe(10 + deltas.reduce((a, b) => a + b, 0));
        expect(planned.at(-1)?.after ?? 10).toBe(listings.get(A)!.quantity);
      }),
    );
  });
});
