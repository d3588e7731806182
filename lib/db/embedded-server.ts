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
 */
import net from "node:net";
import type { PGlite } from "@electric-sql/pglite";
import type { Gate } from "./embedded";

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** A client idle inside a transaction this long holds up everyone: it is rolled back and dropped. */
const IDLE_IN_TRANSACTION_MS = 30_000;

export interface WireServer {
  port: number;
  close(): Promise<void>;
}

export async function serveWireProtocol(
  pglite: PGlite,
  gate: Gate,
  { port, host = "127.0.0.1" }: { port: number; host?: string },
): Promise<WireServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    handleConnection(pglite, gate, socket);
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function handleConnection(pglite: PGlite, gate: Gate, socket: net.Socket) {
  socket.setNoDelay(true);
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
    release ??= await gate.acquire();
    if (closed) return endTurn();
    await pglite.runExclusive(() =>
      pglite.execProtocolRawStream(new Uint8Array(message), {
        onRawData: (data) => {
          if (!closed && data.length > 0) socket.write(Buffer.from(data));
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
