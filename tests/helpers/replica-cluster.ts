/**
 * A PostgreSQL primary and a streaming standby of its own, for the read-replica tests: the
 * machine's server is not configured for replication (and tests never reconfigure it), so this
 * makes both with the server's binaries (`pg_config --bindir`): initdb a primary in a temporary
 * folder on a free port (wal_level=replica, replication from 127.0.0.1 trusted), `pg_basebackup
 * -R` a standby of it on another free port, both started with pg_ctl. PostgreSQL refuses to run
 * as root: as root (tests and CI), every command runs as the `postgres` user over folders it owns.
 */
import { execFile, execFileSync } from "node:child_process";
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "../setup/ports";

const run = promisify(execFile);

function binDir(): string {
  try {
    return execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
  } catch {
    return "/usr/lib/postgresql/15/bin";
  }
}

export interface ReplicaCluster {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres` of the primary (superuser, trust). */
  primaryAdminUrl: string;
  primaryPort: number;
  standbyPort: number;
  /** The same database's URL on the standby. */
  standbyUrl: (databaseUrl: string) => string;
  /** Makes the standby from the primary as it is now, and starts it. */
  startStandby: () => Promise<void>;
  /** `pg_ctl stop -m immediate` of the standby (as a crash or a pulled cable would). */
  stopStandby: () => Promise<void>;
  /** The last lines of a cluster's log, for a failure's message. */
  logTail: (which: "primary" | "standby") => string;
  /** Stops both and removes their folders; safe to call twice. */
  destroy: () => Promise<void>;
}

export async function startReplicaCluster(label: string): Promise<ReplicaCluster> {
  const bin = binDir();
  const root = mkdtempSync(path.join(tmpdir(), `mkt_replicas_${process.pid}_`));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim()) : undefined;
  const group = asRoot ? Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim()) : undefined;
  if (owner !== undefined) chownSync(root, owner, group!);
  const primary = path.join(root, "primary");
  const standby = path.join(root, "standby");
  const logOf = (which: "primary" | "standby") => path.join(root, `${which}.log`);
  const pg = async (command: string, args: string[]) => {
    const file = path.join(bin, command);
    const [cmd, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
    try {
      await run(cmd, argv, { cwd: root, timeout: 120_000 });
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string };
      throw new Error(`[${label}] ${command} ${args.join(" ")} failed: ${String(err)}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
    }
  };
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const settings = (port: number) =>
    [
      "",
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${root}'`,
      "wal_level = replica",
      "max_wal_senders = 5",
      "hot_standby = on",
      // A test cluster: no crash safety needed, and less disk work on a shared machine.
      "fsync = off",
      "full_page_writes = off",
      "max_connections = 60",
      "shared_buffers = 32MB",
      "",
    ].join("\n");
  const running = new Set<string>();
  const stop = async (dir: string, mode: "fast" | "immediate") => {
    if (!running.has(dir)) return;
    running.delete(dir);
    await pg("pg_ctl", ["-D", dir, "-m", mode, "-w", "-t", "60", "stop"]).catch(() => {});
  };
  const start = async (dir: string, which: "primary" | "standby") => {
    await pg("pg_ctl", ["-D", dir, "-l", logOf(which), "-w", "-t", "60", "start"]);
    running.add(dir);
  };
  const destroy = async () => {
    await stop(standby, "immediate");
    await stop(primary, "immediate");
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await pg("initdb", ["-D", primary, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
    appendFileSync(path.join(primary, "postgresql.conf"), settings(primaryPort));
    appendFileSync(path.join(primary, "pg_hba.conf"), "\nhost replication all 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 trust\n");
    await start(primary, "primary");
  } catch (err) {
    await destroy();
    throw err;
  }
  const withPort = (url: string, port: number) => {
    const u = new URL(url);
    u.port = String(port);
    return u.toString();
  };
  const primaryAdminUrl = `postgresql://postgres@127.0.0.1:${primaryPort}/postgres`;
  return {
    primaryAdminUrl,
    primaryPort,
    standbyPort,
    standbyUrl: (databaseUrl) => withPort(databaseUrl, standbyPort),
    startStandby: async () => {
      if (!existsSync(standby)) {
        await pg("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres", "-D", standby, "-R", "-X", "stream", "--checkpoint=fast", "--no-sync"]);
        // The copy has the primary's settings; a later line wins.
        appendFileSync(path.join(standby, "postgresql.conf"), `\nport = ${standbyPort}\n`);
      }
      await start(standby, "standby");
    },
    stopStandby: () => stop(standby, "immediate"),
    logTail: (which) => {
      try {
        return readFileSync(logOf(which), "utf8").split("\n").slice(-30).join("\n");
      } catch {
        return "(no log)";
      }
    },
    destroy,
  };
}
