/**
 * The fuzz suite's generator (tests/helpers/fuzz.ts) reads every request schema of the three API
 * registries: it knows each zod type they use, and most of its "valid" values are accepted, so the
 * fuzz reaches the handlers and not only the validation.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BUYER_ENDPOINTS } from "@/lib/endpoints/buyer";
import { PUBLIC_ENDPOINTS } from "@/lib/endpoints/public";
import { SELLER_ENDPOINTS } from "@/lib/endpoints/seller";
import type { Endpoint } from "@/lib/http/describe";
import { FUZZ_SEED, fuzzValue, segmentArbitrary, undecodableSegment, withUndecodableSegment } from "../helpers/fuzz";

const schemas = ([...PUBLIC_ENDPOINTS, ...SELLER_ENDPOINTS, ...BUYER_ENDPOINTS] as Endpoint[]).flatMap((e) =>
  (["params", "query", "body"] as const).flatMap((part) => (e[part] ? [[`${e.name} ${part}`, e[part]] as const] : [])),
);

describe("fuzz generator", () => {
  it.each(schemas)("%s: values of every flavor, most valid ones accepted", (_, schema) => {
    const samples = fc.sample(fuzzValue(schema, { region: fc.constantFrom("US", "*") }), { seed: FUZZ_SEED, numRuns: 150 });
    expect(new Set(samples.map((s) => s.flavor))).toEqual(new Set(["valid", "edge", "mutated"]));
    const valid = samples.filter((s) => s.flavor === "valid");
    const accepted = valid.filter((s) => schema!.safeParse(s.value).success);
    expect(accepted.length / valid.length).toBeGreaterThanOrEqual(0.4);
  });
});

describe("undecodable path segments", () => {
  it("no decoder accepts them, and they stay one segment", () => {
    for (const segment of fc.sample(undecodableSegment, { seed: FUZZ_SEED, numRuns: 500 })) {
      expect(() => decodeURIComponent(segment), segment).toThrow(URIError);
      expect(segment).toMatch(/^[A-Za-z0-9%._~-]+$/);
    }
  });

  it("every segment of a path meets them, parameters and fixed ones alike, the query untouched", () => {
    const paths = fc.sample(withUndecodableSegment("/api/v1/listings/abc/status?x=%41"), { seed: FUZZ_SEED, numRuns: 600 });
    const mangled = new Set<number>();
    for (const p of paths) {
      expect(p.endsWith("?x=%41")).toBe(true);
      p.split("?")[0]!.split("/").forEach((s, i) => {
        if (i > 0 && s !== ["", "api", "v1", "listings", "abc", "status"][i]) mangled.add(i);
      });
    }
    expect([...mangled].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(fc.sample(segmentArbitrary(["known"]), { seed: FUZZ_SEED, numRuns: 500 }).some((s) => { try { decodeURIComponent(s); return false; } catch { return true; } })).toBe(true);
  });
});
