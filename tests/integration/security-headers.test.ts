/**
 * Every page kind sends the security headers of lib/http/security-headers.ts (set in proxy.ts): a
 * Content-Security-Policy with a fresh script nonce per answer (every `<script>` of the page
 * carries it), no framing (`frame-ancestors 'none'`, `X-Frame-Options: DENY`), no plugin objects,
 * no foreign `<base>`; `nosniff`; `strict-origin-when-cross-origin` (a cart link: `no-referrer`);
 * HSTS only when the public address is https; and `private, no-store` on the pages that hold a
 * person's own state. Redirects and not-found answers carry them too. The suite's shared app, and
 * one on https over the same database.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parseHtml } from "../helpers/html";
import { baseUrl, randomClientIp } from "../helpers/http";
import { startServer, type StartedServer } from "../setup/app";

async function get(base: string, path: string) {
  const res = await fetch(new URL(path, base), { redirect: "manual", headers: { "X-Forwarded-For": randomClientIp() } });
  const text = await res.text();
  expect(res.status, `${path}: ${text.slice(0, 200)}`).toBeLessThan(500);
  return { status: res.status, headers: res.headers, text };
}

/** The CSP's directives by name. */
function directives(csp: string | null): Record<string, string[]> {
  expect(csp, "Content-Security-Policy").toBeTruthy();
  return Object.fromEntries(
    csp!
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

// Fixture pages every seeded database has.
const slugs = { product: "fixture-mixed-offers", category: "electronics", store: "fixture-store-a", help: "returns" };

const PUBLIC_PAGES = () => ["/", "/search?q=lamp", `/c/${slugs.category}`, `/p/${slugs.product}`, `/s/${slugs.store}`, "/help", `/help/${slugs.help}`, "/cart", "/no-such-page", `/p/no-such-product-${Date.now()}`];
const PRIVATE_PAGES = ["/signin", "/register", "/account", "/account/orders", "/seller", "/admin", "/checkout", "/oauth/consent/not-a-real-interaction"];

describe("security headers on every page kind", () => {
  it("a CSP with this answer's nonce on every script; no framing, objects or foreign base; nosniff; the referrer policy", async () => {
    const nonces = new Set<string>();
    for (const path of [...PUBLIC_PAGES(), ...PRIVATE_PAGES]) {
      const res = await get(baseUrl(), path);
      const csp = directives(res.headers.get("content-security-policy"));
      expect(csp["frame-ancestors"], path).toEqual(["'none'"]);
      expect(csp["object-src"], path).toEqual(["'none'"]);
      expect(csp["base-uri"], path).toEqual(["'self'"]);
      expect(csp["default-src"], path).toEqual(["'self'"]);
      const script = csp["script-src"]!;
      expect(script, path).toContain("'strict-dynamic'");
      expect(script.join(" "), path).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
      const nonce = script.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
      expect(nonce, path).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      nonces.add(nonce!);
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("strict-transport-security"), `${path} on http`).toBeNull();
      if (res.status === 200 || res.status === 404) {
        const $ = parseHtml(res.text);
        const scripts = $("script").toArray();
        if (res.status === 200) expect(scripts.length, path).toBeGreaterThan(0);
        for (const s of scripts) expect($(s).attr("nonce"), `${path}: a script without this answer's nonce`).toBe(nonce);
      }
    }
    // A fresh nonce for every answer.
    expect(nonces.size).toBe(PUBLIC_PAGES().length + PRIVATE_PAGES.length);
  });

  it("pages with a person's own state are private, no-store; the catalog's pages stay shareable", async () => {
    for (const path of PRIVATE_PAGES) {
      const cache = (await get(baseUrl(), path)).headers.get("cache-control") ?? "";
      expect(cache, path).toMatch(/\bprivate\b/);
      expect(cache, path).toMatch(/\bno-store\b/);
    }
    expect((await get(baseUrl(), `/p/${slugs.product}`)).headers.get("cache-control")).toBe("public, s-maxage=60");
  });

  it("a cart link sends no referrer at all", async () => {
    const res = await get(baseUrl(), "/cart/l/not-a-real-token");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(directives(res.headers.get("content-security-policy"))["frame-ancestors"]).toEqual(["'none'"]);
  });
});

describe("on https", () => {
  let secure: StartedServer;
  beforeAll(async () => {
    secure = await startServer({ databaseUrl: inject("DATABASE_URL"), env: { PUBLIC_BASE_URL: "https://shop.example.test" }, logPrefix: "[security-headers-https]" });
  });
  afterAll(async () => {
    await secure?.stop();
  });

  it("every page kind also sends Strict-Transport-Security", async () => {
    for (const path of ["/", `/p/${slugs.product}`, "/signin", "/account", "/no-such-page"]) {
      const res = await get(secure.baseUrl, path);
      expect(res.headers.get("strict-transport-security"), path).toBe("max-age=63072000; includeSubDomains");
    }
  });
});
