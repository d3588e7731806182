/**
 * A path segment that cannot be percent-decoded (`%`, `%zz`, a truncated or overlong UTF-8
 * sequence) names nothing: every route answers it as not found, never with a 5xx. Pages answer
 * the not-found page (404), API routes the error envelope (404 route_not_found; the UCP and ACP
 * bindings in their own error shape), the cart link page its own "not found". Every route is found on disk (app/**\/page.tsx and route.ts), so a
 * new one is covered without touching this file; each of its dynamic segments is replaced in turn
 * by each undecodable value, under GET and POST.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { problemsOf } from "../helpers/fuzz";
import { parseCartPage } from "../helpers/html";
import { api, baseUrl, mapLimit } from "../helpers/http";

/** Segments no decoder accepts: a lone `%`, non-hex digits, a truncated and an overlong UTF-8 sequence. */
export const UNDECODABLE = ["%", "%zz", "%E0%A4%A", "%C0%AF", "a%2", "%FF"] as const;

interface Route {
  /** `/seller/[store]/listings/[id]`, route groups left out. */
  pattern: string;
  kind: "page" | "route";
}

function routes(dir = path.join(process.cwd(), "app"), url = ""): Route[] {
  const out: Route[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name.startsWith("_")) continue; // private folders (_lib, _components)
      out.push(...routes(full, /^\(.*\)$/.test(entry.name) ? url : `${url}/${entry.name}`));
    } else if (entry.name === "page.tsx") out.push({ pattern: url || "/", kind: "page" });
    else if (entry.name === "route.ts") out.push({ pattern: url || "/", kind: "route" });
  }
  return out;
}

/** A value for a dynamic segment that names something real where one is known. */
const KNOWN: Record<string, string> = { store: "fixture-store-a", slug: "fixture-mixed-offers", file: "1.svg" };
const filled = (segment: string) => segment.replace(/^\[\[?(?:\.\.\.)?(\w+)\]\]?$/, (_, name: string) => KNOWN[name] ?? "x");

/** Each path of `route` with one segment replaced by an undecodable value. */
function casesOf(route: Route): string[] {
  const segments = route.pattern.split("/").slice(1).filter(Boolean);
  const out: string[] = [];
  segments.forEach((segment, i) => {
    if (!segment.startsWith("[")) return;
    for (const bad of UNDECODABLE) out.push("/" + segments.map((s, j) => (j === i ? bad : filled(s))).join("/"));
  });
  return [...new Set(out)];
}

const ALL = routes();
const isDynamic = (route: Route) => /\[/.test(route.pattern);

const PROTOCOLS = ["/api/ucp/", "/api/acp/"];
/** What each protocol binding answers for a path that names no operation. */
const protocolNotFound = new Map<string, { status: number; json: Record<string, unknown> }>();

describe("a path segment that cannot be percent-decoded is not found, never a 5xx", () => {
  beforeAll(async () => {
    for (const prefix of PROTOCOLS) {
      const res = await api(`${baseUrl()}${prefix}no-such-operation`);
      expect(res.status).toBe(404);
      protocolNotFound.set(prefix, { status: res.status, json: res.json });
    }
  });

  it("finds the routes on disk", () => {
    expect(ALL.filter((r) => r.kind === "page").length).toBeGreaterThanOrEqual(30);
    expect(ALL.filter((r) => r.pattern.startsWith("/api/")).length).toBeGreaterThanOrEqual(60);
  });

  for (const route of ALL.filter(isDynamic)) {
    it(`${route.kind} ${route.pattern}`, async () => {
      const failures: string[] = [];
      await mapLimit(casesOf(route), 4, async (p) => {
        for (const method of ["GET", "POST"]) {
          const res = await api(baseUrl() + p, { method, headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl(), "Sec-Fetch-Site": "same-origin" }, body: method === "POST" ? "x=1" : undefined });
          const problems = expectedProblems(p, method, res);
          if (problems.length > 0) failures.push(`${method} ${p} → ${res.status}: ${problems.join("; ")} ${res.text.slice(0, 200)}`);
        }
      });
      expect(failures).toEqual([]);
    });
  }

  it.each(["/%zz", "/images/%zz", "/images/p/%", "/api/%E0%A4%A", "/_next/static/%zz", "/favicon.ico%zz", "/sitemap/%C0%AF"])("%s, under no route's parameter, is not a 5xx", async (p) => {
    const res = await api(baseUrl() + p);
    expect(res.status, res.text.slice(0, 200)).toBeGreaterThanOrEqual(400);
    expect(res.status, res.text.slice(0, 200)).toBeLessThan(500);
  });
});

function expectedProblems(p: string, method: string, res: Awaited<ReturnType<typeof api>>): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push("a 5xx");
  if (!res.headers.get("x-request-id")) problems.push("no X-Request-Id");
  const protocol = PROTOCOLS.find((prefix) => p.startsWith(prefix));
  if (protocol) {
    // A commerce protocol's binding answers in its own error shape: as it answers a path naming nothing.
    const reference = protocolNotFound.get(protocol)!;
    if (res.status !== reference.status) problems.push(`not ${reference.status}`);
    if (JSON.stringify(Object.keys(res.json ?? {}).sort()) !== JSON.stringify(Object.keys(reference.json).sort())) problems.push("not the protocol's error shape");
  } else if (p.startsWith("/api/") || p.startsWith("/images/")) {
    if (res.status !== 404 && res.status !== 400) problems.push("not 404 or 400");
    problems.push(...problemsOf(res));
  } else if (p.startsWith("/cart/l/")) {
    // A cart link mangled in transit opens the link page, which says the link was not found.
    const page = parseCartPage(res.text);
    if (res.status !== 200 || page.page !== "cart-link" || page.linkState !== "not_found") problems.push("not the cart link page's not found");
  } else {
    if (res.status !== 404) problems.push("not 404");
    if (method === "GET" && !res.text.includes('data-page="not-found"')) problems.push("not the not-found page");
  }
  return problems;
}
