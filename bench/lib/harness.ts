/**
 * The shared runner of the HTTP benchmarks (bench/health, bench/search): svc serving a manifest
 * directory against a hand-written Fastify baseline, measured in the same run, in alternating rounds
 * (so drift in machine load hits both alike). Each server is its own child process; the load generator
 * (load.ts) is a third one, started per round.
 *
 * Every process runs compiled JavaScript by default, as users run `svc` (bin/svc.js -> dist/, with
 * the Node options and environment of bin/svc.js's first line): the runner builds first. `--tsx`
 * runs the sources instead (not the product: esbuild's keepNames wraps every closure creation in a
 * `__name` call, which per-request closures pay for). The baseline runs with Node's defaults, as a
 * hand-written service would; `--baseline-like-svc` gives it svc's launch settings too.
 *
 * Common options: --rounds 5 --seconds 3 --connections 16 --warmup 5 [--tsx] [--pin]
 *   [--extra-rounds 3] [--logging-rounds 5] [--quiet-rounds 5] [--cpu-prof <dir>] [--baseline-like-svc]
 *
 * Three series of the main scenario, each a like-for-like comparison or a bound of one:
 * - main: svc writing its access log against a baseline logging nothing (svc does more work);
 * - logging: svc writing its access log against a baseline writing one pino line per request;
 * - quiet: svc with `server { access_log = false }` against the baseline logging nothing.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { listeningPort, SVC_LAUNCH } from './procs.js';

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '../..');

/** One kind of request, sent identically to both servers. */
export interface Scenario {
  /** Printed in headings: `valid`, `invalid (422)`. */
  readonly name: string;
  /** Path and query string. */
  readonly path: string;
  /** Extra request headers, `name: value`. */
  readonly headers?: readonly string[];
  /** The status every response must have (`200`, `422`); any 2xx when absent. */
  readonly status?: number;
  /** `POST`...; GET when absent. */
  readonly method?: string;
  /** A JSON request body (sent as application/json). */
  readonly body?: string;
  /** Checked once per server before measuring; throws when the answer is not the expected one. */
  check(server: 'svc' | 'fastify', status: number, body: unknown): void;
}

export interface BenchConfig {
  /** What is measured, for the heading: `GET /api/v1/health`. */
  readonly title: string;
  /** The manifest directory svc serves, relative to the repository root. */
  readonly manifest: string;
  /** The baseline script without extension, relative to the root: `bench/search/baseline`. */
  readonly baseline: string;
  /** Goal of the median svc/Fastify ratio of the main scenario; absent: informational. */
  readonly goal?: number;
  /** The measured scenario; its ratio is the result. */
  readonly main: Scenario;
  /** Informational scenarios, measured after the main rounds and reported separately. */
  readonly extra?: readonly Scenario[];
  /** Environment variables for both servers (DATABASE_URL for bench/users). */
  readonly env?: Readonly<Record<string, string>>;
  /** Extra command-line arguments of the baseline (`--log` is added by the logging rounds). */
  readonly baselineArgs?: readonly string[];
  /** Rounds against the logging baseline when `--logging-rounds` is not given (default 5). */
  readonly loggingRounds?: number;
}

/** What `runBench` answers: the main series, and the logging and quiet series when they ran. */
export interface BenchResult {
  readonly main: BenchSummary;
  logging?: BenchSummary;
  quiet?: BenchSummary;
}

/** The medians of one series of alternating rounds. */
export interface BenchSummary {
  readonly svcRps: number;
  readonly fastifyRps: number;
  /** Median of the per-round ratios svc/Fastify of req/s. */
  readonly ratio: number;
  readonly svcP99: number;
  readonly fastifyP99: number;
  /** Median p99 of svc over median p99 of Fastify. */
  readonly p99Ratio: number;
}

interface Load {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  /** Server CPU time per request, in microseconds (Linux only; NaN elsewhere). */
  cpuUs: number;
}

