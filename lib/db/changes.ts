/**
 * What changed in the catalog, heard by every app instance within moments of the commit, so that
 * per-process caches (product records, "page exists" answers, search counts) forget exactly what
 * a seller's change made stale; their TTLs stay as a backstop.
 *
 * Triggers NOTIFY the channel `catalog_changes` at commit (prisma/migrations/*_catalog_notify and
 * *_facet_bitmaps): `products:<id>,<id>,...` (these products' public records may have changed),
 * `products:*` (any may have), `search` (search results and counts may have). A process listens on
 * one connection of its own, opened on the first subscription: with DATABASE_URL a node-postgres
 * client (application_name `marketplace-listener`, outside Prisma's pool) that reconnects by
 * itself; without, the embedded database's session. Notifications sent while no connection
 * listened are lost, so every (re)connection is announced as "everything may have changed".
 */
import { randomUUID } from "node:crypto";
import net from "node:net";
import pg from "pg";
import { logEvent, type LogLevel } from "@/lib/log";
import { embeddedDatabase } from "./embedded";
import { db } from "./index";
import { UUID } from "@/lib/ids";

export type CatalogChange = { kind: "search" } | { kind: "products"; ids: string[] | "all" };

export const CATALOG_CHANNEL = "catalog_changes";
/** The listener's application_name: how operators (and the tests) find its backend. */
export const LISTENER_APPLICATION_NAME = "marketplace-listener";

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5_000;
// Beats the OS default of two hours at noticing a silently dropped connection.
const KEEPALIVE_DELAY_MS = 10_000;

/** The change a payload names, or null for one this version does not know. */
export function parseCatalogChange(payload: string): CatalogChange | null {
  if (payload === "search") return { kind: "search" };
  if (!payload.startsWith("products:")) return null;
  const list = payload.slice("products:".length);
  if (list === "*") return { kind: "products", ids: "all" };
  const ids = list.split(",");
  if (!ids.every((id) => UUID.test(id))) return null;
  return { kind: "products", ids: ids.map((id) => id.toLowerCase()) };
}

type Listener = (change: CatalogChange) => void;

interface ChangeFeed {
  listeners: Set<Listener>;
  connected: boolean;
  unknownLogged: boolean;
  /** Markers this process sent (catalogChangesHeard) and waits to hear back, by token. */
  markers: Map<string, () => void>;
}

/** The payload prefix of a marker: not a change, only a point in the channel's commit order. */
const MARKER = "marker:";

// One feed per process, on globalThis: Next bundles this module into several chunks (the proxy,
// route handlers, pages), and they must share one connection and one set of listeners.
const holder = globalThis as unknown as { __catalogChanges?: ChangeFeed };

/** Calls `listener` with every catalog change this process hears; returns the unsubscribe. */
export function onCatalogChange(listener: Listener): () => void {
  const feed = (holder.__catalogChanges ??= startFeed());
  feed.listeners.add(listener);
  return () => {
    feed.listeners.delete(listener);
  };
}

/** Whether this process listens now: idle until a cache first subscribes, then listening or reconnecting. */
export function catalogChangesState(): "idle" | "listening" | "reconnecting" {
  const feed = holder.__catalogChanges;
  return feed === undefined ? "idle" : feed.connected ? "listening" : "reconnecting";
}

/**
 * Resolves once this process has heard every catalog change committed before the call, so that a
 * request that wrote (a seller's PATCH, a checkout taking the last unit) is followed by reads on
 * this instance that see it: the caches here have forgotten what it changed. PostgreSQL delivers
 * notifications in commit order, so hearing a marker sent after the write means hearing the
 * write's own. Other instances hear it within moments, as before. Returns at once where nothing
 * here caches (no subscription yet) or nothing listens (the TTLs cover that), and after
 * `timeoutMs` at most: it bounds a wait, it never fails a request.
 */
