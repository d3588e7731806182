import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable, Writable } from "node:stream";
import { BUYER_SCOPES } from "@/lib/auth/scopes";
import { publicBaseUrl } from "@/lib/config";
import { errorPage, oauthProvider } from "./provider";
import { OAUTH_MOUNT, resourceNamed, resourceUrl } from "./resources";

/**
 * The bridge between App Router route handlers (Web `Request` / `Response`) and oidc-provider,
 * a Koa application that reads a Node `req` and writes a Node `res`. The request handed over has
 * the public host and scheme (from PUBLIC_BASE_URL) and the client address the app already
 * decided (lib/http/client-ip.ts); whatever X-Forwarded-* the caller sent is replaced.
 */
export interface NodeCall {
  method: string;
  /** Path and query under the mount (`/token`, `/authorize?...`). */
  path: string;
  headers: Headers;
  body?: Uint8Array;
  clientIp: string;
}

function nodeRequest(call: NodeCall): IncomingMessage {
  const base = new URL(publicBaseUrl());
  const headers: Record<string, string> = {};
  call.headers.forEach((value, name) => (headers[name] = value));
  delete headers["transfer-encoding"];
  Object.assign(headers, {
    host: base.host,
    "x-forwarded-host": base.host,
    "x-forwarded-proto": base.protocol.slice(0, -1),
    "x-forwarded-for": call.clientIp,
    "content-length": String(call.body?.byteLength ?? 0),
  });
  const req = new Readable({ read() {} }) as Readable & Record<string, unknown>;
  if (call.body?.byteLength) req.push(Buffer.from(call.body));
  req.push(null);
  Object.assign(req, {
    method: call.method,
    url: call.path,
    // oidc-provider builds its URLs from the mount path: the part of originalUrl before `url`.
    originalUrl: `${OAUTH_MOUNT}${call.path}`,
    headers,
    httpVersion: "1.1",
    httpVersionMajor: 1,
    httpVersionMinor: 1,
    socket: { encrypted: false, remoteAddress: call.clientIp },
  });
  return req as unknown as IncomingMessage;
}

/** What Koa needs of a ServerResponse, keeping status, headers and body for the Web `Response`. */
class CapturedResponse extends Writable {
  statusCode = 200;
  statusMessage = "";
  private readonly headerMap = new Map<string, number | string | string[]>();
  private readonly chunks: Buffer[] = [];
  headersSent = false;

  setHeader(name: string, value: number | string | string[]) {
    this.headerMap.set(name.toLowerCase(), value);
    return this;
  }
  getHeader(name: string) {
    return this.headerMap.get(name.toLowerCase());
  }
  hasHeader(name: string) {
    return this.headerMap.has(name.toLowerCase());
  }
  removeHeader(name: string) {
    this.headerMap.delete(name.toLowerCase());
  }
  getHeaderNames() {
    return [...this.headerMap.keys()];
  }
  getHeaders() {
    return Object.fromEntries(this.headerMap);
  }
  writeHead(status: number, ...rest: unknown[]) {
    this.statusCode = status;
    const headers = rest.find((r) => typeof r === "object" && r !== null) as Record<string, string> | undefined;
    for (const [name, value] of Object.entries(headers ?? {})) this.setHeader(name, value);
    return this;
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void) {
    this.headersSent = true;
    this.chunks.push(Buffer.from(chunk));
    callback();
  }

  toResponse(): Response {
    const headers = new Headers();
    for (const [name, value] of this.headerMap) {
      if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
      else headers.set(name, String(value));
    }
    headers.delete("content-length");
    const nullBody = this.statusCode === 204 || this.statusCode === 304;
    return new Response(nullBody ? null : Buffer.concat(this.chunks), { status: this.statusCode, headers });
  }
}

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** Runs a Node-style handler on `call` and answers what it wrote. */
export async function callNode(handler: NodeHandler, call: NodeCall): Promise<Response> {
  const req = nodeRequest(call);
  const res = new CapturedResponse();
  const finished = new Promise<void>((resolve, reject) => {
    res.once("finish", resolve);
    res.once("error", reject);
  });
  await handler(req, res as unknown as ServerResponse);
  await finished;
  return res.toResponse();
}

/** A Node request/response pair for oidc-provider's interaction API (it reads the interaction cookie). */
export function interactionPair(headers: Headers, clientIp: string): { req: IncomingMessage; res: ServerResponse } {
  return { req: nodeRequest({ method: "GET", path: "/", headers, clientIp }), res: new CapturedResponse() as unknown as ServerResponse };
}