interface Server {
  readonly name: 'svc' | 'fastify';
  readonly child: ChildProcess;
  readonly port: number;
}

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    // Seconds of load each server gets before its series is measured.
    warmup: { type: 'string', default: '5' },
    // Rounds of each informational scenario (0: skip them).
    'extra-rounds': { type: 'string', default: '3' },
    // Rounds of the main scenario against the baseline that also logs one line per request (0: skip).
    'logging-rounds': { type: 'string' },
    // Rounds of the main scenario with svc's access log off against the baseline logging nothing (0: skip).
    'quiet-rounds': { type: 'string', default: '5' },
    tsx: { type: 'boolean', default: false },
    // Pin servers to the last CPU and the load generator to the others (taskset). Helps on a quiet
    // machine; hurts on a shared one, where a pinned server cannot move away from a busy neighbour.
    pin: { type: 'boolean', default: false },
    // Run both servers under `node --cpu-prof` and write their profiles into <dir>/svc and <dir>/fastify
    // on exit (the sampling itself costs both some throughput).
    'cpu-prof': { type: 'string' },
    // Start the baseline with svc's launch settings too (bin/svc.js's first line: Node options and
    // environment), instead of Node's defaults: how much of a ratio those settings make.
    'baseline-like-svc': { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const warmup = Number(values.warmup);
const extraRounds = Number(values['extra-rounds']);
const loggingRoundsFlag = values['logging-rounds'] === undefined ? undefined : Number(values['logging-rounds']);
const quietRounds = Number(values['quiet-rounds']);
const cpuProf = values['cpu-prof'] === undefined ? undefined : resolve(values['cpu-prof']);

/**
 * CPU time (user + system) a process has used, in microseconds, from /proc. Per request it is a steadier
 * measure than req/s on a shared machine: a neighbour stealing the core lowers req/s, not CPU per request.
 */
function cpuMicros(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // utime, stime in USER_HZ (100)
  } catch {
    return NaN;
  }
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

async function waitForPort(port: number, child: ChildProcess, name: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} before listening`);
    const ok = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not listen on ${port} within 30 s`);
}

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `--pin`: servers on the last CPU, the load generator on the others, so they do not compete. */
const cpus = availableParallelism();
const pin = values.pin && cpus >= 2 && hasTaskset() ? { server: [String(cpus - 1)], load: [`0-${cpus - 2}`] } : undefined;

function launch(role: 'server' | 'load', argv: string[], stdout: 'ignore' | 'pipe', env?: Readonly<Record<string, string>>): ChildProcess {
  const [command, args] = pin ? ['taskset', ['-c', ...pin[role], process.execPath, ...argv]] : [process.execPath, argv];
  return spawn(command, args, { cwd: root, stdio: ['ignore', stdout, 'inherit'], ...(env ? { env: { ...process.env, ...env } } : {}) });
}

/** A benchmark script (`bench/lib/load`, a baseline) as a child process, compiled or from sources. */
function script(
  role: 'server' | 'load',
  name: string,
  args: string[],
  stdout: 'ignore' | 'pipe' = 'ignore',
  node: string[] = [],
  env?: Readonly<Record<string, string>>,
): ChildProcess {
  const argv = values.tsx ? [...node, '--import', 'tsx', join(root, `${name}.ts`), ...args] : [...node, join(root, 'dist', `${name}.js`), ...args];
  return launch(role, argv, stdout, env);
}

/** Built once per process, however many benchmarks it runs. */
let built = false;

function build(config: BenchConfig): void {
  if (built) return;
  built = true;
  process.stdout.write('building (npm run build)...\n');
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'pipe' });
  } catch {
    // tsc reports type errors elsewhere in the tree but still emits; the entry points are checked below.
  }
  for (const file of ['dist/src/cli/main.js', `dist/${config.baseline}.js`, 'dist/bench/lib/load.js']) {
    if (!existsSync(join(root, file))) throw new Error(`the build did not produce ${file}`);
  }
}

async function startSvc(manifest: string, env?: Readonly<Record<string, string>>): Promise<Server> {
  const port = await freePort();
  const args = ['serve', '-c', manifest, '--port', String(port)];
  const prof = profArgs('svc');
  const child = values.tsx
    ? launch('server', [...prof, '--import', 'tsx', join(root, 'bench/lib/svc.ts'), ...args], 'ignore', env)
    : launch('server', [...SVC_LAUNCH.nodeArgs, ...prof, join(root, 'bin/svc.js'), ...args], 'ignore', { ...SVC_LAUNCH.env, ...env });
  await waitForPort(port, child, 'svc');
  return { name: 'svc', child, port };
}

