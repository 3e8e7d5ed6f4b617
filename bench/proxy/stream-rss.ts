/**
 * bench/proxy stream-rss (`npm run bench:proxy-stream`): a 1 GiB upstream body streamed through svc
 * (`http` with `stream = true` piped by `stream "raw"`, stream-manifest/main.hcl) must leave svc's
 * peak resident memory under 100 MB. Four processes on loopback: the upstream (stream-upstream.ts,
 * generating the body from one 64 KiB buffer as its socket drains), the proxy under test, and a client
 * (stream-client.ts) that discards the body. Measured the same way in the same run: a hand-written
 * undici `stream()` proxy (stream-baseline.ts), and the client reading the upstream directly (the
 * ceiling of this machine's loopback).
 *
 * Each measurement starts a fresh proxy process, so its VmHWM (peak RSS, /proc/<pid>/status, read
 * when the transfer has ended) covers its boot and one transfer; VmRSS is also sampled every 50 ms
 * during the transfer. Throughput is bytes over the client's time from request to last byte; CPU is
 * the proxy's user + system time during the transfer.
 *
 * Options: --bytes 1073741824 --rounds 1 --timeout 300 (seconds per transfer) [--tsx]
 * Every child process is killed on exit, on failure and on SIGINT/SIGTERM.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SVC_LAUNCH } from '../lib/procs.js';

// Not bench/lib/harness.ts's `root`: importing it would parse this command line with its options.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const { values } = parseArgs({
  options: {
    bytes: { type: 'string', default: String(1024 ** 3) },
    rounds: { type: 'string', default: '1' },
    timeout: { type: 'string', default: '300' },
    tsx: { type: 'boolean', default: false },
  },
});
const BYTES = Number(values.bytes);
const ROUNDS = Number(values.rounds);
const TIMEOUT_MS = Number(values.timeout) * 1000;
const GOAL_BYTES = 100e6;

const children = new Set<ChildProcess>();

function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}

/** A bench script as a child process: compiled (dist/) unless --tsx. */
function script(name: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const argv = values.tsx ? ['--import', 'tsx', join(root, `${name}.ts`), ...args] : [join(root, 'dist', `${name}.js`), ...args];
  return track(spawn(process.execPath, argv, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } }));
}

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Resolves with the first match of `pattern` in the child's `stream`, within `ms`. */
function awaitLine(child: ChildProcess, stream: 'stdout' | 'stderr', pattern: RegExp, ms: number, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    const source = child[stream]!;
    const timer = setTimeout(() => fail(new Error(`${what}: nothing matching ${pattern} within ${ms} ms`)), ms);
    const onData = (chunk: Buffer): void => {
      text += chunk.toString();
      const m = pattern.exec(text);
      if (!m) return;
      cleanup();
      // Keep draining, unread, so the child never blocks on a full pipe.
      source.resume();
      resolve(m);
    };
    const onExit = (code: number | null): void => fail(new Error(`${what} exited with code ${code}:\n${text}`));
    const cleanup = (): void => {
      clearTimeout(timer);
      source.off('data', onData);
      child.off('exit', onExit);
    };
    const fail = (error: Error): void => {
      cleanup();
      reject(error);
    };
    source.on('data', onData);
    child.once('exit', onExit);
  });
}

/** A proxy under test, listening; `port` is where the client goes. */
interface Proxy {
  readonly name: string;
  readonly child: ChildProcess;
  readonly port: number;
}

async function startSvc(upstreamUrl: string): Promise<Proxy> {
  const args = ['serve', '-c', 'bench/proxy/stream-manifest', '--port', '0'];
  const argv = values.tsx ? ['--import', 'tsx', join(root, 'bench/lib/svc.ts'), ...args] : [join(root, 'bin/svc.js'), ...args];
  // stdout carries one log line per request: ignored. Node's options and environment as users run svc.
  const env = { ...process.env, ...SVC_LAUNCH.env, UPSTREAM_URL: upstreamUrl };
  const child = track(spawn(process.execPath, [...SVC_LAUNCH.nodeArgs, ...argv], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env }));
  const m = await awaitLine(child, 'stderr', /listening on http:\/\/127\.0\.0\.1:(\d+)/, 30_000, 'svc');
  return { name: 'svc', child, port: Number(m[1]) };
}

async function startBaseline(upstreamUrl: string): Promise<Proxy> {
  const child = script('bench/proxy/stream-baseline', [], { UPSTREAM_URL: upstreamUrl });
  const m = await awaitLine(child, 'stdout', /listening (\d+)/, 30_000, 'baseline');
  return { name: 'undici stream()', child, port: Number(m[1]) };
}

/** A field of /proc/<pid>/status in bytes (VmHWM, VmRSS; the kernel reports kB). */
function statusBytes(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(m[1]) * 1024;
}

