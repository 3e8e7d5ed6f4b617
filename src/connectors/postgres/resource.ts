/**
 * What an open postgres connection holds: a `pg` Pool, and for `pglite:` URLs the embedded engine it
 * talks to over loopback. Both kinds of target go through the same Pool code; only its sizing differs.
 */
import pg from 'pg';
import type { ConnectionModel } from '../../model/index.js';
import type { OpenContext } from '../types.js';
import type { EmbeddedEngine } from './embedded.js';
import { EmbeddedListener } from './embedded-listener.js';
import type { Where } from './execute.js';
import { SharedListener } from './listener.js';
import type { PostgresTarget } from './target.js';
import { JSON_SAFE_TYPES } from './values.js';

export interface PostgresResource {
  readonly pool: pg.Pool;
  readonly engine: EmbeddedEngine | undefined;
  readonly where: Where;
  /**
   * False for `prepared_statements = false`: every statement is sent unnamed (parsed each time), for
   * a pooler in transaction mode that does not track prepared statements (docs/replicas.md).
   */
  readonly namedStatements: boolean;
  /**
   * pg's `Query`, for statements built without pg's copy of a config object (execute.ts `pgQuery`).
   * Handed over from here because this module is the only one that loads pg, and it is loaded only
   * when a postgres connection opens: a manifest without one never loads the driver.
   */
  readonly Query: typeof pg.Query;
  /** The one LISTEN connection (./listener.ts), opened by the first listener; on PGlite the pool's (./embedded-listener.ts). */
  readonly listener: SharedListener | EmbeddedListener;
}

/** pg's default pool size. */
const DEFAULT_POOL_MAX = 10;
/** Idle clients of a server pool are closed after pg's default 10 s unless `pool { idle_timeout }` says. */
const DEFAULT_IDLE_TIMEOUT_MS = 10_000;

export async function openPostgres(connection: ConnectionModel, target: PostgresTarget, where: Where, context: OpenContext): Promise<PostgresResource> {
  const embedded = target.type === 'pglite';
  const requested = connection.pool?.max;
  // PGlite is one backend session shared by every connection (prepared statements, SET values, an
  // open transaction): two pooled clients would see each other's. It runs one query at a time
  // anyway, so one client loses nothing.
  const max = embedded ? 1 : (requested ?? DEFAULT_POOL_MAX);
  if (embedded && requested !== undefined && requested > 1) {
    context.logger?.warn({ connection: where.key, requested }, 'PGlite runs one session: the pool keeps one client');
  }
  // Each pool client is one socket connection. A destroyed client's socket lingers until
  // pglite-socket has processed its close, while the pool already opens a replacement: room for
  // every client twice, plus the connection of a cancel request.
  // PGlite and pglite-socket are loaded by the first `pglite:` connection only: a service on a real
  // server never holds them.
  const engine = embedded ? await (await import('./embedded.js')).startEmbedded(target.dir, 2 * max + 1) : undefined;
  const config: pg.PoolConfig = {
    connectionString: engine?.url ?? (target as { url: string }).url,
    max,
    idleTimeoutMillis: connection.pool?.idleTimeoutMs ?? (embedded ? 0 : DEFAULT_IDLE_TIMEOUT_MS),
    // pg's name for both the wait for a pooled client and a new connection's handshake.
    connectionTimeoutMillis: context.acquireTimeoutMs,
    application_name: 'svc',
    types: JSON_SAFE_TYPES,
  };
  if (connection.statementTimeoutMs !== undefined) config.statement_timeout = connection.statementTimeoutMs;
  const embeddedListener = embedded ? new EmbeddedListener(where, context.logger) : undefined;
  if (embeddedListener !== undefined) {
    // A new client inherits the shared session of the one it replaces (a destroyed client's
    // prepared statements would collide with its own): start it clean. That ends the session's
    // LISTENs too, which the embedded listener reports as lost.
    config.onConnect = async (client) => {
      await client.query('DISCARD ALL');
      embeddedListener.sessionReset(client);
    };
  }
  const pool = new pg.Pool(config);
  // An idle client whose connection fails is removed by the pool, which then emits 'error'; without
  // a listener that would end the process.
  pool.on('error', (error) => context.logger?.warn({ connection: where.key, err: error.message }, 'idle database connection lost'));
  // On PGlite the pool's clients listen: pglite-socket hands a notification only to the socket whose
  // query sent it, never to a listening connection of its own (./embedded-listener.ts).
  embeddedListener?.usePool(pool);
  const listener = embeddedListener ?? new SharedListener(listenerConfig(config), where, context.logger);
  return { pool, engine, where, namedStatements: connection.preparedStatements !== false, Query: pg.Query, listener };
}

/** The pool's server, credentials and types, as one client's: no pool sizing, no statement_timeout (LISTEN is instant). */
function listenerConfig(pool: pg.PoolConfig): pg.ClientConfig {
  const { connectionString, connectionTimeoutMillis, types } = pool;
  return { connectionString, connectionTimeoutMillis, types };
}

/** Waits this long for checked-out clients to come back before stopping anyway. */
const DRAIN_TIMEOUT_MS = 5_000;

/** Ends the pool (after its checked-out clients are released, within a bound), then the engine. */
export async function closePostgres(resource: PostgresResource): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const drained = resource.pool.end();
  const unlistened = resource.listener.close();
  const bounded = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, DRAIN_TIMEOUT_MS);
    timer.unref();
  });
  try {
    await Promise.race([drained, bounded]);
    await unlistened;
  } finally {
    clearTimeout(timer);
    await resource.engine?.stop();
  }
}
