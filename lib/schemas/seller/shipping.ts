import { z } from "../zod";
import { Cursor, Limit, listEnvelope, itemEnvelope, Timestamp } from "./common";
import { isCountryCode } from "./regions";

/**
 * Shipping templates (decisions.md "Seller API"). Bounds chosen here (the spec names none) and
 * documented in openapi.json: name 1-100 characters without control characters, handling_days
 * 0-30, price_cents and free_over_cents 0-100,000,000 (the listing price bound), min_days and
 * max_days 0-365, 1-50 rates, at most one rate per (region, service).
 */
export const SHIPPING_LIMITS = {
  nameMaxLength: 100,
  handlingDaysMax: 30,
  centsMax: 100_000_000,
  daysMax: 365,
  ratesMin: 1,
  ratesMax: 50,
  handlingDaysDefault: 1,
} as const;

export const SHIPPING_SERVICES = ["standard", "expedited"] as const;
export type ShippingServiceValue = (typeof SHIPPING_SERVICES)[number];

/** The region that covers every country without a rate of its own. */
export const EVERYWHERE_ELSE = "*";

function boundedInt(min: number, max: number) {
  return z
    .number({ error: "must be an integer" })
    .int({ error: "must be an integer" })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max.toLocaleString("en-US")}` });
}

// Letters, digits, punctuation and spaces; no control characters or lone surrogates.
const NO_CONTROL = /^[^\p{Cc}\p{Cs}]*$/u;

const Name = z
  .string({ error: "must be a string" })
  .trim()
  .min(1, { error: "must not be empty" })
  .max(SHIPPING_LIMITS.nameMaxLength, { error: `must be at most ${SHIPPING_LIMITS.nameMaxLength} characters` })
  .regex(NO_CONTROL, { error: "must not contain control characters" })
  .openapi({ description: `1 to ${SHIPPING_LIMITS.nameMaxLength} characters (trimmed), no control characters.`, example: "Standard shipping" });

const HandlingDays = boundedInt(0, SHIPPING_LIMITS.handlingDaysMax).openapi({
  description: `Business days before the parcel ships, 0 to ${SHIPPING_LIMITS.handlingDaysMax}.`,
});

const Region = z
  .string({ error: "must be a string" })
  .refine((v) => v === EVERYWHERE_ELSE || isCountryCode(v), {
    error: "must be an upper-case ISO 3166-1 alpha-2 country code (`US`) or `*` for everywhere else",
  })
  .openapi({
    type: "string",
    pattern: "^([A-Z]{2}|\\*)$",
    description: "An ISO 3166-1 alpha-2 country code in upper case (`US`, `DE`), or `*` for every country without a rate of its own.",
    example: "US",
  });

const Service = z.enum(SHIPPING_SERVICES, { error: "must be `standard` or `expedited`" });
const Cents = boundedInt(0, SHIPPING_LIMITS.centsMax);
const Days = boundedInt(0, SHIPPING_LIMITS.daysMax);

export const ShippingRateInput = z
  .object({
    region: Region,
    service: Service,
    price_cents: Cents.openapi({ description: `Price of shipping one order line, in cents, 0 to ${SHIPPING_LIMITS.centsMax.toLocaleString("en-US")}.` }),
    free_over_cents: Cents.nullable()
      .optional()
      .default(null)
      .openapi({ description: "Shipping is free for orders at or above this amount (cents); null (the default) for never." }),
    min_days: Days.openapi({ description: `Fewest transit days, 0 to ${SHIPPING_LIMITS.daysMax}; at most max_days.` }),
    max_days: Days.openapi({ description: `Most transit days, 0 to ${SHIPPING_LIMITS.daysMax}.` }),
  })
  .strict()
  .refine((rate) => rate.min_days <= rate.max_days, { path: ["min_days"], error: "must not be greater than max_days" })
  .openapi("ShippingRateInput");

const Rates = z
  .array(ShippingRateInput, { error: "must be an array of rates" })
  .min(SHIPPING_LIMITS.ratesMin, { error: `must hold at least ${SHIPPING_LIMITS.ratesMin} rate` })
  .max(SHIPPING_LIMITS.ratesMax, { error: `must hold at most ${SHIPPING_LIMITS.ratesMax} rates` })
  .superRefine((rates, ctx) => {
    if (rates.length > SHIPPING_LIMITS.ratesMax) return;
    const seen = new Map<string, number>();
    rates.forEach((rate, i) => {
      const pair = `${rate.region}\n${rate.service}`;
      const first = seen.get(pair);
      if (first === undefined) {
        seen.set(pair, i);
      } else {
        ctx.addIssue({
          code: "custom",
          path: [i],
          message: `repeats the region '${rate.region}' and service '${rate.service}' of rates[${first}]; a template holds one rate per region and service`,
        });
      }
    });
  })
  .openapi({
    description: `${SHIPPING_LIMITS.ratesMin} to ${SHIPPING_LIMITS.ratesMax} rates, at most one per (region, service). The buy box and the storefront use the \`US\` standard rate, else the \`*\` standard rate.`,
  });

export const CreateShippingTemplateBody = z
  .object({
    name: Name,
    handling_days: HandlingDays.optional().default(SHIPPING_LIMITS.handlingDaysDefault),
    rates: Rates,
  })
  .strict()
  .openapi("CreateShippingTemplate", { description: `\`handling_days\` defaults to ${SHIPPING_LIMITS.handlingDaysDefault}. Unknown fields are refused.` });
export type CreateShippingTemplateInput = z.output<typeof CreateShippingTemplateBody>;

export const UpdateShippingTemplateBody = z
  .object({
    name: Name.optional(),
    handling_days: HandlingDays.optional(),
    rates: Rates.optional().openapi({ description: "Replaces every rate of the template." }),
  })
  .strict()
  .openapi("UpdateShippingTemplate", { description: "Any of the fields; `rates` replaces all rates. Fields left out keep their value. Unknown fields are refused." });
export type UpdateShippingTemplateInput = z.output<typeof UpdateShippingTemplateBody>;

export const ShippingRate = z
  .object({
    region: z.string().openapi({ description: "ISO 3166-1 alpha-2 code, or `*` for everywhere else.", example: "US" }),
    service: z.enum(SHIPPING_SERVICES),
    price_cents: z.number().int(),
    free_over_cents: z.number().int().nullable(),
    min_days: z.number().int(),
    max_days: z.number().int(),
  })
  .strict()
  .openapi("ShippingRate");

export const ShippingTemplate = z
  .object({
    id: z.string().openapi({ format: "uuid" }),
    object: z.literal("shipping_template"),
    name: z.string(),
    handling_days: z.number().int(),
    rates: z.array(ShippingRate).openapi({ description: "In the order they were sent." }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .strict()
  .openapi("ShippingTemplate");
export type ShippingTemplateData = z.output<typeof ShippingTemplate>;

export const ShippingTemplateResponse = itemEnvelope(ShippingTemplate);
export const ShippingTemplateListResponse = listEnvelope(ShippingTemplate);

export const ShippingTemplateListQuery = z.object({ limit: Limit, cursor: Cursor });
export type ShippingTemplateListOptions = z.output<typeof ShippingTemplateListQuery>;
