/**
 * Shared by the redis tests: the two stores every redis test runs on (the embedded `memory:` store,
 * and the real Redis server `scripts/test.sh` starts and names in SVC_TEST_REDIS_URL), a connection
 * set opened on one of them, and names no other test (or test process) uses, since the test files
 * run in parallel against the one server.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { createConnectors, type ConnectorLogger, type ConnectorSet, type RedisHandle, type RetryPolicy } from '../../src/connectors/index.js';
import type { ConnectionModel } from '../../src/model/index.js';
import { ROOT } from '../paths.js';

export const REAL_REDIS_URL = process.env.SVC_TEST_REDIS_URL || undefined;

export const NO_REAL_REDIS =
  'SVC_TEST_REDIS_URL is not set, so there is no Redis server to test against ' +
  '(`npm test` starts one; by hand: scripts/redis-test-server.sh start DIR, then export the URL it prints)';

/** One of the two stores the redis tests run on. */
export interface Store {
  readonly name: 'memory' | 'redis';
  /** A reason to skip, or false. */
  readonly skip: string | false;
  readonly url: string;
}

export const STORES: readonly Store[] = [
  { name: 'memory', skip: false, url: 'memory:' },
  { name: 'redis', skip: REAL_REDIS_URL === undefined ? NO_REAL_REDIS : false, url: REAL_REDIS_URL ?? 'redis://127.0.0.1:1' },
];

export function redisConnection(url: string, name = 'cache'): ConnectionModel {
  const position = { line: 1, column: 1, byte: 0 };
  return { kind: 'redis', name, url, baseDir: '.', range: { filename: 'test.hcl', start: position, end: position } };
}

export interface OpenStore {
  readonly set: ConnectorSet;
  readonly handle: RedisHandle;
  close(): Promise<void>;
}

export async function openStore(url: string, options: { logger?: ConnectorLogger; retry?: RetryPolicy } = {}): Promise<OpenStore> {
  const set = createConnectors({ connections: new Map([['redis.cache', redisConnection(url)]]) });
  await set.openAll(options);
  return { set, handle: set.handle('redis', 'cache'), close: () => set.closeAll() };
}

let names = 0;

/** A key or channel name of this process and this call only. */
export function unique(what = 'k'): string {
  return `svc-test:${process.pid}:${++names}:${what}`;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it holds or `ms` pass; answers its last value. */
export async function eventually<T>(check: () => T | Promise<T>, ok: (value: T) => boolean, ms = 2000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (ok(value) || Date.now() > deadline) return value;
    await sleep(20);
  }
}

const script = join(ROOT, 'scripts/redis-test-server.sh');

/** scripts/redis-test-server.sh: `start DIR [PORT]` prints the URL; `halt DIR`; `stop DIR`. */
export function redisServer(...args: string[]): string {
  return execFileSync('bash', [script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

const execFileAsync = promisify(execFile);

/**
 * redisServer without blocking the event loop: for a test whose svc serves requests meanwhile,
 * which a synchronous call would hold up for as long as the script runs (and count as slow answers).
 */
export async function redisServerAsync(...args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('bash', [script, ...args], { encoding: 'utf8' });
  return stdout.trim();
}

/** redis-server is installed (the fault tests start servers of their own). */
export function haveRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
