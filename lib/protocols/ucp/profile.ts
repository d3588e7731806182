import { absoluteUrl } from "@/lib/config";
import { publicSigningKeys } from "./signing";
import { UCP_CAPABILITIES, UCP_SERVICE, UCP_VERSION } from "./version";

/**
 * The business profile at /.well-known/ucp (UCP 2026-01-11, overview.md "Profile Structure"):
 * the shopping service over REST, the capabilities this business offers (checkout, order, and
 * the fulfillment extension of checkout), and its one payment handler, the marketplace's test
 * card, and the key that signs its order webhooks. No AP2, no discounts, no buyer consent: not
 * offered, so not advertised.
 */

/** Where the REST binding's paths start: `{endpoint}/checkout-sessions`, `{endpoint}/orders/{id}`. */
export const UCP_ENDPOINT_PATH = "/api/ucp";
/** The MCP binding's endpoint (checkout-mcp.md): its tools are the checkout operations. */
export const UCP_MCP_PATH = "/api/ucp/mcp";

/** The payment handler: the marketplace's test card, its numbers given as a card or a token credential. */
export const TEST_CARD_HANDLER_ID = "test_card";

export function paymentHandlers() {
  return [
    {
      id: TEST_CARD_HANDLER_ID,
      name: "marketplace.test_card",
      version: UCP_VERSION,
      spec: absoluteUrl(`${UCP_ENDPOINT_PATH}/handlers/test-card`),
      config_schema: absoluteUrl(`${UCP_ENDPOINT_PATH}/handlers/test-card/config.json`),
      instrument_schemas: ["https://ucp.dev/schemas/shopping/types/card_payment_instrument.json"],
      config: { test_mode: true },
    },
  ];
}

const capability = (name: string, page: string, schema: string, extendsName?: string) => ({
  name,
  version: UCP_VERSION,
  spec: `https://ucp.dev/specification/${page}`,
  schema: `https://ucp.dev/schemas/shopping/${schema}.json`,
  ...(extendsName ? { extends: extendsName } : {}),
});

export function businessProfile() {
  return {
    ucp: {
      version: UCP_VERSION,
      services: {
        [UCP_SERVICE]: {
          version: UCP_VERSION,
          spec: "https://ucp.dev/specification/overview",
          rest: { schema: "https://ucp.dev/services/shopping/rest.openapi.json", endpoint: absoluteUrl(UCP_ENDPOINT_PATH) },
          mcp: { schema: "https://ucp.dev/services/shopping/mcp.openrpc.json", endpoint: absoluteUrl(UCP_MCP_PATH) },
        },
      },
      capabilities: [
        capability(UCP_CAPABILITIES.checkout, "checkout", "checkout"),
        capability(UCP_CAPABILITIES.order, "order", "order"),
        {
          ...capability(UCP_CAPABILITIES.fulfillment, "fulfillment", "fulfillment", UCP_CAPABILITIES.checkout),
          config: { allows_multi_destination: { shipping: false }, allows_method_combinations: [["shipping"]] },
        },
      ],
    },
    payment: { handlers: paymentHandlers() },
    // The key that signs order webhooks (`Request-Signature`, order.md).
    signing_keys: publicSigningKeys(),
  };
}

/** What the test-card handler's `spec` URL answers: how a platform pays with it. */
export function testCardHandlerSpec() {
  return {
    name: "marketplace.test_card",
    version: UCP_VERSION,
    description:
      "The marketplace's test payment handler. Complete a checkout with `payment_data.handler_id: \"test_card\"` and a " +
      "credential that is a card (`{ \"type\": \"card\", \"card_number_type\": \"fpan\", \"number\": \"4242424242424242\" }`) or " +
      "a token whose value is a card number (`{ \"type\": \"token\", \"token\": \"4242424242424242\" }`). A number passing the " +
      "Luhn check is approved, unless it ends in 0002 (`4000000000000002` is declined: 402 payment_declined). No money moves.",
    config_schema: absoluteUrl(`${UCP_ENDPOINT_PATH}/handlers/test-card/config.json`),
    instrument_schemas: ["https://ucp.dev/schemas/shopping/types/card_payment_instrument.json"],
  };
}

export const TEST_CARD_CONFIG_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "Test card handler configuration",
  type: "object",
  properties: { test_mode: { const: true, description: "Always true: the handler moves no money." } },
  required: ["test_mode"],
  additionalProperties: false,
};
