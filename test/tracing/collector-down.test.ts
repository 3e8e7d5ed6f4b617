/**
 * A collector that cannot be reached costs spans, never requests: the requests are answered, the log
 * says the spans could not be exported (once, not per span), and SIGTERM still stops the process
 * cleanly, the last export bounded by the exporter's time-out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { kill, serve, type Served } from '../cli/serve-helpers.js';
import { manifestDir } from './helpers.js';
import { startReceiver } from './otlp-receiver.js';

function ping(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/ping`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

function warnings(s: Served): Record<string, unknown>[] {
  return s
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === 'tracing: spans could not be exported');
}

test('spans that cannot be exported: requests answered, one warning, a clean stop', async () => {
  // A port that was just listened on and is closed again: connections to it are refused.
  const gone = await startReceiver();
  await gone.close();
  let served: Served | undefined;
  try {
    served = await serve(await manifestDir('endpoint "GET /ping" {\n  pipeline {\n    respond {\n      body = { ok = true }\n    }\n  }\n}\n'), [], {
      OTEL_EXPORTER_OTLP_ENDPOINT: gone.url,
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_EXPORTER_OTLP_TIMEOUT: '1000',
    });
    for (let i = 0; i < 20; i++) assert.equal(await ping(served.url), 200);
    for (const deadline = Date.now() + 15_000; warnings(served).length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
    const [warning] = warnings(served);
    assert.ok(warning, `a warning in the log:\n${served.stdout()}`);
    assert.equal(warning.level, 40);
    // More requests, more failed exports: still the one warning (at most one a minute).
    for (let i = 0; i < 20; i++) assert.equal(await ping(served.url), 200);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(warnings(served).length, 1);

    served.child.kill('SIGTERM');
    const { code, signal } = await served.exited;
    assert.equal(signal, null);
    assert.equal(code, 0);
  } finally {
    kill(served);
  }
});
