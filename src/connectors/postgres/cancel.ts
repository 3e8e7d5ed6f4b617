/**
 * PostgreSQL's CancelRequest: on a new connection, the backend's process id and secret key; the
 * server interrupts whatever that backend runs. No authentication and no pool slot are needed, so it
 * works when the pool is exhausted. Best effort: the client is destroyed anyway, and a real server
 * would otherwise finish a runaway query after its client left. PGlite ignores it (its query runs on
 * our own thread and has ended by the time this is sent).
 */
import { connect, type Socket } from 'node:net';
import type pg from 'pg';

const CANCEL_REQUEST_CODE = 80877102;
/** A cancel that cannot be delivered in this time is given up. */
const CANCEL_SOCKET_TIMEOUT_MS = 2000;

/** The parts of a connected pg client the request needs (pg sets them; its typings omit some). */
interface BackendKey {
  readonly processID?: number | null;
  readonly secretKey?: number | null;
  readonly host?: string;
  readonly port?: number;
}

export function sendCancelRequest(client: pg.PoolClient): void {
  const { processID, secretKey, host, port } = client as unknown as BackendKey;
  if (processID == null || secretKey == null || host === undefined || port === undefined) return;
  const packet = Buffer.alloc(16);
  packet.writeInt32BE(16, 0);
  packet.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  packet.writeInt32BE(processID, 8);
  packet.writeInt32BE(secretKey, 12);
  let socket: Socket;
  try {
    socket = host.startsWith('/') ? connect(`${host}/.s.PGSQL.${port}`) : connect(port, host);
  } catch {
    return;
  }
  socket.setTimeout(CANCEL_SOCKET_TIMEOUT_MS, () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.on('connect', () => socket.end(packet));
  // The server closes the connection once it has read the request; nothing else to wait for.
  socket.unref();
}
