/**
 * Tools for fault tests: a PostgreSQL server of the test's own (to stop and start without
 * touching the machine's shared one), and a TCP proxy between an app and its database that can
 * hold one connection at a chosen statement, so that a request stops mid-transaction exactly
 * where the test wants it (then the test kills the app, or lets it go on): no sleeps, no timing.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../setup/app";

const PG_BIN = "/usr/lib/postgresql/15/bin";

/** Whether this machine has the PostgreSQL 15 server binaries a private server needs. */
export function hasPostgresBinaries(): boolean {
  return existsSync(path.join(PG_BIN, "postgres")) && existsSync(path.join(PG_BIN, "initdb"));
}

export interface PrivatePostgres {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres`. */
  adminUrl: string;
  /** Stops the server as a crash would (`pg_ctl stop -m immediate`): every connection is cut. */
  stop: () => void;
  /** Starts it again on the same files and port, and waits until it accepts connections. */
  start: () => Promise<void>;
  /** Stops it (if running) and removes its files. */
  destroy: () => void;
}

/** A throw-away PostgreSQL server on a free loopback port (run as `postgres` when we are root). */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), "mkt_pg_"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  const exec = (bin: string, args: string[]) => {
    const [cmd, all] = asRoot ? ["runuser", ["-u", "postgres", "--", path.join(PG_BIN, bin), ...args]] : [path.join(PG_BIN, bin), args];
    const result = spawnSync(cmd, all as string[], { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${bin} ${args.join(" ")} failed: ${result.stderr || result.stdout}`);
  };
  const data = path.join(dir, "data");
  exec("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const adminUrl = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  let running = false;
  const start = async () => {
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
    exec("pg_ctl", ["start", "-D", data, "-w", "-t", "60", "-l", path.join(dir, "server.log"), "-o", options]);
    running = true;
    await waitForPostgres(adminUrl);
  };
  const stop = () => {
    if (!running) return;
    exec("pg_ctl", ["stop", "-D", data, "-m", "immediate", "-w"]);
    running = false;
  };
  await start();
  return {
    adminUrl,
    stop,
    start,
    destroy: () => {
      try {
        stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

async function waitForPostgres(url: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query("SELECT 1");
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

interface Hold {
  marker: RegExp;
  reached: () => void;
}

interface Pipe {
  client: net.Socket;
  server: net.Socket;
  /** While held: what the client sent that the server has not been given yet. */
  held: Buffer[] | null;
  /** The end of the last chunk, so a marker cut between two chunks is still seen. */
  tail: string;
}

/**
 * A TCP proxy to `target`. `holdAt(marker)` arms a hold: the next client message (on any
 * connection not held yet) whose bytes match `marker` is kept back, with everything that
 * connection sends after it, until `release()`; the promise resolves once it is held. The app on
 * the other side sees a statement that does not return, as if it waited on a lock. When the
 * client goes away, its server connection is closed too (the server rolls its transaction back).
 */
export class DatabaseProxy {
  private readonly pipes = new Set<Pipe>();
  private readonly armed: Hold[] = [];

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<DatabaseProxy> {
    const port = await freePort();
    const server = net.createServer();
    const proxy = new DatabaseProxy(server, port);
    server.on("connection", (client) => proxy.connect(client, target));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
    return proxy;
  }

  /** `databaseUrl` with its host and port replaced by the proxy's. */
  urlFor(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = "127.0.0.1";
    url.port = String(this.port);
    return url.toString();
  }

  /** Resolves once a client message matching `marker` is held back. */
  holdAt(marker: RegExp): Promise<void> {
    return new Promise((reached) => this.armed.push({ marker, reached }));
  }

  /** Lets every held connection go on. */
  release() {
    this.armed.length = 0;
    for (const pipe of this.pipes) {
      const held = pipe.held;
      pipe.held = null;
      if (held && !pipe.server.destroyed) for (const chunk of held) pipe.server.write(chunk);
    }
  }

  /** How many connections are being held now. */
  get heldCount(): number {
    return [...this.pipes].filter((p) => p.held).length;
  }

  async close() {
    this.release();
    for (const pipe of this.pipes) {
      pipe.client.destroy();
      pipe.server.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private connect(client: net.Socket, target: { host: string; port: number }) {
    const server = net.connect(target.port, target.host);
    const pipe: Pipe = { client, server, held: null, tail: "" };
    this.pipes.add(pipe);
    const end = () => {
      this.pipes.delete(pipe);
      client.destroy();
      server.destroy();
    };
    client.on("close", end);
    server.on("close", end);
    client.on("error", end);
    server.on("error", end);
    server.on("data", (chunk) => client.write(chunk));
    client.on("data", (chunk: Buffer) => {
      if (pipe.held) return void pipe.held.push(chunk);
      const text = pipe.tail + chunk.toString("latin1");
      pipe.tail = text.slice(-200);
      const at = this.armed.findIndex((hold) => hold.marker.test(text));
      if (at >= 0) {
        const [hold] = this.armed.splice(at, 1);
        pipe.held = [chunk];
        hold!.reached();
        return;
      }
      server.write(chunk);
    });
  }
}
