/**
 * The fuzz suite's harness (tests/integration/fuzz-*.test.ts): request values generated from the
 * same zod schemas that validate them (valid, boundary and mutated), and one check of the
 * properties every answer must have, with per-surface counters printed at the end.
 *
 * FUZZ_SEED (default 20261125) and FUZZ_RUNS (generated requests per endpoint, tool or form,
 * default 300) change the run; a failure names the seed, so `FUZZ_SEED=<seed> npx vitest run <file>`
 * replays it.
 */
import fc from "fast-check";
import type pg from "pg";
import { z } from "zod";
import { ERROR_TABLE } from "@/lib/errors";
import { findInventoryLeak } from "./http";

export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261125);
export const FUZZ_RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 300));

/** fc.assert parameters: the fixed seed, the configured runs, no shrinking (each run is HTTP). */
export function fuzzParams(runs = FUZZ_RUNS): fc.Parameters<unknown> {
  return { seed: FUZZ_SEED, numRuns: runs, endOnFailure: true };
}

/** fc.assert with the seed named in the failure (fast-check's own report says it too). */
export async function fuzzAssert<T>(property: fc.IAsyncPropertyWithHooks<T> | fc.IAsyncProperty<T>, runs = FUZZ_RUNS): Promise<void> {
  try {
    await fc.assert(property, fuzzParams(runs) as fc.Parameters<T>);
  } catch (err) {
    throw new Error(`fuzz failure (replay with FUZZ_SEED=${FUZZ_SEED} FUZZ_RUNS=${runs}):\n${(err as Error).message}`, { cause: err });
  }
}

// ---------------------------------------------------------------------------------------------
// Values from zod schemas
// ---------------------------------------------------------------------------------------------

/** Values that break assumptions: wrong types, extremes, NUL and other unicode, huge sizes. */
export const JUNK: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -0,
  -1,
  0.5,
  1e308,
  -1e308,
  2 ** 31,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  "",
  " ",
  "NaN",
  "Infinity",
  "-0",
  "1e308",
  "0x10",
  "\u0000",
  "a\u0000b",
  "\uD800",
  "💥🏳️‍🌈",
  "ﾃｽﾄ",
  "Ä́",
  "\u202Eevil",
  "../../etc/passwd",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "%00",
  "x".repeat(10_000),
  [],
  [null],
  Array.from({ length: 10_000 }, () => 1),
  {},
  { __proto__: { polluted: true } },
  { constructor: { prototype: { polluted: true } } },
];

export const junk: fc.Arbitrary<unknown> = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...JUNK) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });

/** `arbitrary` one time in `oneIn`, else null. */
export function rarely<T>(arbitrary: fc.Arbitrary<T>, oneIn = 5): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });
}

const PLAIN = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789 -_.");

/** Strings a person would type most of the time, else any unicode (NUL and lone surrogates included). */
const anyString = (minLength = 0, maxLength = 40) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength, maxLength, unit: PLAIN }) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: "grapheme" }) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: "binary" }) },
  );

/** Strings matching `pattern` (fast-check cannot read every regex: then plain strings). */
function matching(pattern: RegExp, min: number, max: number | undefined): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(pattern).filter((s) => s.length >= min && (max === undefined || s.length <= max));
  } catch {
    return anyString(min, Math.min(max ?? 40, 200));
  }
}

type Mode = "valid" | "edge";

export interface ArbitraryOptions {
  /** Known-good values per object key (real ids, slugs), mixed in with the generated ones. */
  overrides?: Record<string, fc.Arbitrary<unknown>>;
  mode?: Mode;
}

interface Def {
  type: string;
  [key: string]: any;
}

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def): Def[] => (def.checks ?? []).map((c: unknown) => defOf(c));

/** The output type a pipe ends in, past transforms (`"123"` → number). */
function outputOf(schema: unknown): unknown {
  const def = defOf(schema);
  if (def.type === "pipe") return defOf(def.out).type === "transform" ? outputOf(def.in) : outputOf(def.out);
  return schema;
}

