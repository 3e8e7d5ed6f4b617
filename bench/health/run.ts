/**
 * Health-endpoint throughput: svc serving examples/quickstart against a hand-written Fastify app
 * returning the same body, measured in the same run, in alternating rounds (so drift in machine load
 * hits both alike). Each server is its own child process; the load generator is a third one.
 *
 *     npm run bench:health [-- --rounds 5 --seconds 3 --connections 16]
 *
 * Prints req/s per round, p50/p99 latencies, and the median ratio svc/Fastify (goal >= 0.90).
 * svc writes its one log line per request (to /dev/null here); the baseline logs nothing.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    warmup: { type: 'string', default: '2' },
    // Run from the TypeScript sources through tsx instead of compiled JavaScript. Not the product:
    // tsx (esbuild keepNames) wraps every closure creation in a `__name` call, which per-request
    // closures pay for.
    tsx: { type: 'boolean', default: false },
    // Pin servers to the last CPU and the load generator to the others (taskset). Helps on a quiet
    // machine; hurts on a shared one, where a pinned server cannot move away from a busy neighbour.
    pin: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const warmup = Number(values.warmup);
const PATH = '/api/v1/health';

interface Load {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  /** Server CPU time per request, in microseconds (Linux only; NaN elsewhere). */
  cpuUs: number;
}

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

/**
 * Every process runs compiled JavaScript by default, as users run `svc` (bin/svc.js -> dist/): the
 * benchmark builds first. `--tsx` runs the sources instead.
 */
if (!values.tsx) {
  process.stdout.write('building (npm run build)...\n');
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'pipe' });
  } catch {
    // tsc reports type errors elsewhere in the tree but still emits; the entry points are checked below.
  }
  for (const file of ['dist/src/cli/main.js', 'dist/bench/health/baseline.js', 'dist/bench/health/load.js']) {
    if (!existsSync(join(root, file))) throw new Error(`the build did not produce ${file}`);
  }
}

/** `--pin`: servers on the last CPU, the load generator on the others, so they do not compete. */
const cpus = availableParallelism();
const pin = values.pin && cpus >= 2 && hasTaskset() ? { server: [String(cpus - 1)], load: [`0-${cpus - 2}`] } : undefined;

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function launch(role: 'server' | 'load', argv: string[], stdout: 'ignore' | 'pipe'): ChildProcess {
  const [command, args] = pin ? ['taskset', ['-c', ...pin[role], process.execPath, ...argv]] : [process.execPath, argv];
  return spawn(command, args, { cwd: root, stdio: ['ignore', stdout, 'inherit'] });
}

/** A benchmark script (`baseline`, `load`, `svc`) as a child process, compiled or from sources. */
function script(name: string, args: string[], stdout: 'ignore' | 'pipe' = 'ignore'): ChildProcess {
  const argv = values.tsx ? ['--import', 'tsx', join(here, `${name}.ts`), ...args] : [join(root, 'dist/bench/health', `${name}.js`), ...args];
  return launch(name === 'load' ? 'load' : 'server', argv, stdout);
}

async function startSvc(): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const args = ['serve', '-c', 'examples/quickstart', '--port', String(port)];
  const child = values.tsx
    ? script('svc', args)
    : launch('server', [join(root, 'bin/svc.js'), ...args], 'ignore');
  await waitForPort(port, child, 'svc');
  return { child, port };
}

async function startBaseline(): Promise<{ child: ChildProcess; port: number }> {
  const child = script('baseline', [], 'pipe');
  const port = await new Promise<number>((resolvePort, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const m = /listening (\d+)/.exec(text);
      if (m) resolvePort(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`baseline exited with code ${code}`)));
  });
  return { child, port };
}

async function load(server: { port: number; child: ChildProcess }, secs: number): Promise<Load> {
  const before = cpuMicros(server.child.pid!);
  const result = await loadOnly(server.port, secs);
  return { ...result, cpuUs: (cpuMicros(server.child.pid!) - before) / Math.max(1, result.requests) };
}

