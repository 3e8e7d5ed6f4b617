/**
 * `svc serve` as a real process, for the reload and workers tests: signals, cluster workers and file
 * watching need one. Run as the tests run (compiled by the build, or from the sources through tsx:
 * test/paths.ts); this file is also the process's entry point (and, through cluster's defaults, its
 * workers').
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { run } from '../../src/cli/main.js';
import { LOADER } from '../paths.js';

const self = fileURLToPath(import.meta.url);

if (process.argv[1] !== undefined && pathToFileURL(process.argv[1]).href === import.meta.url) {
  process.exitCode = await run(process.argv.slice(2));
}

export interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr matches (bounded: rejects after `ms`). */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpExecArray>;
}

/** `svc serve -c DIR --port 0 ...args`, resolved once it says where it listens. */
export async function serve(dir: string, args: readonly string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, [...LOADER, self, 'serve', '-c', dir, '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) => child.once('exit', (code, signal) => ok({ code, signal })));
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const waitFor = (pattern: RegExp, ms = 30_000): Promise<RegExpExecArray> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const m = pattern.exec(err);
        if (m) {
          clearInterval(timer);
          resolve(m);
        }
        return m !== null;
      };
      const timer = setInterval(() => {
        if (check()) return;
        if (child.exitCode !== null || Date.now() > deadline) {
          clearInterval(timer);
          reject(new Error(`svc serve did not print ${pattern} within ${ms} ms (exit ${child.exitCode}):\n${err}\nits log, the end:\n${out.slice(-4000)}`));
        }
      }, 20);
      const deadline = Date.now() + ms;
    });
  const served = { child, url: '', exited, stdout: () => out, stderr: () => err, waitFor };
  const m = await waitFor(/listening on (https?:\/\/\S+)/);
  return { ...served, url: m[1]! };
}

export function kill(served: Served | undefined): void {
  if (served && served.child.exitCode === null && served.child.signalCode === null) served.child.kill('SIGKILL');
}

export interface Answer {
  readonly status: number;
  readonly body: string;
}

/** One GET on a fresh connection (no keep-alive, so a closing server cannot race a reused socket). */
export function get(url: string): Promise<Answer> {
  return new Promise((done, fail) => {
    let connectedAt: number | undefined;
    const req = request(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => done({ status: res.statusCode!, body }));
      res.on('error', fail);
    });
    req.once('socket', (socket) => socket.once('connect', () => (connectedAt = Date.now())));
    req.on('error', (error: Error & { connectedAt?: number }) => {
      error.connectedAt = connectedAt;
      fail(error);
    });
    // Liveness bound: a request left unanswered is a failure to report, not a hung test.
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer within 15 s: GET ${url}`)));
    req.end();
  });
}

export interface LoadLoop {
  /** Stops the loop; resolves with what it saw. */
  stop(): Promise<{ ok: number; failures: string[]; failedAt: number[]; connectedAt: (number | undefined)[]; bodies: Map<string, number> }>;
}

/**
 * `clients` clients sending `GET url` back to back until stopped. A failure is anything but a 200:
 * another status, a reset, a refused connection.
 */
export function loadLoop(url: string, clients = 4): LoadLoop {
  let running = true;
  let ok = 0;
  const failures: string[] = [];
  /** When each failed request was sent (`Date.now()`), in the order of `failures`. */
  const failedAt: number[] = [];
  /**
   * When each failed request's connection was established (`Date.now()`), if it was; for an error
   * answer, when the request was sent (no later: such a failure is never taken for a racing one).
   */
  const connectedAt: (number | undefined)[] = [];
  const bodies = new Map<string, number>();
  // Liveness bound: a test that fails before stop() must not leave loops spinning (against a server
  // already gone they fail at once, and would fill memory until the runner gives up).
  const until = Date.now() + 120_000;
  const client = async (): Promise<void> => {
    while (running && Date.now() < until && failures.length < 1000) {
      const sent = Date.now();
      try {
        const r = await get(url);
        if (r.status === 200) {
          ok++;
          bodies.set(r.body, (bodies.get(r.body) ?? 0) + 1);
          continue;
        }
        failures.push(`${r.status} ${r.body}`);
        connectedAt.push(sent);
      } catch (error) {
        failures.push((error as Error).message);
        connectedAt.push((error as { connectedAt?: number }).connectedAt);
      }
      failedAt.push(sent);
    }
  };
  const all = Promise.all(Array.from({ length: clients }, client));
  return {
    async stop() {
      running = false;
      await all;
      return { ok, failures, failedAt, connectedAt, bodies };
    },
  };
}
