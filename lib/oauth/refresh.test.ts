import { describe, expect, it } from "vitest";
import { refreshResource } from "./refresh";

const BUYER = "https://shop.example/api/v1/buyer";
const MCP = "https://shop.example/api/agent/mcp";

/** The OAuth error a call refuses with, or "ok <resource>". */
function outcome(...args: Parameters<typeof refreshResource>): string {
  try {
    return `ok ${refreshResource(...args)}`;
  } catch (err) {
    const e = err as { error?: string; error_description?: string };
    return `${e.error}: ${e.error_description}`;
  }
}

describe("the resource of a refresh (RFC 8707), decided before the refresh token is spent", () => {
  it("is the requested resource when the refresh token was granted it", () => {
    expect(outcome(BUYER, BUYER, MCP)).toBe(`ok ${BUYER}`);
    expect(outcome(MCP, [BUYER, MCP], MCP)).toBe(`ok ${MCP}`);
  });

  it("is the granted resource when none is requested (an empty value is none)", () => {
    expect(outcome(undefined, BUYER, MCP)).toBe(`ok ${BUYER}`);
    expect(outcome("", BUYER, MCP)).toBe(`ok ${BUYER}`);
  });

  it("is the default among several granted; a default not granted is refused", () => {
    expect(outcome(undefined, [BUYER, MCP], MCP)).toBe(`ok ${MCP}`);
    expect(outcome(undefined, [BUYER], MCP)).toBe("invalid_target: resource indicator is missing, or unknown");
  });

  it("refuses a resource the refresh token was not granted", () => {
    expect(outcome(MCP, BUYER, MCP)).toBe("invalid_target: resource indicator is missing, or unknown");
    expect(outcome(`${BUYER}?x=1`, BUYER, MCP)).toBe("invalid_target: resource indicator is missing, or unknown");
  });

  it("refuses two resources at once, even both granted", () => {
    expect(outcome([BUYER, MCP], [BUYER, MCP], MCP)).toBe("invalid_target: only a single resource indicator value must be requested/resolved during Access Token Request");
    expect(outcome([BUYER, BUYER], BUYER, MCP)).toMatch(/^invalid_target: only a single/);
  });

  it("is none for a refresh token without a resource, unless one is requested", () => {
    expect(outcome(undefined, undefined, MCP)).toBe("ok undefined");
    expect(outcome(undefined, [], MCP)).toBe("ok undefined");
    expect(outcome(BUYER, undefined, MCP)).toBe("invalid_target: resource indicator is missing, or unknown");
  });
});
