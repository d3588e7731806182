/**
 * MCP Server Cards (issue 32, "a stable, discoverable contract"), as the Server Card extension
 * describes discovery (vendor/mcp-server-card): each MCP server's card at
 * `<streamable-http-url>/server-card`, valid against the vendored schema's `$defs/ServerCard`,
 * agreeing with what the live server says of itself; the domain's AI Catalog at
 * `/.well-known/ai-catalog.json` pointing at both; cacheable with ETag revalidation, CORS for any
 * origin, GET only; linked from /llms.txt.
 */
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, type ApiResponse } from "../helpers/http";
import { initialize, rpc } from "../helpers/mcp";

const schema = JSON.parse(readFileSync("vendor/mcp-server-card/v1/server-card.schema.json", "utf8"));
const ajv = new Ajv2020({ allErrors: true });
addFormats(ajv);
const validateCard = ajv.compile({ ...schema, $ref: "#/$defs/ServerCard" });

const SERVERS = [
  { label: "public catalog server", path: "/api/mcp/mcp", serverName: "marketplace" },
  { label: "agent server", path: "/api/agent/mcp", serverName: "marketplace-agent" },
] as const;

function get(path: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return api(baseUrl() + path, { headers });
}

describe("GET /.well-known/ai-catalog.json lists both servers' cards", () => {
  let res: ApiResponse;
  beforeAll(async () => {
    res = await get("/.well-known/ai-catalog.json");
  });

  it("is an AI Catalog, cacheable, for any origin", () => {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/ai-catalog+json");
    expect(res.headers.get("cache-control")).toBe("public, s-maxage=300");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.json.specVersion).toBe("1.0");
  });

  it("has one entry per server, of the Server Card type, at <streamable-http-url>/server-card", () => {
    const host = new URL(baseUrl()).hostname;
    expect(res.json.entries).toEqual(
      SERVERS.map((s) => ({
        identifier: `urn:air:${host}:mcp:${s.serverName}`,
        type: "application/mcp-server-card+json",
        url: `${baseUrl()}${s.path}/server-card`,
      })),
    );
  });
});

describe.each(SERVERS)("the $label's Server Card", ({ path, serverName }) => {
  let res: ApiResponse;
  let card: any;
  beforeAll(async () => {
    res = await get(`${path}/server-card`, { Accept: "application/mcp-server-card+json" });
    card = res.json;
  });

  it("is served as application/mcp-server-card+json, cacheable, for any origin", () => {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/mcp-server-card+json");
    expect(res.headers.get("cache-control")).toBe("public, s-maxage=300");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("etag")).toBeTruthy();
  });

  it("validates against the vendored Server Card schema", () => {
    const valid = validateCard(card);
    expect(valid, ajv.errorsText(validateCard.errors)).toBe(true);
  });

  it("names the server as its serverInfo does, and one streamable HTTP remote at its endpoint", () => {
    const host = new URL(baseUrl()).hostname;
    const namespace = /^\d+(\.\d+){3}$/.test(host) ? host : host.split(".").reverse().join(".");
    expect(card.name).toBe(`${namespace}/${serverName}`);
    expect(card.remotes).toHaveLength(1);
    expect(card.remotes[0]).toMatchObject({ type: "streamable-http", url: baseUrl() + path });
    expect(card.remotes[0].supportedProtocolVersions).toEqual(expect.arrayContaining(["2026-07-28", "2025-06-18"]));
    expect(card.websiteUrl).toBe(`${baseUrl()}/`);
  });

  it("revalidates by ETag (304) and answers only GET", async () => {
    const again = await get(`${path}/server-card`, { "If-None-Match": res.headers.get("etag")! });
    expect(again.status).toBe(304);
    const post = await api(baseUrl() + `${path}/server-card`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, OPTIONS");
  });
});

describe("the cards agree with the live servers", () => {
  it("public: name, title, description and version are the initialize answer's serverInfo; the negotiated version is listed", async () => {
    const card = (await get("/api/mcp/mcp/server-card")).json;
    const init = await rpc(initialize());
    expect(init.status).toBe(200);
    const info = init.message.result.serverInfo;
    expect(card.name.endsWith(`/${info.name}`)).toBe(true);
    expect({ title: card.title, description: card.description, version: card.version }).toEqual({
      title: info.title,
      description: info.description,
      version: info.version,
    });
    expect(card.remotes[0].supportedProtocolVersions).toContain(init.message.result.protocolVersion);
    expect(card.remotes[0].headers).toBeUndefined();
    expect(card._meta).toBeUndefined();
  });

  it("agent: requires the Authorization header and points at the protected resource metadata its 401 names", async () => {
    const card = (await get("/api/agent/mcp/server-card")).json;
    const refused = await api(baseUrl() + "/api/agent/mcp", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify(initialize()),
    });
    expect(refused.status).toBe(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(refused.headers.get("www-authenticate") ?? "")?.[1];
    expect(metadataUrl).toBe(`${baseUrl()}/.well-known/oauth-protected-resource/api/agent/mcp`);
    expect(card._meta).toEqual({ "marketplace/oauth-protected-resource": metadataUrl });
    const [header] = card.remotes[0].headers;
    expect(header).toMatchObject({ name: "Authorization", isRequired: true, isSecret: true, value: "Bearer {access_token}" });
    expect(header.description).toContain(metadataUrl);
    const metadata = await get(new URL(metadataUrl!).pathname);
    expect(metadata.json.resource).toBe(card.remotes[0].url);
  });
});

describe("/llms.txt links the cards and the catalog", () => {
  it("has the absolute URLs", async () => {
    const text = (await get("/llms.txt")).text;
    expect(text).toContain(`](${baseUrl()}/api/mcp/mcp/server-card)`);
    expect(text).toContain(`](${baseUrl()}/api/agent/mcp/server-card)`);
    expect(text).toContain(`](${baseUrl()}/.well-known/ai-catalog.json)`);
  });
});
