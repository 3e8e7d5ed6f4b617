/**
 * `server { tracing { ... } }` under `svc serve --workers 2`: every worker exports its own spans (told
 * apart by `process.pid` in their resource), with the block's collector, headers and service name
 * (over OTEL_SERVICE_NAME: the block's attribute wins), and its `sample_ratio`: 0 samples no new
 * trace, while a request that arrives sampled (`traceparent` flags 01) is followed (parent-based).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { kill, serve, type Served } from '../cli/serve-helpers.js';
import { manifestDir } from './helpers.js';
import { SpanKind, startReceiver, type Receiver } from './otlp-receiver.js';

let receiver: Receiver;
let served: Served | undefined;

before(async () => {
  receiver = await startReceiver();
});

after(async () => {
  kill(served);
  await receiver?.close();
});

/** GET /ping on a fresh connection (so the kernel spreads them over the workers), with `headers`. */
function ping(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/ping`, { agent: false, headers: { connection: 'close', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

test('--workers 2: each worker exports its spans to the block collector, with its headers, service name and sampling', async () => {
  const dir = await manifestDir(`
server {
  tracing {
    endpoint     = env("COLLECTOR")
    service_name = "from-the-block"
    sample_ratio = 0
    headers      = { "X-Api-Key" = "k-123" }
  }
}

endpoint "GET /ping" {
  pipeline {
    respond {
      body = { ok = true }
    }
  }
}
`);
  served = await serve(dir, ['--workers', '2'], { COLLECTOR: receiver.url, OTEL_SERVICE_NAME: 'from-the-environment', OTEL_BSP_SCHEDULE_DELAY: '50' });

  // Unsampled first: sample_ratio = 0 starts no recorded trace.
  for (let i = 0; i < 10; i++) assert.equal(await ping(served.url), 200);

  // Then sampled callers, until spans from both workers have arrived (bounded: 400 requests).
  const sampledTraces = new Set<string>();
  const pids = (): Set<unknown> => new Set(receiver.spans.filter((s) => s.kind === SpanKind.SERVER).map((s) => s.resource['process.pid']));
  for (let i = 0; i < 400 && pids().size < 2; i++) {
    const traceId = randomBytes(16).toString('hex');
    sampledTraces.add(traceId);
    assert.equal(await ping(served.url, { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` }), 200);
    if (i % 10 === 9) await new Promise((r) => setTimeout(r, 60));
  }
  await receiver.waitFor(() => pids().size === 2);

  const servers = receiver.spans.filter((s) => s.kind === SpanKind.SERVER);
  // Only the sampled callers' traces were exported: none of the ten without a traceparent.
  for (const span of servers) assert.ok(sampledTraces.has(span.traceId), `an unsampled trace was exported: ${span.traceId}`);
  for (const span of receiver.spans) {
    assert.equal(span.resource['service.name'], 'from-the-block');
    assert.equal(span.scope, 'svc');
  }
  assert.equal(pids().size, 2, 'both workers exported');
  assert.ok(receiver.headers.length > 0 && receiver.headers.every((h) => h['x-api-key'] === 'k-123'), 'every export carried the block headers');
});
