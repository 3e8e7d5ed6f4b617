/**
 * A 64 KiB JSON answer compressed with gzip: svc serving bench/compress/manifest against a
 * hand-written Fastify app with @fastify/compress doing the same (baseline.ts), measured in the same
 * run by the shared runner (bench/lib/harness.ts: alternating rounds, child processes, compiled code).
 *
 *     npm run bench:compress [-- --rounds 5 --seconds 3 --connections 16]
 *
 * The figure that matters is CPU per request (goal: svc uses no more than the baseline, ratio
 * fastify/svc >= 1.0, issue 29); req/s follows from it on a machine with a free core per process.
 */
import { runBench } from '../lib/harness.js';

const expected = JSON.stringify({
  items: Array.from({ length: 603 }, (_, i) => ({
    id: i,
    name: `item ${i}`,
    email: `user${i}@example.com`,
    active: true,
    tags: ['alpha', 'beta'],
    score: i * 3,
  })),
});
if (Buffer.byteLength(expected) < 64 * 1024) throw new Error(`the body is ${Buffer.byteLength(expected)} bytes, not 64 KiB`);

await runBench({
  title: 'GET /catalog (64 KiB of JSON, gzip)',
  manifest: 'bench/compress/manifest',
  baseline: 'bench/compress/baseline',
  goal: 1.0,
  main: {
    name: 'gzip',
    path: '/catalog',
    status: 200,
    headers: ['Accept-Encoding: gzip'],
    check(_server, _status, body) {
      // fetch decodes gzip itself: the decoded body must be the 64 KiB document, byte for byte.
      if (JSON.stringify(body) !== expected) throw new Error('expected the 64 KiB catalog');
    },
  },
  extra: [
    {
      name: 'identity (no Accept-Encoding)',
      path: '/catalog',
      status: 200,
      check(_server, _status, body) {
        if (JSON.stringify(body) !== expected) throw new Error('expected the 64 KiB catalog');
      },
    },
  ],
});
