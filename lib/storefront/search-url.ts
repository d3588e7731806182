/**
 * Storefront search URLs: every control is a link or a GET form whose query string is exactly
 * the public API's search parameters, so each page state is shareable and maps 1:1 to
 * GET /api/public/v1/search.
 */
export type RawQuery = Record<string, string | string[] | undefined>;

/** Next's searchParams object as URLSearchParams (repeated parameters kept). */
export function toSearchParams(raw: RawQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  }
  return params;
}

const LIST_KEYS = new Set(["brand", "condition"]);

/** Values of a list parameter, whether repeated or comma-separated. */
export function listValues(params: URLSearchParams, key: string): string[] {
  return params
    .getAll(key)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
}

/**
 * A link to `basePath` with `changes` applied to the current parameters. Lists are written
 * comma-separated, and any change of filter goes back to page 1.
 */
export function hrefWith(basePath: string, current: URLSearchParams, changes: Record<string, string | string[] | null>): string {
  const next = new URLSearchParams();
  for (const [key, value] of current) {
    if (key in changes || key === "page" || LIST_KEYS.has(key)) continue;
    next.append(key, value);
  }
  for (const key of LIST_KEYS) {
    if (key in changes) continue;
    const values = listValues(current, key);
    if (values.length) next.set(key, values.join(","));
  }
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) continue;
    const v = Array.isArray(value) ? value.join(",") : value;
    if (v !== "") next.set(key, v);
  }
  if ("page" in changes && changes.page !== null) next.set("page", String(changes.page));
  const qs = next.toString();
  return qs ? `${basePath}?${qs}` : basePath;
}

/** Toggles one value of a list parameter (brand, condition). */
export function toggleListValue(current: URLSearchParams, key: string, value: string): string[] {
  const values = listValues(current, key);
  return values.includes(value) ? values.filter((v) => v !== value) : [...values, value];
}
