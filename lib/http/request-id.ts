import { randomBytes } from "node:crypto";

export const REQUEST_ID_HEADER = "x-request-id";
const WELL_FORMED = /^[A-Za-z0-9._-]{8,128}$/;

/** Reuses a well-formed incoming X-Request-Id (a proxy's or a client's), else makes one. */
export function requestIdFrom(headers: Headers): string {
  const incoming = headers.get(REQUEST_ID_HEADER);
  if (incoming && WELL_FORMED.test(incoming)) return incoming;
  return `req_${randomBytes(12).toString("base64url")}`;
}
