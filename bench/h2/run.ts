/**
 * bench/h2: svc's health endpoint over HTTP/2 with TLS against a hand-written Fastify HTTP/2 (TLS)
 * app (baseline.ts), in the same run; see README.md.
 *
 *     node dist/bench/h2/run.js [--rounds 3] [--seconds 3] [--sessions 4] [--streams 16]
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildOnce, compiled, cpuMs, freePort, median, root, spawnNode, stopChild, SVC_LAUNCH, svcServe, waitForPort } from '../lib/procs.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '3' },
    sessions: { type: 'string', default: '4' },
    streams: { type: 'string', default: '16' },
    'no-build': { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);

if (!values['no-build']) buildOnce(['bench/h2/run', 'bench/h2/baseline', 'bench/h2/load']);

// The manifest and a certificate made for the run, in a directory of their own.
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-h2-'));
cpSync(join(root, 'bench/h2/manifest'), dir, { recursive: true });
mkdirSync(join(dir, 'tls'));
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    join(dir, 'tls/key.pem'),
    '-out',
    join(dir, 'tls/cert.pem'),
  ],
  { stdio: 'ignore' },
);

const svcPort = await freePort();
const svc = spawnNode(svcServe(dir, svcPort), { env: SVC_LAUNCH.env });
const basePort = await freePort();
const base = spawnNode(compiled('bench/h2/baseline', [String(basePort), join(dir, 'tls/cert.pem'), join(dir, 'tls/key.pem')]));
await waitForPort(svcPort, svc, 'svc');
await waitForPort(basePort, base, 'baseline');

interface Round {
  readonly rps: number;
  readonly cpuUsPerRequest: number;
  readonly p99: number;
  readonly failed: number;
}

function load(port: number, seconds: number): Promise<{ completed: number; failed: number; p50: number; p99: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      compiled('bench/h2/load', [`https://127.0.0.1:${port}`, '/health', String(seconds), values.sessions!, values.streams!]),
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as never) : reject(new Error(`load exited ${code}`))));
  });
}

async function measure(pid: number, port: number): Promise<Round> {
  const cpuBefore = cpuMs(pid);
  const seconds = Number(values.seconds);
  const r = await load(port, seconds);
  const cpu = cpuMs(pid) - cpuBefore;
  return { rps: r.completed / seconds, cpuUsPerRequest: (cpu * 1000) / r.completed, p99: r.p99, failed: r.failed };
}

process.stdout.write(`warming up both servers (2 s each); ${rounds} rounds x ${values.seconds} s, ${values.sessions} sessions x ${values.streams} streams\n`);
await load(svcPort, 2);
await load(basePort, 2);
const results: { svc: Round; base: Round }[] = [];
for (let i = 0; i < rounds; i++) {
  // Alternate which goes first: the machine's drift hits both alike.
  const first = i % 2 === 0;
  const a = await measure(first ? svc.pid! : base.pid!, first ? svcPort : basePort);
  const b = await measure(first ? base.pid! : svc.pid!, first ? basePort : svcPort);
  const round = first ? { svc: a, base: b } : { svc: b, base: a };
  results.push(round);
  const show = (r: Round) => `${r.rps.toFixed(0)} req/s, ${r.cpuUsPerRequest.toFixed(1)} us CPU/req, p99 ${r.p99.toFixed(2)} ms, ${r.failed} failed`;
  process.stdout.write(`round ${i + 1}: svc ${show(round.svc)} | fastify ${show(round.base)} | ratio ${(round.svc.rps / round.base.rps).toFixed(3)}\n`);
}
await stopChild(svc);
await stopChild(base);
rmSync(dir, { recursive: true, force: true });
const ratio = median(results.map((r) => r.svc.rps / r.base.rps));
const cpuRatio = median(results.map((r) => r.base.cpuUsPerRequest / r.svc.cpuUsPerRequest));
process.stdout.write(
  `median: svc ${median(results.map((r) => r.svc.rps)).toFixed(0)} req/s, fastify ${median(results.map((r) => r.base.rps)).toFixed(0)} req/s; ` +
    `throughput ratio svc/fastify ${ratio.toFixed(3)} (goal >= 0.95); CPU per request fastify/svc ${cpuRatio.toFixed(3)}\n`,
);
