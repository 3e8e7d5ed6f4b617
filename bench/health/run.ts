/**
 * Health-endpoint throughput: svc serving examples/quickstart against a hand-written Fastify app
 * returning the same body (baseline.ts), measured in the same run by the shared runner
 * (bench/lib/harness.ts: alternating rounds, child processes, compiled code).
 *
 *     npm run bench:health [-- --rounds 5 --seconds 3 --connections 16]
 *
 * Prints req/s per round, p50/p99 latencies, CPU per request, and the median ratio svc/Fastify
 * (goal >= 0.95, issue 14). svc writes its one log line per request (to /dev/null here); the baseline logs nothing.
 */
import { runBench } from '../lib/harness.js';

await runBench({
  title: 'GET /api/v1/health',
  manifest: 'examples/quickstart',
  baseline: 'bench/health/baseline',
  goal: 0.95,
  main: {
    name: 'health',
    path: '/api/v1/health',
    status: 200,
    check(_server, _status, body) {
      const b = body as { status?: unknown; timestamp?: unknown };
      if (b.status !== 'ok' || typeof b.timestamp !== 'number') throw new Error('expected {status: "ok", timestamp: <number>}');
    },
  },
});
