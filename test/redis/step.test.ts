/**
 * The `redis` / `kv` step through HTTP, served in-process on real connections, on both stores:
 * every operation and its output `value`, the value encoding of DECISIONS.md §1 (strings as they
 * are, anything else as JSON, JSON read back decoded), both dialects, and the failures (a bad key
 * is a 500 that names the step and leaks nothing).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, type ServedManifest } from '../postgres/helpers.js';
import { eventually, STORES, unique } from './helpers.js';

/** The manifest's ttl of 2 s, and a margin for a loaded machine. */
const EXPIRY_WAIT_MS = 7000;

const MANIFEST = `
connection "redis" "cache" {
  url = "{{REDIS}}"
}

endpoint "PUT /text/{key}" {
  request {
    path {
      field "key" {
        type = string
      }
    }
    query {
      field "v" {
        type     = string
        required = true
      }
    }
  }
  pipeline {
    redis "put" {
      connection = connection.redis.cache
      command    = "SET"
      key        = ctx.request.path.key
      value      = ctx.request.query.v
    }
    respond {
      body = { reply = steps.put.value }
    }
  }
}

endpoint "PUT /object/{key}" {
  request {
    path {
      field "key" {
        type = string
      }
    }
  }
  pipeline {
    kv "put" {
      connection = connection.redis.cache
      command    = "set"
      key        = ctx.request.path.key
      value      = { name = "Ada", tags = ["a", "b"], n = 3, nested = { ok = true, none = null } }
      ttl        = "2s"
    }
    respond {
      status = 204
    }
  }
}

endpoint "GET /kv/{key}" {
  request {
    path {
      field "key" {
        type = string
      }
    }
  }
  pipeline {
    redis "get" {
      connection = connection.redis.cache
      command    = "GET"
      key        = ctx.request.path.key
    }
    respond {
      condition = steps.get.value == null
      body      = problem(404, "No such key")
    }
    respond {
      body = { value = steps.get.value }
    }
  }
}

endpoint "DELETE /kv/{key}" {
  request {
    path {
      field "key" {
        type = string
      }
    }
  }
  pipeline {
    redis "del" {
      connection = connection.redis.cache
      command    = "DEL"
      key        = ctx.request.path.key
    }
    redis "exists" {
      connection = connection.redis.cache
      command    = "EXISTS"
      key        = ctx.request.path.key
    }
    respond {
      body = { removed = steps.del.value, exists = steps.exists.value }
    }
  }
}

endpoint "GET /exists/{key}" {
  request {
    path {
      field "key" {
        type = string
      }
    }
  }
  pipeline {
    redis "exists" {
      connection = connection.redis.cache
      command    = "exists"
      key        = ctx.request.path.key
    }
    respond {
      body = { exists = steps.exists.value }
    }
  }
}

endpoint "POST /expire/{key}" {
  request {
    path {
      field "key" {
        type = string
      }
    }
  }
  pipeline {
    redis "expire" {
      connection = connection.redis.cache
      command    = "EXPIRE"
      key        = ctx.request.path.key
      ttl        = "2s"
    }
    respond {
      body = { expiring = steps.expire.value }
    }
  }
}

endpoint "POST /publish/{channel}" {
  request {
    path {
      field "channel" {
        type = string
      }
    }
  }
  pipeline {
    redis "publish" {
      connection = connection.redis.cache
      command    = "PUBLISH"
      channel    = ctx.request.path.channel
      value      = { event = "created", id = 7 }
    }
    respond {
      body = { receivers = steps.publish.value }
    }
  }
}

endpoint "GET /bad-key" {
  pipeline {
    redis "broken" {
      connection = connection.redis.cache
      command    = "GET"
      key        = [ctx.request.method]
    }
    respond {
      body = "never"
    }
  }
}

route "POST /count/{key}" {
  request {
    path "key" {
      type = string
    }
  }
  kv "bump" {
    connection = "cache"
    op         = "incr"
    key        = "count:\${ctx.request.path.key}"
  }
  respond {
    body = { count = steps.bump.value }
  }
}
`;

