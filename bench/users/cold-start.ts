/**
 * Cold start of examples/shop: from spawning `node bin/svc.js serve -c <copy of examples/shop>` to
 * its first answered `GET /api/v1/users/1` (200), in three cases, `--runs` times each:
 *
 * - `pglite:.data`, fresh: no `.data/` yet (initdb, then the migration);
 * - `pglite:.data`, existing: the directory of the previous start is reopened;
 * - `pglite:` in memory (DATABASE_URL=pglite:): initdb and the migration on every start;
 * - with `--postgres URL` (or SVC_TEST_POSTGRES_URL): a real server, its database already migrated.
 *
 *     node --import tsx bench/users/cold-start.ts [--runs 3] [--postgres URL]
 *
 * Runs the compiled binary (bin/svc.js -> dist/): `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { svcServe, SVC_LAUNCH } from '../lib/procs.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    postgres: { type: 'string', default: process.env.SVC_TEST_POSTGRES_URL ?? '' },
  },
});
const runs = Number(values.runs);

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

/** Milliseconds from spawn to the first 200 of GET /api/v1/users/1; the server is stopped after. */
async function coldStart(dir: string, env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const started = performance.now();
  const child = spawn(process.execPath, svcServe(dir, port), {
    env: { ...inherited, ...SVC_LAUNCH.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`svc exited with ${child.exitCode}: ${stderr}`);
      if (performance.now() - started > 60_000) throw new Error(`no answer within 60 s: ${stderr}`);
      try {
        const r = await fetch(`http://127.0.0.1:${port}/api/v1/users/1`);
        await r.arrayBuffer();
        if (r.status === 200) return performance.now() - started;
        throw new Error(`first answer was ${r.status}`);
      } catch (error) {
        if ((error as Error).message.startsWith('first answer')) throw error;
        await new Promise((r) => setTimeout(r, 5));
      }
    }
  } finally {
    await new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  }
}

async function copyOfExample(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-cold-start-'));
  await cp(join(root, 'examples/shop'), dir, { recursive: true, filter: (s) => !s.split(sep).includes('.data') });
  return dir;
}

const results: Record<string, number[]> = { 'pglite:.data, fresh (initdb + migration)': [], 'pglite:.data, existing': [], 'pglite: in memory': [] };
const dirs: string[] = [];
try {
  for (let run = 1; run <= runs; run++) {
    const dir = await copyOfExample();
    dirs.push(dir);
    results['pglite:.data, fresh (initdb + migration)']!.push(await coldStart(dir, {}));
    results['pglite:.data, existing']!.push(await coldStart(dir, {}));
    results['pglite: in memory']!.push(await coldStart(dir, { DATABASE_URL: 'pglite:' }));
  }
  if (values.postgres) {
    // One database for the example, migrated by a first (unmeasured) start.
    const url = new URL(values.postgres);
    const name = `svc_cold_start_${process.pid}`;
    const admin = await copyOfExample();
    dirs.push(admin);
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: values.postgres });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    url.pathname = `/${name}`;
    const key = 'postgres (a real server, database already migrated)';
    results[key] = [];
    try {
      await coldStart(admin, { DATABASE_URL: url.toString() });
      for (let run = 1; run <= runs; run++) results[key].push(await coldStart(admin, { DATABASE_URL: url.toString() }));
    } finally {
      await client.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await client.end();
    }
  }
} finally {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}

console.log(`cold start of examples/shop to its first answered GET /api/v1/users/1 (${runs} runs each, ms):`);
for (const [name, times] of Object.entries(results)) {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`  ${name.padEnd(52)} ${times.map((t) => t.toFixed(0).padStart(6)).join(' ')}   median ${sorted[sorted.length >> 1]!.toFixed(0)}`);
}
