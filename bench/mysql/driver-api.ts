/**
 * mysql2's two APIs for one prepared statement, the connector's choice (src/connectors/mysql):
 * the callback API (`pool.execute(sql, values, callback)`, one promise made by the caller) against
 * the promise API (`pool.promise().execute(sql, values)`), in one process, `--concurrency` callers
 * each sending statements back to back, alternating rounds. Reports statements per second and CPU
 * microseconds per statement of this process (the client side, where the two differ).
 *
 *     node --import tsx bench/mysql/driver-api.ts [--rounds 5 --count 20000 --concurrency 16]
 *
 * The server: SVC_TEST_MYSQL_URL, or a throw-away MariaDB (scripts/mariadb-test-server.sh).
 */
import { parseArgs } from 'node:util';
import mysql from 'mysql2';
import { mysqlServer } from '../lib/engines.js';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, count: { type: 'string', default: '20000' }, concurrency: { type: 'string', default: '16' } },
});
const rounds = Number(values.rounds);
const count = Number(values.count);
const concurrency = Number(values.concurrency);
const SQL = 'SELECT ? AS id, ? AS email, NOW() AS at';

const server = mysqlServer();
const pool = mysql.createPool({ uri: server.url, connectionLimit: concurrency, supportBigNumbers: true, dateStrings: true });
const promised = pool.promise();

type Run = (i: number) => Promise<unknown>;
const callback: Run = (i) => new Promise((resolve, reject) => pool.execute(SQL, [i, 'a@example.com'], (e, rows) => (e ? reject(e) : resolve(rows))));
const promise: Run = (i) => promised.execute(SQL, [i, 'a@example.com']);

async function measure(run: Run): Promise<{ perSecond: number; cpuUs: number }> {
  let next = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await run(next++);
    }),
  );
  const used = process.cpuUsage(cpu);
  return { perSecond: (count / (performance.now() - started)) * 1000, cpuUs: (used.user + used.system) / count };
}

try {
  await measure(callback);
  await measure(promise);
  const results = { callback: [] as { perSecond: number; cpuUs: number }[], promise: [] as { perSecond: number; cpuUs: number }[] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['callback', 'promise'] as const) : (['promise', 'callback'] as const);
    for (const api of order) results[api].push(await measure(api === 'callback' ? callback : promise));
  }
  const median = (list: number[]): number => [...list].sort((a, b) => a - b)[list.length >> 1]!;
  for (const api of ['callback', 'promise'] as const) {
    const r = results[api];
    console.log(
      `${api.padEnd(8)} ${median(r.map((x) => x.perSecond)).toFixed(0)} statements/s, ${median(r.map((x) => x.cpuUs)).toFixed(1)} us CPU each (client side), medians of ${rounds}`,
    );
  }
} finally {
  await promised.end();
  server.stop();
}
