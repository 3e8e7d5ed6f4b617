/**
 * What tracing costs (README in this directory), end to end, on the health endpoint (one respond
 * step) and the users endpoint (examples/shop's `GET /api/v1/users/{id}` on PostgreSQL), three
 * servers under the same load in alternating rounds, CPU time per request of each from /proc:
 *
 * - `baseline`: this commit with its tracing hooks taken out of the compiled code (stripped.ts), or
 *   with `--baseline <git ref>` that commit, built here from `git archive` into a temporary
 *   directory sharing this tree's node_modules;
 * - `off`: this build, tracing not configured (the goal: at least 0.98x the baseline's req/s);
 * - `on`: this build, every request sampled (OTEL_EXPORTER_OTLP_ENDPOINT, the default sampler: a
 *   request without traceparent starts a sampled trace), exporting over OTLP/HTTP to a sink in this
 *   process that counts the spans it receives, so the spans per request are measured, not assumed.
 *
 *     SVC_TEST_POSTGRES_URL=postgres://... npm run bench:tracing [-- --rounds 3 --seconds 2 --connections 16 --baseline stripped|<git ref>]
 *
 * A database is created for the run (the shop's migration seeds it) and dropped afterwards. The
 * servers are pinned to the last CPU and the load to the others, as bench/cors does. About 50 s with
 * the defaults.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { buildOnce, compiled, cpuMs, freePort, median, root, SVC_LAUNCH, stopChild, waitForPort } from '../lib/procs.js';
import { buildStripped } from './stripped.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
    warmup: { type: 'string', default: '1' },
    baseline: { type: 'string' },
    // `--off-only`: the baseline and `off` alone, for more rounds of the comparison in the same time.
    'off-only': { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);

const postgresUrl = process.env.SVC_TEST_POSTGRES_URL;
if (!postgresUrl) {
  process.stderr.write('bench/tracing: set SVC_TEST_POSTGRES_URL to a PostgreSQL server (scripts/pg-test-server.sh starts one)\n');
  process.exit(2);
}

const ENDPOINTS = [
  { name: 'health', path: '/api/v1/health' },
  { name: 'users', path: '/api/v1/users/1' },
] as const;

const MANIFEST = `
server {
  access_log = false
}

connection "postgres" "shop" {
  url = env("DATABASE_URL")
  migrations = "migrations"
}

endpoint "GET /api/v1/health" {
  pipeline {
    respond {
      status = 200
      body = {
        status    = "ok"
        timestamp = ctx.timestamp_epoch
      }
    }
  }
}
`;

buildOnce(['bench/lib/load']);
// `stripped` (the default): this commit without its tracing hooks (stripped.ts); or a git ref.
const stripped = (values.baseline ?? 'stripped') === 'stripped';
const baselineRef = stripped ? 'HEAD' : values.baseline!;
const work = mkdtempSync(join(tmpdir(), 'svc-bench-tracing-'));
const baselineRoot = stripped ? buildStripped(root, join(work, 'baseline')) : buildBaseline(baselineRef, join(work, 'baseline'));

// The manifest: the health endpoint above, the shop's users endpoint and its migration.
const manifest = join(work, 'manifest');
mkdirSync(manifest);
writeFileSync(join(manifest, 'main.hcl'), MANIFEST);
cpSync(join(root, 'examples/shop/users.hcl'), join(manifest, 'users.hcl'));
cpSync(join(root, 'examples/shop/migrations'), join(manifest, 'migrations'), { recursive: true });

const database = `bench_tracing_${process.pid}`;
const admin = new pg.Client({ connectionString: postgresUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
const databaseUrl = withDatabase(postgresUrl, database);

const sink = await startSink();
const cpus = availableParallelism();
const pinned = cpus >= 2 && hasTaskset();
const serverCpu = String(cpus - 1);
const loadCpus = cpus >= 2 ? `0-${cpus - 2}` : '0';

const servers: { name: string; child: ChildProcess; port: number }[] = [];
try {
  const env = { DATABASE_URL: databaseUrl };
  // The exporter's queue is made big enough for a second of load and flushed often: a full queue
  // drops spans, which would make tracing look cheaper than it is (the sink's count shows none was).
  const traced = {
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_BSP_SCHEDULE_DELAY: '200',
    OTEL_BSP_MAX_QUEUE_SIZE: '65536',
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048',
  };
  const setups = [
    ['baseline', baselineRoot, {}],
    ['off', root, {}],
    ['on', root, traced],
  ] as const;
  for (const [name, svcRoot, extra] of values['off-only'] ? setups.slice(0, 2) : setups) {
    const port = await freePort();
    const argv = [...SVC_LAUNCH.nodeArgs, join(svcRoot, 'bin/svc.js'), 'serve', '-c', manifest, '--port', String(port)];
    const childEnv = { ...withoutOtel(process.env), ...SVC_LAUNCH.env, ...env, ...extra };
    const child = pinned
      ? spawn('taskset', ['-c', serverCpu, process.execPath, ...argv], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: childEnv })
      : spawn(process.execPath, argv, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: childEnv });
    await waitForPort(port, child, name);
    servers.push({ name, child, port });
  }
  process.stdout.write(
    `\nbaseline: ${baselineRef} (${git(['rev-parse', '--short', baselineRef]).trim()})${stripped ? ' without its tracing hooks' : ''}; ${values.connections} connections, ${seconds} s a round, ${pinned ? `servers pinned to CPU ${serverCpu}` : 'not pinned'}\n\n`,
  );
  for (const endpoint of ENDPOINTS) for (const server of servers) await load(server.port, endpoint.path, Number(values.warmup));

  const results = new Map<string, { rps: number[]; us: number[]; spans: number[] }>();
  for (let r = 0; r < rounds; r++) {
    for (const endpoint of ENDPOINTS) {
      const order = r % 2 === 0 ? servers : [...servers].reverse();
      for (const server of order) {
        const spansBefore = await sink.settled();
        const before = cpuMs(server.child.pid!);
        const result = await load(server.port, endpoint.path, seconds);
        const us = ((cpuMs(server.child.pid!) - before) * 1000) / result.requests;
        const spans = server.name === 'on' ? ((await sink.settled()) - spansBefore) / result.requests : 0;
        const key = `${endpoint.name} ${server.name}`;
        const entry = results.get(key) ?? { rps: [], us: [], spans: [] };
        entry.rps.push(result.rps);
        entry.us.push(us);
        entry.spans.push(spans);
        results.set(key, entry);
        process.stdout.write(
          `round ${r + 1}  ${endpoint.name.padEnd(7)} ${server.name.padEnd(9)} ${result.rps.toFixed(0).padStart(7)} req/s   ${us.toFixed(2).padStart(7)} us CPU/request${server.name === 'on' ? `   ${spans.toFixed(2)} spans/request` : ''}\n`,
        );
      }
    }
  }

  process.stdout.write('\nmedians\n');
  for (const endpoint of ENDPOINTS) {
    const of = (server: string) => results.get(`${endpoint.name} ${server}`)!;
    const base = of('baseline');
    const off = of('off');
    const paired = off.us.map((us, i) => base.us[i]! / us);
    const comparison =
      `${endpoint.name}: off/baseline req/s ${(median(off.rps) / median(base.rps)).toFixed(3)}x, CPU/request ${median(off.us).toFixed(2)} vs ${median(base.us).toFixed(2)} us ` +
      `(baseline/off CPU per round: median ${median(paired).toFixed(3)}x, ${Math.min(...paired).toFixed(3)} to ${Math.max(...paired).toFixed(3)})`;
    if (values['off-only']) {
      process.stdout.write(`${comparison}\n`);
      continue;
    }
    const on = of('on');
    const spans = median(on.spans);
    const added = median(on.us) - median(off.us);
    process.stdout.write(
      `${comparison}; ` +
        `on: ${median(on.rps).toFixed(0)} req/s, ${median(on.us).toFixed(2)} us CPU/request, +${added.toFixed(2)} us for ${spans.toFixed(2)} spans (${(added / spans).toFixed(2)} us a span)\n`,
    );
  }
  if (!values['off-only']) {
    const health = results.get('health on')!;
    const users = results.get('users on')!;
    const extraSpans = median(users.spans) - median(health.spans);
    const extraUs = median(users.us) - median(results.get('users off')!.us) - (median(health.us) - median(results.get('health off')!.us));
    process.stdout.write(
      `users over health with tracing on: ${extraSpans.toFixed(2)} more spans (steps and the sql client span) for ${extraUs.toFixed(2)} us more\n`,
    );
  }
  process.stdout.write(`the sink received ${sink.received()} spans in ${sink.posts()} exports; refused none\n`);
} finally {
  for (const server of servers) await stopChild(server.child);
  await sink.close();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => {});
  await admin.end();
  rmSync(work, { recursive: true, force: true });
}

/** Not synchronous: the sink, in this process, takes the exports meanwhile. */
async function load(port: number, path: string, secs: number): Promise<{ requests: number; rps: number }> {
  const argv = compiled('bench/lib/load', [`http://127.0.0.1:${port}${path}`, values.connections, String(secs), '--status', '200']);
  const command = pinned ? 'taskset' : process.execPath;
  const args = pinned ? ['-c', loadCpus, process.execPath, ...argv] : argv;
  const { stdout: out } = await promisify(execFile)(command, args, { cwd: root, encoding: 'utf8' });
  const result = JSON.parse(out.trim().split('\n').pop()!) as { requests: number; rps: number; errors: number };
  if (result.errors > 0) throw new Error(`${result.errors} answers were not 200 on ${path}`);
  return result;
}

