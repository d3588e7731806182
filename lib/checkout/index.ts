export { EXPLICIT_LINES_MAX, checkExplicitLines } from "./lines";
export type { Quote, QuoteChange, QuoteChangeKind, QuoteLine, QuoteLineStatus, QuoteStore } from "./price";
export { offerTerms } from "./price";
export { checkoutDraft, DRAFT_FIELDS, draftOf, saveCheckoutDraft, type CheckoutDraft } from "./draft";
export type { ParcelTerms } from "@/lib/orders/shipping";
export type { Requirement, RequirementSeverity, SessionStatus } from "./requirements";
export {
  cancelCheckoutSession,
  createCheckoutSession,
  getCheckoutSession,
  updateCheckoutSession,
  SESSION_TTL_MS,
  type CheckoutSessionView,
  type NewSession,
  type SessionChanges,
  type SessionViewer,
} from "./sessions";
export { completeCheckoutSession, placeOrder, quoteCheckout, type CompleteInput, type PlaceOrderInput } from "./complete";
export { orderForConfirmation } from "./placed";
export { chargeReference } from "./charge";
export type { AgentCaller, Buyer, CheckoutSource, ExplicitLine, PlacedOrder } from "./types";
