/**
 * A commerce platform for the tests, on https://127.0.0.1 with a self-signed certificate (the app
 * trusts it through NODE_EXTRA_CA_CERTS and reaches it with WEBHOOKS_ALLOW_LOOPBACK=on): it
 * serves a UCP platform profile naming its order-webhook receiver, and records what its
 * receivers are sent (`/ucp/orders`, `/acp/orders`, and any `/hooks/...` path: a store's
 * endpoints). Its answer can be set per receiver.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import https from "node:https";
import type { IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

export interface FakePlatform {
  base: string;
  /** The UCP profile naming `/ucp/orders` as the order webhook_url. */
  profileUrl: string;
  /** A UCP profile that asks for no order events. */
  quietProfileUrl: string;
  acpReceiverUrl: string;
  /** The certificate to trust (NODE_EXTRA_CA_CERTS). */
  caPath: string;
  received: Received[];
  /** The statuses the next requests to `path` (a receiver, or any `/hooks/...` path) get, in turn (then 200). */
  answerNext(path: string, ...statuses: number[]): void;
  /** Resolves with the requests received that `match`, once there are `count` of them. */
  waitFor(match: (r: Received) => boolean, count?: number, what?: string): Promise<Received[]>;
  close(): Promise<void>;
}

const WAIT_CAP_MS = 120_000;

export async function startPlatform(): Promise<FakePlatform> {
  const dir = mkdtempSync(path.join(tmpdir(), "platform-"));
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem"), "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
    { stdio: "ignore" },
  );
  const received: Received[] = [];
  const queued = new Map<string, number[]>();
  let base = "";
  const profile = (webhook: boolean) => ({
    ucp: {
      version: "2026-01-11",
      capabilities: [
        {
          name: "dev.ucp.shopping.order",
          version: "2026-01-11",
          spec: "https://ucp.dev/specification/order",
          schema: "https://ucp.dev/schemas/shopping/order.json",
          ...(webhook ? { config: { webhook_url: `${base}/ucp/orders` } } : {}),
        },
      ],
    },
  });
  const server = https.createServer({ key: readFileSync(path.join(dir, "key.pem")), cert: readFileSync(path.join(dir, "cert.pem")) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = req.url ?? "/";
      if (req.method === "GET" && (url === "/profile.json" || url === "/quiet-profile.json")) {
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(profile(url === "/profile.json")));
        return;
      }
      if (req.method === "POST" && (url === "/ucp/orders" || url === "/acp/orders" || url.startsWith("/hooks/"))) {
        const body = Buffer.concat(chunks).toString("utf8");
        let json: unknown = null;
        try {
          json = JSON.parse(body);
        } catch {
          /* recorded as it came */
        }
        received.push({ path: url, headers: req.headers, body, json });
        const status = queued.get(url)?.shift() ?? 200;
        res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(url === "/ucp/orders" ? { ucp: { version: "2026-01-11" } } : { received: true }));
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    base,
    profileUrl: `${base}/profile.json`,
    quietProfileUrl: `${base}/quiet-profile.json`,
    acpReceiverUrl: `${base}/acp/orders`,
    caPath: path.join(dir, "cert.pem"),
    received,
    answerNext(target, ...statuses) {
      queued.set(target, [...(queued.get(target) ?? []), ...statuses]);
    },
    async waitFor(match, count = 1, what = "webhook requests") {
      const cap = Date.now() + WAIT_CAP_MS;
      for (;;) {
        const found = received.filter(match);
        if (found.length >= count) return found;
        if (Date.now() > cap) throw new Error(`waited ${WAIT_CAP_MS / 1000}s for ${count} ${what}; received ${found.length}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Ships an order as the operator's `order mark` does (the desk's domain function, its outbox
 * included), from this process, on the app's database.
 */
export async function shipOrder(databaseUrl: string, orderId: string, trackingNumber: string): Promise<void> {
  const { createDb } = await import("@/lib/db");
  const { markOrder } = await import("@/lib/orders/fulfilment");
  const client = createDb(databaseUrl);
  try {
    await client.$transaction((tx) => markOrder(tx, orderId, "shipped", trackingNumber));
  } finally {
    await client.$disconnect();
  }
}

/** Every store of the order cancels its part ("out of stock"), as the desk or the seller API would. */
export async function cancelOrder(databaseUrl: string, orderId: string): Promise<void> {
  const { createDb } = await import("@/lib/db");
  const { cancelPart } = await import("@/lib/orders/fulfilment");
  const client = createDb(databaseUrl);
  try {
    await client.$transaction(async (tx) => {
      for (const part of await tx.orderStore.findMany({ where: { orderId }, select: { storeId: true } })) await cancelPart(tx, part.storeId, orderId, "out_of_stock");
    });
  } finally {
    await client.$disconnect();
  }
}
