/**
 * SSE fan-out: svc serving bench/sse/manifest (`GET /events`: a redis SUBSCRIBE into `stream "sse"`
 * with heartbeat = "5s"; `POST /publish`: a PUBLISH) against a hand-written node:http SSE server
 * keeping a Set of responses (baseline.ts), with the same clients and messages in the same run: first
 * on svc's embedded store (`memory:`; the baseline writes to its Set directly), then on a real Redis
 * server (both sides subscribe to it; skipped when none can be started).
 *
 *     npm run bench:sse [-- --clients 10000 --hold 11 --messages 20 --every 500 --stores memory,redis --workers 1]
 *
 * Per server: a warm-up (10 clients, 3 messages), its RSS idle, then one client process
 * (bench/sse/client.ts) opens N connections, holds them <hold> seconds (heartbeats flow: at least two
 * per client), publishes <messages> messages <every> ms apart, and reports the delivery latency of
 * every message to every client (p50/p99/max), the heartbeats each client got and any connection
 * lost. This runner samples the server's RSS (connected and held: memory per client = (held - idle)
 * / N) and its CPU time while connecting and while publishing.
 *
 * Both servers and the client run with the open-file limit raised to its hard limit (`ulimit -n`).
 * The Redis server: SVC_TEST_REDIS_URL when set, otherwise a throw-away one started here with
 * scripts/redis-test-server.sh and stopped at the end.
 */
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Engine, redisServer } from '../lib/engines.js';
import {
  buildOnce,
  compiled,
  cpuMs,
  freePort,
  listeningPort,
  memoryMiB,
  onJsonLines,
  RssSampler,
  spawnNode,
  stopChild,
  svcServe,
  SVC_LAUNCH,
  waitForPort,
} from '../lib/procs.js';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '10000' },
    hold: { type: 'string', default: '11' },
    messages: { type: 'string', default: '20' },
    every: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '200' },
    stores: { type: 'string', default: 'memory,redis' },
    // svc serve --workers N on the Redis store (the clients spread over the workers by the cluster
    // module; `memory:` is per process, so it always runs one). RSS and CPU figures are then the
    // primary's only: read the latencies.
    workers: { type: 'string', default: '1' },
    // What feeds svc's clients: a pub/sub channel (SUBSCRIBE, bench/sse/manifest) or a Redis stream
    // key (XREAD, bench/sse/manifest-stream, each event with its entry id). The baseline is the same.
    feed: { type: 'string', default: 'pubsub' },
    // Each message's median and highest latency, in publishing order (where a p99 comes from).
    'per-message': { type: 'boolean', default: false },
    // Messages published to the N clients before the measured ones, not counted (client.ts).
    warm: { type: 'string', default: '0' },
    // More Node options for svc after bin/svc.js's own (`--svc-node-options=--trace-gc`: into svc's log).
    'svc-node-options': { type: 'string', default: '' },
  },
});
const workers = Number(values.workers);
const clientCounts = values.clients.split(',').map(Number);
/** svc's log lines (one per SSE client, with how its stream ended), kept for a look after the run. */
const svcLog = join(tmpdir(), `svc-bench-sse-${process.pid}.log`);
const stores = values.stores.split(',').map((s) => s.trim());

interface Server {
  readonly name: 'svc' | 'baseline';
  readonly child: ChildProcess;
  readonly port: number;
}

interface Spread {
  min: number;
  median: number;
  max: number;
}

interface ClientReport {
  phase: string;
  clients: number;
  failed?: number;
  ms?: number;
  expected?: number;
  deliveries?: number;
  publishFailures?: number;
  p50?: number;
  p99?: number;
  max?: number;
  worstPerMessage?: Spread;
  messages?: [number, number][];
  heartbeats?: Spread;
  closedEarly?: number;
  /** The client process' CPU time so far. */
  cpuMs?: number;
}

type Phase = 'connecting' | 'holding' | 'publishing' | 'leaving';

interface Run {
  server: 'svc' | 'baseline';
  idle: number;
  connected: number;
  held: number;
  /** The highest RSS sample of each phase (MiB). */
  peaks: Record<Phase, number>;
  connectMs: number;
  /** Connections that got no 200 head within 15 s. */
  failed: number;
  /** Server CPU ms per connection opened. */
  connectCpuMs: number;
  /** Server CPU ms over the publish phase (messages and heartbeats). */
  publishCpuMs: number;
  /** The client process' CPU ms over the same phase: its share of the measured latency. */
  clientPublishCpuMs: number;
  result: ClientReport;
}

async function startSvc(redisUrl: string): Promise<Server> {
  const port = await freePort();
  const args = svcServe(
    values.feed === 'stream' ? 'bench/sse/manifest-stream' : 'bench/sse/manifest',
    port,
    values['svc-node-options'].split(' ').filter((o) => o !== ''),
  );
  if (workers > 1 && redisUrl !== 'memory:') args.push('--workers', String(workers));
  const child = spawnNode(args, { env: { ...SVC_LAUNCH.env, REDIS_URL: redisUrl }, manyFiles: true, logFile: svcLog });
  await waitForPort(port, child, 'svc');
  return { name: 'svc', child, port };
}

