import type { ToolAnnotations } from "@modelcontextprotocol/server";
import { z } from "zod";
import { validateJson } from "@/lib/http/body";
import {
  cancelUcpCheckout,
  CheckoutComplete,
  CheckoutCreate,
  completeUcpCheckout,
  createUcpCheckout,
  getUcpCheckout,
  refusal,
  updateUcpCheckout,
  type UcpCaller,
  type UcpCheckout,
} from "@/lib/protocols/ucp";
import { AppError } from "@/lib/errors";
import { UUID } from "@/lib/ids";

/*
 * The tools of UCP's MCP binding (checkout-mcp.md and mcp.openrpc.json, 2026-01-11): one per
 * checkout operation, named and shaped as the OpenRPC document's methods (`checkout`, `id`,
 * `payment`, `idempotency_key`), each calling the same use case as the REST route and answering
 * the same checkout object. Unknown arguments are refused by name; the checkout object itself
 * is read as the REST binding reads its body (fields it does not use are ignored).
 */

const VERSION = /^\d{4}-\d{2}-\d{2}$/;

/** `_meta.ucp`: the platform's profile (and version), as the `UCP-Agent` header says it over REST. */
export const UcpMeta = z.object({
  ucp: z
    .object({
      // A URL: no control characters (a NUL byte could not be kept with the idempotency record).
      profile: z
        .string({ error: "must be a string" })
        .max(2048)
        .regex(/^[^\u0000-\u001f\u007f]*$/, { error: "must not contain control characters" })
        .optional(),
      version: z.string({ error: "must be a string" }).regex(VERSION, { error: "must be YYYY-MM-DD" }).optional(),
    })
    .optional(),
});
export type UcpMetaData = z.output<typeof UcpMeta>;

const CheckoutId = z.string({ error: "must be a string" }).min(1).max(200);
const IdempotencyKey = z.string({ error: "must be a string" }).regex(UUID, { error: "must be a UUID" });

/** complete_checkout's `payment`: the instruments submitted, one of them selected. */
const PaymentSubmitted = z.object({
  selected_instrument_id: z.string({ error: "must be a string" }).max(100).optional(),
  instruments: z.array(z.record(z.string(), z.unknown()), { error: "must be an array of objects" }).max(10).optional(),
});

const CreateArguments = z.object({ checkout: CheckoutCreate, idempotency_key: IdempotencyKey.optional(), _meta: UcpMeta.optional() }).strict();
const GetArguments = z.object({ id: CheckoutId, _meta: UcpMeta.optional() }).strict();
const UpdateArguments = z
  .object({
    id: CheckoutId,
    // "The checkout object in the request payload MUST NOT contain an id field."
    checkout: CheckoutCreate.extend({ id: z.never({ error: "must not be given: the top-level id names the checkout" }).optional() }),
    _meta: UcpMeta.optional(),
  })
  .strict();
const CompleteArguments = z.object({ id: CheckoutId, payment: PaymentSubmitted.optional(), idempotency_key: IdempotencyKey, _meta: UcpMeta.optional() }).strict();
const CancelArguments = z.object({ id: CheckoutId, idempotency_key: IdempotencyKey, _meta: UcpMeta.optional() }).strict();

/** A request path of a use case's refusal, as a path into the tool's arguments. */
export type ArgumentPath = (path: string) => string;
const same: ArgumentPath = (path) => path;
/** Create and update: the REST body is the `checkout` argument. */
const inCheckout: ArgumentPath = (path) => (path.startsWith("$.") ? `$.checkout${path.slice(1)}` : path);

export interface UcpTool {
  name: "create_checkout" | "get_checkout" | "update_checkout" | "complete_checkout" | "cancel_checkout";
  title: string;
  description: string;
  arguments: z.ZodObject;
  annotations: ToolAnnotations;
  /** Calls the use case with the validated arguments; `paths` places its refusals in them. */
  run: (args: never, caller: UcpCaller) => Promise<UcpCheckout>;
  paths: (args: never) => ArgumentPath;
}

const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

/**
 * The instrument complete_checkout pays with: the selected one, or the only one. The business keeps
 * no credential between calls, so it must come here, with its credential.
 */
