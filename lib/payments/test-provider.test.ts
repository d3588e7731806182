import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TEST_CARD, cardDigits, passesLuhn, testModeCards } from "@/lib/payments";
import { testProvider } from "./test-provider";

const charge = (number: string, reference = "r1") =>
  testProvider.charge({ source: { kind: "card", number }, amountCents: 1000, currency: "USD", reference });

describe("the test-mode note at checkout", () => {
  it("shows, while the test provider charges typed cards, numbers it really approves and declines", async () => {
    const cards = testModeCards();
    expect(cards).toEqual(testProvider.testCards);
    expect(await charge(cards!.approved)).toMatchObject({ status: "approved" });
    expect(await charge(cards!.declined)).toMatchObject({ status: "declined", reason: "The card was declined." });
  });
});

describe("the test payment provider", () => {
  it("approves the saved test card, with its last 4 digits", async () => {
    const result = await testProvider.charge({ source: { kind: "saved", ...TEST_CARD }, amountCents: 1, currency: "USD", reference: "o1" });
    expect(result).toMatchObject({ status: "approved", provider: "test", last4: "4242" });
  });

  it("declines a saved card ending in 0002, and one of another provider", async () => {
    const saved = (provider: string, last4: string) =>
      testProvider.charge({ source: { kind: "saved", provider, providerRef: "card_1", last4 }, amountCents: 1, currency: "USD", reference: "o2" });
    expect(await saved("test", "0002")).toMatchObject({ status: "declined" });
    expect(await saved("test", "1111")).toMatchObject({ status: "approved", last4: "1111" });
    expect(await saved("elsewhere", "1111")).toMatchObject({ status: "declined" });
  });

  it("approves a valid typed number and keeps only its last 4 digits", async () => {
    expect(await charge("4242 4242 4242 4242")).toMatchObject({ status: "approved", last4: "4242" });
    expect(await charge("5555-5555-5555-4444")).toMatchObject({ status: "approved", last4: "4444" });
  });

  it("declines a number ending in 0002, one failing Luhn, and anything not 12-19 digits", async () => {
    expect(passesLuhn("4000000000000002")).toBe(true);
    expect(await charge("4000 0000 0000 0002")).toMatchObject({ status: "declined" });
    expect(await charge("4242424242424241")).toMatchObject({ status: "declined" });
    for (const bad of ["", "42424242424", "4".repeat(20), "4242x42424242424", "٤٢٤٢٤٢٤٢٤٢٤٢٤٢٤٢", "4242\u00004242424242"]) {
      expect(await charge(bad), bad).toMatchObject({ status: "declined" });
    }
  });

  it("answers the same reference with the same charge, another with another", async () => {
    const a = await charge("4242424242424242", "same");
    const b = await charge("4242424242424242", "same");
    const c = await charge("4242424242424242", "other");
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
  });

  it("reads only 12-19 digits, ignoring spaces and dashes", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        const digits = cardDigits(s);
        if (digits !== null) expect(digits).toMatch(/^[0-9]{12,19}$/);
      }),
    );
    expect(cardDigits(" 4242-4242 4242 4242 ")).toBe("4242424242424242");
  });
});
