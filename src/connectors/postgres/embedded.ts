/**
 * The embedded engine: PGlite (PostgreSQL compiled to WASM) served on a loopback port by
 * pglite-socket, so the pool reaches it exactly as it reaches a real server (one code path).
 *
 * What PGlite is, and what follows for the pool (./pool.ts):
 * - one backend session, shared by every socket connection: prepared statements, SET values and an
 *   open transaction are seen by all of them, and survive a reconnect;
 * - one query at a time, run on the JavaScript thread: a long query blocks the event loop, no timer
 *   fires meanwhile, `statement_timeout` has no effect and a cancel request is ignored;
 * - pglite-socket refuses a connection past its `maxConnections` (it writes "Too many connections").
 * Cold start of a whole open (engine, socket server, pool, ping), 2 CPUs, idle machine: 2.0-2.2 s in
 * memory (initdb runs every time), 2.5-2.6 s to create a directory, 0.43-0.51 s to reopen one (up to
 * twice that on a busy machine). Hence `pglite:<dir>` is the form for development.
 */
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedEngine {
  /** A `postgres://` URL on 127.0.0.1 for the pool. */
  readonly url: string;
  /** Stops the socket server (closing its connections), then the engine. */
  stop(): Promise<void>;
}

export async function startEmbedded(dir: string | undefined, maxConnections: number): Promise<EmbeddedEngine> {
  if (dir !== undefined) await mkdir(dir, { recursive: true });
  const db = await PGlite.create(dir);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  const port = portOf(server.getServerConn());
  let stopped: Promise<void> | undefined;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () =>
      (stopped ??= (async () => {
        try {
          await server.stop();
        } finally {
          await db.close();
        }
      })()),
  };
}

/** pglite-socket reports where it listens as `host:port`. */
function portOf(conn: string): number {
  const port = Number(conn.slice(conn.lastIndexOf(':') + 1));
  if (!Number.isInteger(port) || port <= 0) throw new Error(`pglite-socket listens on an unexpected address: ${conn}`);
  return port;
}
