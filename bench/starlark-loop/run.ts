/**
 * Issue 15's event-loop benchmark: scripts at their limits in some requests while a client measures
 * `GET /health`. svc (Starlark steps on the worker pool) against the in-thread alternative
 * (baseline.ts: the same interpreter, its built-ins charged and timed, on the event loop), each a
 * child process running compiled code, the load clients separate processes (client.ts).
 *
 *     npm run bench:starlark-loop [-- --seconds 5 --scripts 2 --calls 20000]
 *
 * Per server: /health probed every 10 ms (open loop: a stall shows whole in the percentiles) alone,
 * then while `--scripts` connections call /spin (a loop until its 1 s budget) back to back, then
 * the same with /busy (a scanning built-in on 10 MB of text in a loop); /trivial at 16 connections.
 * For svc, the scripts' durations as its log records them (server side, without the clients'
 * scheduling). Then the interpreter alone: each fixture of test/starlark/fixtures/busy-builtins
 * against a 1 s limit, in this process (the 10 % goal the tests hold only as a liveness bound). Then per-call.ts: microseconds per trivial call in-thread and on the
 * pool. Goals: /health p99 < 50 ms while scripts run at their limits; no script answers later than
 * 1.1 s (its 1 s budget + 10%).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { callFunction, compileModule, StarlarkError } from '../../src/starlark/index.js';
import { buildOnce, compiled, freePort, root, spawnNode, stopChild, svcServe, SVC_LAUNCH, waitForPort } from '../lib/procs.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    scripts: { type: 'string', default: '2' },
    calls: { type: 'string', default: '20000' },
  },
});
const seconds = values.seconds;
const scripts = values.scripts;

interface Latency {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
}

/** `every`: probe open loop, a request every that many ms (client.ts), rather than back to back. */
function client(port: number, path: string, connections: string, status = '200', every?: string): Promise<Latency> {
  const argv = [`http://127.0.0.1:${port}${path}`, connections, seconds, '--status', status, ...(every === undefined ? [] : ['--every', every])];
  const child = spawnNode(compiled('bench/starlark-loop/client', argv), { stdout: 'pipe' });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Latency) : reject(new Error(`client exited with ${code}`))));
  });
}

const ms = (n: number): string => (n >= 100 ? n.toFixed(0) : n.toFixed(2));
const row = (name: string, l: Latency): string =>
  `  ${name.padEnd(34)} ${String(l.requests).padStart(7)} req ${String(l.errors).padStart(4)} err   p50 ${ms(l.p50).padStart(7)}  p99 ${ms(l.p99).padStart(7)}  max ${ms(l.max).padStart(7)} ms`;

/** The server-side durations (svc's log lines, `ms`) of the requests to `path` logged after byte `from`. */
function loggedMs(logFile: string, from: number, path: string): number[] {
  return readFileSync(logFile, 'utf8')
    .slice(from)
    .split('\n')
    .filter((line) => line.includes(`"url":"${path}"`))
    .map((line) => (JSON.parse(line) as { ms: number }).ms);
}

async function measure(name: string, argv: (port: number) => string[], logFile?: string, env?: Readonly<Record<string, string>>): Promise<void> {
  const port = await freePort();
  const server = spawnNode(argv(port), { ...(logFile === undefined ? {} : { logFile }), ...(env === undefined ? {} : { env }) });
  try {
    await waitForPort(port, server, name);
    // warm up: workers started, programs loaded, code optimised
    await client(port, '/trivial', '4');
    await client(port, '/spin', scripts, '504');
    process.stdout.write(`\n${name}\n`);
    process.stdout.write(`${row('/health alone, every 10 ms', await client(port, '/health', '1', '200', '10'))}\n`);
    for (const path of ['/spin', '/busy']) {
      const from = logFile === undefined ? 0 : statSync(logFile).size;
      const [health, script] = await Promise.all([client(port, '/health', '1', '200', '10'), client(port, path, scripts, '504')]);
      process.stdout.write(`${row(`/health every 10 ms, ${scripts} x ${path}`, health)}\n${row(`  ${path} (1 s budget, 504)`, script)}\n`);
      if (logFile !== undefined) {
        await new Promise((r) => setTimeout(r, 500)); // svc's log is written asynchronously
        const ms = loggedMs(logFile, from, path).sort((a, b) => a - b);
        process.stdout.write(`    ${path} in svc's log: ${ms.map((m) => m.toFixed(0)).join(' ')} ms\n`);
      }
    }
    process.stdout.write(`${row('/trivial, 16 connections', await client(port, '/trivial', '16'))}\n`);
  } finally {
    await stopChild(server);
  }
}

buildOnce(['bench/starlark-loop/client', 'bench/starlark-loop/baseline', 'bench/starlark-loop/per-call']);
process.stdout.write(
  `node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${seconds} s per phase\n`,
);
await measure('in-thread (baseline.ts: the interpreter on the event loop)', (port) => compiled('bench/starlark-loop/baseline', [String(port)]));
const logDir = mkdtempSync(join(tmpdir(), 'svc-starlark-loop-'));
await measure('svc (worker pool)', (port) => svcServe('bench/starlark-loop/manifest', port), join(logDir, 'svc.log'), SVC_LAUNCH.env);
rmSync(logDir, { recursive: true, force: true });
// The interpreter alone: the fixtures of test/starlark/deadline.test.ts (a loop over one expensive
// built-in each), in this process, each against a 1 s limit: how far past it each stops.
process.stdout.write('\nbusy built-ins in-thread (test/starlark/fixtures/busy-builtins), 1 s limit:\n');
const fixtures = join(root, 'test/starlark/fixtures/busy-builtins');
for (const file of readdirSync(fixtures).filter((f) => f.endsWith('.star'))) {
  const { program } = compileModule(readFileSync(join(fixtures, file), 'utf8'), file);
  const module = program!.init({ timeoutMs: 60_000, maxSteps: Infinity });
  const started = performance.now();
  let kind = 'none';
  try {
    callFunction(module, 'f', [], { timeoutMs: 1000, maxSteps: Infinity });
  } catch (error) {
    kind = error instanceof StarlarkError ? error.kind : String(error);
  }
  const took = performance.now() - started;
  process.stdout.write(`  ${file.padEnd(28)} ${took.toFixed(0).padStart(5)} ms  ${kind}  ${took > 1100 ? 'MISSED (> 10%)' : ''}\n`);
}

const perCall = execFileSync(process.execPath, compiled('bench/starlark-loop/per-call', [values.calls]), { encoding: 'utf8', cwd: root });
process.stdout.write(`\nper call (trivial script): ${perCall}`);