function stringArbitrary(def: Def, mode: Mode): fc.Arbitrary<string> {
  let min = 0;
  let max: number | undefined;
  let pattern: RegExp | undefined;
  for (const check of checksOf(def)) {
    if (check.check === "min_length") min = check.minimum;
    if (check.check === "max_length") max = check.maximum;
    if (check.check === "length_equals") min = max = check.length;
    if (check.check === "string_format" && check.pattern) pattern = check.pattern;
  }
  if (!pattern && def.pattern instanceof RegExp) pattern = def.pattern;
  let valid: fc.Arbitrary<string>;
  if (def.format === "uuid" || def.format === "guid") valid = fc.uuid();
  else if (def.format === "email") valid = fc.emailAddress();
  else if (pattern) valid = matching(pattern, min, max);
  else valid = anyString(min, Math.min(max ?? 40, 200));
  if (mode === "valid") return valid;
  const edges = [min, Math.max(0, min - 1), ...(max === undefined ? [1000] : [max, max + 1])].map((n) => "x".repeat(n));
  if (max !== undefined) edges.push("é".repeat(max), "💥".repeat(max));
  return fc.oneof(valid, fc.constantFrom(...edges, " ", "\u0000", "A".repeat(5)));
}

function numberArbitrary(def: Def, mode: Mode): fc.Arbitrary<number> {
  let min = -(2 ** 31);
  let max = 2 ** 31;
  let int = false;
  for (const check of checksOf(def)) {
    if (check.check === "number_format" && /int/.test(check.format)) int = true;
    if (check.check === "greater_than") min = check.inclusive ? check.value : check.value + (int ? 1 : Number.EPSILON);
    if (check.check === "less_than") max = check.inclusive ? check.value : check.value - (int ? 1 : Number.EPSILON);
  }
  if (def.type === "int" || def.format === "safeint") int = true;
  const valid = int ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  if (mode === "valid") return fc.oneof(valid, fc.constantFrom(min, max).map((n) => (int ? Math.round(n) : n)));
  return fc.constantFrom(Math.ceil(min), Math.floor(max), Math.ceil(min) - 1, Math.floor(max) + 1, min + 0.5, 0, -0, Number.MAX_SAFE_INTEGER + 2, 1e308);
}

/**
 * Values for `schema`: in "valid" mode what it accepts (its input side: a query's strings, a
 * body's JSON), in "edge" mode values at and just past its bounds.
 */
export function arbitraryOf(schema: z.ZodType | unknown, options: ArbitraryOptions = {}): fc.Arbitrary<unknown> {
  const mode = options.mode ?? "valid";
  const of = (s: unknown) => arbitraryOf(s, options);
  const def = defOf(schema);
  switch (def.type) {
    case "object": {
      const shape = def.shape as Record<string, unknown>;
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const [key, child] of Object.entries(shape)) {
        const generated = of(child);
        const known = options.overrides?.[key];
        model[key] = known ? fc.oneof({ weight: 3, arbitrary: known }, { weight: 1, arbitrary: generated }) : generated;
        const t = defOf(child).type;
        if (t !== "optional" && t !== "default" && t !== "prefault") required.push(key);
      }
      return fc.record(model, { requiredKeys: required });
    }
    case "optional":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
      return of(def.innerType);
    case "nullable":
      return fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 4, arbitrary: of(def.innerType) });
    case "lazy":
      return of(def.getter());
    case "pipe": {
      const inDef = defOf(def.in);
      if (inDef.type === "transform") return of(def.out); // z.preprocess
      const out = outputOf(schema);
      const outDef = defOf(out);
      let first = defOf(def.in);
      while (first.type === "pipe") first = defOf(first.in);
      // A query parameter read as a number ("12" → 12): digits of the numbers the output accepts.
      if (first.type === "string" && outDef.type === "number") return numberArbitrary(outDef, mode).map(String);
      // A list parameter (`a,b` or repeated): the list the output accepts.
      if (first.type === "union" && outDef.type === "array") return of(out);
      return of(def.in);
    }
    case "string":
      return stringArbitrary(def, mode);
    case "number":
    case "int":
      return def.coerce ? numberArbitrary(def, mode).map(String) : numberArbitrary(def, mode);
    case "boolean":
      return mode === "valid" ? fc.boolean() : fc.constantFrom("true", 1, 0, "false");
    case "enum": {
      const values = Object.values(def.entries as Record<string, string | number>);
      return mode === "valid" ? fc.constantFrom(...values) : fc.constantFrom(...values, ...values.map((v) => String(v).toUpperCase()), "");
    }
    case "literal":
      return fc.constantFrom(...(def.values as unknown[]));
    case "array": {
      let min = 0;
      let max: number | undefined;
      for (const check of checksOf(def)) {
        if (check.check === "min_length") min = check.minimum;
        if (check.check === "max_length") max = check.maximum;
        if (check.check === "length_equals") min = max = check.length;
      }
      const element = arbitraryOf(def.element, { ...options, mode: "valid" });
      if (mode === "valid") return fc.array(element, { minLength: min, maxLength: Math.min(max ?? 5, Math.max(min, 5)) });
      const lengths = [min, Math.max(0, min - 1), max ?? 1000, (max ?? 1000) + 1];
      return fc.constantFrom(...lengths).chain((n) => fc.array(element, { minLength: n, maxLength: n }));
    }
    case "union":
      return fc.oneof(...(def.options as unknown[]).map(of));
    case "intersection":
      return of(def.left);
    case "record":
      return fc.dictionary(anyString(1, 10), of(def.valueType), { maxKeys: 3 });
    case "tuple":
      return fc.tuple(...(def.items as unknown[]).map(of));
    case "null":
      return fc.constant(null);
    case "undefined":
    case "void":
    case "never": // a field that must be absent
      return fc.constant(undefined);
    case "any":
    case "unknown":
      return fc.jsonValue({ maxDepth: 2 });
    default:
      throw new Error(`fuzz: no generator for zod type '${def.type}'`);
  }
}

