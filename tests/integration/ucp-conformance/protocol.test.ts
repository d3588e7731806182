/** Port of protocol_test.py: the business profile, the URLs it names, and version negotiation. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectProfile, expectUcpError, PLATFORM_PROFILE, UcpHarness } from "../../helpers/ucp";

let ucp: UcpHarness;
beforeAll(async () => (ucp = await UcpHarness.start("ucp-protocol")));
afterAll(() => ucp?.stop());

async function profile() {
  const res = await ucp.request("GET", "/.well-known/ucp", undefined, {});
  expect(res.status, res.text).toBe(200);
  expectProfile(res.json);
  return res.json;
}

describe("protocol_test", () => {
  it("test_discovery_urls", async () => {
    const p = await profile();
    const urls: string[] = [
      p.ucp.services["dev.ucp.shopping"].spec,
      p.ucp.services["dev.ucp.shopping"].rest.schema,
      p.ucp.services["dev.ucp.shopping"].mcp.schema,
      ...p.ucp.capabilities.flatMap((c: any) => [c.spec, c.schema]),
      ...p.payment.handlers.flatMap((h: any) => [h.spec, h.config_schema, ...h.instrument_schemas]),
    ];
    for (const url of urls) expect(url, url).toMatch(/^https?:\/\/[^\s]+$/);
    // Our own documents answer here; ucp.dev's are the specification's (this machine is offline).
    const own = urls.filter((u) => u.startsWith(ucp.app.baseUrl));
    expect(own.length).toBeGreaterThan(0);
    for (const url of own) {
      const res = await ucp.request("GET", url, undefined, {});
      expect(res.status, url).toBe(200);
      expect(res.json, url).toBeTypeOf("object");
    }
    expect(urls.filter((u) => !u.startsWith(ucp.app.baseUrl)).every((u) => u.startsWith("https://ucp.dev/"))).toBe(true);
  });

  it("test_discovery", async () => {
    const p = await profile();
    expect(p.ucp.version).toBe("2026-01-11");
    const service = p.ucp.services["dev.ucp.shopping"];
    expect(service.version).toBe("2026-01-11");
    expect(service.rest.endpoint).toBe(`${ucp.app.baseUrl}/api/ucp`);
    expect(p.ucp.capabilities.map((c: any) => c.name)).toEqual(["dev.ucp.shopping.checkout", "dev.ucp.shopping.order", "dev.ucp.shopping.fulfillment"]);
    expect(p.ucp.capabilities.find((c: any) => c.name === "dev.ucp.shopping.fulfillment").extends).toBe("dev.ucp.shopping.checkout");
    expect(p.payment.handlers.map((h: any) => [h.id, h.name])).toEqual([["test_card", "marketplace.test_card"]]);
  });

  it("test_version_negotiation", async () => {
    const create = (agent: string) => ucp.request("POST", "/checkout-sessions", ucp.createPayload(), ucp.headers({ "UCP-Agent": agent }));
    const same = await create(`profile="${PLATFORM_PROFILE}"; version="2026-01-11"`);
    expect(same.status, same.text).toBe(201);
    expect(same.json.ucp.version).toBe("2026-01-11");
    const older = await create(`profile="${PLATFORM_PROFILE}", version="2025-12-01"`);
    expect(older.status).toBe(201);
    expect(older.json.ucp.version).toBe("2026-01-11");
    const newer = await create(`profile="${PLATFORM_PROFILE}"; version="2099-01-01"`);
    expectUcpError(newer, 400, "version_unsupported");
    expectUcpError(await create(`profile=https://not-a-string`), 400, "invalid");
    expectUcpError(await create(`profile="${PLATFORM_PROFILE}"; version="next"`), 400, "invalid");
  });
});
