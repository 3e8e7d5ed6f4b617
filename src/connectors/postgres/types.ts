/**
 * What the postgres connector offers step compilers beyond every SQL engine's shapes
 * (../sql-types.ts), in driver-free types: src/steps never sees `pg`.
 */
import type { QueryOptions, SqlHandle, SqlSession } from '../sql-types.js';
import type { StatementReport } from './statement-check.js';

export type {
  CursorOptions,
  PoolStats,
  QueryOptions,
  SqlCursor,
  SqlField,
  SqlQuery,
  SqlResult,
  SqlSession as PostgresSession,
} from '../sql-types.js';

/** Hears one channel's notifications, as the payload text that was sent (`''` for a bare NOTIFY). */
export type NotificationListener = (payload: string) => void;

export interface ListenOptions {
  /**
   * Told, once, that the listening connection dropped: notifications sent until it is back are
   * missed (NOTIFY keeps nothing). The listener is forgotten then: listen again to hear more.
   */
  readonly onLost?: ((reason: string) => void) | undefined;
}

/** A channel listened to; `unlisten` is idempotent. */
export interface PostgresListening {
  unlisten(): void;
}

export interface PostgresHandle extends SqlHandle {
  readonly kind: 'postgres';
  /** Checks out one client; `options` bound the wait for it. */
  checkout(options?: QueryOptions): Promise<SqlSession>;
  /**
   * Listens to a channel (LISTEN/NOTIFY) over the connection's one listening connection, shared by
   * every channel and listener of the process (./listener.ts). Resolves once the LISTEN is done;
   * the channel is left (UNLISTEN) when its last listener leaves. Rejects with a ConnectorError:
   * dependency-unavailable when the server cannot be reached, or on PGlite, which cannot deliver
   * another connection's notifications (see docs/postgresql.md).
   */
  listen(channel: string, listener: NotificationListener, options?: ListenOptions): Promise<PostgresListening>;
  /** Why `listen` would fail at once now (not open, closed, reopening held back), else undefined. No I/O. */
  listenRefusal(): Error | undefined;
  /** The server process id of the listening connection while it is open (tests find it with it). */
  listenerProcessId(): number | undefined;
  /**
   * Describes each statement (positional `$n` text) without running it, in a transaction rolled
   * back after (./statement-check.ts): the boot check of `check_queries = true`.
   */
  describe(statements: readonly string[]): Promise<StatementReport[]>;
}
