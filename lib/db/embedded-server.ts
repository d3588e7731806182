/**
 * Lets PostgreSQL clients (psql, node-postgres, `npm run db:seed`, a second app process, the
 * tests) reach the embedded database of a running app: a wire-protocol listener on a loopback
 * port (EMBEDDED_DATABASE_PORT). It is for development and tests, never for production.
 *
 * PGlite has one session, shared by every client. A client takes the gate of lib/db/embedded.ts
 * when it starts a unit of work and gives it back when the database is idle again after a Sync or
 * a simple query: one statement, or a whole transaction from BEGIN to COMMIT/ROLLBACK. Messages of
 * two clients, or of a client and the app, never interleave. (@electric-sql/pglite-socket queues
 * single messages, so one client's statement could land inside another's transaction.)
 *
 * LISTEN/NOTIFY: the one session hands every notification to whoever sent the statement that
 * committed it. So the listener passes each notification a client's statement raised to the app
 * (`onNotification`) and to the other clients that asked for its channel with a simple-query
 * `LISTEN`; the app passes those its own statements raise with `forward`. Each client thus hears
 * what a server's session would (and, as before, the notifications its own writes raise).
 */
import net from "node:net";
import type { PGlite } from "@electric-sql/pglite";
import type { Gate } from "./gate";

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** A client idle inside a transaction this long holds up everyone: it is rolled back and dropped. */
const IDLE_IN_TRANSACTION_MS = 30_000;

export interface WireServer {
  port: number;
  /** Sends a notification raised by the app's own statements to the clients listening on `channel`. */
  forward(channel: string, payload: string): void;
  close(): Promise<void>;
}

/** A connected client, as notifications see it. */
interface Peer {
  /** Channels it has LISTENed on. */
  channels: Set<string>;
  send(message: Buffer): void;
}

export async function serveWireProtocol(
  pglite: PGlite,
  gate: Gate,
  {
    port,
    host = "127.0.0.1",
    onNotification = () => {},
  }: { port: number; host?: string; onNotification?: (channel: string, payload: string) => void },
): Promise<WireServer> {
  const sockets = new Set<net.Socket>();
  const peers = new Set<Peer>();
  const sendToListeners = (message: Buffer, channel: string, except: Peer | null) => {
    for (const peer of peers) if (peer !== except && peer.channels.has(channel)) peer.send(message);
  };
  const raised = (from: Peer, message: Buffer) => {
    const { channel, payload } = decodeNotification(message);
    onNotification(channel, payload);
    sendToListeners(message, channel, from);
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const peer: Peer = { channels: new Set(), send: (message) => socket.write(message) };
    peers.add(peer);
    socket.on("close", () => {
      sockets.delete(socket);
      peers.delete(peer);
    });
    handleConnection(pglite, gate, socket, peer, (message) => raised(peer, message));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    forward: (channel, payload) => sendToListeners(encodeNotification(channel, payload), channel, null),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function handleConnection(
  pglite: PGlite,
  gate: Gate,
  socket: net.Socket,
  peer: Peer,
  onNotification: (message: Buffer) => void,
) {
  socket.setNoDelay(true);
  const scan = notificationScanner(onNotification);
  let buffer = Buffer.alloc(0);
  let started = false;
  let closed = false;
  /** Ends this client's turn at the gate, while it has one. */
  let release: (() => void) | null = null;
  let idleTimer: NodeJS.Timeout | undefined;
  // Messages are handled one after another, in the order they came.
  let queue: Promise<void> = Promise.resolve();

  const endTurn = async () => {
    clearTimeout(idleTimer);
    if (!release) return;
    if (pglite.isInTransaction()) await pglite.exec("ROLLBACK").catch(() => {});
    const done = release;
    release = null;
    done();
  };
  const drop = () => {
    if (closed) return;
    closed = true;
    socket.destroy();
    queue = queue.then(endTurn);
  };
  socket.on("close", drop);
  socket.on("error", drop);

  const handle = async (message: Buffer, type: string | null) => {
    if (closed) return;
    if (type === "X") return drop(); // Terminate: the session itself stays, it is everyone's.
    clearTimeout(idleTimer);
    if (type === "Q") trackListen(peer.channels, message);
    release ??= await gate.acquire();
    if (closed) return endTurn();
    await pglite.runExclusive(() =>
      pglite.execProtocolRawStream(new Uint8Array(message), {
        onRawData: (data) => {
          if (data.length === 0) return;
          // A copy: `data` is PGlite's memory, reused by the next statement.
          const output = Buffer.from(data);
          if (!closed) socket.write(output);
          // Delivered before the client hears its statement is done (ReadyForQuery follows).
          scan(output);
        },
      }),
    );
    // A unit of work ends with Sync or a simple query (or the start-up exchange); the turn ends
    // with it unless a transaction is still open.
    if (type === null || type === "S" || type === "Q") {
      if (!pglite.isInTransaction()) {
        const done = release;
        release = null;
        done();
      } else {
        idleTimer = setTimeout(drop, IDLE_IN_TRANSACTION_MS).unref();
      }
    }
  };

  socket.on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (!started) {
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return;
        const code = buffer.readInt32BE(4);
        const message = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          socket.write("N"); // no encryption on loopback; the client goes on in plain text
          continue;
        }
        if (code === CANCEL_REQUEST) return drop();
        started = true;
        queue = queue.then(() => handle(Buffer.from(message), null)).catch(drop);
        continue;
      }
      if (buffer.length < 5) return;
      const length = 1 + buffer.readInt32BE(1);
      if (buffer.length < length) return;
      const type = String.fromCharCode(buffer[0]!);
      const message = Buffer.from(buffer.subarray(0, length));
      buffer = buffer.subarray(length);
      queue = queue.then(() => handle(message, type)).catch(drop);
    }
  });
}

