import { lookup } from "node:dns/promises";
import https from "node:https";
import net from "node:net";

/**
 * The one way this app reaches a host a third party named: an OAuth client's metadata document,
 * a commerce platform's profile, a webhook receiver. https only; the host is resolved first and
 * every address it resolves to must be public (loopback only where a test setting allows it),
 * then the connection goes to that checked address (no second resolution a DNS rebind could
 * change); redirects are never followed; the whole exchange has a time limit and the answer a
 * size limit.
 */

/** Addresses that are never fetched from: private, shared, link-local, documentation, multicast and reserved ranges. */
const NON_PUBLIC = new net.BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv6");
}
const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is judged as the IPv4 address it carries. */
function unmapped(address: string): { address: string; type: "ipv4" | "ipv6" } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, type: "ipv4" };
  return { address, type: net.isIPv4(address) ? "ipv4" : "ipv6" };
}

export function isLoopbackAddress(address: string): boolean {
  const a = unmapped(address);
  return LOOPBACK.check(a.address, a.type);
}

/** Whether a document may be fetched from `address` (loopback only when `allowLoopback`, for tests). */
export function isFetchableAddress(address: string, allowLoopback: boolean): boolean {
  const a = unmapped(address);
  if (!net.isIP(a.address)) return false;
  if (LOOPBACK.check(a.address, a.type)) return allowLoopback;
  return !NON_PUBLIC.check(a.address, a.type);
}

/** Why an outbound request was not made or not finished (the message says which and why). */
export class OutboundError extends Error {
  override name = "OutboundError";
}

export interface CheckedTarget {
  address: string;
  family: number;
}

/** Resolves `host` and checks every address; the first is where to connect. */
export async function resolvePublic(host: string, allowLoopback: boolean): Promise<CheckedTarget> {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  let addresses: CheckedTarget[];
  if (net.isIP(bare)) addresses = [{ address: bare, family: net.isIP(bare) }];
  else {
    try {
      addresses = await lookup(bare, { all: true, verbatim: true });
    } catch {
      addresses = [];
    }
  }
  if (addresses.length === 0) throw new OutboundError(`${bare} does not resolve`);
  for (const { address } of addresses) {
    if (!isFetchableAddress(address, allowLoopback)) throw new OutboundError(`${bare} resolves to a non-public address (${address}); refused`);
  }
  return addresses[0]!;
}

/** An https.request `lookup` that answers the checked address, and nothing else. */
export function pinnedLookup(target: CheckedTarget): https.RequestOptions["lookup"] {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: CheckedTarget[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
}

export interface OutboundRequest {
  method: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** For the whole exchange, the answer's body included. */
  timeoutMs: number;
  /** The answer's body past this many bytes ends the exchange (OutboundError). */
  maxBytes: number;
  /** Tests only: loopback addresses may be reached. */
  allowLoopback: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

/**
 * The guard's checks of a URL, before anything is sent: an https URL without credentials whose
 * host resolves only to public addresses. Rejects with OutboundError saying which failed.
 */
export async function checkOutboundUrl(target: string, allowLoopback: boolean): Promise<{ url: URL; checked: CheckedTarget }> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new OutboundError("not a URL");
  }
  if (url.protocol !== "https:") throw new OutboundError("only https URLs are reached");
  if (url.username || url.password) throw new OutboundError("URLs with credentials are refused");
  return { url, checked: await resolvePublic(url.hostname, allowLoopback) };
}

/**
 * Sends one request under the guard. Resolves with whatever status the host answered (a 3xx is
 * an answer, not followed); rejects with OutboundError when the URL, its addresses, the time or
 * the size refused it, or the connection failed.
 */
export async function outboundRequest(target: string, request: OutboundRequest): Promise<OutboundResponse> {
  const { url, checked } = await checkOutboundUrl(target, request.allowLoopback);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const signal = AbortSignal.timeout(request.timeoutMs);
  const body = request.body === undefined ? undefined : Buffer.from(request.body, "utf8");
  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      reject(err instanceof OutboundError ? err : new OutboundError(signal.aborted ? `no answer within ${request.timeoutMs} ms` : `request failed: ${(err as Error).message}`));
    };
    const req = https.request(
      url,
      {
        method: request.method,
        headers: { "user-agent": "marketplace/1.0", ...request.headers, ...(body ? { "content-length": String(body.length) } : {}) },
        signal,
        servername: net.isIP(host) ? undefined : host,
        lookup: pinnedLookup(checked),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > request.maxBytes) {
            fail(new OutboundError(`the answer is larger than ${request.maxBytes} bytes`));
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => {
          if (settled) return;
          settled = true;
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
            else if (value !== undefined) headers.set(name, value);
          }
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
        });
        res.on("error", fail);
      },
    );
    req.on("error", fail);
    req.end(body);
  });
}
