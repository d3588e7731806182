/**
 * MCP helpers for the contract tests: the official clients connected to the app's public MCP
 * endpoint over HTTP, each from its own client address, recording every HTTP response they get;
 * and raw JSON-RPC over fetch for what a client library would hide.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { baseUrl, randomClientIp } from "./http";

export const MCP_PATH = "/api/mcp/mcp";

export function mcpUrl(): string {
  return baseUrl() + MCP_PATH;
}

export interface RecordedResponse {
  method: string;
  status: number;
  headers: Headers;
}

export interface ToolCallResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: any;
  isError?: boolean;
}

/** One connected client, whichever library and protocol era it is. */
export interface McpSession {
  /** Protocol version the client negotiated. */
  protocolVersion: string | undefined;
  instructions: string | undefined;
  listTools(): Promise<{ tools: any[] }>;
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolCallResult>;
  /** Every HTTP response this client received, in order. */
  responses: RecordedResponse[];
  close(): Promise<void>;
}

export interface ConnectOptions {
  clientIp?: string;
  /** The MCP endpoint; default the public server's (`mcpUrl()`). */
  url?: string;
  /** An access token, sent as Bearer on every request (the agent server). */
  accessToken?: string;
}

export interface ClientKind {
  label: string;
  /** The era the client is expected to speak. */
  era: "2025" | "2026-07-28";
  connect(options?: ConnectOptions): Promise<McpSession>;
}

/**
 * fetch for a client transport: records every response and sends each request from `clientIp`,
 * or from a fresh random address, so that the many calls of a test never meet a rate limit.
 */
function recordingFetch(responses: RecordedResponse[], clientIp?: string, accessToken?: string) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    if (accessToken) headers.set("Authorization", `Bearer ${accessToken}`);
    headers.set("X-Forwarded-For", clientIp ?? randomClientIp());
    headers.set("User-Agent", "marketplace-contract-tests/1.0 (mcp)");
    const response = await fetch(input, { ...init, headers });
    responses.push({ method: init?.method ?? "GET", status: response.status, headers: response.headers });
    return response;
  };
}


function clientV2(label: string, era: ClientKind["era"]): ClientKind {
  return {
    label,
    era,
    async connect({ clientIp, url, accessToken } = {}) {
      const responses: RecordedResponse[] = [];
      const client = new ClientV2(
        { name: "marketplace-contract-tests", version: "1.0.0" },
        era === "2026-07-28" ? { versionNegotiation: { mode: "auto" } } : {},
      );
      const transport = new TransportV2(new URL(url ?? mcpUrl()), { fetch: recordingFetch(responses, clientIp, accessToken) });
      await client.connect(transport);
      return {
        protocolVersion: client.getNegotiatedProtocolVersion(),
        instructions: client.getInstructions(),
        listTools: () => client.listTools(),
        callTool: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolCallResult,
        responses,
        close: () => client.close(),
      };
    },
  };
}

const clientV1: ClientKind = {
  label: "@modelcontextprotocol/sdk 1.x Client (2025, initialize)",
  era: "2025",
  async connect({ clientIp, url, accessToken } = {}) {
    const responses: RecordedResponse[] = [];
    const client = new ClientV1({ name: "marketplace-contract-tests", version: "1.0.0" });
    const transport = new TransportV1(new URL(url ?? mcpUrl()), { fetch: recordingFetch(responses, clientIp, accessToken) });
    await client.connect(transport);
    return {
      protocolVersion: transport.protocolVersion,
      instructions: client.getInstructions(),
      listTools: () => client.listTools(),
      callTool: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolCallResult,
      responses,
      close: () => client.close(),
    };
  },
};

export const CLIENTS: ClientKind[] = [
  clientV2("@modelcontextprotocol/client 2.x (2026-07-28, negotiated)", "2026-07-28"),
  clientV2("@modelcontextprotocol/client 2.x (2025, initialize)", "2025"),
  clientV1,
];

export interface RpcResponse {
  status: number;
  headers: Headers;
  /** The JSON-RPC message of the response (from a JSON body or the first SSE `data:` line). */
  message: any;
  text: string;
}

/**
 * POSTs one raw JSON-RPC message (2025 style: no envelope needed) to the public endpoint, or the
 * one at `path`, of the test app or of the app at `baseUrl`.
 */
export async function rpc(
  body: unknown,
  options: { clientIp?: string; headers?: Record<string, string>; baseUrl?: string; path?: string } = {},
): Promise<RpcResponse> {
  const res = await fetch((options.baseUrl ?? baseUrl()) + (options.path ?? MCP_PATH), {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "X-Forwarded-For": options.clientIp ?? randomClientIp(),
      "User-Agent": "marketplace-contract-tests/1.0 (mcp)",
      ...options.headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(25_000),
  });
  const text = await res.text();
  const json = (res.headers.get("content-type") ?? "").startsWith("text/event-stream")
    ? text.split("\n").find((line) => line.startsWith("data: "))?.slice(6)
    : text;
  let message: any = null;
  try {
    message = json ? JSON.parse(json) : null;
  } catch {
    message = null;
  }
  return { status: res.status, headers: res.headers, message, text };
}

export function toolCall(name: string, args: Record<string, unknown>, id: number | string = 1) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

export function initialize(id: number | string = 1) {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "marketplace-contract-tests", version: "1.0.0" } },
  };
}

/** The API body with its request id taken out (the only part that differs between two calls). */
export function withoutRequestId(body: { meta?: Record<string, unknown> }): unknown {
  const meta = { ...body.meta };
  delete meta.request_id;
  return { ...body, meta };
}
