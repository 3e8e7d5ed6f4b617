/**
 * Property-based fuzzing of request inputs (issue 15): each example of examples/ is served as
 * `svc serve` serves it (its embedded engines: PGlite in memory, the `memory:` Redis; its upstreams
 * on the same server), and random requests (request-inputs.ts) are sent to it. For every one:
 * - an answer comes, within CASE_MS (no stall), and the process does not crash;
 * - no 5xx but the documented dependency failures (502 bad gateway, 503 unavailable, 504 time-out):
 *   a 500 is a defect of svc, whatever the client sent;
 * - no stack trace, source path or engine error name in the body;
 * - an error answer is a problem document (application/problem+json), as the manual (docs/) promises
 * (oracle.ts). Under the short budget the examples without PGlite run, and shop (its validation is
 * the richest); live (PGlite, and a stream that never ends) runs under the long one.
 * `npm test` runs a short budget with a fixed seed; `npm run fuzz` a long one (budget.ts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { loadService, type Booted } from '../../src/cli/boot.js';
import { buildServer, createLogger, docsSites } from '../../src/http/index.js';
import type { FieldSpec } from '../../src/schema/field.js';
import { budget } from './budget.js';
import { answerDefect } from './oracle.js';
import { fuzzRequest, type Route } from './request-inputs.js';
import { ROOT } from '../paths.js';

const EXAMPLES = join(ROOT, 'examples');

/** Endpoints that never end by design (a live SSE stream); an injected request cannot hang up. */
const ENDLESS = new Set(['GET /events']);
/** A free loopback port, so an example's upstream URL can point at the server before it listens. */
async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

interface Served {
  readonly app: FastifyInstance;
  readonly booted: Booted;
}

async function serveExample(name: string): Promise<Served> {
  const port = await freePort();
  // The examples' own defaults, except on disk: in-memory PGlite (shop would write examples/shop/.data),
  // the in-process Redis, and upstreams served by this very server.
  process.env.DATABASE_URL = 'pglite:';
  process.env.REDIS_URL = 'memory:';
  process.env.UPSTREAM_URL = `http://127.0.0.1:${port}/upstream`;
  process.env.CATALOGUE_URL = `http://127.0.0.1:${port}/upstream`;
  const loaded = await loadService(join(EXAMPLES, name));
  assert.ok(loaded.booted, `examples/${name} boots: ${loaded.diagnostics.map((d) => `${d.summary}: ${d.detail}`).join('\n')}`);
  const { booted } = loaded;
  const { server } = booted.model;
  const app = await buildServer({
    endpoints: booted.service.endpoints,
    docs: docsSites(booted.service.docs, booted.model),
    bodyLimit: server.maxBodySize,
    requestTimeoutMs: server.requestTimeoutMs,
    logger: createLogger({ stream: { write: () => true } }),
  });
  await booted.connectors.openAll();
  await app.listen({ host: '127.0.0.1', port });
  return { app, booted };
}

function namesOf(fields: readonly FieldSpec[]): string[] {
  return fields.map((f) => f.name);
}

/** SVC_FUZZ_EXAMPLES=quickstart,shop narrows a replay to some examples. */
const EXAMPLES_FUZZED =
  process.env.SVC_FUZZ_EXAMPLES?.split(',').filter(Boolean) ??
  (process.env.SVC_FUZZ === 'long' ? ['quickstart', 'validation', 'proxy', 'shop', 'live'] : ['quickstart', 'validation', 'proxy', 'shop']);

for (const example of EXAMPLES_FUZZED) {
  describe(`examples/${example}`, () => {
    let served: Served;
    before(async () => {
      served = await serveExample(example);
    });
    after(async () => {
      await served.app.close();
      await served.booted.connectors.closeAll();
    });

    test('random requests: an answer in time, no undocumented 5xx, no internals, problems as problem+json', async () => {
      const { endpoints, docs } = served.booted.service;
      const routes: Route[] = [...endpoints, ...docs].map((e) => ({ method: e.method, path: e.path })).filter((r) => !ENDLESS.has(`${r.method} ${r.path}`));
      const names = endpoints.flatMap((e) => [...namesOf(e.request.query), ...namesOf(e.request.headers)]);
      const fields = endpoints.flatMap((e) => namesOf(e.request.body?.fields ?? []));
      await fc.assert(
        fc.asyncProperty(fuzzRequest(routes, { names, fields }), async (request) => {
          // ENDLESS routes reached through a random method or path are still skipped.
          fc.pre(!ENDLESS.has(`${request.method === 'HEAD' ? 'GET' : request.method} ${request.url.split('?')[0]}`));
          const start = performance.now();
          const res = await served.app.inject({
            method: request.method as 'GET',
            url: request.url,
            headers: request.headers,
            ...(request.payload !== undefined ? { payload: request.payload } : {}),
          });
          const ms = performance.now() - start;
          const problem = answerDefect({
            method: request.method,
            status: res.statusCode,
            contentType: String(res.headers['content-type'] ?? ''),
            body: res.body,
            ms,
          });
          assert.equal(problem, undefined, `${request.method} ${request.url} ${JSON.stringify(request.headers)} ${request.payload ?? ''}\n-> ${problem}`);
        }),
        budget({ short: 100, long: 20_000, shortMs: 3000, longMs: 300_000 }),
      );
    });
  });
}
