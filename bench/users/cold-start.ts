/**
 * Cold start of examples/shop: from spawning `node bin/svc.js serve -c <copy of examples/shop>` to
 * its first answered `GET /api/v1/users/1` (200), and the process's resident memory then (VmRSS),
 * its peak until then (VmHWM) and its resident memory after `--idle-seconds` (8) without a request, in these cases,
 * `--runs` times each:
 *
 * - `pglite:.data`, fresh: no `.data/` yet (the empty database laid out from the build's template,
 *   src/connectors/postgres/template.ts, then the migration);
 * - `pglite:.data`, existing: the directory of the previous start is reopened;
 * - `pglite:` in memory (DATABASE_URL=pglite:): the template and the migration on every start;
 * - examples/quickstart (no database) to its first `GET /api/v1/health`;
 * - with `--postgres URL` (or SVC_TEST_POSTGRES_URL): a real server, its database already migrated;
 * - the floor under the quickstart (floor.ts): the same health answer from node:http alone and from a
 *   hand-written Fastify hello world, under svc's launch settings too;
 * - `--cases examples`: every other example, with its defaults, to its first answer of any kind (a 404).
 * - `--cases unbundled`: the quickstart again from dist/src (SVC_BUNDLE=0), right after its start from
 *   the bundle (dist/bundle, scripts/bundle.ts) in every run: the bundle's A/B.
 * - `--against DIR`: the quickstart again from another built checkout (its bin/svc.js; e.g. a
 *   `git worktree` of an older commit, built there), right after this one's in every run: a
 *   change's A/B.
 *
 *     node --import tsx bench/users/cold-start.ts [--runs 5] [--postgres URL] [--cases shop,quickstart,floor] [--idle-seconds 8] [--against DIR]
 *
 * `--cases` picks the groups (default: shop, quickstart and floor; `shop` includes `--postgres`). Runs the compiled
 * code (bin/svc.js -> dist/bundle or dist/src, dist/bench/users/floor.js): `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuMs, svcServe, SVC_LAUNCH } from '../lib/procs.js';
import { sqliteUnavailableReason } from '../../src/manifest/sqlite-support.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    postgres: { type: 'string', default: process.env.SVC_TEST_POSTGRES_URL ?? '' },
    cases: { type: 'string', default: 'shop,quickstart,floor' },
    'idle-seconds': { type: 'string', default: '8' },
    against: { type: 'string' },
  },
});
const runs = Number(values.runs);
const cases = new Set(values.cases.split(','));
/**
 * How long a started server is left without requests before its idle memory is read: past svc's
 * collection of the boot's garbage, 6 s after it listens (src/cli/idle-garbage.ts).
 */
const idleMs = Number(values['idle-seconds']) * 1000;
for (const c of cases)
  if (!['shop', 'quickstart', 'floor', 'examples', 'unbundled'].includes(c))
    throw new Error(`--cases: no case "${c}" (shop, quickstart, floor, examples, unbundled)`);
/**
 * bin/svc.js runs dist/src when the bundle is older (a `tsc` since the build): the A/B would compare
 * dist/src with itself. Checked before every start from the bundle (a build elsewhere may run meanwhile).
 */
function assertBundleCurrent(): void {
  const mtime = (file: string) => statSync(join(root, file), { throwIfNoEntry: false })?.mtimeMs ?? -1;
  if (mtime('dist/bundle/svc.js') < mtime('dist/src/cli/main.js'))
    throw new Error('--cases unbundled: dist/bundle is missing or older than dist/src; run `npm run build` (or scripts/bundle.ts)');
}

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

interface Start {
  /** Milliseconds from spawn to the first 200. */
  readonly ms: number;
  /**
   * CPU time (user + system) the process had used by then, milliseconds: less sensitive than `ms` to
   * a machine shared with other work, which stretches the wall time but not the work.
   */
  readonly cpu: number;
  /** Resident memory at the first answer, its peak until then, and after `--idle-seconds` without requests (MiB). */
  readonly rss: number;
  readonly peak: number;
  readonly idle: number;
}

/** One start of the server in `dir`, to the first answer of `path` with `status`; the server is stopped after. */
function coldStart(dir: string, env: Record<string, string>, path = '/api/v1/users/1', status = 200, bin?: string): Promise<Start> {
  return startToFirstAnswer((port) => svcServe(dir, port, [], bin), env, path, status);
}

/** One start of a floor process (floor.ts: `node` or `fastify`), under svc's launch settings. */
function floorStart(kind: 'node' | 'fastify'): Promise<Start> {
  const script = join(root, 'dist/bench/users/floor.js');
  return startToFirstAnswer((port) => [...SVC_LAUNCH.nodeArgs, script, kind, String(port)], {}, '/api/v1/health');
}

