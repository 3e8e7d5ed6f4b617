/**
 * What an open mysql connection holds: a mysql2 pool (its callback API: one callback per statement,
 * where the promise wrapper adds a promise and a copy of the result per call; bench/mysql measured
 * both) and what a cancellation needs to reach the server from outside the pool.
 *
 * Every new connection starts its session in UTC (`time_zone = '+00:00'`: TIMESTAMP values are read
 * as UTC text, ./values.ts) and, when the connection says `statement_timeout`, with the server's own
 * bound on a statement: `max_statement_time` (seconds) on MariaDB, `max_execution_time` (ms, SELECT
 * only) on MySQL. Both are sent before the connection's first statement, queued on it by mysql2.
 */
import { readFile } from 'node:fs/promises';
import mysql from 'mysql2';
import type { ConnectionModel } from '../../model/index.js';
import { ConnectorError, describeCause } from '../errors.js';
import type { OpenContext } from '../types.js';
import type { Where } from './where.js';
import type { MysqlTarget } from './target.js';

export type MysqlConnection = mysql.PoolConnection;

export interface MysqlResource {
  readonly pool: mysql.Pool;
  readonly where: Where;
  /** How long a caller may wait for a pooled connection (mysql2's pool has no bound of its own). */
  readonly acquireTimeoutMs: number;
  /** The pool's size. */
  readonly max: number;
  /** Callers waiting for a connection now (./execute.ts counts them). */
  waiting: number;
  /** A connection of its own for `KILL QUERY`, opened on demand (./cancel.ts). */
  readonly killOptions: mysql.ConnectionOptions;
  /**
   * mysql2's `createConnection`, handed over from here because this module is the only one that
   * loads mysql2 and it is loaded only when a mysql connection opens: a service without one never
   * loads the driver (test/connectors/drivers-loaded.test.ts).
   */
  readonly connect: (options: mysql.ConnectionOptions) => mysql.Connection;
}

/** pg's default pool size, kept for MySQL so one manifest sizes both alike. */
const DEFAULT_POOL_MAX = 10;
/** Idle connections are closed after 10 s unless `pool { idle_timeout }` says (as on PostgreSQL). */
const DEFAULT_IDLE_TIMEOUT_MS = 10_000;

export async function openMysql(connection: ConnectionModel, target: MysqlTarget, where: Where, context: OpenContext): Promise<MysqlResource> {
  const max = connection.pool?.max ?? DEFAULT_POOL_MAX;
  const idle = connection.pool?.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const base: mysql.ConnectionOptions = {
    host: target.host,
    port: target.port,
    ...(target.user !== undefined ? { user: target.user } : {}),
    ...(target.password !== undefined ? { password: target.password } : {}),
    ...(target.database !== undefined ? { database: target.database } : {}),
    connectTimeout: context.acquireTimeoutMs,
    ...(connection.tls !== undefined ? { ssl: await tlsOptions(connection, where) } : {}),
  };
  const pool = mysql.createPool({
    ...base,
    connectionLimit: max,
    // 0 keeps idle connections open (as pg's idleTimeoutMillis 0); otherwise every idle one may close.
    maxIdle: idle === 0 ? max : 0,
    idleTimeout: idle === 0 ? 2 ** 31 - 1 : idle,
    waitForConnections: true,
    queueLimit: 0,
    enableKeepAlive: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    decimalNumbers: false,
    dateStrings: true,
    timezone: 'Z',
    multipleStatements: false,
  });
  const session = sessionSetup(connection.statementTimeoutMs);
  pool.on('connection', (conn) => {
    // A pooled connection's first error removes it from the pool (mysql2's own `once`); a later
    // one, with no listener left, would end the process.
    conn.on('error', ignore);
    conn.query(session(isMariaDb(conn)), (error) => {
      // A lost connection is reported by its first statement; anything else (a server that knows no
      // such variable) leaves the session as the server's defaults made it: said once per connection.
      if (error && !(error as { fatal?: boolean }).fatal) {
        context.logger?.warn({ connection: where.key, err: error.message }, 'mysql session settings refused');
      }
    });
  });
  return { pool, where, acquireTimeoutMs: context.acquireTimeoutMs, max, waiting: 0, killOptions: base, connect: mysql.createConnection };
}

/** The statement every new connection runs first (see the module comment). */
function sessionSetup(statementTimeoutMs: number | undefined): (mariadb: boolean) => string {
  const utc = "SET time_zone = '+00:00'";
  if (statementTimeoutMs === undefined || statementTimeoutMs === 0) return () => utc;
  return (mariadb) =>
    mariadb ? `${utc}, SESSION max_statement_time = ${statementTimeoutMs / 1000}` : `${utc}, SESSION max_execution_time = ${Math.round(statementTimeoutMs)}`;
}

/** mysql2 notes the server's flavour at the handshake. */
function isMariaDb(conn: mysql.PoolConnection): boolean {
  return (conn as unknown as { _isMariaDB?: boolean })._isMariaDB === true;
}

/** `tls { ... }`: the files read now, each failure naming its file. */
async function tlsOptions(connection: ConnectionModel, where: Where): Promise<mysql.SslOptions> {
  const tls = connection.tls!;
  const read = async (path: string | undefined, what: string): Promise<string | undefined> => {
    if (path === undefined) return undefined;
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      throw new ConnectorError(`${where.label}: the TLS ${what} ${path} cannot be read: ${describeCause(error)}`, { connection: where.key, cause: error });
    }
  };
  const [ca, cert, key] = await Promise.all([read(tls.caFile, 'CA file'), read(tls.certFile, 'certificate'), read(tls.keyFile, 'key')]);
  return {
    ...(ca !== undefined ? { ca } : {}),
    ...(cert !== undefined ? { cert } : {}),
    ...(key !== undefined ? { key } : {}),
    rejectUnauthorized: tls.rejectUnauthorized ?? true,
  };
}

/** Waits this long for the connections' goodbyes before stopping anyway. */
const DRAIN_TIMEOUT_MS = 5_000;

/**
 * Ends the pool: mysql2 closes every connection, in use or not (svc closes its connections once its
 * requests have drained), within a bound.
 */
export async function closeMysql(resource: MysqlResource): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const drained = new Promise<void>((resolve) => resource.pool.end(() => resolve()));
  const bounded = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, DRAIN_TIMEOUT_MS);
    timer.unref();
  });
  try {
    await Promise.race([drained, bounded]);
  } finally {
    clearTimeout(timer);
  }
}

function ignore(): void {}
