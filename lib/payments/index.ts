import { AppError } from "@/lib/errors";
import type { PaymentProvider } from "./provider";
import { testProvider } from "./test-provider";

export type { ChargeRequest, ChargeResult, PaymentProvider, PaymentSource, RefundRequest } from "./provider";
export { TEST_CARD, cardDigits, passesLuhn } from "./test-provider";

const PROVIDERS: ReadonlyMap<string, PaymentProvider> = new Map([[testProvider.id, testProvider]]);

/** The provider that charges typed card numbers at checkout. */
export function defaultProvider(): PaymentProvider {
  return testProvider;
}

/** The card numbers checkout shows in test mode: only while a test provider charges typed cards. */
export function testModeCards(): { approved: string; declined: string } | null {
  return defaultProvider().testCards ?? null;
}

/** The provider of that id, if the marketplace has it. */
export function findProvider(id: string): PaymentProvider | undefined {
  return PROVIDERS.get(id);
}

/** The provider of a stored charge (refunds): its absence is the operator's to fix, a 500. */
export function providerOf(id: string): PaymentProvider {
  const provider = findProvider(id);
  if (!provider) throw new AppError("internal_error", `No payment provider '${id}' is configured.`);
  return provider;
}
