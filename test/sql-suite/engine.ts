/**
 * What the shared SQL suites (./sql.ts, ./catch.ts, ./transaction.ts, ./stream.ts, ./migrations.ts)
 * know of an engine: how to get a database of its own, whether it is here, and where the engines
 * legitimately differ (a table's definition, a row series, a sleep, the codes of a constraint, what
 * a type comes back as). The descriptions live beside each engine's tests (test/postgres/helpers.ts,
 * test/mysql/helpers.ts, test/sqlite/helpers.ts), so a runner there is a few lines, and the CI
 * partition (which folder runs on which Node.js lines) stays as it is.
 */
import assert from 'node:assert/strict';
import type { ConnectorLogger, ConnectorSet, SqlHandle } from '../../src/connectors/index.js';
import type { SqlKind } from '../../src/model/index.js';
import { eventually } from '../connectors/helpers.js';
import { serveManifest, type ServedService } from '../http/helpers.js';

/** A whole service from manifest text on one engine; `connection "<kind>" "db"` is its handle. */
export interface ServedSql extends ServedService {
  readonly db: SqlHandle;
}

/** The statements a suite needs where the dialects differ. Every query uses `@name` parameters. */
export interface EngineSql {
  /** The column definition of an integer `id` primary key the engine numbers 1, 2, ... itself. */
  readonly autoId: string;
  /** The column definition of `created`, a time defaulting to 2024-05-06T07:08:09Z that reads back as `"2024-05-06T07:08:09.000Z"`. */
  readonly createdColumn: string;
  /**
   * A table `codes (code)` whose constraint two inserts of one code break only at COMMIT, and the
   * SQLSTATE the COMMIT fails with; undefined where the engine has no deferred constraint.
   */
  readonly deferred?: { readonly tables: readonly string[]; readonly code: string };
  /**
   * `SELECT i, '<prefix>' || i AS label` for i from 1 to `limit` (`@n`, or a number), in order, its
   * row source named `source` (which the probes of running statements look for).
   */
  numbers(limit: string, prefix: string, source: string): string;
  /** An expression of the session (connection, backend) the statement runs on; undefined where none shows (SQLite: one write connection). */
  readonly sessionId?: string;
  /** An expression of the transaction the statement runs in, where the engine has one to read. */
  readonly transactionId?: string;
  /** A statement that sleeps `seconds`, its column named `column`; undefined where the engine has none (SQLite). */
  sleep?(seconds: string, column: string): string;
  /** A type the column refuses `value` of, and `accepted` it takes: the request's fault, a 400. */
  readonly refused: { readonly table: string; readonly value: string; readonly accepted: string };
  /** A query of literals, and what it answers: each engine's types as JSON. `big` must come back exactly. */
  readonly types: { readonly query: string; readonly big: RegExp; readonly expected: Record<string, unknown> };
}

/** The engine's own labels for the constraint violations, beside the portable SQLSTATEs. */
export interface EngineCodes {
  readonly unique: string;
  readonly foreignKey: string;
  readonly check: string;
}

/** How long the suites' sleeps are, and what happens to a statement given up. */
export interface EngineSleeps {
  /** Seconds of a statement that outlasts a time-out: long on a server (it is interrupted), short where it cannot be (PGlite). */
  readonly long: number;
  /**
   * Statements of the served database whose text contains `marker` still running (polled until
   * there are none): undefined where statements run on this thread, so none can be left running.
   */
  running?(s: ServedSql, marker: string): Promise<string[]>;
}

/** How `migrations = "<dir>"` is opened on the engine, and how two processes meet. */
export interface EngineMigrations {
  /** A connector set with `connection "<kind>" "main"` on `url` (migrations from `dir` if given), opened. */
  open(url: string, dir: string | undefined, logger?: ConnectorLogger): Promise<ConnectorSet>;
  /** What each of two processes (or replicas) opening `url` with `dir` at once applied; a skip reason where two cannot. */
  readonly twoAtOnce: ((url: string, dir: string) => Promise<unknown[][]>) | string;
  /** A migration slow enough that the second process arrives while the first applies it, where one is needed. */
  readonly slow?: string;
}

