/**
 * `server { metrics = "/metrics" }`: the page is Prometheus text (parsed strictly, metrics-helpers.ts)
 * with requests by method, declared route and status, step durations by kind, Starlark budget
 * exhaustion, open streams and per-connection pool usage; on the embedded engines (PGlite, `memory:`),
 * and on the real PostgreSQL server when the test command started one.
 */
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { after, test } from 'node:test';
import { eventually, REAL_POSTGRES_URL } from '../connectors/helpers.js';
import { sampleValue, samplesOf, serveWithTelemetry } from './metrics-helpers.js';

const SERVER = `
server {
  metrics = "/metrics"
}
`;

const open: { close(): Promise<void> }[] = [];
after(async () => {
  for (const s of open) await s.close();
});

async function serve(source: string): Promise<Awaited<ReturnType<typeof serveWithTelemetry>>> {
  const s = await serveWithTelemetry(source);
  open.push(s);
  return s;
}

test('requests are counted and timed by method, route as declared and status, never by raw path', async () => {
  const s = await serve(`${SERVER}
endpoint "GET /users/{id}" {
  pipeline {
    respond {
      condition = ctx.request.path.id == "404"
      status    = 404
      body      = { missing = ctx.request.path.id }
    }
    respond {
      body = { id = ctx.request.path.id }
    }
  }
}
endpoint "GET /files/{rest...}" {
  pipeline {
    respond {
      body = ctx.request.path.rest
    }
  }
}
`);
  for (const url of ['/users/1', '/users/2', '/users/404', '/nowhere', '/files/a/b', '/files/c']) await s.app.inject({ method: 'GET', url });
  await s.app.inject({ method: 'DELETE', url: '/users/7' });
  await s.app.inject({ method: 'HEAD', url: '/users/3' });

  const page = await s.scrape();
  const count = (method: string, route: string, status: string) => sampleValue(page, 'svc_http_requests_total', { method, route, status });
  assert.equal(count('GET', '/users/{id}', '200'), 2);
  assert.equal(count('GET', '/users/{id}', '404'), 1);
  assert.equal(count('GET', 'unmatched', '404'), 1);
  assert.equal(count('GET', '/files/{rest...}', '200'), 2);
  assert.equal(count('DELETE', '/users/{id}', '405'), 1);
  assert.equal(count('HEAD', '/users/{id}', '200'), 1);
  assert.equal(page.get('svc_http_requests_total')?.type, 'counter');
  assert.equal(page.get('svc_http_request_duration_seconds')?.type, 'histogram');
  // The histogram's count agrees with the counter, series by series.
  for (const sample of samplesOf(page, 'svc_http_requests_total')) {
    assert.equal(sampleValue(page, 'svc_http_request_duration_seconds_count', sample.labels), sample.value, JSON.stringify(sample.labels));
  }
  const routes = new Set(samplesOf(page, 'svc_http_requests_total').map((x) => x.labels.route));
  assert.deepEqual([...routes].sort(), ['/files/{rest...}', '/users/{id}', 'unmatched']);

  // The scrape itself is a request of the metrics route, counted by the next one.
  const again = await s.scrape();
  assert.equal(sampleValue(again, 'svc_http_requests_total', { method: 'GET', route: '/metrics', status: '200' }), 1);
  // And it is logged like any request.
  assert.ok(s.log.requests().some((l) => l.url === '/metrics' && l.status === 200));
});

