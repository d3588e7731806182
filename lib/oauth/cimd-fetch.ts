import https from "node:https";
import net from "node:net";
import { Readable } from "node:stream";
import { pinnedLookup, resolvePublic } from "@/lib/net/outbound";

/** Client ID metadata documents (decisions.md): at most 5 KB, fetched within 3 s. */
export const CIMD_MAX_BYTES = 5 * 1024;
export const CIMD_TIMEOUT_MS = 3_000;

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
    const target = await resolvePublic(host, allowLoopback());
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
          lookup: pinnedLookup(target),
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
