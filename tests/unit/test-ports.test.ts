import net from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "../setup/ports";

describe("test ports", () => {
  it("hands out a port once per process, below the kernel's ephemeral range, and one nothing listens on", async () => {
    const ports: number[] = [];
    for (let i = 0; i < 200; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
    }
    // Each one can be listened on now (the reason it was handed out).
    const port = ports[ports.length - 1];
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