test('step durations by kind and outcome, and Starlark budgets counted by which ran out', async () => {
  const s = await serve(`${SERVER}
connection "redis" "c" {
  url = "memory:"
}
endpoint "GET /ok" {
  pipeline {
    redis "hit" {
      connection = connection.redis.c
      command    = "INCR"
      key        = "hits"
    }
    starlark "double" {
      source = <<-EOT
        def execute(ctx):
            return ctx["steps"]["hit"]["value"] * 2
      EOT
    }
    respond {
      body = steps.double.result
    }
  }
}
endpoint "GET /steps" {
  pipeline {
    starlark "spin" {
      max_steps = 1000
      source    = <<-EOT
        def execute(ctx):
            n = 0
            for i in range(1000000):
                n += i
            return n
      EOT
    }
    respond {
      body = steps.spin.result
    }
  }
}
endpoint "GET /slow" {
  pipeline {
    starlark "spin" {
      max_steps = 100000000000
      timeout   = "50ms"
      source    = <<-EOT
        def execute(ctx):
            n = 0
            for i in range(100000000000):
                n += i
            return n
      EOT
    }
    respond {
      body = steps.spin.result
    }
  }
}
endpoint "GET /fails" {
  pipeline {
    starlark "oops" {
      source = <<-EOT
        def execute(ctx):
            fail("no")
      EOT
    }
    respond {
      body = steps.oops.result
    }
  }
}
`);
  assert.equal((await s.app.inject({ method: 'GET', url: '/ok' })).statusCode, 200);
  assert.equal((await s.app.inject({ method: 'GET', url: '/ok' })).statusCode, 200);
  assert.equal((await s.app.inject({ method: 'GET', url: '/steps' })).statusCode, 500);
  assert.equal((await s.app.inject({ method: 'GET', url: '/slow' })).statusCode, 504);
  assert.equal((await s.app.inject({ method: 'GET', url: '/fails' })).statusCode, 500);

  const page = await s.scrape();
  const steps = (kind: string, outcome: string) => sampleValue(page, 'svc_step_duration_seconds_count', { kind, outcome });
  assert.equal(steps('redis', 'ok'), 2);
  assert.equal(steps('starlark', 'ok'), 2);
  assert.equal(steps('starlark', 'error'), 3);
  // `respond` is a step too (an exit node): the two /ok answers.
  assert.equal(steps('respond', 'ok'), 2);
  assert.ok((sampleValue(page, 'svc_step_duration_seconds_sum', { kind: 'starlark', outcome: 'error' }) ?? 0) >= 0.05, 'the time-out took its 50 ms');
  assert.equal(sampleValue(page, 'svc_starlark_budget_exhausted_total', { budget: 'steps' }), 1);
  assert.equal(sampleValue(page, 'svc_starlark_budget_exhausted_total', { budget: 'timeout' }), 1);
  // fail() is an error of the script, not a budget.
  assert.equal(sampleValue(page, 'svc_starlark_budget_exhausted_total', { budget: 'size' }), undefined);
  assert.equal(page.get('svc_starlark_budget_exhausted_total')?.type, 'counter');
});

test('open streams: a live SSE stream counts while its client is connected', async () => {
  const s = await serve(`${SERVER}
connection "redis" "c" {
  url = "memory:"
}
endpoint "GET /events" {
  pipeline {
    redis "feed" {
      connection = connection.redis.c
      command    = "SUBSCRIBE"
      channel    = "news"
    }
    stream "sse" {
      source = steps.feed.stream
    }
  }
}
endpoint "GET /list" {
  pipeline {
    stream "ndjson" {
      source = [1, 2, 3]
    }
  }
}
`);
  assert.equal(sampleValue(await s.scrape(), 'svc_open_streams'), 0);
  const address = await s.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = new URL(address);
  const client = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/events' }, resolve);
    req.on('error', reject);
    req.end();
  });
  assert.equal(client.statusCode, 200);
  assert.equal(sampleValue(await s.scrape(), 'svc_open_streams'), 1);
  // A finite stream ends with its response: it is not left counted.
  assert.equal((await s.app.inject({ method: 'GET', url: '/list' })).statusCode, 200);
  assert.equal(sampleValue(await s.scrape(), 'svc_open_streams'), 1);
  client.destroy();
  // Liveness bound only: the server notices the client left.
  await eventually(
    async () => sampleValue(await s.scrape(), 'svc_open_streams'),
    (n) => n === 0,
    10_000,
  );
  assert.equal(sampleValue(await s.scrape(), 'svc_open_streams'), 0);
  const page = await s.scrape();
  assert.equal(sampleValue(page, 'svc_http_requests_total', { method: 'GET', route: '/events', status: '200' }), 1);
  assert.equal(page.get('svc_open_streams')?.type, 'gauge');
});

