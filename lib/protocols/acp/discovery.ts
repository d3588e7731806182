import { absoluteUrl } from "@/lib/config";
import { ACP_CURRENCY, ACP_VERSION } from "./version";

/**
 * `/.well-known/acp.json` (`$defs/DiscoveryResponse`, rfc.discovery.md): one document for the
 * whole marketplace, naming no store (a platform hosting several sellers publishes no merchant
 * ids). Checkout only: no delegated payment (this host is no card vault), no carts, no MCP
 * transport; order events to platforms are not sent yet, so `orders` is not claimed.
 */
export function acpDiscovery() {
  return {
    protocol: { name: "acp", version: ACP_VERSION, supported_versions: [ACP_VERSION], documentation_url: absoluteUrl("/help/for-agents-public-api") },
    api_base_url: absoluteUrl("/api/acp"),
    transports: ["rest"],
    capabilities: { services: ["checkout"], supported_currencies: [ACP_CURRENCY], supported_locales: ["en-US"] },
  };
}

/** The test-card handler's documents (its `spec`, `config_schema` and instrument schema URLs). */
export const TEST_CARD_DOCUMENTS = {
  spec: {
    name: "marketplace.test_card",
    version: ACP_VERSION,
    description:
      "The marketplace's test payment handler: no money moves, no delegated payment. Complete with payment_data " +
      '{ "handler_id": "test_card", "instrument": { "type": "card", "credential": { "type": "test_card", "token": "4242424242424242" } } }: ' +
      "a token that is a card number passing the Luhn check is approved, unless it ends in 0002 (4000000000000002 is declined).",
  },
  config: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "Test card handler configuration",
    type: "object",
    properties: { merchant_id: { type: "string" }, psp: { const: "test" }, environment: { const: "sandbox" } },
    required: ["merchant_id", "psp", "environment"],
  },
  instrument: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "Test card instrument",
    type: "object",
    properties: {
      type: { const: "card" },
      credential: { type: "object", properties: { type: { type: "string" }, token: { type: "string", pattern: "^[0-9 -]{12,40}$" } }, required: ["type", "token"] },
    },
    required: ["type", "credential"],
  },
};
