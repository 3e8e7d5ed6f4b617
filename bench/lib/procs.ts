/**
 * Child processes of the streaming benchmarks (bench/export, bench/sse), which measure single long
 * transfers and many open connections rather than request rates, so they do not use the request-rate
 * runner (./harness.ts): build once, start a server or a client as its own process (compiled
 * JavaScript, as users run svc), read its CPU time and memory from /proc, stop it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** `npm run build`, then checks that every given script (relative to the root, no extension) was compiled. */
export function buildOnce(scripts: readonly string[]): void {
  process.stdout.write('building (npm run build)...\n');
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'pipe' });
  } catch {
    // tsc reports type errors elsewhere in the tree but still emits; the entry points are checked below.
  }
  for (const file of ['dist/src/cli/main.js', ...scripts.map((s) => `dist/${s}.js`)]) {
    if (!existsSync(join(root, file))) throw new Error(`the build did not produce ${file}`);
  }
}

export interface NodeOptions {
  readonly env?: Readonly<Record<string, string>>;
  /** Append the child's stdout (svc's log lines) to this file instead of discarding it. */
  readonly logFile?: string;
  /** Raise the open-file limit to the hard limit first (a shell's `ulimit -n`): thousands of sockets. */
  readonly manyFiles?: boolean;
  readonly stdout?: 'pipe' | 'ignore' | 'inherit';
}

/**
 * `node <argv>` as a child. With `manyFiles` it goes through `sh -c 'ulimit -n ...; exec node ...'`:
 * exec keeps the pid, so /proc readings are node's own.
 */
export function spawnNode(argv: readonly string[], options: NodeOptions = {}): ChildProcess {
  const env = options.env ? { ...process.env, ...options.env } : process.env;
  const stdout = options.logFile !== undefined ? openSync(options.logFile, 'a') : (options.stdout ?? 'ignore');
  const stdio: ['ignore', typeof stdout, 'inherit'] = ['ignore', stdout, 'inherit'];
  const child = options.manyFiles
    ? spawn('sh', ['-c', 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$0" "$@"', process.execPath, ...argv], { cwd: root, stdio, env })
    : spawn(process.execPath, [...argv], { cwd: root, stdio, env });
  // The child holds its own copy of the descriptor.
  if (typeof stdout === 'number') closeSync(stdout);
  return child;
}

/** A compiled script of the tree (`bench/export/baseline`) with its arguments, as node's argv. */
export function compiled(script: string, args: readonly string[] = []): string[] {
  return [join(root, 'dist', `${script}.js`), ...args];
}

/**
 * What bin/svc.js's first line gives Node when svc runs as a command (`#!/usr/bin/env -S NAME=value
 * node --option`): environment variables and Node options (docs/operations.md "Memory"). The benchmarks start
 * svc as `node <options> bin/svc.js` (to pin it to a CPU, or to add profiling options), so they add
 * both themselves: svc is measured as users run it. Baselines get neither: Node's defaults.
 */
export const SVC_LAUNCH: { readonly env: Readonly<Record<string, string>>; readonly nodeArgs: readonly string[] } = launchSettings();

function launchSettings(): typeof SVC_LAUNCH {
  const first = readFileSync(join(root, 'bin/svc.js'), 'utf8').split('\n', 1)[0]!;
  const words = /^#!\/usr\/bin\/env -S (.+)$/.exec(first)?.[1]?.trim().split(/\s+/) ?? [];
  const env: Record<string, string> = {};
  let i = 0;
  for (; i < words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[i]!); i++) {
    const at = words[i]!.indexOf('=');
    env[words[i]!.slice(0, at)] = words[i]!.slice(at + 1);
  }
  if (words.length > 0 && words[i] !== 'node') throw new Error(`bin/svc.js: a first line this runner cannot read: ${first}`);
  return { env, nodeArgs: words.slice(i + 1) };
}

/**
 * `svc serve -c <manifest> --port <port>` from dist/, as node's argv: SVC_LAUNCH's options, then
 * `nodeOptions` (which win over them), then the script. Give the child SVC_LAUNCH.env too.
 */
/** `bin` runs another checkout's command (cold-start.ts `--against`). */
export function svcServe(manifest: string, port: number, nodeOptions: readonly string[] = [], bin = join(root, 'bin/svc.js')): string[] {
  return [...SVC_LAUNCH.nodeArgs, ...nodeOptions, bin, 'serve', '-c', manifest, '--port', String(port)];
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

export async function waitForPort(port: number, child: ChildProcess, name: string): Promise<void> {
  const deadline = Date.now() + 60_000;
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
  throw new Error(`${name} did not listen on ${port} within 60 s`);
}

/**
 * The port a hand-written baseline prints once bound (`listening <port>`, bench/lib/baseline-logging.ts),
 * read from its stdout (spawned with `stdout: 'pipe'`). From then on stdout carries only log lines:
 * it is drained unread, so the child's writes never block.
 */
export function listeningPort(child: ChildProcess, name: string): Promise<number> {
  return new Promise<number>((resolvePort, reject) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString();
      const m = /listening (\d+)/.exec(text);
      if (!m) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      resolvePort(Number(m[1]));
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited with code ${code}`)));
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves at the exit. */
export function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}

/** CPU time (user + system) a process has used so far, in milliseconds; NaN when /proc cannot tell. */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in USER_HZ (100)
  } catch {
    return NaN;
  }
}

/** Resident memory now and its peak (VmHWM), in MiB; NaN when /proc cannot tell. */
export function memoryMiB(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

/**
 * Resets the process' peak RSS (VmHWM) to its current RSS (`echo 5 > /proc/<pid>/clear_refs`, Linux
 * 4.0+), so a peak read later is the peak of what happened in between. False when not permitted.
 */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Samples a process' RSS every `everyMs` until stopped: the highest sample, and every sample with its time. */
export class RssSampler {
  readonly samples: { atMs: number; rss: number }[] = [];
  readonly #timer: NodeJS.Timeout;
  readonly #started = performance.now();

  constructor(pid: number, everyMs = 50) {
    const sample = (): void => {
      const { rss } = memoryMiB(pid);
      if (!Number.isNaN(rss)) this.samples.push({ atMs: performance.now() - this.#started, rss });
    };
    sample();
    this.#timer = setInterval(sample, everyMs);
  }

  stop(): { max: number; min: number } {
    clearInterval(this.#timer);
    const values = this.samples.map((s) => s.rss);
    return { max: Math.max(...values), min: Math.min(...values) };
  }
}

/** Reads a child's stdout as lines of JSON, one callback per object. */
export function onJsonLines(child: ChildProcess, each: (message: Record<string, unknown>) => void): void {
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      if (line.startsWith('{')) each(JSON.parse(line) as Record<string, unknown>);
    }
  });
}

export function median(list: readonly number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