/** Spawns `node <argv(port)>`, times it to the first answer of `path` (`status`) and reads its memory; stops it after. */
async function startToFirstAnswer(argv: (port: number) => string[], env: Record<string, string>, path: string, status = 200): Promise<Start> {
  const port = await freePort();
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const started = performance.now();
  const child = spawn(process.execPath, argv(port), {
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
        const r = await fetch(`http://127.0.0.1:${port}${path}`);
        await r.arrayBuffer();
        if (r.status !== status) throw new Error(`first answer was ${r.status}`);
        const ms = performance.now() - started;
        const cpu = cpuMs(child.pid!);
        const { rss, peak } = memoryOf(child.pid!);
        await new Promise((r) => setTimeout(r, idleMs));
        return { ms, cpu, rss, peak, idle: memoryOf(child.pid!).rss };
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

/** VmRSS and VmHWM of a process, in MiB (Linux). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

async function copyOfExample(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-cold-start-'));
  await cp(join(root, 'examples/shop'), dir, { recursive: true, filter: (s) => !s.split(sep).includes('.data') });
  return dir;
}

const FRESH = 'pglite:.data, fresh (template + migration)';
const QUICKSTART = 'examples/quickstart (no database), GET /api/v1/health';
const UNBUNDLED = 'examples/quickstart from dist/src (SVC_BUNDLE=0)';
const FLOOR_NODE = 'floor: node:http alone, the same answer';
const FLOOR_FASTIFY = 'floor: Fastify hello world (pino logging), the same';
const results: Record<string, Start[]> = {
  [FRESH]: [],
  'pglite:.data, existing': [],
  'pglite: in memory': [],
  [QUICKSTART]: [],
  [UNBUNDLED]: [],
  [FLOOR_NODE]: [],
  [FLOOR_FASTIFY]: [],
};
/** Not served by `svc serve` on its own: examples/embedded is a program (docs/embedding.md). */
const NOT_SERVED = new Set(['shop', 'quickstart', 'embedded', ...(sqliteUnavailableReason() === undefined ? [] : ['sqlite-crud'])]);
const OTHER_EXAMPLES = readdirSync(join(root, 'examples'), { withFileTypes: true })
  .filter((e) => e.isDirectory() && !NOT_SERVED.has(e.name))
  .map((e) => e.name)
  .sort();
const dirs: string[] = [];
try {
  // Each run starts every case once, so a change of the machine's load touches all of them alike.
  for (let run = 1; run <= runs; run++) {
    if (cases.has('shop')) {
      const dir = await copyOfExample();
      dirs.push(dir);
      results[FRESH]!.push(await coldStart(dir, {}));
      results['pglite:.data, existing']!.push(await coldStart(dir, {}));
      results['pglite: in memory']!.push(await coldStart(dir, { DATABASE_URL: 'pglite:' }));
    }
    if (cases.has('unbundled')) assertBundleCurrent();
    if (cases.has('quickstart') || cases.has('unbundled') || values.against !== undefined)
      results[QUICKSTART]!.push(await coldStart(join(root, 'examples/quickstart'), {}, '/api/v1/health'));
    if (cases.has('unbundled')) results[UNBUNDLED]!.push(await coldStart(join(root, 'examples/quickstart'), { SVC_BUNDLE: '0' }, '/api/v1/health'));
    if (values.against !== undefined) {
      const bin = join(resolve(values.against), 'bin/svc.js');
      (results[`examples/quickstart from ${values.against}`] ??= []).push(await coldStart(join(root, 'examples/quickstart'), {}, '/api/v1/health', 200, bin));
    }
    if (cases.has('floor')) {
      results[FLOOR_NODE]!.push(await floorStart('node'));
      results[FLOOR_FASTIFY]!.push(await floorStart('fastify'));
    }
    // Every other example with its defaults (memory: stores, pglite: in memory), to its first answer
    // of any kind: a path no example declares, answered 404 once the server listens.
    if (cases.has('examples')) {
      for (const name of OTHER_EXAMPLES)
        (results[`examples/${name}, its first 404`] ??= []).push(await coldStart(join(root, 'examples', name), {}, '/cold-start-probe', 404));
    }
  }
  if (values.postgres && cases.has('shop')) {
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
      for (let run = 1; run <= runs; run++) results[key]!.push(await coldStart(admin, { DATABASE_URL: url.toString() }));
    } finally {
      await client.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await client.end();
    }
  }
} finally {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
// Resident memory in MiB, and idle also in MB (10^6 bytes), the unit of issue 33's goal.
console.log(`cold start to the first answer (${runs} runs each; medians; resident memory in MiB, idle also in MB):`);
console.log(
  `  ${'case'.padEnd(56)} ${'ms'.padStart(6)} ${'cpu ms'.padStart(6)} ${'rss'.padStart(6)} ${'peak'.padStart(6)} ${'idle'.padStart(6)} ${'idle MB'.padStart(7)}   (ms of each run; cpu ms of each run; idle MiB of each run)`,
);
for (const [name, starts] of Object.entries(results)) {
  if (starts.length === 0) continue;
  const m = (key: keyof Start, digits = 0) =>
    median(starts.map((s) => s[key]))
      .toFixed(digits)
      .padStart(6);
  const idleMB = ((median(starts.map((s) => s.idle)) * 1024 * 1024) / 1e6).toFixed(1).padStart(7);
  const each = (key: keyof Start, digits = 0) => starts.map((s) => s[key].toFixed(digits)).join(' ');
  console.log(
    `  ${name.padEnd(56)} ${m('ms')} ${m('cpu')} ${m('rss', 1)} ${m('peak', 1)} ${m('idle', 1)} ${idleMB}   (${each('ms')}; ${each('cpu')}; ${each('idle', 1)})`,
  );
}