for (const store of STORES) {
  describe(`redis steps on ${store.name}`, { skip: store.skip }, () => {
    let s: ServedManifest;
    before(async () => {
      s = await serve(MANIFEST.replaceAll('{{REDIS}}', store.url), '');
    });
    after(() => s?.close());
    const k = (): string => encodeURIComponent(unique());

    test('SET a string, GET it back as that string; SET answers "OK"; a miss is null (here a 404)', async () => {
      const key = k();
      const put = await s.app.inject({ method: 'PUT', url: `/text/${key}`, query: { v: 'hello, wörld' } });
      assert.equal(put.statusCode, 200, put.body);
      assert.deepEqual(put.json(), { reply: 'OK' });
      const got = await s.app.inject({ method: 'GET', url: `/kv/${key}` });
      assert.deepEqual(got.json(), { value: 'hello, wörld' });
      const miss = await s.app.inject({ method: 'GET', url: `/kv/${k()}` });
      assert.equal(miss.statusCode, 404);
      assert.equal(miss.json().title, 'No such key');
    });

    test('a non-string value is stored as JSON and read back decoded; JSON text stored as a string is decoded too', async () => {
      const key = k();
      assert.equal((await s.app.inject({ method: 'PUT', url: `/object/${key}` })).statusCode, 204);
      const raw = await s.connectors.handle('redis', 'cache').get(decodeURIComponent(key));
      assert.equal(raw, '{"name":"Ada","tags":["a","b"],"n":3,"nested":{"ok":true,"none":null}}');
      const got = await s.app.inject({ method: 'GET', url: `/kv/${key}` });
      assert.deepEqual(got.json(), { value: { name: 'Ada', tags: ['a', 'b'], n: 3, nested: { ok: true, none: null } } });
      for (const [text, value] of [
        ['42', 42],
        ['-1.5', -1.5],
        ['true', true],
        ['[1,"two"]', [1, 'two']],
        ['"quoted"', 'quoted'],
        ['12345678901234567890', '12345678901234567890'],
        ['42 apples', '42 apples'],
        ['{not json', '{not json'],
        ['nullish', 'nullish'],
      ] as const) {
        const textKey = k();
        await s.app.inject({ method: 'PUT', url: `/text/${textKey}`, query: { v: text } });
        const back = await s.app.inject({ method: 'GET', url: `/kv/${textKey}` });
        if (text === '12345678901234567890') assert.equal(back.body, '{"value":12345678901234567890}', 'an integer past 2^53 stays exact');
        else assert.deepEqual(back.json(), { value }, text);
      }
    });

    test('SET with ttl expires; EXPIRE answers whether the key exists and expires it', async () => {
      // The manifest's ttl (2 s) is long enough for the checks within it on a loaded machine; the
      // expiry is then waited for, not slept for.
      const status = async (url: string) => (await s.app.inject({ method: 'GET', url })).statusCode;
      const key = k();
      await s.app.inject({ method: 'PUT', url: `/object/${key}` });
      assert.equal(await status(`/kv/${key}`), 200);
      assert.equal(
        await eventually(
          () => status(`/kv/${key}`),
          (code) => code === 404,
          EXPIRY_WAIT_MS,
        ),
        404,
      );

      const other = k();
      assert.deepEqual((await s.app.inject({ method: 'POST', url: `/expire/${other}` })).json(), { expiring: false });
      await s.app.inject({ method: 'PUT', url: `/text/${other}`, query: { v: 'x' } });
      assert.deepEqual((await s.app.inject({ method: 'POST', url: `/expire/${other}` })).json(), { expiring: true });
      const exists = async () => ((await s.app.inject({ method: 'GET', url: `/exists/${other}` })).json() as { exists: boolean }).exists;
      assert.equal(await exists(), true, 'EXPIRE leaves the key until its time-to-live passes');
      assert.equal(await eventually(exists, (there) => !there, EXPIRY_WAIT_MS), false);
    });

    test('DEL answers the keys removed, EXISTS a boolean', async () => {
      const key = k();
      await s.app.inject({ method: 'PUT', url: `/text/${key}`, query: { v: 'x' } });
      assert.deepEqual((await s.app.inject({ method: 'GET', url: `/exists/${key}` })).json(), { exists: true });
      assert.deepEqual((await s.app.inject({ method: 'DELETE', url: `/kv/${key}` })).json(), { removed: 1, exists: false });
      assert.deepEqual((await s.app.inject({ method: 'DELETE', url: `/kv/${key}` })).json(), { removed: 0, exists: false });
    });

    test('INCR in the route dialect (kv, op, connection by name): concurrent requests count without loss', async () => {
      const key = k();
      const answers = await Promise.all(Array.from({ length: 50 }, () => s.app.inject({ method: 'POST', url: `/count/${key}` })));
      assert.deepEqual(
        answers.map((a) => a.statusCode).filter((c) => c !== 200),
        [],
      );
      assert.deepEqual(
        answers.map((a) => a.json().count).sort((a, b) => a - b),
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
    });

    test('INCR of a non-integer is a 500 naming the step, without the server message', async () => {
      const key = k();
      await s.app.inject({ method: 'PUT', url: `/text/count:${key}`, query: { v: 'abc' } });
      const failed = await s.app.inject({ method: 'POST', url: `/count/${key}` });
      assert.equal(failed.statusCode, 500);
      assert.equal(failed.json().step, 'bump');
      assert.doesNotMatch(failed.body, /not an integer/);
      const logged = s.log.lines.find((l) => JSON.stringify(l).includes('ERR value is not an integer or out of range'));
      assert.ok(logged, 'the full error is logged');
    });

    test('PUBLISH answers the receivers; a listener hears the JSON of a non-string value', async () => {
      const channel = unique('ch');
      assert.deepEqual((await s.app.inject({ method: 'POST', url: `/publish/${channel}` })).json(), { receivers: 0 });
      const heard: string[] = [];
      const subscription = await s.connectors.handle('redis', 'cache').subscribe(channel, (m) => heard.push(m));
      assert.deepEqual((await s.app.inject({ method: 'POST', url: `/publish/${channel}` })).json(), { receivers: 1 });
      await eventually(
        () => heard.length,
        (n) => n === 1,
      );
      assert.deepEqual(heard, ['{"event":"created","id":7}']);
      subscription.unsubscribe();
    });

    test('a key that is not text is a 500 naming the step', async () => {
      const r = await s.app.inject({ method: 'GET', url: '/bad-key' });
      assert.equal(r.statusCode, 500);
      assert.equal(r.json().step, 'broken');
    });
  });
}