export async function catalogChangesHeard(timeoutMs = 2_000): Promise<void> {
  const feed = holder.__catalogChanges;
  if (!feed?.connected) return;
  const token = randomUUID();
  let timer: NodeJS.Timeout | undefined;
  const heard = new Promise<void>((resolve) => {
    feed.markers.set(token, resolve);
    timer = setTimeout(resolve, timeoutMs);
  });
  try {
    await db().$executeRaw`SELECT pg_notify(${CATALOG_CHANNEL}, ${MARKER + token})`;
    await heard;
  } catch (err) {
    log({ level: "warn", msg: "catalog changes: could not send a marker", error: String(err) });
  } finally {
    clearTimeout(timer);
    feed.markers.delete(token);
  }
}

function log({ level, msg, ...fields }: { level: LogLevel; msg: string; [key: string]: unknown }) {
  logEvent(level, msg, fields);
}

function startFeed(): ChangeFeed {
  const feed: ChangeFeed = { listeners: new Set(), connected: false, unknownLogged: false, markers: new Map() };
  const deliver = (change: CatalogChange) => {
    for (const listener of feed.listeners) {
      try {
        listener(change);
      } catch (err) {
        log({ level: "warn", msg: "catalog changes: a listener failed", error: String(err) });
      }
    }
  };
  const hear = (payload: string) => {
    // Another process's markers are none of this one's business.
    if (payload.startsWith(MARKER)) return feed.markers.get(payload.slice(MARKER.length))?.();
    const change = parseCatalogChange(payload);
    if (change) return deliver(change);
    if (feed.unknownLogged) return;
    feed.unknownLogged = true;
    log({ level: "warn", msg: "catalog changes: ignoring an unknown payload (logged once)", payload: payload.slice(0, 200) });
  };
  const connected = (now: boolean) => {
    feed.connected = now;
    if (!now) return;
    log({ level: "info", msg: "catalog changes: listening (caches start afresh)" });
    // Whatever was sent while nobody listened is lost: everything may have changed.
    deliver({ kind: "search" });
    deliver({ kind: "products", ids: "all" });
  };
  const url = process.env.DATABASE_URL;
  if (url) listenOnServer(url, hear, connected);
  else listenEmbedded(hear, connected);
  return feed;
}

function listenEmbedded(hear: (payload: string) => void, connected: (now: boolean) => void) {
  embeddedDatabase()
    .listen(CATALOG_CHANNEL, hear)
    .then(
      () => connected(true),
      // The database did not open: the process cannot serve anything anyway (openAtStartup).
      (err) => log({ level: "warn", msg: "catalog changes: cannot listen on the embedded database", error: String(err) }),
    );
}

function listenOnServer(connectionString: string, hear: (payload: string) => void, connected: (now: boolean) => void) {
  let delay = RECONNECT_MIN_MS;
  // Logged when listening stops (and resumes, in `connected`), not at every failed attempt.
  let down = false;
  const connect = async () => {
    const client = new pg.Client({
      connectionString,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
      // The listener never keeps a process alive by itself (a script that read a product exits).
      stream: () => new net.Socket().unref(),
    });
    let lost = false;
    const onLost = (err?: unknown) => {
      if (lost) return;
      lost = true;
      connected(false);
      client.end().catch(() => {});
      if (!down) {
        down = true;
        log({
          level: "warn",
          msg: "catalog changes: not listening, caches rely on their TTL until the connection is back",
          error: err === undefined ? "connection ended" : String(err),
        });
      }
      setTimeout(() => void connect(), delay).unref();
      delay = Math.min(delay * 2, RECONNECT_MAX_MS);
    };
    client.on("error", onLost);
    client.on("end", () => onLost());
    client.on("notification", (message) => {
      if (message.channel === CATALOG_CHANNEL) hear(message.payload ?? "");
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CATALOG_CHANNEL}`);
    } catch (err) {
      return onLost(err);
    }
    if (lost) return;
    delay = RECONNECT_MIN_MS;
    down = false;
    connected(true);
  };
  void connect();
}
