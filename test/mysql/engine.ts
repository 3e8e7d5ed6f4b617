/**
 * MariaDB as the shared SQL suites see it (test/sql-suite/engine.ts): a database of its own per
 * suite on the server the test command starts, MySQL's dialect (seq_1_to_N for a series, CONCAT,
 * SLEEP), its own error numbers beside the portable SQLSTATEs, KILL QUERY seen in the processlist,
 * and no deferred constraint (so no COMMIT that fails on one).
 */
import { tmpdir } from 'node:os';
import { createConnectors, type ConnectorLogger, type ConnectorSet } from '../../src/connectors/index.js';
import type { ConnectionModel } from '../../src/model/index.js';
import { modelOf } from '../connectors/helpers.js';
import type { Engine, ServedSql } from '../sql-suite/engine.js';
import { openedAtOnce } from '../sql-suite/migrations.js';
import { adminQuery, freshDatabase, MYSQL_URL, NO_MYSQL, runningStatements } from './helpers.js';

export function mysqlConnection(url: string, migrations?: string): ConnectionModel {
  const position = { line: 1, column: 1, byte: 0 };
  return {
    kind: 'mysql',
    name: 'main',
    url,
    baseDir: tmpdir(),
    range: { filename: 'test.hcl', start: position, end: position },
    ...(migrations !== undefined ? { migrations } : {}),
  };
}

async function open(url: string, dir: string | undefined, logger?: ConnectorLogger): Promise<ConnectorSet> {
  const set = createConnectors(modelOf(mysqlConnection(url, dir)));
  await set.openAll(logger === undefined ? {} : { logger });
  return set;
}

export const MARIADB: Engine = {
  name: 'MariaDB',
  kind: 'mysql',
  skip: NO_MYSQL,
  fresh: () => freshDatabase(),
  sql: {
    autoId: 'id INT AUTO_INCREMENT PRIMARY KEY',
    createdColumn: "created TIMESTAMP(3) NOT NULL DEFAULT '2024-05-06 07:08:09.000'",
    numbers: (limit, prefix, source) =>
      `SELECT seq AS i, CONCAT('${prefix}', seq) AS label FROM seq_1_to_2000000 AS ${source} WHERE seq <= ${limit} ORDER BY seq`,
    sessionId: 'CONNECTION_ID()',
    sleep: (seconds, column) => `SELECT SLEEP(${seconds}) AS ${column}`,
    refused: { table: 'CREATE TABLE refused_values (v VARCHAR(20))', value: 'x'.repeat(50), accepted: '12' },
    types: {
      query:
        "SELECT CAST(9007199254740993 AS SIGNED) AS big, CAST(42 AS SIGNED) AS small, CAST(12.50 AS DECIMAL(10,2)) AS price, CAST(X'0102ff' AS BINARY) AS raw, JSON_EXTRACT('{\"a\": [1, true]}', '$') AS doc, CAST('2024-05-06 07:08:09.5' AS DATETIME(3)) AS local, CAST('2024-05-06' AS DATE) AS day, 1.5e0 AS ratio, NULL AS nothing",
      big: /"big":9007199254740993[,}]/,
      expected: {
        small: 42,
        price: '12.50',
        raw: 'AQL/',
        doc: { a: [1, true] },
        local: '2024-05-06T07:08:09.5',
        day: '2024-05-06',
        ratio: 1.5,
        nothing: null,
      },
    },
  },
  codes: { unique: '1062', foreignKey: '1452', check: '4025' },
  // KILL QUERY stops a statement given up; the processlist shows what still runs (server-wide: the markers are unique).
  sleeps: { long: 30, running: (_s, marker) => runningStatements(MYSQL_URL!, marker) },
  leaks: /no_such_table|ER_[A-Z]|1146|1406|42S02|mysql|mariadb|SELECT|INSERT INTO|Data too long|doesn't exist/i,
  missingTable: '42S02',
  // Open transactions of this database's connections (innodb_trx is server-wide), the probe's left out.
  openTransactions: async (s: ServedSql) =>
    (
      await s.db.query(
        'SELECT t.trx_id FROM information_schema.innodb_trx t JOIN information_schema.processlist p ON p.id = t.trx_mysql_thread_id WHERE p.db = DATABASE() AND t.trx_mysql_thread_id <> CONNECTION_ID()',
      )
    ).rows,
  backpressure: {
    setup: ['CREATE SEQUENCE produced NOCACHE'],
    query: "SELECT seq AS i, NEXTVAL(produced) AS stream_http_produced, REPEAT('x', 1000) AS pad FROM seq_1_to_200000",
    // The sequence's next value, minus one, read on a connection of the test's own.
    async produced(_s, url) {
      const [row] = await adminQuery<{ next: number }[]>(url, 'SELECT next_not_cached_value AS next FROM produced');
      return Number(row!.next) - 1;
    },
    // 200,000 rows of ~1 KB is ~200 MB.
    stallsBelow: 60_000,
  },
  closedEarly: 'destroyed',
  poolOfFour: 'pool {\n    max = 4\n  }',
  hangUps: 12,
  migrations: { open, twoAtOnce: (url, dir) => openedAtOnce(open, url, dir) },
};
