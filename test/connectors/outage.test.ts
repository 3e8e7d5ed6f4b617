/**
 * A real server that goes away while svc runs and comes back: queries in flight and new ones fail as
 * 'dependency-unavailable' (a 503, never a hang or a crash from an idle client's error), health says
 * so, and once the server is back the same pool serves again, whole, without reopening anything.
 * Only on a real server: an embedded engine cannot go away on its own.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ConnectorError, createConnectors, type ConnectorSet } from '../../src/connectors/index.js';
import { cleanup, eventually, modelOf, NO_REAL_POSTGRES, postgresConnection, REAL_POSTGRES_URL, recordingLogger, tempDir } from './helpers.js';
import { ROOT } from '../paths.js';

const script = join(ROOT, 'scripts/pg-test-server.sh');
const server = (...args: string[]): string => execFileSync('bash', [script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

let own: string | undefined;
let set: ConnectorSet | undefined;
after(async () => {
  await set?.closeAll();
  if (own !== undefined) server('stop', own);
  await cleanup();
});

// Needs PostgreSQL installed; the test command's server being there says it is.
test('a server that stops and restarts: unavailable meanwhile, then served again by the same pool', {
  skip: REAL_POSTGRES_URL === undefined ? NO_REAL_POSTGRES : false,
}, async () => {
  // The directory itself: as root the script hands it to the postgres user, who could not enter a
  // directory below one of ours (mkdtemp makes them private).
  own = await tempDir('svc-pg-outage-');
  const url = server('start', own);
  const port = new URL(url).port;
  const logger = recordingLogger();
  set = createConnectors(modelOf(postgresConnection(url, { pool: { max: 4 } })));
  await set.openAll({ logger });
  const db = set.handle('postgres', 'main');
  await Promise.all([db.query('SELECT 1'), db.query('SELECT 2')]);
  assert.equal(db.stats().total, 2);

  const inFlight = db.query('SELECT pg_sleep(5)').catch((e: unknown) => e);
  await new Promise((r) => setTimeout(r, 100));
  server('halt', own);

  const lost = await inFlight;
  assert.ok(lost instanceof ConnectorError);
  assert.equal(lost.category, 'dependency-unavailable', lost.message);
  // Checked before any query takes the dead idle clients out of the pool (which it then does quietly).
  const heard = await eventually(
    () => logger.lines.some((l) => l.message === 'idle database connection lost'),
    (yes) => yes,
  );
  assert.ok(heard, "the idle clients' errors were heard (a listener), not thrown");
  const refused = await db.query('SELECT 1').catch((e: unknown) => e);
  assert.ok(refused instanceof ConnectorError);
  assert.equal(refused.category, 'dependency-unavailable', refused.message);
  const [health] = await set.health({ timeoutMs: 1000 });
  assert.equal(health!.ok, false);
  assert.equal(health!.category, 'dependency-unavailable');

  server('start', own, port);
  const back = await eventually(
    () =>
      db.query<{ ok: number }>('SELECT 1 AS ok').then(
        (r) => r.rows[0]!.ok,
        () => 0,
      ),
    (ok) => ok === 1,
    5000,
  );
  assert.equal(back, 1);
  const stats = db.stats();
  assert.equal(stats.idle, stats.total);
  assert.equal(stats.waiting, 0);
  assert.equal((await set.health())[0]!.ok, true);
  await set.closeAll();
});
