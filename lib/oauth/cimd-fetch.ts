import { lookup } from "node:dns/promises";
import https from "node:https";
import net from "node:net";
import { Readable } from "node:stream";

/** Client ID metadata documents (decisions.md): at most 5 KB, fetched within 3 s. */
export const CIMD_MAX_BYTES = 5 * 1024;
export const CIMD_TIMEOUT_MS = 3_000;

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

/**
 * oidc-provider's `fetch` for client ID metadata documents: https only; the host is resolved
 * first and every address it resolves to must be public (loopback allowed only with the tests'
 * setting), then the connection goes to that checked address (no second resolution a DNS rebind
 * could change); 3 s for the whole exchange, body included (oidc-provider's own 2.5 s signal is
 * replaced by this one). The 5 KB limit is oidc-provider's `fetchResponseBodyLimits`; redirects
 * are not followed (oidc-provider asks for `redirect: manual` and refuses anything but 200).
 */
export function guardedFetch(allowLoopback: () => boolean) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (url.protocol !== "https:") throw new Error("client ID metadata documents are fetched over https only");
    const signal = AbortSignal.timeout(CIMD_TIMEOUT_MS);
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    const addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await lookup(host, { all: true, verbatim: true });
    if (addresses.length === 0) throw new Error(`${host} does not resolve`);
    for (const { address } of addresses) {
      if (!isFetchableAddress(address, allowLoopback())) throw new Error(`${host} resolves to a non-public address (${address}); refused`);
    }
    const target = addresses[0]!;
    const headers: Record<string, string> = { accept: "application/json", "user-agent": "marketplace-oauth/1.0" };
    new Headers(init?.headers).forEach((value, name) => {
      if (name !== "user-agent") headers[name] = value;
    });
    return new Promise<Response>((resolve, reject) => {
      const request = https.request(
        url,
        {
          method: "GET",
          headers,
          signal,
          servername: net.isIP(host) ? undefined : host,
          lookup: (_hostname, options, callback) => {
            if ((options as { all?: boolean }).all) (callback as (e: null, a: typeof addresses) => void)(null, [target]);
            else callback(null, target.address, target.family);
          },
        },
        (res) => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (Array.isArray(value)) value.forEach((v) => responseHeaders.append(name, v));
            else if (value !== undefined) responseHeaders.set(name, value);
          }
          const status = res.statusCode ?? 502;
          const body = status === 204 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          resolve(new Response(body, { status: status < 200 || status > 599 ? 502 : status, headers: responseHeaders }));
        },
      );
      request.on("error", reject);
      request.end();
    });
  };
}
