/**
 * Shared by the examples/live end-to-end tests: the built `svc` binary serving a manifest directory
 * as a child process (on a free loopback port, or on a given one to restart in the same place), a
 * temporary copy of the example to edit, and a bounded reader of a streaming fetch body.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { ROOT } from '../paths.js';

export const root = ROOT;
export const example = join(root, 'examples/live');

/** The seed rows of examples/live/migrations/001_messages.sql, as the exports write them. */
export const SEED_NDJSON =
  '{"seq":1,"author":"ada","text":"Hello, feed!","sent_at":"2024-06-01T09:00:00.000Z"}\n' +
  '{"seq":2,"author":"grace","text":"Commas, \\"quotes\\" and all: CSV copes","sent_at":"2024-06-01T09:05:30.000Z"}\n' +
  '{"seq":3,"author":"alan","text":"Three rows to start with","sent_at":"2024-06-01T09:12:45.000Z"}\n';
export const SEED_CSV =
  'seq,author,text,sent_at\r\n' +
  '1,ada,"Hello, feed!",2024-06-01T09:00:00.000Z\r\n' +
  '2,grace,"Commas, ""quotes"" and all: CSV copes",2024-06-01T09:05:30.000Z\r\n' +
  '3,alan,Three rows to start with,2024-06-01T09:12:45.000Z\r\n';

export interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  readonly port: number;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** stdout: one JSON log line each. */
  lines(): Record<string, unknown>[];
}

/**
 * `node bin/svc.js serve -c DIR --port PORT` (0: a free one), resolved once it listens. The example's
 * defaults are used: REDIS_URL and DATABASE_URL of the environment running the tests are not passed on
 * (`extraEnv` adds variables the manifest reads, such as examples/cors's PAGE_ORIGIN).
 */
export async function serve(dir: string, port = 0, extraEnv: Record<string, string> = {}): Promise<Served> {
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env;
  const env = { ...inherited, ...extraEnv };
  const proc = spawn(process.execPath, ['bin/svc.js', 'serve', '-c', dir, '--port', String(port)], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) => proc.once('exit', (code, signal) => ok({ code, signal })));
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  // An in-memory PGlite runs initdb and the migration at every start: about 2.5 s on an idle machine.
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`svc did not start listening within 30 s:\n${err}`));
    }, 30_000);
    proc.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`svc exited with ${code} before listening:\n${err}`));
    });
  });
  const lines = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { child: proc, url, port: Number(new URL(url).port), exited, lines };
}

/** SIGTERM, and the exit it leads to (bounded: SIGKILL after 10 s). */
export async function stop(served: Served): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (served.child.exitCode !== null || served.child.signalCode !== null) return served.exited;
  served.child.kill('SIGTERM');
  const timer = setTimeout(() => served.child.kill('SIGKILL'), 10_000);
  try {
    return await served.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Ends a process that is still running, whatever state it is in (for `after` hooks). */
export function kill(served: Served | undefined): void {
  if (served && served.child.exitCode === null && served.child.signalCode === null) served.child.kill('SIGKILL');
}

/**
 * examples/live (without a local `.data/`) in a new temporary directory; `edits` replace text in its
 * files, each replacement required to match. Returns the directory and its remover.
 */
export async function copyOfExample(edits: Record<string, readonly [string, string][]> = {}): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-e2e-live-'));
  await cp(example, dir, { recursive: true, filter: (source) => !source.split(sep).includes('.data') });
  for (const [file, replacements] of Object.entries(edits)) {
    let text = await readFile(join(dir, file), 'utf8');
    for (const [from, to] of replacements) {
      assert.ok(text.includes(from), `${file} of examples/live contains ${JSON.stringify(from)}`);
      text = text.replace(from, to);
    }
    await writeFile(join(dir, file), text);
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Reads a streaming body until `done(text so far)` holds; fails after `ms`. Returns the text read. */
export async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, done: (text: string) => boolean, ms = 5000): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + ms;
  while (!done(text)) {
    const left = deadline - Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_ok, reject) => {
      timer = setTimeout(() => reject(new Error(`not seen within ${ms} ms; read so far: ${JSON.stringify(text)}`)), Math.max(left, 0));
    });
    try {
      const chunk = await Promise.race([reader.read(), timeout]);
      if (chunk.done) throw new Error(`the stream ended first; read: ${JSON.stringify(text)}`);
      text += decoder.decode(chunk.value, { stream: true });
    } finally {
      clearTimeout(timer);
    }
  }
  return text;
}

/**
 * fetch through a connection pool of the test's own, which it closes before stopping the server:
 * svc's graceful shutdown waits (up to server.shutdown_timeout, 10 s) for a connection a client
 * opened and has not sent a request on yet, and the global fetch's pool opens such spare
 * connections now and then.
 */
export interface Client {
  fetch(url: string, init?: RequestInit): Promise<Response>;
  /** A POST /events with a JSON body. */
  post(base: string, body: unknown): Promise<Response>;
  /** Closes the pool's connections once their responses are read (idempotent). */
  close(): Promise<void>;
  /** Closes them now, responses in flight included (for `after` hooks). */
  destroy(): Promise<void>;
}

export function client(): Client {
  const agent = new Agent();
  const send = (url: string, init: RequestInit = {}) => undiciFetch(url, { ...init, dispatcher: agent } as never) as unknown as Promise<Response>;
  return {
    fetch: send,
    post: (base, body) => send(`${base}/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    close: () => (agent.closed ? Promise.resolve() : agent.close()),
    destroy: () => (agent.destroyed ? Promise.resolve() : agent.destroy()),
  };
}