async function startBaseline(redisUrl: string): Promise<Server> {
  const args = redisUrl === 'memory:' ? [] : ['--redis', redisUrl];
  const child = spawnNode(compiled('bench/sse/baseline', args), { stdout: 'pipe', manyFiles: true });
  const port = await listeningPort(child, 'baseline');
  return { name: 'baseline', child, port };
}

/** Runs the client process against a server; `on` sees each phase line as it comes. */
function runClient(port: number, args: Record<string, number>, on: (report: ClientReport) => void = () => {}): Promise<ClientReport> {
  const argv = [`--port=${port}`, ...Object.entries(args).map(([k, v]) => `--${k}=${v}`)];
  return new Promise((resolveReport, reject) => {
    const child = spawnNode(compiled('bench/sse/client', argv), { stdout: 'pipe', manyFiles: true });
    let result: ClientReport | undefined;
    onJsonLines(child, (message) => {
      const report = message as unknown as ClientReport;
      on(report);
      if (report.phase === 'result') result = report;
    });
    // Bounded: connecting, holding, publishing and 5 s of waiting, with room to spare.
    const limit = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.once('exit', (code) => {
      clearTimeout(limit);
      if (result) resolveReport(result);
      else reject(new Error(`the client exited with code ${code} without a result`));
    });
  });
}

async function measure(server: Server, clients: number): Promise<Run> {
  const pid = server.child.pid!;
  const warm = await runClient(server.port, { clients: 10, hold: 0, messages: 3, every: 50 });
  if (warm.deliveries !== 30) throw new Error(`${server.name}: the warm-up got ${warm.deliveries} of 30 deliveries`);
  await new Promise((r) => setTimeout(r, 1000));
  const idle = memoryMiB(pid).rss;
  // One sampler per phase, for the highest RSS of each.
  let sampler = new RssSampler(pid, 250);
  const peaks: Partial<Record<Phase, number>> = {};
  const nextPhase = (ended: Phase): void => {
    peaks[ended] = sampler.stop().max;
    sampler = new RssSampler(pid, 250);
  };
  let connected = NaN;
  let failed = NaN;
  let held = NaN;
  let cpuConnected = NaN;
  let cpuPublishing = NaN;
  let clientCpuPublishing = NaN;
  let clientCpuEnd = NaN;
  let cpuEnd = NaN;
  const cpuStart = cpuMs(pid);
  const result = await runClient(
    server.port,
    {
      clients,
      hold: Number(values.hold),
      messages: Number(values.messages),
      every: Number(values.every),
      concurrency: Number(values.concurrency),
      warm: Number(values.warm),
    },
    (report) => {
      if (report.phase === 'connected') {
        nextPhase('connecting');
        cpuConnected = cpuMs(pid);
        connected = memoryMiB(pid).rss;
        failed = report.failed ?? NaN;
        process.stdout.write(`  ${server.name}: ${report.clients} connected in ${((report.ms ?? 0) / 1000).toFixed(1)} s (${report.failed} failed)\n`);
      } else if (report.phase === 'publishing') {
        nextPhase('holding');
        cpuPublishing = cpuMs(pid);
        clientCpuPublishing = report.cpuMs ?? NaN;
        held = memoryMiB(pid).rss;
      } else if (report.phase === 'result') {
        nextPhase('publishing');
        // Before the client leaves: closing N connections is not the publish phase's work.
        cpuEnd = cpuMs(pid);
        clientCpuEnd = report.cpuMs ?? NaN;
      }
    },
  );
  peaks.leaving = sampler.stop().max;
  return {
    server: server.name,
    idle,
    connected,
    held,
    peaks: peaks as Record<Phase, number>,
    connectMs: result.ms ?? NaN,
    failed,
    connectCpuMs: (cpuConnected - cpuStart) / Math.max(1, result.clients),
    publishCpuMs: cpuEnd - cpuPublishing,
    clientPublishCpuMs: clientCpuEnd - clientCpuPublishing,
    result,
  };
}

/**
 * RSS growth per held client, in KiB. Below a few thousand clients the growth is within the RSS
 * noise of the heap's own resizing (a collection can make it negative), so it is not reported there.
 */
const MIN_CLIENTS_FOR_MEMORY = 5000;

function perClient(run: Run): string {
  if (run.result.clients < MIN_CLIENTS_FOR_MEMORY) return `n/a below ${MIN_CLIENTS_FOR_MEMORY} clients`;
  return `${(((run.held - run.idle) * 1024) / run.result.clients).toFixed(1)} KiB`;
}

