import { AppError } from "@/lib/errors";

/**
 * The UCP release this marketplace implements, and how a platform's request names its own
 * (UCP 2026-01-11, overview.md "Version negotiation"; the `UCP-Agent` header of the REST binding).
 */

export const UCP_VERSION = "2026-01-11";

/** The capabilities this business offers (names as the specification spells them). */
export const UCP_CAPABILITIES = {
  checkout: "dev.ucp.shopping.checkout",
  order: "dev.ucp.shopping.order",
  fulfillment: "dev.ucp.shopping.fulfillment",
} as const;

export const UCP_SERVICE = "dev.ucp.shopping";

/** What a request's `UCP-Agent` header says: the platform's profile URL and, optionally, its version. */
export interface UcpAgent {
  /** The profile URL as sent (null when the header names none). */
  profile: string | null;
  /** The platform's UCP version (`YYYY-MM-DD`), when the header carries one. */
  version: string | null;
}

const VERSION = /^\d{4}-\d{2}-\d{2}$/;
// One `key="value"` (an RFC 8941 sf-string: printable ASCII, \" and \\ escaped) and what ends it.
const PAIR = /\s*([a-z*][a-z0-9_.*-]*)\s*=\s*"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"\s*([;,]|$)/y;
const HEADER_MAX = 2048;

/**
 * Reads `UCP-Agent: profile="https://…"` (an RFC 8941 dictionary). A `version` may come as a
 * parameter of `profile` (`profile="…"; version="2026-01-11"`) or as a member of its own
 * (`profile="…", version="…"`): both are read. A header that is not a dictionary of strings, or
 * a version not in `YYYY-MM-DD` form, is 400; a missing header is an agent without a profile.
 */
export function parseUcpAgent(header: string | null): UcpAgent {
  if (header === null || header.trim() === "") return { profile: null, version: null };
  if (header.length > HEADER_MAX) throw invalidHeader("is too long");
  const values = new Map<string, string>();
  PAIR.lastIndex = 0;
  while (PAIR.lastIndex < header.length) {
    const m = PAIR.exec(header);
    if (!m) throw invalidHeader(`must be a list of key="value" pairs, as profile="https://platform.example/profile"`);
    values.set(m[1]!, m[2]!.replace(/\\(["\\])/g, "$1"));
    if (m[3] === "") break;
  }
  const version = values.get("version") ?? null;
  if (version !== null && !VERSION.test(version)) throw invalidHeader(`version must be YYYY-MM-DD, not '${version.slice(0, 40)}'`);
  return { profile: values.get("profile") ?? null, version };
}

function invalidHeader(why: string): AppError {
  return new AppError("parameter_invalid", `UCP-Agent ${why}.`, "UCP-Agent");
}

/**
 * Version negotiation: a platform at this version or an older one is served at ours (every
 * answer says `ucp.version: 2026-01-11`); a platform newer than ours is refused (400
 * `version_unsupported`), since ours cannot promise what its version adds.
 */
export function negotiate(agent: UcpAgent): void {
  if (agent.version !== null && agent.version > UCP_VERSION) {
    throw new AppError("ucp_version_unsupported", `Version ${agent.version} is not supported: this business implements UCP ${UCP_VERSION}.`, "UCP-Agent");
  }
}
