export { cancelUcpCheckout, completeUcpCheckout, createUcpCheckout, getUcpCheckout, updateUcpCheckout, type UcpCaller } from "./checkout";
export type { UcpCheckout } from "./checkout-shape";
export { refusal, ucpError, type UcpErrorBody } from "./errors";
export { ucpOrder } from "./order";
export { businessProfile, TEST_CARD_CONFIG_SCHEMA, testCardHandlerSpec, UCP_ENDPOINT_PATH } from "./profile";
export { CheckoutComplete, CheckoutCreate, CheckoutUpdate } from "./shapes";
export { negotiate, parseUcpAgent, UCP_VERSION } from "./version";
