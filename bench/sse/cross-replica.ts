/**
 * SSE across replicas: two `svc serve` processes of bench/sse/manifest on one real Redis, the
 * publish-to-delivery latency of the same clients and messages in three placements, in the same run:
 *
 * - one replica (the reference, bench/sse's Redis case): every client on A, the messages POSTed to A;
 * - across replicas: every client on A, the messages POSTed to B (B's PUBLISH reaches A's
 *   subscription through Redis: the path a client of one replica takes to a message posted through
 *   another);
 * - spread: the clients split over A and B, the messages POSTed to B (the fan-out shared by two
 *   processes, as behind a load balancer).
 *
 *     npm run bench:sse-replicas [-- --clients 1000 --hold 6 --messages 20 --every 500 --rounds 2]
 *
 * Latency as in bench/sse (README.md "Method"): the client process stamps each message with its send
 * time and each arrival with the same clock. Each round runs the three placements in turn (the
 * replicas stay up; each round starts with the next placement), and the ratio of each p99 to the
 * one-replica p99 of the same round is printed as the median over the rounds.
 *
 * The Redis server: SVC_TEST_REDIS_URL when set, otherwise a throw-away one started here.
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { redisServer } from '../lib/engines.js';
import { buildOnce, compiled, freePort, median, onJsonLines, spawnNode, stopChild, svcServe, SVC_LAUNCH, waitForPort } from '../lib/procs.js';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    hold: { type: 'string', default: '6' },
    messages: { type: 'string', default: '20' },
    every: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '2' },
  },
});

interface Result {
  clients: number;
  failed?: number;
  expected: number;
  deliveries: number;
  publishFailures: number;
  p50: number;
  p99: number;
  max: number;
  worstPerMessage: { median: number };
  closedEarly: number;
}

/** The client process of bench/sse against `ports` (round robin), publishing to `publishPort`. */
function runClient(ports: readonly number[], publishPort: number, args: Record<string, number>): Promise<Result> {
  const argv = [`--port=${ports.join(',')}`, `--publish-port=${publishPort}`, ...Object.entries(args).map(([k, v]) => `--${k}=${v}`)];
  return new Promise((resolveResult, reject) => {
    const child = spawnNode(compiled('bench/sse/client', argv), { stdout: 'pipe', manyFiles: true });
    let result: Result | undefined;
    let failed = 0;
    onJsonLines(child, (message) => {
      if (message.phase === 'connected') failed = Number(message.failed ?? 0);
      if (message.phase === 'result') result = { ...(message as unknown as Result), failed };
    });
    const limit = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.once('exit', (code) => {
      clearTimeout(limit);
      if (result) resolveResult(result);
      else reject(new Error(`the client exited with code ${code} without a result`));
    });
  });
}

const svcLog = join(tmpdir(), `svc-bench-sse-replicas-${process.pid}.log`);
console.log(
  `${new Date().toISOString()}: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(`${values.clients} SSE clients, held ${values.hold} s, then ${values.messages} messages ${values.every} ms apart; ${values.rounds} rounds`);
console.log(`svc's log: ${svcLog}`);
buildOnce(['bench/sse/client']);

const redis = redisServer();
const redisVersion = /v=(\S+)/.exec(execFileSync('redis-server', ['--version'], { encoding: 'utf8' }))?.[1] ?? '?';
console.log(`Redis ${redisVersion} at ${redis.url} (${redis.started ? 'started for this run' : 'SVC_TEST_REDIS_URL'})\n`);
const replicas: { port: number; child: ReturnType<typeof spawnNode> }[] = [];
const placements = ['one replica', 'across replicas', 'spread over two'] as const;
const p99s = new Map<string, number[]>(placements.map((p) => [p, []]));
const p50s = new Map<string, number[]>(placements.map((p) => [p, []]));
const ratios = new Map<string, number[]>(placements.map((p) => [p, []]));
try {
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const child = spawnNode(svcServe('bench/sse/manifest', port), { env: { ...SVC_LAUNCH.env, REDIS_URL: redis.url }, manyFiles: true, logFile: svcLog });
    await waitForPort(port, child, `svc replica ${i + 1}`);
    replicas.push({ port, child });
  }
  const [a, b] = [replicas[0]!.port, replicas[1]!.port];
  const warm = await runClient([a, b], b, { clients: 10, hold: 0, messages: 3, every: 50 });
  if (warm.deliveries !== 30) throw new Error(`the warm-up got ${warm.deliveries} of 30 deliveries`);
  const args = { clients: Number(values.clients), hold: Number(values.hold), messages: Number(values.messages), every: Number(values.every) };
  for (let round = 1; round <= Number(values.rounds); round++) {
    const results = new Map<string, Result>();
    // Each round starts with another placement, so that none always runs first (or right after the same one).
    const order = placements.map((_, i) => placements[(i + round - 1) % placements.length]!);
    for (const placement of order) {
      const [ports, publishTo] = placement === 'one replica' ? [[a], a] : placement === 'across replicas' ? [[a], b] : [[a, b], b];
      const r = await runClient(ports, publishTo, args);
      results.set(placement, r);
      p99s.get(placement)!.push(r.p99);
      p50s.get(placement)!.push(r.p50);
      console.log(
        `round ${round}, ${placement.padEnd(15)}: ${r.clients} clients (${r.failed} failed to open), deliveries ${r.deliveries}/${r.expected}, ` +
          `latency ms p50 ${r.p50.toFixed(1)} p99 ${r.p99.toFixed(1)} max ${r.max.toFixed(1)}, one message to every client ${r.worstPerMessage.median.toFixed(1)}; ` +
          `publish failures ${r.publishFailures}, closed early ${r.closedEarly}`,
      );
    }
    const reference = results.get('one replica')!.p99;
    for (const placement of placements) ratios.get(placement)!.push(results.get(placement)!.p99 / reference);
  }
} finally {
  await Promise.all(replicas.map((r) => stopChild(r.child)));
  redis.stop();
}

console.log('\n#### summary (publish-to-delivery, medians over the rounds; the ratio is the median of each round p99 / that round one-replica p99)');
for (const placement of placements) {
  console.log(
    `${placement.padEnd(15)}: p50 ${median(p50s.get(placement)!).toFixed(1)} ms, p99 ${median(p99s.get(placement)!).toFixed(1)} ms ` +
      `(rounds: ${p99s
        .get(placement)!
        .map((v) => v.toFixed(0))
        .join(', ')}), p99 ratio ${median(ratios.get(placement)!).toFixed(2)}`,
  );
}
