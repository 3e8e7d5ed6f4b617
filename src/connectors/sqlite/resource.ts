/**
 * What a sqlite connection opens: a database file (or an in-memory database) with
 *
 * - a write connection, where every write and every transaction runs, one at a time (./lane.ts);
 * - for a file, a read-only connection beside it, where statements that read run outside
 *   transactions and streams: in WAL mode readers see the last commit and never wait for a writer,
 *   so a transaction in progress (which holds the write connection between its statements) holds up
 *   only writes. An in-memory database is one connection: a second would be another database.
 *
 * Both connections take their turns on one queue (./turns.ts). Pragmas: `journal_mode = WAL` (one
 * writer and any readers, across processes too), `synchronous = NORMAL` (safe in WAL: a power loss
 * may lose the last commits, never corrupt), `foreign_keys = ON`, `busy_timeout = 0` (./busy.ts).
 */
import { ConnectorError } from '../errors.js';
import type { ConnectorLogger } from '../types.js';
import { retryWhileBusy } from './busy.js';
import { makeDatabaseDirectory } from './directory.js';
import { loadSqlite, type SqliteDatabase } from './driver.js';
import { Lane } from './lane.js';
import { StatementCache } from './statement.js';
import type { SqliteTarget } from './target.js';
import { Turns } from './turns.js';

export interface Where {
  /** `sqlite.<name>` */
  readonly key: string;
  /** `connection "sqlite" "<name>"` */
  readonly label: string;
}

export interface SqliteConnection {
  readonly db: SqliteDatabase;
  readonly lane: Lane;
  readonly statements: StatementCache;
  readonly role: 'write' | 'read';
}

export interface SqliteResource {
  readonly where: Where;
  readonly target: SqliteTarget;
  readonly turns: Turns;
  readonly write: SqliteConnection;
  /** The read-only connection; the write connection itself for an in-memory database. */
  readonly read: SqliteConnection;
  readonly busyTimeoutMs: number;
  /**
   * Per text, whether it is tried on the read connection first (./handle.ts): it looks like a read,
   * and did not turn out to write (SQLITE_READONLY there), after which it is false.
   */
  readonly routes: Map<string, boolean>;
  /** Set by `closeSqlite`: calls after it fail as unavailable. */
  closed: boolean;
  readonly logger: ConnectorLogger | undefined;
}

export interface OpenOptions {
  readonly busyTimeoutMs: number;
  readonly logger: ConnectorLogger | undefined;
}

export async function openSqlite(target: SqliteTarget, where: Where, options: OpenOptions): Promise<SqliteResource> {
  const { DatabaseSync } = await loadSqlite();
  const turns = new Turns();
  const connection = (db: SqliteDatabase, role: 'write' | 'read'): SqliteConnection => ({
    db,
    lane: new Lane(turns),
    statements: new StatementCache(db),
    role,
  });
  if (target.type === 'memory') {
    const db = new DatabaseSync(':memory:', { enableForeignKeyConstraints: true });
    const write = connection(db, 'write');
    return { where, target, turns, write, read: write, busyTimeoutMs: options.busyTimeoutMs, routes: new Map(), closed: false, logger: options.logger };
  }
  const unmade = await makeDatabaseDirectory(target.path);
  if (unmade !== undefined) throw new ConnectorError(`${where.label}: ${unmade}`, { connection: where.key });
  const writer = new DatabaseSync(target.path, { enableForeignKeyConstraints: true, timeout: 0 });
  try {
    writer.exec('PRAGMA busy_timeout = 0');
    // Changing the journal mode needs the file to itself: another process may hold it a moment.
    await retryWhileBusy(() => writer.exec('PRAGMA journal_mode = WAL'), options.busyTimeoutMs, where.key, where.label);
    writer.exec('PRAGMA synchronous = NORMAL');
    const reader = new DatabaseSync(target.path, { readOnly: true, enableForeignKeyConstraints: true, timeout: 0 });
    reader.exec('PRAGMA busy_timeout = 0');
    return {
      where,
      target,
      turns,
      write: connection(writer, 'write'),
      read: connection(reader, 'read'),
      busyTimeoutMs: options.busyTimeoutMs,
      routes: new Map(),
      closed: false,
      logger: options.logger,
    };
  } catch (error) {
    writer.close();
    throw error;
  }
}

/**
 * Closes both connections. Statements waiting for their turn fail with `error`; a
 * transaction still open is rolled back by SQLite as its connection closes.
 */
export function closeSqlite(resource: SqliteResource, error: Error): void {
  resource.closed = true;
  for (const turn of resource.turns.close()) turn.fail(error);
  for (const conn of new Set([resource.write, resource.read])) conn.lane.failAll(error);
  if (resource.read !== resource.write) closeQuietly(resource.read.db);
  closeQuietly(resource.write.db);
}

function closeQuietly(db: SqliteDatabase): void {
  try {
    db.close();
  } catch {
    // Already closed: nothing holds it.
  }
}
