/**
 * Transform-endpoint throughput: `POST /api/v1/transform` (a JSON body validated with defaults, then
 * a Starlark step, examples/validation/transform.star, run on svc's worker pool) served by
 * `svc serve -c examples/validation`, against a hand-written Fastify route doing the same validation
 * and the same logic in JavaScript (baseline.ts), measured in the same run by the shared runner
 * (bench/lib/harness.ts: alternating rounds, child processes, compiled code).
 *
 *     npm run bench:transform [-- --rounds 7 --seconds 3 --connections 16 --logging-rounds 5]
 *     npm run bench:transform -- --cpu-prof /tmp/prof   # profiles of both servers, see bench/search
 *
 * Main result: the median ratio svc/Fastify of req/s (goal >= 0.80), then the same against the
 * baseline that logs one pino line per request, as svc does.
 */
import { runBench } from '../lib/harness.js';

const BODY = JSON.stringify({ prefix: 't', tags: [' Alpha ', '', 'beta', 'GAMMA ', ' delta', 'Epsilon', '  ', 'zeta'] });
const WANT = { count: 6, tags: ['t:alpha', 't:beta', 't:gamma', 't:delta', 't:epsilon', 't:zeta'] };

await runBench({
  title: 'POST /api/v1/transform',
  manifest: 'examples/validation',
  baseline: 'bench/transform/baseline',
  goal: 0.8,
  main: {
    name: 'transform (200)',
    path: '/api/v1/transform',
    method: 'POST',
    body: BODY,
    status: 200,
    check(_server, _status, body) {
      if (JSON.stringify(body) !== JSON.stringify(WANT)) throw new Error(`expected ${JSON.stringify(WANT)}`);
    },
  },
});