/** `node --cpu-prof` options for one server, when profiling. */
function profArgs(server: 'svc' | 'fastify'): string[] {
  return cpuProf === undefined ? [] : ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', join(cpuProf, server)];
}

async function startBaseline(name: string, args: string[] = [], env?: Readonly<Record<string, string>>): Promise<Server> {
  const launch = values['baseline-like-svc'] ? SVC_LAUNCH : { nodeArgs: [], env: {} };
  const child = script('server', name, args, 'pipe', [...launch.nodeArgs, ...profArgs('fastify')], { ...launch.env, ...env });
  const port = await listeningPort(child, 'baseline');
  return { name: 'fastify', child, port };
}

/** Requests each server answered in the whole run (warm-up included), to read a profile per request. */
const served = { svc: 0, fastify: 0 };

async function load(server: Server, scenario: Scenario, secs: number): Promise<Load> {
  const before = cpuMicros(server.child.pid!);
  const result = await loadOnly(server.port, scenario, secs);
  served[server.name] += result.requests;
  return { ...result, cpuUs: (cpuMicros(server.child.pid!) - before) / Math.max(1, result.requests) };
}

function loadOnly(port: number, scenario: Scenario, secs: number): Promise<Omit<Load, 'cpuUs'>> {
  const args = [`http://127.0.0.1:${port}${scenario.path}`, String(connections), String(secs)];
  if (scenario.status !== undefined) args.push('--status', String(scenario.status));
  for (const h of scenario.headers ?? []) args.push('--header', h);
  if (scenario.method !== undefined) args.push('--method', scenario.method);
  if (scenario.body !== undefined) args.push('--body', scenario.body);
  return new Promise((resolveLoad, reject) => {
    const child = script('load', 'bench/lib/load', args, 'pipe');
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => (code === 0 ? resolveLoad(JSON.parse(out) as Omit<Load, 'cpuUs'>) : reject(new Error(`load generator exited ${code}`))));
  });
}

