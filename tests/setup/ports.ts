/**
 * Ports for the servers a test run starts (apps, embedded databases, stand-in Redis and SMTP).
 *
 * A port is chosen some time before it is listened on (an embedded database's port is fixed when
 * the database is made and opened only when its app starts), so the port must not be handed to
 * anything else meanwhile. Asking the kernel for port 0 does not promise that: it hands the same
 * port out again, to this process or another worker, and outbound connections take ports from the
 * same ephemeral range (32768-60999 on Linux). So ports come from below that range, from a slice
 * of it that belongs to this worker (VITEST_POOL_ID, Playwright's TEST_PARALLEL_INDEX; 0 for the
 * main process), never twice in one process, and only after a bind shows nothing listens there.
 */
import net from "node:net";

const FIRST = 20_000;
const SLICES = 8;
const SLICE = 1_500; // 20000-31999: below the ephemeral range

const worker = Number(process.env.VITEST_POOL_ID ?? process.env.TEST_PARALLEL_INDEX ?? 0) || 0;
const base = FIRST + (worker % SLICES) * SLICE;
const handedOut = new Set<number>();
let next = Math.floor(Math.random() * SLICE);

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

/** A loopback port nothing listens on, not handed out before by this process. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < SLICE; tries++) {
    const port = base + (next++ % SLICE);
    if (handedOut.has(port)) continue;
    if (await bindable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port in ${base}-${base + SLICE - 1}`);
}
