/**
 * The embedded engine: PGlite (PostgreSQL compiled to WASM) served on a loopback port by
 * pglite-socket, so the pool reaches it exactly as it reaches a real server (one code path).
 *
 * What follows for the pool (./pool.ts): one backend session shared by every socket connection
 * (prepared statements, SET values, an open transaction are seen by all); one query at a time on the
 * JavaScript thread (it blocks the event loop, `statement_timeout` and cancel do nothing); connections
 * past `maxConnections` are refused. Kept light (issue 33): a new database is a copy of a template
 * (template.ts), not initdb, and the buffer cache is 16 MB (bench/users README "PGlite's buffer cache").
 */
import { mkdir } from 'node:fs/promises';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { holdsDatabase, layOutTemplate, readTemplate } from './template.js';

/** PostgreSQL's `shared_buffers` inside the engine (see above). */
const SHARED_BUFFERS = '16MB';

export interface EmbeddedEngine {
  /** A `postgres://` URL on 127.0.0.1 for the pool. */
  readonly url: string;
  /** Stops the socket server (closing its connections), then the engine. */
  stop(): Promise<void>;
}

export async function startEmbedded(dir: string | undefined, maxConnections: number): Promise<EmbeddedEngine> {
  const db = await PGlite.create(await engineOptions(dir));
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

/** A directory or memory database, from the template when it is new (template.ts). */
async function engineOptions(dir: string | undefined): Promise<PGliteOptions> {
  const startParams = withSettings(['-c', `shared_buffers=${SHARED_BUFFERS}`]);
  const settings: PGliteOptions = startParams === undefined ? {} : { startParams };
  const fresh = dir === undefined || !holdsDatabase(dir);
  const archive = fresh ? readTemplate() : undefined;
  if (dir === undefined) {
    return archive === undefined ? settings : { ...settings, loadDataDir: new Blob([archive], { type: 'application/x-gzip' }) };
  }
  if (archive === undefined || !(await layOutTemplate(dir, archive))) await mkdir(dir, { recursive: true });
  return { ...settings, dataDir: dir };
}

/**
 * PGlite's own start parameters with `extra` after them. They replace its defaults when given, and
 * the defaults are a static of the class that its types do not declare: without them (a later
 * PGlite that moved them), the engine starts with its own settings rather than without its own.
 */
function withSettings(extra: readonly string[]): string[] | undefined {
  const defaults = (PGlite as unknown as { defaultStartParams?: unknown }).defaultStartParams;
  if (!Array.isArray(defaults) || !defaults.every((p) => typeof p === 'string')) return undefined;
  return [...defaults, ...extra];
}

/** pglite-socket reports where it listens as `host:port`. */
function portOf(conn: string): number {
  const port = Number(conn.slice(conn.lastIndexOf(':') + 1));
  if (!Number.isInteger(port) || port <= 0) throw new Error(`pglite-socket listens on an unexpected address: ${conn}`);
  return port;
}