function instrumentOf(payment: z.output<typeof PaymentSubmitted> | undefined): { index: number; instrument: Record<string, unknown> } {
  const instruments = payment?.instruments ?? [];
  const missing = (path: string, content: string) => refusal(400, [{ type: "error", code: "missing", path, content, severity: "recoverable" }]);
  if (instruments.length === 0) throw missing("$.payment.instruments", "Give the payment instrument, with its credential, in payment.instruments.");
  const selected = payment?.selected_instrument_id;
  if (selected === undefined) {
    if (instruments.length > 1) throw missing("$.payment.selected_instrument_id", "Name the instrument to pay with in payment.selected_instrument_id.");
    return { index: 0, instrument: instruments[0]! };
  }
  const index = instruments.findIndex((i) => i.id === selected);
  if (index < 0) {
    throw refusal(400, [{ type: "error", code: "invalid", path: "$.payment.selected_instrument_id", content: `No instrument in payment.instruments has the id '${selected.slice(0, 100)}'.`, severity: "recoverable" }]);
  }
  return { index, instrument: instruments[index]! };
}

/** complete's `payment_data` paths (the REST body) as paths into `payment.instruments[i]`. */
function inInstrument(index: number): ArgumentPath {
  return (path) => (path.startsWith("$.payment_data") ? `$.payment.instruments[${index}]${path.slice("$.payment_data".length)}` : path);
}

function define<S extends z.ZodObject>(
  tool: Omit<UcpTool, "arguments" | "run" | "paths"> & { arguments: S; run: (args: z.output<S>, caller: UcpCaller) => Promise<UcpCheckout>; paths?: (args: z.output<S>) => ArgumentPath },
): UcpTool {
  return { ...tool, paths: (tool.paths ?? (() => same)) as UcpTool["paths"], run: tool.run as UcpTool["run"] };
}

export const UCP_TOOLS: UcpTool[] = [
  define({
    name: "create_checkout",
    title: "Create a checkout",
    description:
      "UCP create_checkout: `checkout` is the Checkout create request (line_items of { item: { id }, quantity } with listing ids, currency USD, buyer, fulfillment). Items of several stores may share one checkout. Optional idempotency_key (a UUID): a retry with it answers the first result. The result is the checkout.",
    arguments: CreateArguments,
    annotations: { title: "Create a checkout", ...WRITE },
    run: (args, caller) => createUcpCheckout(caller, args.checkout),
    paths: () => inCheckout,
  }),
  define({
    name: "get_checkout",
    title: "Get a checkout",
    description: "UCP get_checkout: the checkout `id` names, with its status, totals, fulfillment options and messages.",
    arguments: GetArguments,
    annotations: { title: "Get a checkout", readOnlyHint: true, openWorldHint: false },
    run: (args, caller) => getUcpCheckout(caller, args.id),
  }),
  define({
    name: "update_checkout",
    title: "Update a checkout",
    description:
      "UCP update_checkout: replaces the checkout `id` names with `checkout` (the whole Checkout update request, without an id: line_items, currency, buyer, fulfillment with the selected destination and option). An omitted buyer or fulfillment keeps what it was.",
    arguments: UpdateArguments,
    annotations: { title: "Update a checkout", ...WRITE, idempotentHint: true },
    run: (args, caller) => updateUcpCheckout(caller, args.id, args.checkout),
    paths: () => inCheckout,
  }),
  define({
    name: "complete_checkout",
    title: "Complete a checkout",
    description:
      "UCP complete_checkout: places the orders (one per store, one charge). `payment.instruments` holds the instrument to pay with (handler_id test_card and a card or token credential), `payment.selected_instrument_id` names it when there are several. idempotency_key (a UUID) is required: a retry with it answers the completed checkout, never a second charge. The result is the checkout with `order` (and every order in `orders`).",
    arguments: CompleteArguments,
    annotations: { title: "Complete a checkout", ...WRITE, openWorldHint: true },
    run: (args, caller) => {
      const { index, instrument } = instrumentOf(args.payment);
      let body;
      try {
        body = validateJson(CheckoutComplete, { payment_data: instrument });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const at = `payment.instruments[${index}]`;
        const path = `$.${err.param ? at + err.param.slice("payment_data".length) : at}`;
        const content = err.message.replaceAll("'payment_data", `'${at}`);
        throw refusal(400, [{ type: "error", code: err.code === "parameter_missing" ? "missing" : "invalid", path, content, severity: "recoverable" }]);
      }
      return completeUcpCheckout(caller, args.id, body);
    },
    paths: (args) => {
      const instruments = args.payment?.instruments ?? [];
      const selected = args.payment?.selected_instrument_id;
      return inInstrument(selected === undefined ? 0 : Math.max(0, instruments.findIndex((i) => i.id === selected)));
    },
  }),
  define({
    name: "cancel_checkout",
    title: "Cancel a checkout",
    description: "UCP cancel_checkout: cancels the checkout `id` names (status canceled). idempotency_key (a UUID) is required.",
    arguments: CancelArguments,
    annotations: { title: "Cancel a checkout", ...WRITE, destructiveHint: true },
    run: (args, caller) => cancelUcpCheckout(caller, args.id),
  }),
];
