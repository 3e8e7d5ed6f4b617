/**
 * An empty path segment where a `{name}` parameter stands (`/items/` for `/items/{id}`) is no
 * resource's address: 404, as for a path no endpoint serves, whatever the parameter's type (issue
 * 36: it was a 422 for an integer id, and a lookup of "" for a string). A trailing `{rest...}` may
 * still be empty.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveManifest } from './helpers.js';

const MANIFEST = `
endpoint "GET /items/{id}" {
  request {
    path {
      field "id" {
        type = integer
      }
    }
  }
  pipeline {
    respond {
      body = { id = ctx.request.path.id }
    }
  }
}
endpoint "GET /names/{name}/greeting" {
  pipeline {
    respond {
      body = { name = ctx.request.path.name }
    }
  }
}
endpoint "GET /files/{rest...}" {
  pipeline {
    respond {
      body = { rest = ctx.request.path.rest }
    }
  }
}
`;

test('an empty {id} or {name} segment is a 404 problem; a value is served; an empty {rest...} is served', async () => {
  const served = await serveManifest(MANIFEST);
  try {
    for (const url of ['/items/', '/names//greeting']) {
      const res = await served.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 404, `${url}: ${res.body}`);
      assert.match(res.headers['content-type'] as string, /^application\/problem\+json/);
      assert.equal(res.json().detail, 'no endpoint matches the request path');
      assert.ok(res.headers['x-request-id']);
    }
    assert.deepEqual((await served.app.inject({ method: 'GET', url: '/items/5' })).json(), { id: 5 });
    assert.equal((await served.app.inject({ method: 'GET', url: '/items/x' })).statusCode, 422, 'a malformed id is still a 422');
    assert.deepEqual((await served.app.inject({ method: 'GET', url: '/names/ada/greeting' })).json(), { name: 'ada' });
    assert.deepEqual((await served.app.inject({ method: 'GET', url: '/files/' })).json(), { rest: '' });
  } finally {
    await served.close();
  }
});
