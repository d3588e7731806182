/**
 * decisions.md: every request is logged as one structured JSON line: request id, route,
 * status, duration, client IP (first hop of X-Forwarded-For) and User-Agent.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, serverLogLine } from "../helpers/http";

describe("one JSON log line per request", () => {
  it("carries request id, route, status, duration, first-hop IP and User-Agent", async () => {
    const requestId = `logcheck-${randomBytes(6).toString("hex")}`;
    const res = await api("/search?q=lamp", {
      headers: {
        "X-Request-Id": requestId,
        "User-Agent": "log-test-agent/1.0 (+https://example.com/bot)",
        "X-Forwarded-For": "203.0.113.7, 10.0.0.1",
      },
    });
    expect(res.status).toBe(200);
    const line = await serverLogLine(requestId);
    expect(Object.keys(line).sort()).toEqual(
      ["duration_ms", "ip", "level", "method", "msg", "request_id", "route", "status", "user_agent"].sort(),
    );
    expect(line).toMatchObject({
      request_id: requestId,
      method: "GET",
      route: "public.search",
      status: 200,
      ip: "203.0.113.7",
      user_agent: "log-test-agent/1.0 (+https://example.com/bot)",
    });
    expect(typeof line.duration_ms).toBe("number");
  });

  it("names the error code of a failed request, and logs 405s too", async () => {
    const bad = `logcheck-${randomBytes(6).toString("hex")}`;
    await api("/search?page=0", { headers: { "X-Request-Id": bad } });
    expect(await serverLogLine(bad)).toMatchObject({ status: 400, error: "parameter_invalid" });

    const refused = `logcheck-${randomBytes(6).toString("hex")}`;
    await api("/search", { method: "DELETE", headers: { "X-Request-Id": refused } });
    expect(await serverLogLine(refused)).toMatchObject({ status: 405, error: "method_not_allowed" });
  });
});