/** User + system CPU time of a process, in seconds. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in USER_HZ (100)
}

interface Transfer {
  readonly status: number;
  readonly bytes: number;
  readonly ms: number;
  readonly complete: boolean;
}

async function transfer(port: number, path: string): Promise<Transfer> {
  const client = script('bench/proxy/stream-client', [`http://127.0.0.1:${port}${path}`]);
  const m = await awaitLine(client, 'stdout', /^(\{.*\})\n/m, TIMEOUT_MS, 'the client');
  client.kill('SIGKILL');
  const result = JSON.parse(m[1]!) as Transfer;
  if (result.status !== 200 || !result.complete || result.bytes !== BYTES) {
    throw new Error(`incomplete transfer: ${JSON.stringify(result)} (expected ${BYTES} bytes)`);
  }
  return result;
}

interface Measurement {
  readonly name: string;
  readonly mbPerSecond: number;
  readonly idleRss?: number;
  readonly maxRss?: number;
  readonly hwm?: number;
  readonly cpu?: number;
}

async function measureProxy(start: () => Promise<Proxy>): Promise<Measurement> {
  const proxy = await start();
  const pid = proxy.child.pid!;
  try {
    const idleRss = statusBytes(pid, 'VmRSS');
    let maxRss = idleRss;
    const sampler = setInterval(() => {
      maxRss = Math.max(maxRss, statusBytes(pid, 'VmRSS'));
    }, 50);
    const cpuBefore = cpuSeconds(pid);
    try {
      const t = await transfer(proxy.port, '/blob');
      const hwm = statusBytes(pid, 'VmHWM');
      maxRss = Math.max(maxRss, statusBytes(pid, 'VmRSS'));
      return { name: proxy.name, mbPerSecond: t.bytes / 1e6 / (t.ms / 1000), idleRss, maxRss, hwm, cpu: cpuSeconds(pid) - cpuBefore };
    } finally {
      clearInterval(sampler);
    }
  } finally {
    proxy.child.kill('SIGKILL');
  }
}

function build(): void {
  process.stdout.write('building (npm run build)...\n');
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'pipe' });
  } catch {
    // tsc reports type errors elsewhere in the tree but still emits; the entry points are checked below.
  }
  for (const name of ['src/cli/main', 'bench/proxy/stream-upstream', 'bench/proxy/stream-baseline', 'bench/proxy/stream-client']) {
    if (!existsSync(join(root, 'dist', `${name}.js`))) throw new Error(`the build did not produce dist/${name}.js`);
  }
}

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const mb = (bytes: number | undefined): string => (bytes === undefined ? '-' : (bytes / 1e6).toFixed(1));

async function main(): Promise<void> {
  if (!values.tsx) build();
  const upstream = script('bench/proxy/stream-upstream', [], { BYTES: String(BYTES) });
  const upstreamPort = Number((await awaitLine(upstream, 'stdout', /listening (\d+)/, 30_000, 'the upstream'))[1]);
  const upstreamUrl = `http://127.0.0.1:${upstreamPort}/`;
  process.stdout.write(`streaming ${BYTES} bytes (${(BYTES / 1024 ** 3).toFixed(2)} GiB) per transfer, ${ROUNDS} round(s)\n`);

  const results: Measurement[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    // Alternating which proxy goes first, so drift in machine load hits both alike.
    const order = round % 2 === 1 ? [startSvc, startBaseline] : [startBaseline, startSvc];
    for (const start of order) {
      const m = await measureProxy(() => start(upstreamUrl));
      results.push(m);
      process.stdout.write(`  round ${round} ${m.name}: ${m.mbPerSecond.toFixed(0)} MB/s, VmHWM ${mb(m.hwm)} MB\n`);
    }
    const direct = await transfer(upstreamPort, '/blob');
    results.push({ name: 'direct (no proxy)', mbPerSecond: direct.bytes / 1e6 / (direct.ms / 1000) });
  }
  upstream.kill('SIGKILL');

  process.stdout.write('\n| proxy | MB/s | VmHWM MB | max VmRSS MB (sampled) | idle VmRSS MB | CPU s |\n|---|---|---|---|---|---|\n');
  for (const r of results) {
    process.stdout.write(
      `| ${r.name} | ${r.mbPerSecond.toFixed(0)} | ${mb(r.hwm)} | ${mb(r.maxRss)} | ${mb(r.idleRss)} | ${r.cpu === undefined ? '-' : r.cpu.toFixed(2)} |\n`,
    );
  }
  process.stdout.write(
    '\nmedians over the rounds (VmHWM: the highest):\n\n| proxy | MB/s | VmHWM MB | VmHWM - idle VmRSS MB | idle VmRSS MB | CPU s |\n|---|---|---|---|---|---|\n',
  );
  for (const name of [...new Set(results.map((r) => r.name))]) {
    const of = results.filter((r) => r.name === name);
    const hwm = of[0]!.hwm === undefined ? undefined : Math.max(...of.map((r) => r.hwm!));
    const growth = of[0]!.hwm === undefined ? undefined : median(of.map((r) => r.hwm! - r.idleRss!));
    const idle = of[0]!.idleRss === undefined ? undefined : median(of.map((r) => r.idleRss!));
    const cpu = of[0]!.cpu === undefined ? '-' : median(of.map((r) => r.cpu!)).toFixed(2);
    process.stdout.write(`| ${name} | ${median(of.map((r) => r.mbPerSecond)).toFixed(0)} | ${mb(hwm)} | ${mb(growth)} | ${mb(idle)} | ${cpu} |\n`);
  }
  const worst = Math.max(...results.filter((r) => r.name === 'svc').map((r) => r.hwm!));
  const ok = worst < GOAL_BYTES;
  process.stdout.write(`\nsvc peak RSS ${mb(worst)} MB: ${ok ? 'under' : 'OVER'} the goal of ${mb(GOAL_BYTES)} MB\n`);
  if (!ok) process.exitCode = 1;
}

try {
  await main();
} finally {
  killAll();
}