/** A service with a pool: a slow query holds one client while the page is read. */
function poolManifest(url: string): string {
  return `${SERVER}
connection "postgres" "db" {
  url = "${url}"
  pool {
    max = 3
  }
}
connection "redis" "c" {
  url = "memory:"
}
endpoint "GET /sleep" {
  pipeline {
    sql "nap" {
      connection = connection.postgres.db
      query      = "SELECT pg_sleep(0.3) AS slept"
    }
    respond {
      body = "rested"
    }
  }
}
`;
}

for (const target of [
  { name: 'PGlite', url: 'pglite:', max: 1 },
  { name: 'PostgreSQL', url: REAL_POSTGRES_URL, max: 3 },
]) {
  test(`pool usage per connection, read at scrape time (${target.name})`, { skip: target.url === undefined && 'no real PostgreSQL' }, async () => {
    const s = await serve(poolManifest(target.url!));
    let page = await s.scrape();
    assert.equal(sampleValue(page, 'svc_connection_up', { connection: 'postgres.db', kind: 'postgres' }), 1);
    assert.equal(sampleValue(page, 'svc_connection_up', { connection: 'redis.c', kind: 'redis' }), 1);
    assert.equal(sampleValue(page, 'svc_redis_queued_commands', { connection: 'redis.c' }), 0);
    // PGlite runs one query at a time: its pool has one client, whatever the manifest asks.
    assert.equal(sampleValue(page, 'svc_pool_max_clients', { connection: 'postgres.db' }), target.max);
    assert.equal(sampleValue(page, 'svc_pool_waiting', { connection: 'postgres.db' }), 0);

    const slow = s.app.inject({ method: 'GET', url: '/sleep' });
    page = await eventually(
      () => s.scrape(),
      (p) => sampleValue(p, 'svc_pool_clients', { connection: 'postgres.db', state: 'in_use' }) === 1,
      10_000,
    );
    assert.equal(sampleValue(page, 'svc_pool_clients', { connection: 'postgres.db', state: 'in_use' }), 1);
    assert.equal((await slow).statusCode, 200);
    page = await s.scrape();
    assert.equal(sampleValue(page, 'svc_pool_clients', { connection: 'postgres.db', state: 'in_use' }), 0);
    assert.ok((sampleValue(page, 'svc_pool_clients', { connection: 'postgres.db', state: 'idle' }) ?? 0) >= 1);
    assert.equal(sampleValue(page, 'svc_step_duration_seconds_count', { kind: 'sql', outcome: 'ok' }), 1);
    // After closing, the connection reads as down.
    await s.connectors.closeAll();
    assert.equal(sampleValue(await s.scrape(), 'svc_connection_up', { connection: 'postgres.db', kind: 'postgres' }), 0);
  });
}

test('the page answers HEAD, is not cached, and a path an endpoint already has is refused by the manifest check', async () => {
  const s = await serve(`${SERVER}
endpoint "GET /a" {
  pipeline {
    respond {
      body = 1
    }
  }
}
`);
  const head = await s.app.inject({ method: 'HEAD', url: '/metrics' });
  assert.equal(head.statusCode, 200);
  assert.equal(head.body, '');
  const get = await s.app.inject({ method: 'GET', url: '/metrics' });
  assert.equal(get.headers['cache-control'], 'no-store');
  assert.ok(typeof get.headers['x-request-id'] === 'string');
  assert.equal((await s.app.inject({ method: 'POST', url: '/metrics' })).statusCode, 404);

  await assert.rejects(
    serveWithTelemetry(`
server {
  metrics = "/a"
}
endpoint "POST /a" {
  pipeline {
    respond {
      body = 1
    }
  }
}
`),
    // A manifest diagnostic (src/model/checks/routes.ts), so `svc check` refuses it too.
    /Route taken by the metrics page/,
  );
});