function print(run: Run): void {
  const r = run.result;
  console.log(
    `  ${run.server.padEnd(8)} clients ${r.clients}, deliveries ${r.deliveries}/${r.expected}, latency ms p50 ${r.p50!.toFixed(1)} p99 ${r.p99!.toFixed(1)} ` +
      `max ${r.max!.toFixed(1)} (worst per message: min ${r.worstPerMessage!.min.toFixed(1)}, median ${r.worstPerMessage!.median.toFixed(1)}); ` +
      `heartbeats per client min ${r.heartbeats!.min} median ${r.heartbeats!.median}; failed to open ${run.failed}; closed early ${r.closedEarly}; publish failures ${r.publishFailures}`,
  );
  if (values['per-message'] && r.messages !== undefined) {
    console.log(`  ${''.padEnd(8)} per message, median/highest ms: ${r.messages.map(([median, highest]) => `${median}/${highest}`).join(' ')}`);
  }
  console.log(
    `  ${''.padEnd(8)} RSS MiB idle ${run.idle.toFixed(1)}, connected ${run.connected.toFixed(1)}, held ${run.held.toFixed(1)}; highest while ` +
      `${Object.entries(run.peaks)
        .map(([phase, mib]) => `${phase} ${mib.toFixed(1)}`)
        .join(', ')}: ` +
      `${perClient(run)} per client; CPU ${(run.connectCpuMs * 1000).toFixed(0)} us per connection opened, ` +
      `${(run.publishCpuMs / 1000).toFixed(2)} s over the publish phase (${((run.publishCpuMs * 1000) / Math.max(1, r.deliveries!)).toFixed(1)} us per delivery, heartbeats included); ` +
      `client process ${(run.clientPublishCpuMs / 1000).toFixed(2)} s (${((run.clientPublishCpuMs * 1000) / Math.max(1, r.deliveries!)).toFixed(1)} us per delivery)`,
  );
}

function redisVersion(): string {
  try {
    return /v=(\S+)/.exec(execFileSync('redis-server', ['--version'], { encoding: 'utf8' }))?.[1] ?? '?';
  } catch {
    return '?';
  }
}

const limits = execFileSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).trim();
const ports = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
console.log(
  `${new Date().toISOString()}: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}; ` +
    `open files up to ${limits}; ephemeral ports ${ports.join('-')}; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);
console.log(
  `${clientCounts.join(', ')} SSE clients (one client process), heartbeat 5 s, held ${values.hold} s, then ${values.messages} messages ${values.every} ms apart\n`,
);
console.log(`svc's log: ${svcLog}`);
buildOnce(['bench/sse/baseline', 'bench/sse/client']);

function summarize(store: string, s: Run, b: Run): string {
  const kib = (run: Run): number => ((run.held - run.idle) * 1024) / run.result.clients;
  const us = (run: Run): number => (run.publishCpuMs * 1000) / Math.max(1, run.result.deliveries!);
  const [sr, br] = [s.result, b.result];
  return (
    `${store}, ${sr.clients} vs ${br.clients} clients: p50 ${sr.p50!.toFixed(1)} vs ${br.p50!.toFixed(1)} ms (ratio ${(sr.p50! / br.p50!).toFixed(2)}), ` +
    `p99 ${sr.p99!.toFixed(1)} vs ${br.p99!.toFixed(1)} ms (ratio ${(sr.p99! / br.p99!).toFixed(2)}; goal svc p99 < 100 ms), ` +
    `max ${sr.max!.toFixed(1)} vs ${br.max!.toFixed(1)} ms; one message to every client (median of the worst per message) ` +
    `${sr.worstPerMessage!.median.toFixed(1)} vs ${br.worstPerMessage!.median.toFixed(1)} ms; memory per client ${perClient(s)} vs ` +
    `${perClient(b)}${sr.clients >= MIN_CLIENTS_FOR_MEMORY ? ` (ratio ${(kib(s) / kib(b)).toFixed(2)})` : ''}; CPU per delivery ${us(s).toFixed(1)} vs ${us(b).toFixed(1)} us ` +
    `(ratio ${(us(s) / us(b)).toFixed(2)})`
  );
}

const summary: string[] = [];
for (const store of stores) {
  let engine: Engine | undefined;
  let url = 'memory:';
  if (store === 'redis') {
    try {
      engine = redisServer();
      url = engine.url;
    } catch (error) {
      console.log(`\n== real Redis: skipped (${(error as Error).message})`);
      continue;
    }
    console.log(`\n== real Redis ${redisVersion()} on loopback (${engine.started ? 'started for this run' : 'SVC_TEST_REDIS_URL'})`);
  } else console.log("\n== memory: (svc's embedded store; the baseline writes to its Set directly)");
  try {
    for (const clients of clientCounts) {
      console.log(`-- ${clients} clients`);
      const runs: Run[] = [];
      for (const start of [startSvc, startBaseline]) {
        const server = await start(url);
        try {
          const run = await measure(server, clients);
          print(run);
          runs.push(run);
        } finally {
          await stopChild(server.child);
        }
      }
      summary.push(summarize(store, runs[0]!, runs[1]!));
    }
  } finally {
    engine?.stop();
  }
}
console.log('\n#### summary (svc vs baseline)');
for (const line of summary) console.log(line);
