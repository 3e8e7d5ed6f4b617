/**
 * The two postgres targets (embedded PGlite, the real server) as the shared SQL suites see them
 * (test/sql-suite/engine.ts): PostgreSQL's dialect, and what differs between the two. PGlite runs
 * one statement at a time on this thread: a statement cannot be interrupted (short sleeps), nothing
 * can watch the server while a stream holds its one client, and there is no second process to meet.
 */
import { createConnectors, type ConnectorLogger, type ConnectorSet } from '../../src/connectors/index.js';
import { eventually, modelOf, postgresConnection, TARGETS, type Target } from '../connectors/helpers.js';
import { rowsOf, type Engine, type ServedSql } from '../sql-suite/engine.js';
import { openedAtOnce } from '../sql-suite/migrations.js';

/** Statements of this database, other than the probe's, not idle and containing `marker`, polled until there are none. */
async function running(s: ServedSql, marker: string): Promise<string[]> {
  const probe = async (): Promise<string[]> =>
    (
      await s.db.query<{ query: string }>({
        text: "SELECT query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle' AND strpos(query, $1) > 0",
        values: [marker],
      })
    ).rows.map((r) => r.query);
  return eventually(probe, (left) => left.length === 0, 5000);
}

async function open(url: string, dir: string | undefined, logger?: ConnectorLogger): Promise<ConnectorSet> {
  const set = createConnectors(modelOf(postgresConnection(url, dir === undefined ? {} : { migrations: dir })));
  await set.openAll(logger === undefined ? {} : { logger });
  return set;
}

function engineOf(target: Target): Engine {
  const server = target.name === 'postgres';
  return {
    name: target.name,
    kind: 'postgres',
    skip: target.skip,
    fresh: () => target.fresh(),
    sql: {
      autoId: 'id serial PRIMARY KEY',
      createdColumn: "created timestamptz NOT NULL DEFAULT '2024-05-06T07:08:09Z'",
      numbers: (limit, prefix, source) => `SELECT i, '${prefix}' || i AS label FROM generate_series(1, ${limit}::int) AS ${source}(i)`,
      sessionId: 'pg_backend_pid()',
      transactionId: 'txid_current()',
      sleep: (seconds, column) => `SELECT pg_sleep(${seconds}) AS ${column}`,
      deferred: { tables: ['CREATE TABLE codes (code text, CONSTRAINT codes_code_key UNIQUE (code) DEFERRABLE INITIALLY DEFERRED)'], code: '23505' },
      refused: { table: 'CREATE TABLE refused_values (v varchar(20))', value: 'x'.repeat(50), accepted: '12' },
      types: {
        query:
          "SELECT 9007199254740993::int8 AS big, 42::int8 AS small, 12.50::numeric AS price, '\\x0102ff'::bytea AS raw, '{1,2,3}'::int[] AS list, '{\"a\": [1, true]}'::jsonb AS doc, '2024-05-06T07:08:09.123Z'::timestamptz AS at, '2024-05-06'::date AS day, true AS flag",
        big: /"big":9007199254740993[,}]/,
        expected: {
          small: 42,
          price: '12.50',
          raw: 'AQL/',
          list: [1, 2, 3],
          doc: { a: [1, true] },
          at: '2024-05-06T07:08:09.123Z',
          day: '2024-05-06',
          flag: true,
        },
      },
    },
    codes: { unique: '23505', foreignKey: '23503', check: '23514' },
    // A server's statement is cancelled; PGlite's runs to its end on this thread, so a short one.
    sleeps: server ? { long: 30, running } : { long: 0.4 },
    leaks: /42P01|22001|relation|does not exist|value too long|INSERT INTO/,
    missingTable: '42P01',
    ...(server
      ? {
          openTransactions: (s: ServedSql) =>
            rowsOf(s, "SELECT state FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'"),
          backpressure: {
            setup: ['CREATE SEQUENCE produced'],
            query: "SELECT i, nextval('produced') AS stream_http_produced, repeat('x', 200) AS pad FROM generate_series(1, 2000000) i",
            async produced(s: ServedSql) {
              const [row] = await rowsOf(s, 'SELECT last_value, is_called FROM produced');
              return row!.is_called ? (row!.last_value as number) : 0;
            },
            // 2,000,000 rows of ~250 bytes is ~500 MB.
            stallsBelow: 200_000,
          },
        }
      : {}),
    closedEarly: 'reused',
    poolOfFour: 'pool {\n    max = 4\n  }',
    hangUps: server ? 20 : 'PGlite has one client: 20 streams at once would queue behind the first',
    migrations: {
      open,
      twoAtOnce: server ? (url, dir) => openedAtOnce(open, url, dir) : 'a PGlite directory belongs to one process: replicas share a server',
      slow: 'SELECT pg_sleep(0.3);',
    },
  };
}

/** PGlite and the real server, in the order of TARGETS. */
export const ENGINES: readonly Engine[] = TARGETS.map(engineOf);
