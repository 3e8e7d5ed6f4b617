/**
 * The real engines a benchmark runs against: the server named by an environment variable when set
 * (SVC_TEST_POSTGRES_URL, SVC_TEST_REDIS_URL, SVC_TEST_MYSQL_URL), else a throw-away one on loopback
 * started with the repository's test scripts (scripts/pg-test-server.sh, scripts/redis-test-server.sh,
 * scripts/mariadb-test-server.sh), stopped and
 * removed by `stop()`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './procs.js';

export interface Engine {
  readonly url: string;
  /** Whether this run started it (and `stop()` ends it). */
  readonly started: boolean;
  stop(): void;
}

function engine(variable: string, script: string, what: string): Engine {
  const given = process.env[variable];
  if (given) return { url: given, started: false, stop: () => {} };
  // The directory itself (not one inside it): as root the script hands it to the server's user, who
  // could not enter a private directory above it.
  const dir = mkdtempSync(join(tmpdir(), `svc-bench-${what}-`));
  const path = join(root, 'scripts', script);
  let url: string;
  try {
    url = execFileSync(path, ['start', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start a ${what} server (scripts/${script}); set ${variable} instead: ${(error as Error).message}`);
  }
  return { url, started: true, stop: () => execFileSync(path, ['stop', dir], { stdio: 'ignore' }) };
}

export function postgresServer(): Engine {
  return engine('SVC_TEST_POSTGRES_URL', 'pg-test-server.sh', 'postgres');
}

export function mysqlServer(): Engine {
  return engine('SVC_TEST_MYSQL_URL', 'mariadb-test-server.sh', 'mariadb');
}

export function redisServer(): Engine {
  return engine('SVC_TEST_REDIS_URL', 'redis-test-server.sh', 'redis');
}
