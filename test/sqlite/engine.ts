/**
 * SQLite as the shared SQL suites see it (test/sql-suite/engine.ts): a database file of its own per
 * suite, SQLite's dialect (a recursive CTE for a series, STRICT tables), its result code names beside
 * the portable SQLSTATEs, and what it has not: no sleep (a statement runs on this thread to its end,
 * so none outlasts a time-out or is left running), no pool to size, nothing to watch a stream's
 * progress with. Two processes meet at the file's write lock: the migrations test spawns them.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createConnectors, type ConnectorLogger, type ConnectorSet } from '../../src/connectors/index.js';
import { modelOf, tempDir } from '../connectors/helpers.js';
import { LOADER, moduleUrl } from '../paths.js';
import type { Engine } from '../sql-suite/engine.js';
import { NO_SQLITE, sqliteConnection } from './helpers.js';

let files = 0;

/** A database file no other suite uses, in a directory removed by connectors/helpers' `cleanup`. */
async function fresh(): Promise<string> {
  return `sqlite:${join(await tempDir('svc-sqlite-'), `db-${++files}.db`)}`;
}

async function open(url: string, dir: string | undefined, logger?: ConnectorLogger): Promise<ConnectorSet> {
  const set = createConnectors(modelOf(sqliteConnection(url, dir === undefined ? {} : { migrations: dir })));
  await set.openAll(logger === undefined ? {} : { logger });
  return set;
}

/** Two processes opening the file with its migrations at once: what each applied. */
async function twoAtOnce(url: string, dir: string): Promise<unknown[][]> {
  const connection = sqliteConnection(url, { migrations: dir });
  const script = `
    const { createConnectors } = await import(${JSON.stringify(moduleUrl('src/connectors/index.ts'))});
    const connection = ${JSON.stringify(connection)};
    const set = createConnectors({ connections: new Map([['sqlite.main', connection]]) });
    const applied = [];
    await set.openAll({ logger: { info: (f, m) => m === 'migration applied' && applied.push(f.migration), warn() {} } });
    await set.closeAll();
    process.stdout.write(JSON.stringify(applied));
  `;
  const run = () =>
    new Promise<string[]>((resolve, reject) => {
      const child = spawn(process.execPath, [...LOADER, '--no-warnings', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as string[]) : reject(new Error(`exit ${code}: ${err}`))));
    });
  return Promise.all([run(), run()]);
}

export const SQLITE: Engine = {
  name: 'SQLite',
  kind: 'sqlite',
  skip: NO_SQLITE ?? false,
  fresh,
  sql: {
    autoId: 'id INTEGER PRIMARY KEY',
    // No date type: the text as stored, in the form PostgreSQL's timestamptz answers.
    createdColumn: "created TEXT NOT NULL DEFAULT '2024-05-06T07:08:09.000Z'",
    numbers: (limit, prefix, source) =>
      `WITH RECURSIVE ${source}(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM ${source} WHERE i < ${limit}) SELECT i, '${prefix}' || i AS label FROM ${source}`,
    // Only foreign keys can be deferred: a code with no name breaks the transaction at COMMIT.
    deferred: {
      tables: ['CREATE TABLE code_names (code TEXT PRIMARY KEY)', 'CREATE TABLE codes (code TEXT REFERENCES code_names (code) DEFERRABLE INITIALLY DEFERRED)'],
      code: '23503',
    },
    refused: { table: 'CREATE TABLE refused_values (v INTEGER) STRICT', value: 'abc', accepted: '12' },
    types: {
      query: "SELECT 9007199254740993 AS big, 42 AS small, '12.50' AS price, X'0102ff' AS raw, 1.5 AS ratio, '2024-05-06' AS day, NULL AS empty",
      big: /"big":9007199254740993[,}]/,
      expected: { small: 42, price: '12.50', raw: 'AQL/', ratio: 1.5, day: '2024-05-06', empty: null },
    },
  },
  codes: { unique: 'SQLITE_CONSTRAINT_UNIQUE', foreignKey: 'SQLITE_CONSTRAINT_FOREIGNKEY', check: 'SQLITE_CONSTRAINT_CHECK' },
  sleeps: { long: 0 },
  leaks: /SQLITE|malformed|constraint|no such|SELECT|INSERT/,
  // SQLITE_ERROR has no SQLSTATE: its log line has the engine's message, not the step's place.
  missingTable: undefined,
  closedEarly: 'reused',
  poolOfFour: '',
  hangUps: 4,
  migrations: {
    open,
    twoAtOnce,
    slow: 'CREATE TABLE big (n INTEGER);\nWITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 300000) INSERT INTO big SELECT n FROM s;',
  },
};