/** Every path to a value inside `value` (object keys and array indices), the root included. */
function pathsOf(value: unknown, path: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(path);
  if (Array.isArray(value)) value.slice(0, 20).forEach((v, i) => pathsOf(v, [...path, i], out));
  else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) pathsOf(v, [...path, k], out);
  return out;
}

type Mutation = { kind: "replace" | "delete" | "unknown_field"; pick: number; junk: unknown; key: string };

/** One change to a valid value: a part replaced by junk, a field removed, or a field added. */
function mutate(value: unknown, m: Mutation): unknown {
  const copy = structuredClone(value);
  const paths = pathsOf(copy);
  const path = paths[m.pick % paths.length]!;
  if (path.length === 0) return m.kind === "replace" ? m.junk : copy;
  const parent = path.slice(0, -1).reduce<any>((node, part) => node[part], copy);
  const last = path[path.length - 1]!;
  if (m.kind === "replace") parent[last] = m.junk;
  else if (m.kind === "delete") {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    const target = parent[last];
    if (target !== null && typeof target === "object" && !Array.isArray(target)) target[m.key] = m.junk;
    else if (!Array.isArray(parent)) parent[m.key] = m.junk;
  }
  return copy;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom("replace", "replace", "delete", "unknown_field"),
  pick: fc.nat(),
  junk,
  key: fc.constantFrom("unknown", "__proto__", "constructor", "id", "store_id", "user_id", "x".repeat(300), "ключ"),
});

export type Flavor = "valid" | "edge" | "mutated";

/** A value for `schema`, labelled: accepted by it, at its bounds, or one change away from valid. */
export function fuzzValue(schema: unknown, overrides?: ArbitraryOptions["overrides"]): fc.Arbitrary<{ flavor: Flavor; value: unknown }> {
  // Refinements across fields (exactly one of a, b or c) are not in the definitions the generator
  // reads: of 20 shaped values, the first the schema accepts (else the first).
  const shaped = arbitraryOf(schema, { overrides });
  const accepts = (v: unknown) => (schema as z.ZodType).safeParse(v).success;
  const valid = fc.array(shaped, { minLength: 20, maxLength: 20 }).map((xs) => xs.find(accepts) ?? xs[0]);
  return fc.oneof(
    { weight: 2, arbitrary: valid.map((value) => ({ flavor: "valid" as const, value })) },
    { weight: 1, arbitrary: arbitraryOf(schema, { overrides, mode: "edge" }).map((value) => ({ flavor: "edge" as const, value })) },
    { weight: 2, arbitrary: fc.tuple(valid, mutation).map(([value, m]) => ({ flavor: "mutated" as const, value: mutate(value, m) })) },
  );
}

/**
 * A query string for a value of a query schema: arrays as repeated parameters, objects as JSON,
 * and sometimes a parameter repeated, an unknown one added, or raw malformed percent-encoding.
 */
