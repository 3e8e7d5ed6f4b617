/**
 * `on_error = "continue"` (issue 36): a webhook after an UPDATE whose receiver is down no longer
 * turns a committed change into a 502. The failed step's outputs say what failed (`ok`, `error`
 * with the status, type, title and category the request would have been answered with, nothing of
 * the cause), a successful one has `ok = true` and `error = null` beside its own outputs; the
 * failure is logged through the compile option svc serve wires to its logger; an sql, a starlark
 * and a time-out failure alike.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StepError } from '../../graph/index.js';
import { serveManifest, type ServedService } from '../http/helpers.js';

let receiver: Server;
let receiverUrl = '';
/** A port nothing listens on: connections are refused. */
let closedUrl = '';
const hooks: string[] = [];

before(async () => {
  receiver = createServer((req, res) => {
    hooks.push(`${req.method} ${req.url}`);
    if (req.url === '/slow') return; // never answers
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});
after(() => {
  receiver.closeAllConnections();
  receiver.close();
});

function manifest(hookUrl: string): string {
  return `
    connection "postgres" "db" {
      url = "pglite:"
    }
    endpoint "POST /orders/{id}/ship" {
      request {
        path {
          field "id" {
            type = integer
          }
        }
      }
      pipeline {
        sql "shipped" {
          connection = connection.postgres.db
          query      = "SELECT @id::int AS id, 'shipped' AS state"
          args       = { id = ctx.request.path.id }
        }
        http "hook" {
          url      = "${hookUrl}"
          method   = "POST"
          body     = steps.shipped.row
          timeout  = "200ms"
          on_error = "continue"
        }
        respond {
          body = { order = steps.shipped.row, hook_ok = steps.hook.ok, hook_error = steps.hook.error, hook_status = steps.hook.status }
        }
      }
    }
    endpoint "GET /broken" {
      pipeline {
        sql "bad" {
          connection = connection.postgres.db
          query      = "SELECT nam FROM no_such_table"
          on_error   = "continue"
        }
        starlark "calc" {
          on_error = "continue"
          source   = <<-EOT
            def execute(ctx):
                fail("no")
          EOT
        }
        respond {
          body = { sql = steps.bad.error, sql_ok = steps.bad.ok, calc = steps.calc.error }
        }
      }
    }
  `;
}

async function served(hookUrl: string): Promise<{ s: ServedService; continued: StepError[] }> {
  const continued: StepError[] = [];
  const s = await serveManifest(manifest(hookUrl), { compile: { onContinuedError: (error) => continued.push(error) } });
  return { s, continued };
}

test('the receiver is down: the change is answered 200, the hook says bad-gateway (502), and the failure is reported', async () => {
  const { s, continued } = await served(`${closedUrl}/hook`);
  try {
    const res = await s.app.inject({ method: 'POST', url: '/orders/7/ship' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      order: { id: 7, state: 'shipped' },
      hook_ok: false,
      hook_error: { status: 502, type: 'urn:svc:error:bad-gateway', title: 'Bad Gateway', category: 'bad-gateway', step: 'hook' },
      hook_status: null,
    });
    assert.doesNotMatch(res.body, /ECONNREFUSED|127\.0\.0\.1/, 'nothing of the cause');
    assert.deepEqual(
      continued.map((e) => [e.step, e.category]),
      [['hook', 'bad-gateway']],
    );
  } finally {
    await s.close();
  }
});

test('the receiver is slow: the hook times out (504) and the pipeline goes on', async () => {
  const { s } = await served(`${receiverUrl}/slow`);
  try {
    const res = await s.app.inject({ method: 'POST', url: '/orders/8/ship' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().hook_ok, false);
    assert.equal(res.json().hook_error.status, 504);
    assert.equal(res.json().hook_error.category, 'timeout');
  } finally {
    await s.close();
  }
});

test('the receiver answers: ok is true, error null, and the step outputs are all there', async () => {
  const { s, continued } = await served(`${receiverUrl}/hook`);
  try {
    const res = await s.app.inject({ method: 'POST', url: '/orders/9/ship' });
    assert.deepEqual(res.json(), { order: { id: 9, state: 'shipped' }, hook_ok: true, hook_error: null, hook_status: 204 });
    assert.ok(hooks.includes('POST /hook'));
    assert.deepEqual(continued, []);
  } finally {
    await s.close();
  }
});

test('an sql error and a starlark fail() continue too, each saying its own failure (500, internal)', async () => {
  const { s, continued } = await served(`${receiverUrl}/hook`);
  try {
    const res = await s.app.inject({ method: 'GET', url: '/broken' });
    assert.equal(res.statusCode, 200, res.body);
    const internal = (step: string) => ({ status: 500, type: 'urn:svc:error:internal', title: 'Internal Server Error', category: 'internal', step });
    assert.deepEqual(res.json(), { sql: internal('bad'), sql_ok: false, calc: internal('calc') });
    assert.doesNotMatch(res.body, /no_such_table/);
    assert.deepEqual(
      continued.map((e) => e.step),
      ['bad', 'calc'],
    );
  } finally {
    await s.close();
  }
});
