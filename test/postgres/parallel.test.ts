/**
 * `parallel` over sql steps: on a real server each query runs on its own pool client at the same
 * time as its siblings (shown by the server itself: both backends wait on one advisory lock at once),
 * and a failing branch cancels its siblings' queries on the server. On PGlite, which runs one query at
 * a time on one client, the same manifest answers the same, serialised.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { activeQueries, closeTargets, eventually, poolWhole, serve, TARGETS } from './helpers.js';

after(closeTargets);

/** The advisory lock the test holds while the two branches of GET /pair queue behind it. */
const GATE = 4242;

/**
 * Fails once a sibling's statement containing `marker` is running on another backend (so the failure
 * lands mid-query, not before it was sent); gives up quietly after ~10 s, which the test then sees as
 * the sibling's 504 instead of the expected 500.
 */
const FAIL_ONCE_RUNNING = `
CREATE FUNCTION fail_once_running(marker text) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1..1000 LOOP
    PERFORM pg_stat_clear_snapshot();
    IF EXISTS (SELECT 1 FROM pg_stat_activity
               WHERE pid <> pg_backend_pid() AND datname = current_database() AND state = 'active'
                 AND strpos(query, marker) > 0 AND strpos(query, 'fail_once_running') = 0) THEN
      RAISE EXCEPTION 'the sibling is running' USING ERRCODE = 'P0001';
    END IF;
    PERFORM pg_sleep(0.01);
  END LOOP;
  RETURN 0;
END $$`;

const MANIFEST = `
connection "postgres" "db" {
  url = "{{DB}}"
}

endpoint "GET /pair" {
  pipeline {
    parallel {
      sql "a" {
        connection = connection.postgres.db
        query      = "SELECT pg_backend_pid() AS pid, 'a' AS branch FROM (SELECT pg_advisory_xact_lock_shared(${GATE})) AS gate"
      }
      sql "b" {
        connection = connection.postgres.db
        query      = "SELECT pg_backend_pid() AS pid, 'b' AS branch FROM (SELECT pg_advisory_xact_lock_shared(${GATE})) AS gate"
      }
    }
    respond {
      body = {
        a = steps.a.row
        b = steps.b.row
      }
    }
  }
}

endpoint "GET /one-fails" {
  pipeline {
    parallel {
      sql "fine" {
        connection = connection.postgres.db
        query      = "SELECT 1 AS one"
      }
      sql "bad" {
        connection = connection.postgres.db
        query      = "SELECT 1 / (SELECT count(*)::int FROM pg_class WHERE false) AS boom"
      }
    }
    respond {
      body = steps.fine.row
    }
  }
}

endpoint "GET /sibling-fails" {
  pipeline {
    parallel {
      sql "slow" {
        connection = connection.postgres.db
        query      = "SELECT pg_sleep(30) AS cancelled_sibling"
        timeout    = "10s"
      }
      sql "bad" {
        connection = connection.postgres.db
        query      = "SELECT fail_once_running('cancelled_sibling') AS failing"
      }
    }
    respond {
      body = "never"
    }
  }
}
`;

for (const target of TARGETS) {
  describe(`parallel sql steps on ${target.name}`, { skip: target.skip }, () => {
    test('both branches answer, their outputs side by side', async () => {
      const s = await serve(MANIFEST, await target.fresh());
      try {
        const r = await s.app.inject({ method: 'GET', url: '/pair' });
        assert.equal(r.statusCode, 200, r.body);
        const { a, b } = r.json() as { a: { branch: string; pid: number }; b: { branch: string; pid: number } };
        assert.equal(a.branch, 'a');
        assert.equal(b.branch, 'b');
        if (target.name === 'pglite') assert.equal(s.db.stats().max, 1, 'PGlite: one client, so the branches took turns');
        await poolWhole(s);
      } finally {
        await s.close();
      }
    });

    test('a failing branch is the 500 of that step, and the pool is whole after it', async () => {
      const s = await serve(MANIFEST, await target.fresh());
      try {
        const r = await s.app.inject({ method: 'GET', url: '/one-fails' });
        assert.equal(r.statusCode, 500, r.body);
        assert.deepEqual(r.json(), { type: 'urn:svc:error:internal', title: 'Internal Server Error', status: 500, step: 'bad', instance: '/one-fails' });
        await poolWhole(s);
        assert.equal((await s.app.inject({ method: 'GET', url: '/pair' })).statusCode, 200);
      } finally {
        await s.close();
      }
    });

    // Both need a second backend: PGlite has one session and runs one query at a time.
    const realOnly = target.name === 'postgres' ? false : 'PGlite runs one query at a time: nothing runs concurrently';

    test('the queries run at the same time on separate pool clients', { skip: realOnly }, async () => {
      const s = await serve(MANIFEST, await target.fresh());
      const gate = await s.db.checkout();
      let released = false;
      try {
        await gate.query(`SELECT pg_advisory_lock(${GATE})`);
        const pending = s.app.inject({ method: 'GET', url: '/pair' });
        // Both branches' backends are waiting for the gate at once: two queries in flight together.
        const waiting = await eventually(
          async () =>
            (
              await gate.query<{ pid: number }>(
                `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = ${GATE} AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY pid`,
              )
            ).rows.map((r) => r.pid),
          (pids) => pids.length === 2,
          10_000,
        );
        assert.equal(waiting.length, 2, `two backends wait on the gate together: ${JSON.stringify(waiting)}`);
        await gate.query(`SELECT pg_advisory_unlock(${GATE})`);
        gate.release();
        released = true;
        const r = await pending;
        assert.equal(r.statusCode, 200, r.body);
        const { a, b } = r.json() as { a: { pid: number }; b: { pid: number } };
        assert.notEqual(a.pid, b.pid, 'two clients');
        assert.deepEqual(
          [a.pid, b.pid].sort((x, y) => x - y),
          waiting,
        );
        await poolWhole(s);
      } finally {
        if (!released) gate.release(true);
        await s.close();
      }
    });

    test("a failing branch cancels its sibling's query on the server", { skip: realOnly }, async () => {
      const s = await serve(MANIFEST, await target.fresh());
      try {
        await s.db.query(FAIL_ONCE_RUNNING);
        const r = await s.app.inject({ method: 'GET', url: '/sibling-fails' });
        assert.equal(r.statusCode, 500, r.body);
        assert.equal(r.json().step, 'bad');
        // The 30 s sleep is gone from the server (cancel request, client destroyed), not left to run.
        assert.deepEqual(await activeQueries(s, 'cancelled_sibling'), []);
        await poolWhole(s);
        assert.equal((await s.app.inject({ method: 'GET', url: '/one-fails' })).json().step, 'bad');
        assert.equal((await s.app.inject({ method: 'GET', url: '/pair' })).statusCode, 200);
      } finally {
        await s.close();
      }
    });
  });
}
