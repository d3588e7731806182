/**
 * The one pattern of an id: a UUID in its text form, any case (PostgreSQL's `uuid` takes either
 * and answers lower case). Every check of an id, and every schema of one, uses this.
 * Case-insensitive by its character classes, not by a flag: JSON Schema patterns have no flags,
 * and the OpenAPI generator would otherwise write the `/i` into the pattern text.
 */
export const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}
