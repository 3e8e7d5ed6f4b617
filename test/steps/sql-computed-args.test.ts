/**
 * A computed `args` (issue 36): `args = merge(defaults, ctx.request.query)` or any expression giving
 * a map is evaluated once per request, each `@name` taking its key, on PGlite; a key the map lacks
 * fails the step (500, the reason in the log only); a constant map is checked at boot like the
 * literal form, with one error per missing parameter.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildServiceModel } from '../../src/steps/index.js';
import { serveManifest } from '../http/helpers.js';

const MANIFEST = `
connection "postgres" "db" {
  url = "pglite:"
}
endpoint "GET /sum" {
  request {
    query {
      field "a" {
        type = int
      }
      field "b" {
        type = int
      }
    }
  }
  pipeline {
    sql "sum" {
      connection = connection.postgres.db
      query      = "SELECT @a::int + @b::int AS total"
      args       = merge({ a = 1, b = 2 }, ctx.request.query)
    }
    respond {
      body = steps.sum.row
    }
  }
}
endpoint "GET /partial" {
  pipeline {
    sql "half" {
      connection = connection.postgres.db
      query      = "SELECT @a::int AS a, @missing::int AS m"
      args       = merge({ a = 1 }, {})
    }
    respond {
      body = steps.half.row
    }
  }
}
`;

test('computed args: the defaults, overridden by the query; one evaluation per request', async () => {
  const served = await serveManifest(MANIFEST.replace(/endpoint "GET \/partial"[\s\S]*$/, ''));
  try {
    assert.deepEqual((await served.app.inject({ method: 'GET', url: '/sum' })).json(), { total: 3 });
    assert.deepEqual((await served.app.inject({ method: 'GET', url: '/sum?b=40' })).json(), { total: 41 });
    assert.deepEqual((await served.app.inject({ method: 'GET', url: '/sum?a=5&b=5' })).json(), { total: 10 });
  } finally {
    await served.close();
  }
});

test('a constant map without a parameter is a boot error naming it, once', () => {
  const built = buildServiceModel([{ filename: 'api.hcl', source: MANIFEST }], { dir: '.' });
  const errors = built.diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(
    errors.map((d) => `${d.summary}: ${d.detail}`),
    ['Missing query argument: The query uses @missing, but "args" gives it no value.'],
  );
});

test('a computed map without a parameter fails the request (500) with the reason in the log only', async () => {
  const source = MANIFEST.replace('args       = merge({ a = 1 }, {})', 'args       = merge({ a = 1 }, ctx.request.query)');
  const served = await serveManifest(source);
  try {
    const res = await served.app.inject({ method: 'GET', url: '/partial' });
    assert.equal(res.statusCode, 500);
    assert.doesNotMatch(res.body, /missing/);
    assert.match(JSON.stringify(served.log.lines), /args has no value for @missing/);
  } finally {
    await served.close();
  }
});
