/**
 * Search-endpoint throughput: `GET /api/v1/search` (a uuid header and three query parameters,
 * validated before the pipeline) served by svc on examples/validation against a hand-written Fastify
 * route with the equivalent route schema (baseline.ts), measured in the same run by the shared runner
 * (bench/lib/harness.ts: alternating rounds, child processes, compiled code).
 *
 *     npm run bench:search [-- --rounds 5 --seconds 3 --connections 16 --extra-rounds 3]
 *
 * Main result: the valid request (200), median ratio svc/Fastify, goal >= 0.95. Then, informational,
 * an invalid request (422 path: `q` too short and `limit` above its maximum).
 */
import { runBench } from '../lib/harness.js';

const API_KEY = 'x-api-key: 3f2c8a4e-9b1d-4c7e-8a2f-6d5e4c3b2a19'; // a v4 uuid: valid for both
const expectBody = (body: unknown, want: Record<string, unknown>): void => {
  if (JSON.stringify(body) !== JSON.stringify(want)) throw new Error(`expected ${JSON.stringify(want)}`);
};

await runBench({
  title: 'GET /api/v1/search',
  manifest: 'examples/validation',
  baseline: 'bench/search/baseline',
  goal: 0.95,
  main: {
    name: 'valid request (200)',
    path: '/api/v1/search?q=widgets&limit=10&sort=asc',
    headers: [API_KEY],
    status: 200,
    check: (_server, _status, body) => expectBody(body, { query: 'widgets', limit: 10, sort: 'asc' }),
  },
  extra: [
    {
      name: 'invalid request (422)',
      path: '/api/v1/search?q=w&limit=500&sort=asc',
      headers: [API_KEY],
      status: 422,
      check(_server, _status, body) {
        const b = body as { invalid_params?: unknown[] };
        if (!Array.isArray(b.invalid_params) || b.invalid_params.length === 0) throw new Error('expected invalid_params');
      },
    },
  ],
});
