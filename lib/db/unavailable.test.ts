/**
 * lib/db/unavailable.ts: which thrown values mean "the database cannot serve right now" (503
 * service_unavailable) and which stay faults (500), in the wrappings node-postgres and Prisma give
 * them. The fault tests (tests/integration/faults.test.ts) see the real ones; these pin each shape.
 */
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./unavailable";

const withProps = (message: string, props: Record<string, unknown>) => Object.assign(new Error(message), props);

describe("isDatabaseUnavailable", () => {
  it.each([
    ["a refused connection", withProps("connect ECONNREFUSED 127.0.0.1:5432", { code: "ECONNREFUSED", syscall: "connect", errno: -111 })],
    ["a reset connection", withProps("read ECONNRESET", { code: "ECONNRESET" })],
    ["the server shutting down (57P01)", withProps("terminating connection due to administrator command", { code: "57P01", severity: "FATAL" })],
    ["the server starting up (57P03)", withProps("the database system is starting up", { code: "57P03" })],
    ["a connection failure (08006)", withProps("connection failure", { code: "08006" })],
    ["too many clients (53300)", withProps("sorry, too many clients already", { code: "53300" })],
    ["a statement timeout (57014)", withProps("canceling statement due to statement timeout", { code: "57014" })],
    ["the pool's connect timeout", new Error("timeout exceeded when trying to connect")],
    ["a connection lost mid-query", new Error("Connection terminated unexpectedly")],
    ["Prisma: can't reach the server (P1001)", withProps("Can't reach database server at `db:5432`", { code: "P1001" })],
    ["Prisma: server closed the connection (P1017)", withProps("Server has closed the connection.", { code: "P1017" })],
    ["Prisma: no transaction in time (P2028)", withProps("Transaction API error: Unable to start a transaction in the given time.", { code: "P2028" })],
    ["Prisma: a raw query cut off (P2010)", withProps("Raw query failed.", { code: "P2010", meta: { code: "N/A", message: "Server has closed the connection." } })],
    ["Prisma: a raw query's SQLSTATE (P2010)", withProps("Raw query failed.", { code: "P2010", meta: { code: "57P01", message: "terminating connection" } })],
    ["a driver adapter error's kind", new Error("driver error", { cause: { kind: "DatabaseNotReachable", host: "db", port: 5432 } })],
  ])("%s: yes", (_, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ["a unique violation", withProps("duplicate key value violates unique constraint", { code: "23505" })],
    ["Prisma: a unique violation (P2002)", withProps("Unique constraint failed", { code: "P2002" })],
    ["a raw query with a syntax error", withProps("Raw query failed.", { code: "P2010", meta: { code: "42601", message: "syntax error at or near" } })],
    ["a plain bug", new TypeError("Cannot read properties of undefined (reading 'id')")],
    ["a thrown string", "oops"],
    ["nothing", undefined],
  ])("%s: no", (_, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });

  it("follows a cause chain without looping", () => {
    const a: Error & { cause?: unknown } = new Error("outer");
    a.cause = a;
    expect(isDatabaseUnavailable(a)).toBe(false);
    expect(isDatabaseUnavailable(new Error("outer", { cause: new Error("Connection terminated unexpectedly") }))).toBe(true);
  });
});