function loadOnly(port: number, secs: number): Promise<Omit<Load, 'cpuUs'>> {
  return new Promise((resolveLoad, reject) => {
    const child = script('load', [`http://127.0.0.1:${port}${PATH}`, String(connections), String(secs)], 'pipe');
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => (code === 0 ? resolveLoad(JSON.parse(out) as Omit<Load, 'cpuUs'>) : reject(new Error(`load generator exited ${code}`))));
  });
}

async function check(port: number, name: string): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}${PATH}`);
  const body = (await response.json()) as { status?: unknown; timestamp?: unknown };
  if (response.status !== 200 || body.status !== 'ok' || typeof body.timestamp !== 'number') {
    throw new Error(`${name} answered ${response.status} ${JSON.stringify(body)}`);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const fmt = (n: number, d = 0) => n.toFixed(d).padStart(8);

const svc = await startSvc();
const baseline = await startBaseline();
try {
  await check(svc.port, 'svc');
  await check(baseline.port, 'baseline');
  console.log(`${values.tsx ? 'from sources (tsx)' : 'compiled (dist/)'}${pin ? `, servers on CPU ${pin.server[0]}, load on CPU ${pin.load[0]}` : ''}; GET ${PATH}: ${rounds} alternating rounds of ${seconds} s, ${connections} connections (warm-up ${warmup} s each)`);
  await load(svc, warmup);
  await load(baseline, warmup);

  const rows: { round: number; svc: Load; fastify: Load }[] = [];
  console.log('round      svc req/s  fastify req/s   ratio   svc p50/p99 ms   fastify p50/p99 ms   CPU us/req svc fastify');
  for (let round = 1; round <= rounds; round++) {
    // Alternate which goes first, so neither always runs on a warmer machine.
    const first = round % 2 === 1;
    const a = await load(first ? svc : baseline, seconds);
    const b = await load(first ? baseline : svc, seconds);
    const row = { round, svc: first ? a : b, fastify: first ? b : a };
    rows.push(row);
    if (row.svc.errors > 0 || row.fastify.errors > 0) console.log(`  errors: svc ${row.svc.errors}, fastify ${row.fastify.errors}`);
    console.log(
      `${String(round).padStart(5)}  ${fmt(row.svc.rps)}      ${fmt(row.fastify.rps)}  ${fmt(row.svc.rps / row.fastify.rps, 3)}` +
        `   ${fmt(row.svc.p50, 2)}/${row.svc.p99.toFixed(2).padEnd(6)}  ${fmt(row.fastify.p50, 2)}/${row.fastify.p99.toFixed(2).padEnd(6)}` +
        `    ${fmt(row.svc.cpuUs, 1)} ${fmt(row.fastify.cpuUs, 1)}`,
    );
  }
  const ratio = median(rows.map((r) => r.svc.rps / r.fastify.rps));
  console.log('');
  console.log(`median req/s: svc ${median(rows.map((r) => r.svc.rps)).toFixed(0)}, fastify ${median(rows.map((r) => r.fastify.rps)).toFixed(0)}`);
  console.log(`median p50/p99 ms: svc ${median(rows.map((r) => r.svc.p50)).toFixed(2)}/${median(rows.map((r) => r.svc.p99)).toFixed(2)}, fastify ${median(rows.map((r) => r.fastify.p50)).toFixed(2)}/${median(rows.map((r) => r.fastify.p99)).toFixed(2)}`);
  const cpuRatio = median(rows.map((r) => r.fastify.cpuUs / r.svc.cpuUs));
  console.log(`median CPU per request: svc ${median(rows.map((r) => r.svc.cpuUs)).toFixed(1)} us, fastify ${median(rows.map((r) => r.fastify.cpuUs)).toFixed(1)} us (efficiency ratio ${cpuRatio.toFixed(3)})`);
  console.log(`median ratio svc/fastify: ${ratio.toFixed(3)} (goal >= 0.90)`);
} finally {
  svc.child.kill('SIGTERM');
  baseline.child.kill('SIGTERM');
}
