/**
 * A value of the request that the database refuses (SQLSTATE class 22, data exception: a NUL
 * character in text, text that is no number) is the request's fault: a 400 problem naming the step,
 * never a 500 that blames the server, on both engines. Found by the request fuzzer (test/fuzz).
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeTargets, serve, TARGETS } from './helpers.js';

const MANIFEST = `
connection "postgres" "db" {
  url = "{{DB}}"
}
endpoint "POST /echo" {
  request {
    body {
      field "text" {
        type = string
      }
    }
  }
  pipeline {
    sql "echo" {
      connection = connection.postgres.db
      query      = "SELECT @text::text AS text, length(@text::text) AS n"
      args       = { text = ctx.request.body.text }
    }
    respond {
      body = steps.echo.row
    }
  }
}
endpoint "GET /number/{text}" {
  pipeline {
    sql "cast" {
      connection = connection.postgres.db
      query      = "SELECT @text::int AS n"
      args       = { text = ctx.request.path.text }
    }
    respond {
      body = steps.cast.row
    }
  }
}
`;

after(closeTargets);

for (const target of TARGETS) {
  describe(`data exceptions on ${target.name}`, { skip: target.skip }, () => {
    test('a NUL character in text, and text that is no integer, are 400 problems naming the step', async () => {
      const s = await serve(MANIFEST, await target.fresh());
      try {
        const ok = await s.app.inject({ method: 'POST', url: '/echo', payload: { text: 'héllo' } });
        assert.deepEqual(ok.json(), { text: 'héllo', n: 5 });
        const nul = await s.app.inject({ method: 'POST', url: '/echo', payload: { text: 'a\u0000b' } });
        assert.equal(nul.statusCode, 400);
        assert.equal(nul.json().step, 'echo');
        assert.match(nul.headers['content-type'] as string, /^application\/problem\+json/);
        assert.doesNotMatch(nul.body, /0x00|UTF8|invalid byte/i, 'the database message stays in the log');
        const nan = await s.app.inject({ method: 'GET', url: '/number/abc' });
        assert.equal(nan.statusCode, 400);
        assert.equal((await s.app.inject({ method: 'GET', url: '/number/42' })).json().n, 42);
      } finally {
        await s.close();
      }
    });
  });
}