export function queryArbitrary(schema: unknown, overrides?: ArbitraryOptions["overrides"]): fc.Arbitrary<string> {
  return fc
    .tuple(fuzzValue(schema, overrides), fc.constantFrom("none", "none", "repeat", "raw"), fc.constantFrom("%", "%E0%A4%A", "%00", "&&==&", "a[b]=1", "%FF%FE", ";x=1"))
    .map(([{ value }, extra, raw]) => {
      const sp = new URLSearchParams();
      if (value !== null && typeof value === "object" && !Array.isArray(value)) {
        for (const [k, v] of Object.entries(value)) {
          if (v === undefined) continue;
          for (const x of Array.isArray(v) ? v : [v]) sp.append(k, typeof x === "object" ? JSON.stringify(x) : String(x));
        }
      } else if (value !== undefined) sp.append("value", String(value));
      const first = [...sp.keys()][0];
      if (extra === "repeat" && first) sp.append(first, sp.get(first)!);
      const text = sp.toString();
      return extra === "raw" ? `?${text}${text ? "&" : ""}${raw}` : text ? `?${text}` : "";
    });
}

/** A string as a URL path segment (UTF-8; a lone surrogate, which no URL can carry, as U+FFFD). */
function encodeSegment(s: string): string {
  return encodeURIComponent(s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD"));
}

/** Percent-escapes no decoder accepts, each seen once in a real request. */
export const UNDECODABLE_ESCAPES = ["%", "%zz", "%E0%A4%A", "%C0%AF", "%FF", "%80", "%ED%A0%80", "%F4%90%80%80", "a%2", "%%41", "%u0041"] as const;

const HEX = fc.constantFrom(..."0123456789abcdefABCDEF");

/**
 * A path segment that cannot be percent-decoded: a known bad escape, a `%` followed by fewer than
 * two hex digits, a UTF-8 sequence cut short, or bytes no UTF-8 decoder accepts (a stray
 * continuation byte, F8-FF), with plain text around it.
 */
export const undecodableSegment: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(...UNDECODABLE_ESCAPES),
      fc.tuple(fc.option(HEX, { nil: "" }), fc.constantFrom("", "g", "Z", "-", ".", "~", "%")).map(([h, x]) => `%${h}${x}`),
      fc.constantFrom("%C3", "%E2%82", "%F0%9F%98"),
      fc.integer({ min: 0x80, max: 0xbf }).map((b) => `%${b.toString(16)}`),
      fc.integer({ min: 0xf8, max: 0xff }).map((b) => `%${b.toString(16).toUpperCase()}`),
    ),
    fc.constantFrom("", "a", "fixture-"),
    fc.constantFrom("", "x", "%41"),
  )
  .map(([bad, before, after]) => before + bad + after);

/** A path segment: a known id (own or another tenant's), a generated one, junk, or undecodable. */
export function segmentArbitrary(known: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: known.length > 0 ? 4 : 0, arbitrary: known.length > 0 ? fc.constantFrom(...known) : fc.constant("x") },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: fc.oneof(anyString(0, 30), fc.constantFrom(...JUNK.filter((v): v is string => typeof v === "string"))).map((s) => encodeSegment(s) || "%20") },
    { weight: 1, arbitrary: fc.constantFrom("..", "%2e%2e", "%2F", "%00", "0", "-1", "1e308", "x".repeat(2000)) },
    { weight: 1, arbitrary: undecodableSegment },
  );
}

/**
 * `path` (a query kept apart) most of the time, else with one of its segments, a fixed one or a
 * parameter alike, replaced by an undecodable one: every segment of every route meets them.
 */
export function withUndecodableSegment(path: string): fc.Arbitrary<string> {
  const [pathname, query] = splitQuery(path);
  const segments = pathname.split("/");
  // Index 0 is the empty text before the leading slash.
  if (segments.length < 2) return fc.constant(path);
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant(path) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.integer({ min: 1, max: segments.length - 1 }), undecodableSegment).map(([i, bad]) => segments.map((s, j) => (j === i ? bad : s)).join("/") + query),
    },
  );
}

function splitQuery(path: string): [string, string] {
  const at = path.indexOf("?");
  return at < 0 ? [path, ""] : [path.slice(0, at), path.slice(at)];
}

/** A body: JSON of a generated value, or what a JSON parser chokes on, under some content type. */
export interface BodyCase {
  contentType: string | null;
  body: string | undefined;
  flavor: Flavor | "malformed";
}

