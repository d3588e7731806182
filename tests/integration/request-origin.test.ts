/**
 * Without PUBLIC_BASE_URL (a demo opened from a phone on the same network), the links a visitor
 * follows and the pictures they load point at the address they asked for (lib/config.ts
 * `shownUrl`): the public API's product and picture URLs, the product page's pictures and
 * canonical link, and the cart's lines. A sign-in link e-mailed from that request still points
 * at http://localhost:PORT: a Host header never chooses where a link in an e-mail goes.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb, type PrismaClient } from "@/lib/db";
import { parseHtml } from "../helpers/html";
import { randomClientIp } from "../helpers/http";
import { startServer, type StartedServer } from "../setup/app";

const PRODUCT = "fixture-mixed-offers";
let server: StartedServer;
let client: PrismaClient;

beforeAll(async () => {
  server = await startServer({ databaseUrl: inject("DATABASE_URL"), env: { PUBLIC_BASE_URL: undefined }, logPrefix: "[request-origin]" });
  client = createDb(inject("DATABASE_URL"));
});
afterAll(async () => {
  await client?.$disconnect();
  await server?.stop();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A request to the server with the Host header a browser at `host` sends (fetch cannot set it). */
function send(path: string, host: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: server.port, path, method: init.method ?? "GET", headers: { Host: host, "X-Forwarded-For": randomClientIp(), ...init.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

async function json(path: string, host: string): Promise<Record<string, unknown>> {
  const res = await send(path, host);
  expect(res.status, res.text.slice(0, 200)).toBe(200);
  return JSON.parse(res.text) as Record<string, unknown>;
}

describe("links follow the request's origin while PUBLIC_BASE_URL is unset", () => {
  const lan = () => `shop.lan:${server.port}`;

  it("search results: every url and image_url on the host asked for", async () => {
    const body = (await json("/api/public/v1/search?q=smartphone&page_size=10", lan())) as { data: Array<{ url: string; image_url: string | null }> };
    expect(body.data.length).toBeGreaterThan(0);
    for (const r of body.data) {
      expect(r.url.startsWith(`http://shop.lan:${server.port}/p/`), r.url).toBe(true);
      if (r.image_url !== null) expect(r.image_url.startsWith(`http://shop.lan:${server.port}/`), r.image_url).toBe(true);
    }
    // The same request on the server's own address answers with that address.
    const local = (await json("/api/public/v1/search?q=smartphone&page_size=10", `127.0.0.1:${server.port}`)) as typeof body;
    expect(local.data[0]!.url.startsWith(`http://127.0.0.1:${server.port}/p/`)).toBe(true);
  });

  it("a product: url and images over the API, pictures and canonical link on its page", async () => {
    const product = ((await json(`/api/public/v1/products/${PRODUCT}`, lan())) as { data: { url: string; images: Array<{ url: string }> } }).data;
    expect(product.url).toBe(`http://shop.lan:${server.port}/p/${PRODUCT}`);
    expect(product.images.length).toBeGreaterThan(0);
    for (const image of product.images) expect(image.url.startsWith(`http://shop.lan:${server.port}/`), image.url).toBe(true);

    const page = await send(`/p/${PRODUCT}`, lan());
    expect(page.status).toBe(200);
    const $ = parseHtml(page.text);
    expect($('link[rel="canonical"]').attr("href")).toBe(`http://shop.lan:${server.port}/p/${PRODUCT}`);
    const pictures = $("main img").map((_, img) => $(img).attr("src")).get();
    expect(pictures.length).toBeGreaterThan(0);
    for (const src of pictures) expect(src.startsWith(`http://shop.lan:${server.port}/`), src).toBe(true);
  });

  it("a Host that is not a plain host[:port] is not used: links fall back to localhost", async () => {
    const body = (await json("/api/public/v1/search?q=smartphone&page_size=3", "evil.example@shop.lan")) as { data: Array<{ url: string }> };
    expect(body.data[0]!.url.startsWith(`http://localhost:${server.port}/p/`), body.data[0]!.url).toBe(true);
  });

  it("a sign-in link e-mailed from a request on another host still points at localhost", async () => {
    const address = `origin-${Date.now()}@example.test`;
    const res = await send("/signin/link", lan(), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin" },
      body: new URLSearchParams({ email: address }).toString(),
    });
    expect(res.status, res.text.slice(0, 200)).toBe(303);
    const mails = await client.outboxEmail.findMany({ where: { toAddress: address } });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.link?.startsWith(`http://localhost:${server.port}/signin/link?`), mails[0]!.link ?? "(no link)").toBe(true);
    expect(mails[0]!.body).not.toContain("shop.lan");
  });
});
