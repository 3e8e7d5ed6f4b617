/**
 * Shared by the cluster tests: svc replicas of examples/cluster as child processes (the built
 * `bin/svc.js serve`, as test/e2e starts it), nginx in front of them (scripts/nginx-test-server.sh
 * with the example's nginx.conf), and an SSE client that behaves as a browser's EventSource does
 * (reconnects after the server's `retry`, sends Last-Event-ID) and records every event it is sent,
 * duplicates included: the stream resumes from its last id, the client does nothing of its own.
 * Every process started here is stopped by `stopAll` (and killed if the test process exits first).
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { get, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from '../connectors/helpers.js';
import { ROOT } from '../paths.js';

export { REAL_POSTGRES_URL, NO_REAL_POSTGRES, TARGETS, closeTargets } from '../connectors/helpers.js';
export { REAL_REDIS_URL, NO_REAL_REDIS } from '../redis/helpers.js';

export const root = ROOT;
const run = promisify(execFile);

export function haveNginx(): boolean {
  try {
    execFileSync('bash', ['-c', 'command -v nginx || test -x /usr/sbin/nginx'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

export interface Replica {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcess;
  /** stdout (the request log) and stderr so far. */
  output(): string;
  /** SIGTERM, SIGKILL after 10 s; resolves at the exit. */
  stop(): Promise<void>;
}

let prefixes = 0;

/** A REDIS_PREFIX (examples/cluster's channel and cache keys) no other test or test process uses. */
export function redisPrefix(): string {
  return `svc-test-${process.pid}-${++prefixes}`;
}

/** `node bin/svc.js serve -c examples/cluster --port 0` with `SVC_REPLICA=<name>`, once it listens. */
export async function startReplica(name: string, env: Record<string, string>): Promise<Replica> {
  assert.ok(env.REDIS_PREFIX, 'a REDIS_PREFIX of the test: test files share the Redis server, and run at once');
  const child = spawn(process.execPath, ['bin/svc.js', 'serve', '-c', 'examples/cluster', '--port', '0'], {
    cwd: root,
    env: { ...process.env, ...env, SVC_REPLICA: name },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  void exited.then(() => children.delete(child));
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`replica ${name} did not listen within 30 s:\n${out}`)), 30_000);
    const look = (): void => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    };
    child.stderr!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`replica ${name} exited with ${code} before listening:\n${out}`));
    });
  });
  return {
    name,
    url,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface Nginx {
  readonly url: string;
  readonly dir: string;
  stop(): Promise<void>;
}

/** nginx with examples/cluster/nginx.conf in front of the replicas, on a free loopback port. */
export async function startNginx(replicas: readonly Replica[]): Promise<Nginx> {
  const dir = await tempDir('svc-nginx-');
  const upstreams = replicas.map((r) => new URL(r.url).host);
  const script = join(root, 'scripts/nginx-test-server.sh');
  const { stdout } = await run('bash', [script, 'start', dir, join(root, 'examples/cluster/nginx.conf'), ...upstreams], { encoding: 'utf8' });
  let stopped = false;
  return {
    url: stdout.trim(),
    dir,
    async stop() {
      if (stopped) return;
      stopped = true;
      await run('bash', [script, 'halt', dir]);
    },
  };
}

export interface Message {
  readonly seq: number;
  readonly author: string;
  readonly text: string;
}

export async function post(base: string, text: string): Promise<{ status: number; message?: Message; replica?: string | undefined }> {
  try {
    const answer = await fetch(`${base}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ author: 'test', text }),
    });
    const replica = answer.headers.get('x-replica') ?? undefined;
    if (answer.status !== 202) {
      await answer.arrayBuffer();
      return { status: answer.status, replica };
    }
    return { status: answer.status, message: (await answer.json()) as Message, replica };
  } catch {
    return { status: 0 };
  }
}

/** Every message in the log, through `base`. */
export async function allMessages(base: string): Promise<number[]> {
  const answer = await fetch(`${base}/messages?after=0`);
  assert.equal(answer.status, 200);
  return ((await answer.json()) as { messages: Message[] }).messages.map((m) => m.seq);
}

/**
 * GET /events as a browser's EventSource reads it: reconnects `retry` ms after its stream ends, with
 * the last id it received as Last-Event-ID. `received` holds every message event's seq in the order
 * it came, duplicates included, across its connections.
 */
export class ResumingClient {
  /** Every seq received, in order, twice if sent twice. */
  readonly received: number[] = [];
  /** The replica of each connection (its X-Replica header), in order. */
  readonly replicas: string[] = [];
  /** Seqs that came after a higher or equal one, whatever the connection. */
  readonly disorders: string[] = [];
  /** The data of each `event: gap`. */
  readonly gaps: Record<string, string>[] = [];
  reconnects = 0;
  #lastId: string | undefined;
  #retryMs = 3000;
  #closed = false;
  #response: IncomingMessage | undefined;
  readonly #base: string;

  constructor(base: string) {
    this.#base = base;
  }

  /** Connects; resolves once the first response head has arrived. */
  open(): Promise<void> {
    return new Promise((resolveOpen, reject) => this.#connect(resolveOpen, reject));
  }

  close(): void {
    this.#closed = true;
    this.#response?.destroy();
  }

  get replica(): string | undefined {
    return this.replicas.at(-1);
  }

  /** Starts at the given last id (a client that was here before), else none. */
  resumeFrom(lastId: string): this {
    this.#lastId = lastId;
    return this;
  }

  #connect(opened?: () => void, failed?: (error: Error) => void): void {
    if (this.#closed) return;
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (this.#lastId !== undefined) headers['last-event-id'] = this.#lastId;
    // Once per connection: a reset may be reported both as the response's close and the request's error.
    let ended = false;
    const again = (): void => {
      if (this.#closed || ended) return;
      ended = true;
      this.reconnects++;
      setTimeout(() => this.#connect(), this.#retryMs);
    };
    const request = get(`${this.#base}/events`, { headers }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        failed?.(new Error(`GET /events answered ${response.statusCode}`));
        if (!failed) again();
        return;
      }
      this.#response = response;
      this.replicas.push(String(response.headers['x-replica']));
      opened?.();
      let pending = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        pending += chunk;
        for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
          const frame = pending.slice(0, end);
          pending = pending.slice(end + 2);
          let data: string | undefined;
          let event = 'message';
          for (const line of frame.split('\n')) {
            if (line.startsWith('retry: ')) this.#retryMs = Number(line.slice(7));
            else if (line.startsWith('id: ')) this.#lastId = line.slice(4);
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data = line.slice(6);
          }
          if (data === undefined) continue;
          if (event === 'gap') {
            this.gaps.push(JSON.parse(data) as Record<string, string>);
            continue;
          }
          const seq = (JSON.parse(data) as Message).seq;
          const before = this.received.at(-1);
          if (before !== undefined && seq <= before) this.disorders.push(`${seq} after ${before}`);
          this.received.push(seq);
        }
      });
      response.once('close', again);
    });
    request.on('error', (error) => {
      if (failed) failed(error);
      else again();
    });
  }
}

/** Polls `check` until it holds or `ms` pass; answers its last value. */
export async function eventually<T>(check: () => T | Promise<T>, ok: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}