const CONTENT_TYPES = ["application/json", "application/json", "application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "APPLICATION/JSON", "application/jsonx", null];

export function bodyArbitrary(schema: unknown, overrides?: ArbitraryOptions["overrides"]): fc.Arbitrary<BodyCase> {
  const json = fc.tuple(fuzzValue(schema, overrides), fc.constantFrom(...CONTENT_TYPES)).map(([v, contentType]) => ({ contentType, body: JSON.stringify(v.value), flavor: v.flavor }));
  const malformed = fc
    .tuple(fc.constantFrom("", "{", "[1,", '{"a":}', "null", "\u0000", '{"items": [}', "\uFEFF{}", '{"a":1}{"a":2}', "1e999999", "x".repeat(1_100_000)), fc.constantFrom(...CONTENT_TYPES))
    .map(([body, contentType]) => ({ contentType, body: body === "" ? undefined : body, flavor: "malformed" as const }));
  return fc.oneof({ weight: 5, arbitrary: json }, { weight: 1, arbitrary: malformed });
}

// ---------------------------------------------------------------------------------------------
// Properties of every answer
// ---------------------------------------------------------------------------------------------

export interface Answer {
  status: number;
  headers: Headers;
  json: any;
  text: string;
}

export interface CheckContext {
  /** The success schema (the one openapi.json is generated from) and status; none: not checked. */
  success?: { status: number; schema: z.ZodType };
  /** A public surface: no inventory counts anywhere in the body. */
  public?: boolean;
  /** Strings that must never appear in a body: key secrets, tokens, other tenants' ids. */
  secrets?: readonly string[];
  /** Error fields beyond type, code, message, param and request_id that this surface may add. */
  extraErrorKeys?: readonly string[];
}

/** The problems of one answer, empty when it has every property. */
export function problemsOf(res: Answer, ctx: CheckContext = {}): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`status ${res.status}`);
  const requestId = res.headers.get("x-request-id");
  // 431: a request line and headers over Node's limit (128 KiB: 10,000 repeated parameters) are
  // refused by the HTTP server itself, before the app sees them; nothing the app can answer.
  if (res.status === 431 && res.text === "") return problems;
  if (res.status >= 400) {
    const error = res.json?.error;
    if (!res.json || typeof res.json !== "object" || Object.keys(res.json).join() !== "error" || !error || typeof error !== "object") {
      problems.push("error body is not the envelope { error }");
    } else {
      const allowed = new Set(["type", "code", "message", "param", "request_id", ...(ctx.extraErrorKeys ?? [])]);
      const unknown = Object.keys(error).filter((k) => !allowed.has(k));
      if (unknown.length > 0) problems.push(`error has unknown fields ${unknown.join(", ")}`);
      const known = ERROR_TABLE[error.code as keyof typeof ERROR_TABLE];
      if (!known) problems.push(`unknown error code ${String(error.code)}`);
      else if (known.status !== res.status && error.code !== "product_not_found") problems.push(`status ${res.status} for code ${error.code} (table: ${known.status})`);
      if (typeof error.type !== "string" || typeof error.message !== "string" || error.message.length === 0) problems.push("error type/message missing");
      if (error.param !== undefined && typeof error.param !== "string") problems.push("error.param is not a string");
      if (!requestId || error.request_id !== requestId) problems.push(`error.request_id ${String(error.request_id)} is not X-Request-Id ${String(requestId)}`);
    }
  } else if (res.status >= 200 && res.status < 300 && ctx.success) {
    if (res.status !== ctx.success.status) problems.push(`success status ${res.status}, documented ${ctx.success.status}`);
    const parsed = ctx.success.schema.safeParse(res.json);
    if (!parsed.success) problems.push(`success body does not match its schema: ${z.prettifyError(parsed.error).slice(0, 600)}`);
    if (res.json?.meta?.request_id !== undefined && res.json.meta.request_id !== requestId) problems.push("meta.request_id is not X-Request-Id");
  }
  if (ctx.public && res.json) {
    const leaks = findInventoryLeak(res.json);
    if (leaks.length > 0) problems.push(`inventory leak at ${leaks.map((l) => l.path).join(", ")}`);
  }
  for (const secret of ctx.secrets ?? []) if (secret && res.text.includes(secret)) problems.push(`body contains a secret or a foreign id (${secret.slice(0, 12)}…)`);
  return problems;
}

/** Throws with the request, the answer and its problems when an answer lacks a property. */
export function checkAnswer(label: string, res: Answer, ctx: CheckContext = {}): void {
  const problems = problemsOf(res, ctx);
  if (problems.length > 0) throw new Error(`${label} → ${res.status}: ${problems.join("; ")}\nbody: ${res.text.slice(0, 800)}`);
}

// ---------------------------------------------------------------------------------------------
// Counters
// ---------------------------------------------------------------------------------------------

