// Issue 15, class 1 over HTTP: Starlark steps served by the real adapter run on the process' worker
// pool. While every worker spins a script, /health is not held behind them; a client that hangs up
// stops its script through the interrupt flag (no worker is killed), so the next script runs at once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { starlarkPool } from '../../src/steps/starlark/pool.js';
import { serveManifest, type ServedService } from '../http/helpers.js';

const MANIFEST = `
endpoint "GET /health" {
  pipeline {
    respond {
      body = { status = "ok" }
    }
  }
}

endpoint "GET /spin" {
  pipeline {
    starlark "spin" {
      timeout   = "20s"
      max_steps = 1000000000000
      source    = <<-EOT
        def execute(ctx):
            n = 0
            while True:
                n += 1
      EOT
    }
    respond {
      body = steps.spin.result
    }
  }
}

endpoint "GET /echo" {
  pipeline {
    starlark "echo" {
      source = <<-EOT
        def execute(ctx):
            return {"id": ctx["request_id"]}
      EOT
    }
    respond {
      body = steps.echo.result
    }
  }
}
`;

let svc: ServedService;
let port: number;

before(async () => {
  svc = await serveManifest(MANIFEST, { requestTimeoutMs: 30_000 });
  await svc.app.listen({ host: '127.0.0.1', port: 0 });
  port = (svc.app.server.address() as AddressInfo).port;
});

after(() => svc.close());

/** A GET over a real socket; `abortAfterMs` hangs up before the answer. */
function get(path: string, abortAfterMs?: number): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - started }));
    });
    req.on('error', (e) => (abortAfterMs === undefined ? reject(e) : resolve({ status: 0, ms: performance.now() - started })));
    req.end();
    if (abortAfterMs !== undefined) setTimeout(() => req.destroy(), abortAfterMs);
  });
}

test('serve: /health is not held while every worker spins a script; hanging up stops the scripts', async () => {
  assert.equal((await get('/echo')).status, 200); // the pool's workers start
  for (let i = 0; i < 50; i++) await get('/health'); // warm
  const pool = starlarkPool();
  const spins = Array.from({ length: pool.size }, () => get('/spin', 1500));
  await new Promise((r) => setTimeout(r, 200));
  const p99 = async (): Promise<number> => {
    const health: number[] = [];
    for (let i = 0; i < 200; i++) {
      const r = await get('/health');
      assert.equal(r.status, 200);
      health.push(r.ms);
    }
    health.sort((a, b) => a - b);
    return health[Math.floor(health.length * 0.99)]!;
  };
  // Scripts on the event loop would hold /health for the 1.3 s the clients wait. The 50 ms goal is
  // asserted where the scheduler adds less (the pool's timer-lag test) and measured in
  // bench/starlark-loop: through the HTTP stack, on a 2-CPU machine at load average 10, this test's
  // p99 reached 83 ms. A second series when the first misses: a loaded machine can stall one.
  let worst = await p99();
  if (worst >= 250) worst = Math.min(worst, await p99());
  assert.ok(worst < 250, `/health p99 ${worst.toFixed(0)} ms`);
  await Promise.all(spins); // the clients hung up at 1.5 s, 18.5 s before the scripts' budget
  const started = pool.started;
  const echo = await get('/echo');
  assert.equal(echo.status, 200);
  assert.ok(echo.ms < 3000, `the next script waited ${echo.ms.toFixed(0)} ms for a worker`);
  assert.equal(pool.started, started, 'the interrupt flag stopped the scripts: no worker killed');
});