/**
 * Real MCP clients vary the resource URL: a `resource` parameter naming a resource with a trailing
 * slash is rewritten to its exact URL, so the grant, the code and the token all carry one form.
 * Anything else is left as sent (and refused as `invalid_target`).
 */
function canonicalResources(params: URLSearchParams): boolean {
  const values = params.getAll("resource");
  if (values.length === 0) return false;
  const canonical = values.map((value) => {
    const name = resourceNamed(value);
    return name ? resourceUrl(name) : value;
  });
  if (canonical.every((value, i) => value === values[i])) return false;
  params.delete("resource");
  canonical.forEach((value) => params.append("resource", value));
  return true;
}

/**
 * An authorization request without `scope` asks for every buyer scope: the pre-defined default
 * RFC 6749 section 3.3 allows, and what the protected resources' `scopes_supported` lists (an MCP
 * client that finds no scope in a challenge or in that document sends none). The consent screen
 * shows them all, each can be unticked. Without this oidc-provider would carry an empty request to
 * the consent screen, where nothing could be granted and any answer was `access_denied`.
 */
function defaultScope(params: URLSearchParams): boolean {
  if (params.get("scope")?.trim()) return false;
  params.set("scope", BUYER_SCOPES.join(" "));
  return true;
}

const handlers = new WeakMap<object, NodeHandler>();
function oauthHandler(): NodeHandler {
  const provider = oauthProvider();
  let handler = handlers.get(provider);
  if (!handler) handlers.set(provider, (handler = provider.callback() as NodeHandler));
  return handler;
}

/** An HTTP request to the authorization server (anything under /oauth), answered by oidc-provider. */
export async function serveOAuth(request: Request, clientIp: string, path = new URL(request.url).pathname.slice(OAUTH_MOUNT.length) || "/"): Promise<Response> {
  const url = new URL(request.url);
  const authorize = path === "/authorize";
  const query = url.searchParams;
  const queryChanged = [canonicalResources(query), authorize && request.method === "GET" && defaultScope(query)].some(Boolean);
  if (queryChanged) url.search = query.toString();
  let body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
  let form: URLSearchParams | null = null;
  if (body && /^application\/x-www-form-urlencoded/i.test(request.headers.get("content-type") ?? "")) {
    form = new URLSearchParams(Buffer.from(body).toString("utf8"));
    const formChanged = [canonicalResources(form), authorize && request.method === "POST" && defaultScope(form)].some(Boolean);
    if (formChanged) body = new TextEncoder().encode(form.toString());
  }
  if (holdsNulParameter(query) || (form && holdsNulParameter(form))) {
    // Requests are kept in PostgreSQL (an authorization request's `state`, say), whose text cannot
    // hold a NUL (it was a 500). A browser's authorization request gets the error page.
    const refusal = { error: "invalid_request", error_description: "parameters must not contain NUL characters" };
    const headers = { "Cache-Control": "no-store" };
    return authorize
      ? new Response(errorPage(refusal), { status: 400, headers: { ...headers, "Content-Type": "text/html; charset=utf-8" } })
      : Response.json(refusal, { status: 400, headers });
  }
  if (path === "/register" && request.method === "POST" && body && holdsNul(body)) {
    // The client is stored as JSON in PostgreSQL, which cannot hold a NUL (it was a 500).
    return Response.json(
      { error: "invalid_client_metadata", error_description: "client metadata must not contain NUL characters" },
      { status: 400, headers: { "Cache-Control": "no-store" } },
    );
  }
  return callNode(oauthHandler(), { method: request.method, path: `${path}${url.search}`, headers: request.headers, body, clientIp });
}

/** Whether a query or form has a NUL in a name or a value. */
function holdsNulParameter(params: URLSearchParams): boolean {
  for (const [name, value] of params) if (name.includes("\u0000") || value.includes("\u0000")) return true;
  return false;
}

/** Whether a JSON body has a NUL in one of its strings or keys (not JSON: oidc-provider answers). */
function holdsNul(body: Uint8Array): boolean {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body).toString("utf8"));
  } catch {
    return false;
  }
  const walk = (node: unknown): boolean =>
    typeof node === "string"
      ? node.includes("\u0000")
      : node !== null && typeof node === "object" && Object.entries(node).some(([k, v]) => k.includes("\u0000") || walk(v));
  return walk(value);
}
