/**
 * What CORS costs per request, two ways (README in this directory):
 *
 * 1. micro.ts, in one process: the work CORS adds to one answer (matching the origin, the headers,
 *    the longer head Node writes), on real Fastify and Node objects. Precise to tens of ns.
 * 2. End to end: the same endpoint served by two `svc` processes of the same build, one manifest
 *    with a `server { cors { ... } }` block and one without, under the same load (bench/lib/load.ts,
 *    every request with an allowed `Origin`), in alternating rounds; CPU time per request of each
 *    from /proc. On this 2-vCPU VM a server's CPU per request swings by about 1 us between rounds,
 *    as much as what is measured, so this is a check of the order of magnitude, not the figure.
 *
 *     npm run bench:cors [-- --rounds 5 --seconds 2 --connections 16 --micro-rounds 9]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildOnce, compiled, cpuMs, freePort, median, root, SVC_LAUNCH, spawnNode, stopChild, svcServe, waitForPort } from '../lib/procs.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
    warmup: { type: 'string', default: '3' },
    'micro-rounds': { type: 'string', default: '9' },
  },
});
const rounds = Number(values.rounds);

buildOnce(['bench/cors/micro', 'bench/lib/load']);

process.stdout.write('\n1. micro (bench/cors/micro.ts): CPU per answer, median of rounds\n\n');
process.stdout.write(execFileSync(process.execPath, compiled('bench/cors/micro', ['--rounds', values['micro-rounds']]), { cwd: root, encoding: 'utf8' }));

const ORIGIN = 'https://app.example.com';
const route = `
route "GET /ping" {
  respond { body = { status = "ok" } }
}
`;
const manifests = {
  'without cors': `server {\n  access_log = false\n}\n${route}`,
  'with cors': `server {\n  access_log = false\n  cors {\n    allowed_origins   = ["${ORIGIN}", "https://*.example.org"]\n    allow_credentials = true\n  }\n}\n${route}`,
};

// Both servers on the last CPU, the load generator on the others (as bench/lib/harness.ts --pin).
const cpus = availableParallelism();
const pinned = cpus >= 2 && hasTaskset();
const serverCpu = String(cpus - 1);
const loadCpus = cpus >= 2 ? `0-${cpus - 2}` : '0';

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-cors-'));
const servers: { name: string; child: ChildProcess; port: number }[] = [];
try {
  for (const [name, text] of Object.entries(manifests)) {
    const manifest = join(dir, name.replace(' ', '-'));
    mkdirSync(manifest);
    writeFileSync(join(manifest, 'main.hcl'), text);
    const port = await freePort();
    const argv = svcServe(manifest, port);
    const child = pinned ? spawnTaskset(serverCpu, argv) : spawnNode(argv, { env: SVC_LAUNCH.env });
    await waitForPort(port, child, name);
    servers.push({ name, child, port });
  }
  process.stdout.write(
    `\n2. end to end: GET /ping with Origin: ${ORIGIN}, ${values.connections} connections, ${pinned ? `servers pinned to CPU ${serverCpu}` : 'not pinned'}\n\n`,
  );
  for (const server of servers) load(server.port, Number(values.warmup));
  const cpuPerRequest = new Map<string, number[]>(servers.map((s) => [s.name, []]));
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) {
      const before = cpuMs(server.child.pid!);
      const result = load(server.port, Number(values.seconds));
      const us = ((cpuMs(server.child.pid!) - before) * 1000) / result.requests;
      cpuPerRequest.get(server.name)!.push(us);
      process.stdout.write(
        `round ${r + 1}  ${server.name.padEnd(13)} ${result.rps.toFixed(0).padStart(7)} req/s   ${us.toFixed(2).padStart(6)} us CPU/request\n`,
      );
    }
  }
  const without = median(cpuPerRequest.get('without cors')!);
  const withCors = median(cpuPerRequest.get('with cors')!);
  process.stdout.write(
    `\nmedian CPU/request: without ${without.toFixed(2)} us, with ${withCors.toFixed(2)} us: CORS adds ${(withCors - without).toFixed(2)} us\n`,
  );
  // The two servers of one round ran back to back: their difference is less disturbed by the VM's phases.
  const paired = cpuPerRequest.get('with cors')!.map((us, i) => us - cpuPerRequest.get('without cors')![i]!);
  process.stdout.write(
    `median of the rounds' differences: ${median(paired).toFixed(2)} us (from ${Math.min(...paired).toFixed(2)} to ${Math.max(...paired).toFixed(2)})\n`,
  );
} finally {
  for (const server of servers) await stopChild(server.child);
  rmSync(dir, { recursive: true, force: true });
}

function load(port: number, seconds: number): { requests: number; rps: number } {
  const argv = compiled('bench/lib/load', [
    `http://127.0.0.1:${port}/ping`,
    values.connections,
    String(seconds),
    '--status',
    '200',
    '--header',
    `Origin: ${ORIGIN}`,
  ]);
  const command = pinned ? 'taskset' : process.execPath;
  const args = pinned ? ['-c', loadCpus, process.execPath, ...argv] : argv;
  const out = execFileSync(command, args, { cwd: root, encoding: 'utf8' });
  const result = JSON.parse(out.trim().split('\n').pop()!) as { requests: number; rps: number; errors: number };
  if (result.errors > 0) throw new Error(`${result.errors} answers were not 200`);
  return result;
}

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `taskset` execs node: the pid is node's own, so /proc's CPU time is the server's. */
function spawnTaskset(cpu: string, argv: readonly string[]): ChildProcess {
  return spawn('taskset', ['-c', cpu, process.execPath, ...argv], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...SVC_LAUNCH.env },
  });
}
