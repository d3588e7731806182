import { UUID } from "@/lib/ids";
import { z } from "../zod";

/**
 * What every seller list shares (decisions.md "Seller API"): `limit` 1..100 (default 25; above
 * 100 is a 400, unlike the public page_size), an opaque `cursor`, and the list envelope
 * `{ data, next_cursor, meta: { request_id } }`.
 */
export const LIST_LIMIT_DEFAULT = 25;
export const LIST_LIMIT_MAX = 100;

export const Limit = z
  .string()
  .regex(/^[0-9]{1,4}$/, { error: `must be an integer from 1 to ${LIST_LIMIT_MAX}` })
  .transform(Number)
  .pipe(z.number().int().min(1, { error: `must be an integer from 1 to ${LIST_LIMIT_MAX}` }).max(LIST_LIMIT_MAX, { error: `must be at most ${LIST_LIMIT_MAX}` }))
  .optional()
  .default(LIST_LIMIT_DEFAULT)
  .openapi({ type: "integer", minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT, description: `Page size, 1 to ${LIST_LIMIT_MAX} (default ${LIST_LIMIT_DEFAULT}); above ${LIST_LIMIT_MAX} is a 400.` });

export const Cursor = z
  .string()
  .min(1)
  .max(512)
  .optional()
  .openapi({ description: "Opaque: the `next_cursor` of the previous page. Omit for the first page." });

export const Uuid = z
  .string()
  .regex(UUID, { error: "must be a UUID" })
  .transform((v) => v.toLowerCase())
  .openapi({ type: "string", format: "uuid" });

export const Timestamp = z.string().openapi({ format: "date-time", example: "2026-11-29T12:00:00.000Z", description: "RFC 3339, UTC, milliseconds." });

export const RequestMeta = z.object({ request_id: z.string() }).strict();

/** `{ data: <item>, meta: { request_id } }`. */
export function itemEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ data: item, meta: RequestMeta }).strict();
}

/** `{ data: [<item>], next_cursor, meta: { request_id } }`. */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z
    .object({
      data: z.array(item),
      next_cursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null on the last page." }),
      meta: RequestMeta,
    })
    .strict();
}

/** Path parameter `{id}` (validated by the domain: anything that is not one of the store's ids is a 404). */
export const IdPath = z.object({ id: z.string().openapi({ description: "The object's id (UUID)." }) });