// NotificationResponse: 'A', length, the notifying process id, the channel, the payload.
const NOTIFICATION = 0x41;

function decodeNotification(message: Buffer): { channel: string; payload: string } {
  const channelEnd = message.indexOf(0, 9);
  return {
    channel: message.toString("utf8", 9, channelEnd),
    payload: message.toString("utf8", channelEnd + 1, message.length - 1),
  };
}

function encodeNotification(channel: string, payload: string): Buffer {
  const channelBytes = Buffer.from(channel, "utf8");
  const payloadBytes = Buffer.from(payload, "utf8");
  const message = Buffer.alloc(1 + 4 + 4 + channelBytes.length + 1 + payloadBytes.length + 1);
  message[0] = NOTIFICATION;
  message.writeInt32BE(message.length - 1, 1);
  message.writeInt32BE(0, 5); // no process to name: the app's own session
  channelBytes.copy(message, 9);
  payloadBytes.copy(message, 9 + channelBytes.length + 1);
  return message;
}

/**
 * Finds the NotificationResponse messages in a stream of backend messages cut anywhere: only the
 * 5-byte headers are read; other messages are skipped without being copied.
 */
function notificationScanner(onNotification: (message: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer | null = null; // an incomplete header, or an incomplete NotificationResponse
  let skip = 0; // what is left of a message that is not one
  return (chunk) => {
    let data = chunk;
    if (skip > 0) {
      const skipped = Math.min(skip, data.length);
      skip -= skipped;
      data = data.subarray(skipped);
    }
    if (pending) {
      data = Buffer.concat([pending, data]);
      pending = null;
    }
    let at = 0;
    while (at < data.length) {
      const left = data.length - at;
      if (left < 5) {
        pending = Buffer.from(data.subarray(at));
        return;
      }
      const size = 1 + data.readInt32BE(at + 1);
      if (data[at] !== NOTIFICATION) {
        if (left < size) {
          skip = size - left;
          return;
        }
      } else if (left < size) {
        pending = Buffer.from(data.subarray(at));
        return;
      } else {
        onNotification(Buffer.from(data.subarray(at, at + size)));
      }
      at += size;
    }
  };
}

/**
 * Follows a client's `LISTEN channel` and `UNLISTEN channel | *` (simple queries, as node-postgres
 * and psql send them) so that notifications raised elsewhere reach it. A channel name folds to
 * lower case unless quoted, as in SQL.
 */
function trackListen(channels: Set<string>, message: Buffer) {
  const text = message.toString("utf8", 5, message.length - 1);
  const match = /^\s*(UN)?LISTEN\s+(\*|"((?:[^"]|"")+)"|[A-Za-z_][\w$]*)\s*;?\s*$/i.exec(text);
  if (!match) return;
  const channel = match[3] !== undefined ? match[3].replaceAll('""', '"') : match[2]!.toLowerCase();
  if (!match[1]) channels.add(channel);
  else if (match[2] === "*") channels.clear();
  else channels.delete(channel);
}
