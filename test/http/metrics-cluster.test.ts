/**
 * With workers, the metrics page describes the whole service: a real two-worker cluster (Node's
 * cluster, round-robin connections), whose primary runs servePrimaryMetrics; whichever worker a
 * scrape lands on, the requests of both are counted.
 */
import assert from 'node:assert/strict';
import cluster, { type Worker } from 'node:cluster';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { servePrimaryMetrics } from '../../src/http/index.js';
import { parseMetrics, sampleValue } from './metrics-helpers.js';
import { COMPILED, LOADER } from '../paths.js';

const workers: Worker[] = [];
after(async () => {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.isDead()) return resolve();
          w.once('exit', () => resolve());
          w.kill('SIGTERM');
        }),
    ),
  );
});

/** One request on a connection of its own, so the primary hands each to the next worker. */
function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function nextMessage<T>(worker: Worker, type: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (message: { type?: string }): void => {
      if (message?.type !== type) return;
      worker.off('message', on);
      resolve(message as T);
    };
    worker.on('message', on);
  });
}

test('two workers: every scrape reports the requests both served', { timeout: 60_000 }, async () => {
  servePrimaryMetrics();
  cluster.setupPrimary({ exec: fileURLToPath(new URL(`./metrics-worker.${COMPILED ? 'js' : 'ts'}`, import.meta.url)), execArgv: [...LOADER] });
  for (let i = 0; i < 2; i++) workers.push(cluster.fork());
  const ports = await Promise.all(workers.map((w) => nextMessage<{ port: number }>(w, 'listening').then((m) => m.port)));
  assert.equal(ports[0], ports[1], 'the workers share the port');
  const port = ports[0]!;

  for (let i = 0; i < 20; i++) assert.equal((await get(port, '/a')).status, 200);
  const served = await Promise.all(
    workers.map((w) => {
      const answer = nextMessage<{ count: number }>(w, 'served');
      w.send({ type: 'served?' });
      return answer.then((m) => m.count);
    }),
  );
  assert.equal(served[0]! + served[1]!, 20);
  assert.ok(served[0]! > 0 && served[1]! > 0, `both workers served: ${served.join(', ')}`);

  // Four scrapes, on new connections: they land on both workers, and each sees the whole service.
  for (let i = 0; i < 4; i++) {
    const page = await get(port, '/metrics');
    assert.equal(page.status, 200, page.body);
    const families = parseMetrics(page.body);
    assert.equal(sampleValue(families, 'svc_http_requests_total', { method: 'GET', route: '/a', status: '200' }), 20);
    assert.equal(sampleValue(families, 'svc_http_request_duration_seconds_count', { method: 'GET', route: '/a', status: '200' }), 20);
    // The earlier scrapes, whichever worker answered them.
    assert.equal(sampleValue(families, 'svc_http_requests_total', { method: 'GET', route: '/metrics', status: '200' }), i === 0 ? undefined : i);
    assert.equal(sampleValue(families, 'svc_open_streams'), 0);
  }
});