export interface Engine {
  /** Shown in the describe titles: pglite, postgres, MariaDB, SQLite. */
  readonly name: string;
  readonly kind: SqlKind;
  /** A reason to skip, or false. */
  readonly skip: string | false;
  /** The URL of a database no other test uses. */
  fresh(): Promise<string>;
  readonly sql: EngineSql;
  readonly codes: EngineCodes;
  readonly sleeps: EngineSleeps;
  /** Words of the engine's own that no answer may show (its error codes, its name). */
  readonly leaks: RegExp;
  /**
   * The SQLSTATE of a missing table's failure, whose log line then names the step and its line;
   * undefined where the engine has none (SQLite: SQLITE_ERROR), so the line is the engine's message.
   */
  readonly missingTable: string | undefined;
  /** Transactions left open on the served database by anyone but the probe; undefined where none can be seen. */
  openTransactions?(s: ServedSql): Promise<unknown[]>;
  /** A cursor that stops when the client stops reading, shown by a per-row sequence; undefined where none can be watched. */
  readonly backpressure?: Backpressure;
  /**
   * What becomes of a connection whose cursor is closed before its last row: `reused` (PostgreSQL
   * closes the portal), or `destroyed` (MySQL kills the statement and closes the socket).
   */
  readonly closedEarly: 'reused' | 'destroyed';
  /** The connection block's lines for a pool of four, empty where the engine has no pool to size. */
  readonly poolOfFour: string;
  /** Streams of one service at once that hang up mid-download; a skip reason where one holds the only connection. */
  readonly hangUps: number | string;
  readonly migrations: EngineMigrations;
}

export interface Backpressure {
  /** Statements making the sequence. */
  readonly setup: readonly string[];
  /** A long query with a column `stream_http_produced` advancing the sequence per row, and a ~1 KB `pad`. */
  readonly query: string;
  /** Rows produced so far. */
  produced(s: ServedSql, url: string): Promise<number>;
  /** Fewer rows than this produced for a client that reads nothing: what the buffers on the way hold. */
  readonly stallsBelow: number;
}

/** `{{DB}}` in the manifest is replaced by `url`, `{{KIND}}` by the engine's connection kind. */
export async function serveOn(engine: Engine, manifest: string, url: string, options: { requestTimeoutMs?: number } = {}): Promise<ServedSql> {
  const served = await serveManifest(manifest.replaceAll('{{DB}}', url).replaceAll('{{KIND}}', engine.kind), options);
  return {
    ...served,
    get db() {
      return served.connectors.handle(engine.kind, 'db') as SqlHandle;
    },
  };
}

/** Runs each statement on the served pool (one at a time: SQLite and MySQL take one statement a call). */
export async function exec(s: ServedSql, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await s.db.query(statement);
}

export async function rowsOf(s: ServedSql, sql: string): Promise<Record<string, unknown>[]> {
  return (await s.db.query(sql)).rows;
}

/**
 * Waits (a poll, generous bound) until the pool is whole: nobody waiting, every open connection
 * idle; then asserts it. A connection destroyed is replaced lazily, so `total` may be lower than
 * before, never one checked out and forgotten.
 */
export async function poolWhole(s: ServedSql, ms = 5000): Promise<void> {
  const stats = await eventually(
    () => s.db.stats(),
    (st) => st.waiting === 0 && st.idle === st.total,
    ms,
  );
  assert.equal(stats.waiting, 0, `nobody waits for a connection: ${JSON.stringify(stats)}`);
  assert.equal(stats.idle, stats.total, `every connection is back: ${JSON.stringify(stats)}`);
}

/** A problem answer: its content type. */
export function assertProblem(r: { headers: Record<string, unknown> }): void {
  assert.match(r.headers['content-type'] as string, /^application\/problem\+json/);
}
