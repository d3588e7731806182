export { cancelAcpCheckout, completeAcpCheckout, createAcpCheckout, getAcpCheckout, updateAcpCheckout, type AcpCaller } from "./checkout";
export { acpDiscovery, TEST_CARD_DOCUMENTS } from "./discovery";
export { acpError } from "./errors";
export { CancelRequest, CheckoutComplete, CheckoutCreate, CheckoutUpdate, REASON_CODES } from "./shapes";
export { ACP_VERSION, checkApiVersion } from "./version";
