/**
 * The outbound guard (lib/net/outbound.ts): which addresses may be reached, and what a request
 * under it refuses (http, credentials, non-public addresses, redirects followed, oversize answers,
 * answers that never come). A local https server stands in for a receiver, trusted through the
 * global agent's CA.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import https from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isFetchableAddress, outboundRequest, OutboundError } from "@/lib/net/outbound";
import { orderWebhookUrl } from "@/lib/protocols/webhooks";

describe("isFetchableAddress", () => {
  it.each([
    ["93.184.216.34", true],
    ["2606:4700::1111", true],
    ["10.1.2.3", false],
    ["172.16.0.1", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["::", false],
    ["fc00::1", false],
    ["fe80::1", false],
    ["::ffff:10.0.0.1", false],
    ["::ffff:93.184.216.34", true],
    ["not an address", false],
  ])("%s: %s", (address, expected) => {
    expect(isFetchableAddress(address, true)).toBe(expected);
  });

  it("loopback only when allowed (tests)", () => {
    for (const address of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"]) {
      expect([isFetchableAddress(address, false), isFetchableAddress(address, true)], address).toEqual([false, true]);
    }
  });
});

describe("outboundRequest", () => {
  let dir = "";
  let server: https.Server;
  let base = "";
  let savedCa: unknown;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "outbound-"));
    execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem"), "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], { stdio: "ignore" });
    const cert = readFileSync(path.join(dir, "cert.pem"));
    server = https.createServer({ key: readFileSync(path.join(dir, "key.pem")), cert }, (req, res) => {
      if (req.url === "/redirect") return void res.writeHead(302, { location: "https://127.0.0.1:1/elsewhere" }).end();
      if (req.url === "/big") return void res.writeHead(200).end("x".repeat(4096));
      if (req.url === "/never") return; // no answer
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ method: req.method, body: Buffer.concat(chunks).toString(), type: req.headers["content-type"] })));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
    savedCa = https.globalAgent.options.ca;
    https.globalAgent.options.ca = cert;
  });
  afterAll(async () => {
    https.globalAgent.options.ca = savedCa as never;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  const options = { method: "POST" as const, timeoutMs: 5_000, maxBytes: 1024, allowLoopback: true };
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => "answered",
      (err: unknown) => (err instanceof OutboundError ? err.message : `not an OutboundError: ${String(err)}`),
    );

  it("sends the body and headers, and answers the receiver's status and body", async () => {
    const res = await outboundRequest(`${base}/hook`, { ...options, headers: { "content-type": "application/json" }, body: '{"a":1}' });
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body.toString())).toEqual({ method: "POST", body: '{"a":1}', type: "application/json" });
  });

  it("refuses http, credentials and what is not a URL", async () => {
    expect(await refusal(outboundRequest(base.replace("https:", "http:"), options))).toBe("only https URLs are reached");
    expect(await refusal(outboundRequest(base.replace("https://", "https://user:pw@"), options))).toBe("URLs with credentials are refused");
    expect(await refusal(outboundRequest("::not a url", options))).toBe("not a URL");
  });

  it("refuses loopback unless allowed, and private or link-local addresses always", async () => {
    expect(await refusal(outboundRequest(`${base}/hook`, { ...options, allowLoopback: false }))).toBe("127.0.0.1 resolves to a non-public address (127.0.0.1); refused");
    expect(await refusal(outboundRequest("https://169.254.169.254/latest/meta-data", options))).toBe("169.254.169.254 resolves to a non-public address (169.254.169.254); refused");
    expect(await refusal(outboundRequest("https://[fd00::1]/x", options))).toBe("fd00::1 resolves to a non-public address (fd00::1); refused");
    expect(await refusal(outboundRequest("https://localhost:1/x", { ...options, allowLoopback: false }))).toMatch(/^localhost resolves to a non-public address/);
  });

  it("does not follow redirects: a 3xx is the answer", async () => {
    const res = await outboundRequest(`${base}/redirect`, options);
    expect([res.status, res.headers.get("location")]).toEqual([302, "https://127.0.0.1:1/elsewhere"]);
  });

  it("ends an answer past its size limit, and one that does not come within its time", async () => {
    expect(await refusal(outboundRequest(`${base}/big`, options))).toBe("the answer is larger than 1024 bytes");
    expect(await refusal(outboundRequest(`${base}/never`, { ...options, timeoutMs: 200 }))).toBe("no answer within 200 ms");
  });
});

describe("orderWebhookUrl (a UCP platform profile's order receiver)", () => {
  const order = (config?: unknown) => ({ name: "dev.ucp.shopping.order", version: "2026-01-11", ...(config === undefined ? {} : { config }) });
  it("reads 2026-01-11's capability list and later releases' map by name", () => {
    expect(orderWebhookUrl({ ucp: { capabilities: [{ name: "dev.ucp.shopping.checkout" }, order({ webhook_url: "https://p.example/hook" })] } })).toBe("https://p.example/hook");
    expect(orderWebhookUrl({ ucp: { capabilities: { "dev.ucp.shopping.order": [{ version: "2026-04-08", config: { webhook_url: "https://p.example/v2" } }] } } })).toBe("https://p.example/v2");
  });
  it("is null when there is none, or it is not a string", () => {
    for (const profile of [null, {}, { ucp: {} }, { ucp: { capabilities: [order()] } }, { ucp: { capabilities: [order({ webhook_url: 42 })] } }, { ucp: { capabilities: "x" } }]) {
      expect(orderWebhookUrl(profile), JSON.stringify(profile)).toBeNull();
    }
  });
});