/** The tree at `ref`, built into `dir` with this tree's node_modules; its root. */
function buildBaseline(ref: string, dir: string): string {
  process.stdout.write(`building the baseline (${ref})...\n`);
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive --format=tar ${ref} | tar -x -C '${dir}'`], { cwd: root });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: dir, stdio: 'pipe' });
  } catch {
    // Type errors elsewhere still emit; the entry point is checked below.
  }
  if (!existsSync(join(dir, 'dist/src/cli/main.js'))) throw new Error(`the baseline build (${ref}) did not produce dist/src/cli/main.js`);
  return dir;
}

interface Sink {
  readonly url: string;
  /** Spans received so far, once no export has arrived for 300 ms (the exporter flushes every 200). */
  settled(): Promise<number>;
  received(): number;
  posts(): number;
  close(): Promise<void>;
}

/** An OTLP/HTTP JSON endpoint that counts the spans it is sent. */
async function startSink(): Promise<Sink> {
  let spans = 0;
  let posts = 0;
  let lastAt = Date.now();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans?: { scopeSpans?: { spans?: unknown[] }[] }[] };
      for (const rs of body.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spans += ss.spans?.length ?? 0;
      posts++;
      lastAt = Date.now();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async settled() {
      while (Date.now() - lastAt < 300) await new Promise((r) => setTimeout(r, 50));
      return spans;
    },
    received: () => spans,
    posts: () => posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.href;
}

function withoutOtel(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (!k.startsWith('OTEL_') && v !== undefined) out[k] = v;
  return out;
}

function git(args: readonly string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' });
}

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
