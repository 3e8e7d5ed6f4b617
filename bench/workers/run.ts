/**
 * `svc serve --workers 2` against one worker, same manifest, same run: throughput of the health and
 * search scenarios (examples/validation, plus the quickstart's health endpoint), in alternating
 * rounds, compiled code (bin/svc.js -> dist/), with the keep-alive load generator of bench/lib/load.ts
 * as a third process.
 *
 *     npm run bench:workers [-- --rounds 5 --seconds 3 --connections 32]
 *
 * The load generator shares the machine with the servers: on a 2-core machine two workers and the
 * generator compete for two cores, so the ratio is bounded by what the generator leaves. The run
 * therefore reports, beside req/s, the CPU each side used (in cores: CPU seconds per second of wall
 * time), read from /proc: the servers' (primary and workers together) and the generator's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildOnce, compiled, freePort, median, root, stopChild, svcServe, SVC_LAUNCH } from '../lib/procs.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const API_KEY = 'x-api-key: 3f2c8a4e-9b1d-4c7e-8a2f-6d5e4c3b2a19';
const SCENARIOS = [
  { name: 'health', path: '/api/v1/health', headers: [] as string[] },
  { name: 'search', path: '/api/v1/search?q=widgets&limit=10&sort=asc', headers: [API_KEY] },
];

const HEALTH = `
endpoint "GET /api/v1/health" {
  pipeline {
    respond {
      status = 200
      body = {
        status    = "ok"
        timestamp = ctx.timestamp_epoch
      }
    }
  }
}
`;

/** CPU time of a process (user + system), in seconds, from /proc; 0 once it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The process and its children (the primary and its workers). */
function tree(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return [pid, ...children.flatMap(tree)];
  } catch {
    return [pid];
  }
}

const treeCpu = (pid: number): number => tree(pid).reduce((sum, p) => sum + cpuSeconds(p), 0);

interface Served {
  readonly child: ChildProcess;
  readonly port: number;
}

async function startSvc(dir: string, workers: number): Promise<Served> {
  const port = await freePort();
  const child = spawn(process.execPath, [...svcServe(dir, port), '--workers', String(workers)], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...SVC_LAUNCH.env },
  });
  let err = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`svc did not listen within 60 s:\n${err}`)), 60_000);
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      if (/listening on/.test(err)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`svc exited ${code}:\n${err}`)));
  });
  return { child, port };
}

interface Round {
  readonly rps: number;
  readonly errors: number;
  /** Cores used by svc (all its processes) and by the load generator during the round. */
  readonly serverCores: number;
  readonly loadCores: number;
}

async function measure(served: Served, scenario: (typeof SCENARIOS)[number]): Promise<Round> {
  const args = [`http://127.0.0.1:${served.port}${scenario.path}`, String(connections), String(seconds), '--status', '200'];
  for (const h of scenario.headers) args.push('--header', h);
  const serverBefore = treeCpu(served.child.pid!);
  const started = performance.now();
  const load = spawn(process.execPath, compiled('bench/lib/load', args), { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  // The generator's CPU is read while it runs: /proc forgets a process once it has exited.
  let loadCpu = 0;
  const sampler = setInterval(() => (loadCpu = Math.max(loadCpu, cpuSeconds(load.pid!))), 100);
  let out = '';
  load.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise<void>((resolve, reject) => load.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`load generator exited ${code}`)))));
  clearInterval(sampler);
  const wall = (performance.now() - started) / 1000;
  const result = JSON.parse(out) as { rps: number; errors: number };
  return { rps: result.rps, errors: result.errors, serverCores: (treeCpu(served.child.pid!) - serverBefore) / wall, loadCores: loadCpu / wall };
}

buildOnce(['bench/lib/load']);
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-workers-'));
cpSync(join(root, 'examples/validation'), dir, { recursive: true });
writeFileSync(join(dir, 'health.hcl'), HEALTH);
process.stdout.write(
  `svc --workers 2 vs one worker: ${rounds} alternating rounds of ${seconds} s, ${connections} connections, ${availableParallelism()} cores shared with the load generator\n\n`,
);
try {
  for (const scenario of SCENARIOS) {
    const rows: Record<1 | 2, Round[]> = { 1: [], 2: [] };
    for (let round = 0; round < rounds; round++) {
      // Alternating which goes first, so drift in the machine's load hits both alike.
      for (const workers of round % 2 === 0 ? ([1, 2] as const) : ([2, 1] as const)) {
        const served = await startSvc(dir, workers);
        try {
          await measure(served, { ...scenario }); // warm-up: JIT, pools, connections
          rows[workers].push(await measure(served, scenario));
        } finally {
          await stopChild(served.child);
        }
      }
    }
    const m = (list: Round[], key: keyof Round): number => median(list.map((r) => r[key]));
    const ratios = rows[2].map((r, i) => r.rps / rows[1][i]!.rps);
    process.stdout.write(`GET ${scenario.path} (${scenario.name})\n`);
    for (const workers of [1, 2] as const) {
      const list = rows[workers];
      process.stdout.write(
        `  ${workers} worker${workers === 1 ? ' ' : 's'}: ${Math.round(m(list, 'rps'))} req/s, svc ${m(list, 'serverCores').toFixed(2)} cores, ` +
          `load generator ${m(list, 'loadCores').toFixed(2)} cores, errors ${list.reduce((s, r) => s + r.errors, 0)}\n`,
      );
    }
    process.stdout.write(`  ratio 2 workers / 1 worker: median ${median(ratios).toFixed(2)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')})\n\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