async function check(server: Server, scenario: Scenario): Promise<void> {
  const headers: Record<string, string> = {};
  for (const h of scenario.headers ?? []) {
    const colon = h.indexOf(':');
    headers[h.slice(0, colon).trim()] = h.slice(colon + 1).trim();
  }
  if (scenario.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`http://127.0.0.1:${server.port}${scenario.path}`, {
    headers,
    method: scenario.method ?? 'GET',
    ...(scenario.body !== undefined ? { body: scenario.body } : {}),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  try {
    if (scenario.status !== undefined && response.status !== scenario.status) throw new Error(`status ${response.status}, expected ${scenario.status}`);
    scenario.check(server.name, response.status, body);
  } catch (error) {
    throw new Error(`${server.name} (${scenario.name}) answered ${response.status} ${text}: ${(error as Error).message}`);
  }
}

function median(list: number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const fmt = (n: number, d = 0) => n.toFixed(d).padStart(8);

interface Row {
  round: number;
  svc: Load;
  fastify: Load;
}

/** Alternating rounds of one scenario; prints a line per round and returns the rows. */
async function measure(svc: Server, baseline: Server, scenario: Scenario, count: number): Promise<Row[]> {
  const rows: Row[] = [];
  console.log('round      svc req/s  fastify req/s   ratio   svc p50/p99 ms   fastify p50/p99 ms   CPU us/req svc fastify');
  for (let round = 1; round <= count; round++) {
    // Alternate which goes first, so neither always runs on a warmer machine.
    const first = round % 2 === 1;
    const a = await load(first ? svc : baseline, scenario, seconds);
    const b = await load(first ? baseline : svc, scenario, seconds);
    const row = { round, svc: first ? a : b, fastify: first ? b : a };
    rows.push(row);
    if (row.svc.errors > 0 || row.fastify.errors > 0) console.log(`  errors: svc ${row.svc.errors}, fastify ${row.fastify.errors}`);
    console.log(
      `${String(round).padStart(5)}  ${fmt(row.svc.rps)}      ${fmt(row.fastify.rps)}  ${fmt(row.svc.rps / row.fastify.rps, 3)}` +
        `   ${fmt(row.svc.p50, 2)}/${row.svc.p99.toFixed(2).padEnd(6)}  ${fmt(row.fastify.p50, 2)}/${row.fastify.p99.toFixed(2).padEnd(6)}` +
        `    ${fmt(row.svc.cpuUs, 1)} ${fmt(row.fastify.cpuUs, 1)}`,
    );
  }
  return rows;
}

function summarize(rows: Row[], goal: number | undefined): BenchSummary {
  const m = (pick: (r: Row) => number) => median(rows.map(pick));
  console.log('');
  console.log(`median req/s: svc ${m((r) => r.svc.rps).toFixed(0)}, fastify ${m((r) => r.fastify.rps).toFixed(0)}`);
  console.log(
    `median p50/p99 ms: svc ${m((r) => r.svc.p50).toFixed(2)}/${m((r) => r.svc.p99).toFixed(2)}, ` +
      `fastify ${m((r) => r.fastify.p50).toFixed(2)}/${m((r) => r.fastify.p99).toFixed(2)}`,
  );
  console.log(
    `median CPU per request: svc ${m((r) => r.svc.cpuUs).toFixed(1)} us, fastify ${m((r) => r.fastify.cpuUs).toFixed(1)} us ` +
      `(efficiency ratio fastify/svc ${m((r) => r.fastify.cpuUs / r.svc.cpuUs).toFixed(3)})`,
  );
  // The least disturbed round of each: on a shared machine a neighbour only ever adds CPU per request
  // (cache pollution, preemption), so the minimum is the steadiest estimate of the server's own cost.
  const minSvc = Math.min(...rows.map((r) => r.svc.cpuUs));
  const minFastify = Math.min(...rows.map((r) => r.fastify.cpuUs));
  console.log(
    `best-round CPU per request: svc ${minSvc.toFixed(1)} us, fastify ${minFastify.toFixed(1)} us (ratio fastify/svc ${(minFastify / minSvc).toFixed(3)})`,
  );
  const ratio = m((r) => r.svc.rps / r.fastify.rps);
  console.log(`median ratio svc/fastify: ${ratio.toFixed(3)}${goal === undefined ? ' (informational)' : ` (goal >= ${goal.toFixed(2)})`}`);
  const svcP99 = m((r) => r.svc.p99);
  const fastifyP99 = m((r) => r.fastify.p99);
  console.log(`p99 ratio svc/fastify (of the medians): ${(svcP99 / fastifyP99).toFixed(3)}`);
  return { svcRps: m((r) => r.svc.rps), fastifyRps: m((r) => r.fastify.rps), ratio, svcP99, fastifyP99, p99Ratio: svcP99 / fastifyP99 };
}

/** Runs one benchmark; answers the summary of its main scenario (and of the logging and quiet series, if run). */
export async function runBench(config: BenchConfig): Promise<BenchResult> {
  if (!values.tsx) build(config);
  const loggingRounds = loggingRoundsFlag ?? config.loggingRounds ?? 5;
  const baselineArgs = [...(config.baselineArgs ?? [])];
  const extra = extraRounds > 0 ? (config.extra ?? []) : [];
  console.log(
    `${values.tsx ? 'from sources (tsx)' : 'compiled (dist/)'}${pin ? `, servers on CPU ${pin.server[0]}, load on CPU ${pin.load[0]}` : ''}` +
      `${cpuProf ? `, servers under --cpu-prof (${cpuProf})` : ''}; ${config.title}: ${rounds} alternating rounds of ${seconds} s, ` +
      `${connections} connections; every series on a fresh pair of servers, each warmed up ${warmup} s`,
  );

  console.log(`\n== ${config.main.name}: ${config.main.path}`);
  const result: BenchResult = {
    main: await series(config, config.manifest, baselineArgs, [config.main, ...extra], async (svc, baseline) => {
      const main = summarize(await measure(svc, baseline, config.main, rounds), config.goal);
      for (const scenario of extra) {
        console.log(`\n== ${scenario.name} (informational): ${scenario.path}`);
        await load(svc, scenario, Math.min(warmup, 1));
        await load(baseline, scenario, Math.min(warmup, 1));
        summarize(await measure(svc, baseline, scenario, extraRounds), undefined);
      }
      return main;
    }),
  };

  if (loggingRounds > 0) {
    // The same work: svc writes one log line per request, so here the baseline does too.
    console.log(`\n== ${config.main.name}, against Fastify that also logs one pino line per request: ${config.main.path}`);
    result.logging = await series(config, config.manifest, [...baselineArgs, '--log'], [config.main], async (svc, baseline) =>
      summarize(await measure(svc, baseline, config.main, loggingRounds), config.goal),
    );
  }

  if (quietRounds > 0) {
    // The other like-for-like comparison: neither server logs a line per request.
    console.log(`\n== ${config.main.name}, svc with access_log = false against Fastify logging nothing: ${config.main.path}`);
    const manifest = quietManifest(config.manifest);
    try {
      result.quiet = await series(config, manifest, baselineArgs, [config.main], async (svc, baseline) =>
        summarize(await measure(svc, baseline, config.main, quietRounds), config.goal),
      );
    } finally {
      rmSync(manifest, { recursive: true, force: true });
    }
  }

  const ratio = (summary: BenchSummary | undefined): string => (summary === undefined ? '-' : summary.ratio.toFixed(3));
  console.log(
    `\nsummary (median req/s ratios svc/Fastify): access log on vs Fastify logging nothing ${ratio(result.main)}; ` +
      `both logging one line per request ${ratio(result.logging)}; access log off vs Fastify logging nothing ${ratio(result.quiet)}`,
  );
  if (cpuProf !== undefined) {
    console.log(`\nprofiles in ${cpuProf}/{svc,fastify}; requests served: svc ${served.svc}, fastify ${served.fastify}`);
    console.log(`summarize: node --import tsx bench/lib/profile.ts ${cpuProf}/svc/*.cpuprofile --requests ${served.svc}`);
  }
  return result;
}

/**
 * One series on a pair of servers started for it, checked on the `scenarios` it will measure,
 * warmed up alike on the main one, and stopped afterwards. Both are fresh because V8 keeps
 * optimising a server for tens of seconds under load: a process that already served earlier series
 * would be compared, warmer, against one that did not (until 2026-11-25 the logging series reused
 * the main svc and the quiet series the main baseline, which favoured svc in the first and the
 * baseline in the second).
 */
async function series(
  config: BenchConfig,
  manifest: string,
  baselineArgs: string[],
  scenarios: readonly Scenario[],
  run: (svc: Server, baseline: Server) => Promise<BenchSummary>,
): Promise<BenchSummary> {
  const svc = await startSvc(manifest, config.env);
  let baseline: Server | undefined;
  try {
    baseline = await startBaseline(config.baseline, baselineArgs, config.env);
    for (const scenario of scenarios) {
      await check(svc, scenario);
      await check(baseline, scenario);
    }
    await load(svc, config.main, warmup);
    await load(baseline, config.main, warmup);
    return await run(svc, baseline);
  } finally {
    await stop(svc.child);
    if (baseline) await stop(baseline.child);
  }
}

/**
 * A copy of the manifest directory with `access_log = false` in its server block (one is added when
 * it has none), in a temporary directory: the example itself is never touched.
 */
function quietManifest(manifest: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'svc-bench-quiet-'));
  cpSync(join(root, manifest), copy, { recursive: true });
  const files = readdirSync(copy).filter((f) => f.endsWith('.hcl'));
  const withServer = files.find((f) => /^server\s*\{/m.test(readFileSync(join(copy, f), 'utf8')));
  if (withServer === undefined) writeFileSync(join(copy, 'zz-bench-quiet.hcl'), 'server {\n  access_log = false\n}\n');
  else {
    const path = join(copy, withServer);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/^server\s*\{/m, 'server {\n  access_log = false'));
  }
  return copy;
}

/** SIGTERM and wait for the exit (svc writes its CPU profile, if any, on the way out). */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}
