/**
 * examples/sqlite-crud against a hand-written Fastify + node:sqlite service (baseline.ts), in the
 * same run by the shared runner (bench/lib/harness.ts: alternating rounds, child processes, compiled
 * code). Main: `GET /tasks/{id}`, a lookup by primary key (goal: svc at least 0.95 of the
 * baseline's req/s); informational: `PATCH /tasks/{id}`, a write (an idempotent update with
 * RETURNING), and `GET /tasks?limit=20`, which the baseline does not serve (svc alone).
 *
 *     /work/main/.cache/node-lines/22/node --import tsx bench/sqlite/run.ts [-- --rounds 5 --seconds 3]
 *
 * Run it with a Node.js that has node:sqlite (22.13 or later): the runner starts both servers with
 * the node that runs it. Each server gets a database file of its own in a fresh directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench, type Scenario } from '../lib/harness.js';

const FIRST = { id: 1, title: 'Read the manual', done: true, tags: ['docs'] };

const found: Scenario = {
  name: 'found (200)',
  path: '/tasks/1',
  status: 200,
  check(_server, _status, body) {
    const { created_at: _at, ...rest } = body as Record<string, unknown>;
    if (JSON.stringify(rest) !== JSON.stringify(FIRST)) throw new Error(`expected ${JSON.stringify(FIRST)}, got ${JSON.stringify(body)}`);
  },
};

const write: Scenario = {
  name: 'PATCH (a write, 200)',
  path: '/tasks/2',
  method: 'PATCH',
  body: JSON.stringify({ done: true }),
  status: 200,
  check(_server, _status, body) {
    if ((body as { done?: unknown }).done !== true) throw new Error(`expected the task marked done, got ${JSON.stringify(body)}`);
  },
};

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-sqlite-'));
try {
  const result = await runBench({
    title: 'GET /tasks/{id} on SQLite (examples/sqlite-crud)',
    manifest: 'examples/sqlite-crud',
    baseline: 'bench/sqlite/baseline',
    goal: 0.95,
    env: { DATABASE_URL: `sqlite:${join(dir, 'tasks.db')}` },
    main: found,
    extra: [write],
  });
  const s = result.main;
  console.log(
    `\nsummary: svc ${s.svcRps.toFixed(0)} req/s vs ${s.fastifyRps.toFixed(0)}, throughput ratio ${s.ratio.toFixed(3)} (goal >= 0.95); ` +
      `p99 ${s.svcP99.toFixed(2)} ms vs ${s.fastifyP99.toFixed(2)} ms`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