export class FuzzStats {
  private readonly surfaces = new Map<string, Map<number, number>>();

  record(surface: string, status: number): void {
    const statuses = this.surfaces.get(surface) ?? new Map<number, number>();
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    this.surfaces.set(surface, statuses);
  }

  count(surface: string): number {
    return [...(this.surfaces.get(surface)?.values() ?? [])].reduce((a, b) => a + b, 0);
  }

  /** One line per surface: requests, 5xx, and the statuses seen. */
  report(title: string): string {
    const lines = [`fuzz ${title} (seed ${FUZZ_SEED}, runs ${FUZZ_RUNS}):`];
    for (const [surface, statuses] of [...this.surfaces].sort()) {
      const sorted = [...statuses].sort((a, b) => a[0] - b[0]);
      const total = sorted.reduce((a, [, n]) => a + n, 0);
      const fivexx = sorted.filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0);
      lines.push(`  ${surface}: ${total} requests, 5xx ${fivexx}; ${sorted.map(([s, n]) => `${s}×${n}`).join(" ")}`);
    }
    return lines.join("\n");
  }
}

// ---------------------------------------------------------------------------------------------
// "A rejected write changed nothing"
// ---------------------------------------------------------------------------------------------

/**
 * Tables a write of the seller or buyer surfaces, the MCP tools or the forms may change.
 * (`payment_attempts` is not one: a declined checkout, refused with 402, records its attempt by
 * design, so that the next one charges under a new reference.)
 */
export const WRITE_TABLES = [
  "listings",
  "stock_adjustments",
  "shipping_templates",
  "shipping_rates",
  "carts",
  "cart_lines",
  "cart_links",
  "cart_link_lines",
  "orders",
  "order_stores",
  "order_lines",
  "order_events",
  "returns",
  "return_lines",
  "addresses",
  "payment_methods",
  "api_keys",
  "users",
  "agent_settings",
  "settings",
  "webhook_endpoints",
  "webhook_events",
  // Not webhook_deliveries: the queue's workers update it in the background, whatever a request does.
] as const;

/**
 * Every row change of the write tables, noted by triggers in the test database: one row of
 * `fuzz_changes` per inserted, deleted or changed row (an update that changes nothing is not
 * noted, nor an API key's `last_used_at`, which every authenticated request writes). The notes
 * are written in the writer's transaction, so a rolled-back write leaves none. Comparing the last
 * note's id before and after a request costs one index look-up, where a digest of every table
 * grew with the database.
 */
export class WriteLog {
  private constructor(private readonly pool: pg.Pool) {}

  /** Installs the triggers (again, harmlessly) in the database behind `pool`. */
  static async install(pool: pg.Pool, tables: readonly string[] = WRITE_TABLES): Promise<WriteLog> {
    const statements = [
      `CREATE TABLE IF NOT EXISTS fuzz_changes (id bigserial PRIMARY KEY, table_name text NOT NULL, op text NOT NULL)`,
      `CREATE OR REPLACE FUNCTION fuzz_note_change() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN INSERT INTO fuzz_changes (table_name, op) VALUES (TG_TABLE_NAME, TG_OP); RETURN NULL; END $$`,
    ];
    for (const t of tables) {
      const changed = t === "api_keys" ? `(to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at')` : `OLD.* IS DISTINCT FROM NEW.*`;
      statements.push(
        `DROP TRIGGER IF EXISTS fuzz_note_insert_delete ON ${t}`,
        `CREATE TRIGGER fuzz_note_insert_delete AFTER INSERT OR DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION fuzz_note_change()`,
        `DROP TRIGGER IF EXISTS fuzz_note_update ON ${t}`,
        `CREATE TRIGGER fuzz_note_update AFTER UPDATE ON ${t} FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION fuzz_note_change()`,
      );
    }
    for (const sql of statements) await pool.query(sql);
    return new WriteLog(pool);
  }

  /** The last note so far. */
  async mark(): Promise<number> {
    const { rows } = await this.pool.query<{ id: string }>(`SELECT coalesce(max(id), 0)::text AS id FROM fuzz_changes`);
    return Number(rows[0]!.id);
  }

  /** The tables changed since `mark` (with the kind of change), empty when nothing was. */
  async changedSince(mark: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ change: string }>(
      `SELECT DISTINCT table_name || ' (' || lower(op) || ')' AS change FROM fuzz_changes WHERE id > $1 ORDER BY 1`,
      [mark],
    );
    return rows.map((r) => r.change);
  }
}
