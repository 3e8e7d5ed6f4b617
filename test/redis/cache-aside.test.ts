/**
 * The cache-aside endpoint of SPEC.md §4.4, `GET /api/v1/products/{sku}`: a cache lookup first (a
 * hit answers the cached body with `X-Cache: HIT`), else the database (404 on zero rows), the row
 * written to the cache with a time-to-live and answered with `X-Cache: MISS`. On the embedded
 * engines (memory: and PGlite) and on the real servers the test command starts.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeTargets, serve, TARGETS } from '../postgres/helpers.js';
import { eventually, STORES } from './helpers.js';

after(closeTargets);

const MANIFEST = `
connection "postgres" "db" {
  url = "{{DB}}"
}

connection "redis" "cache" {
  url = "{{REDIS}}"
}

endpoint "POST /setup" {
  pipeline {
    sql "create" {
      connection = connection.postgres.db
      query      = "CREATE TABLE products (sku text PRIMARY KEY, name text NOT NULL, price numeric(10, 2) NOT NULL, stock int NOT NULL)"
    }
    sql "seed" {
      connection = connection.postgres.db
      query      = "INSERT INTO products VALUES ('{{SKU}}', 'Widget', 9.90, 12)"
    }
    respond {
      status = 204
    }
  }
}

endpoint "POST /restock/{sku}" {
  request {
    path {
      field "sku" {
        type = string
      }
    }
  }
  pipeline {
    sql "restock" {
      connection = connection.postgres.db
      query      = "UPDATE products SET stock = stock + 1 WHERE sku = @sku"
      args       = { sku = ctx.request.path.sku }
    }
    respond {
      status = 204
    }
  }
}

endpoint "GET /api/v1/products/{sku}" {
  request {
    path {
      field "sku" {
        type = string
      }
    }
  }
  pipeline {
    redis "cached" {
      connection = connection.redis.cache
      command    = "GET"
      key        = "product:\${ctx.request.path.sku}"
    }
    respond {
      condition = steps.cached.value != null
      headers   = { "X-Cache" = "HIT" }
      body      = steps.cached.value
    }
    sql "product" {
      connection = connection.postgres.db
      query      = "SELECT sku, name, price, stock FROM products WHERE sku = @sku"
      args       = { sku = ctx.request.path.sku }
    }
    respond {
      condition = steps.product.row == null
      body      = problem(404, "Product not found")
    }
    redis "store" {
      connection = connection.redis.cache
      command    = "SET"
      key        = "product:\${ctx.request.path.sku}"
      value      = steps.product.row
      ttl        = "3s"
    }
    respond {
      headers = { "X-Cache" = "MISS" }
      body    = steps.product.row
    }
  }
}
`;

const COMBINATIONS = [
  { name: 'memory: and PGlite', store: STORES[0]!, database: TARGETS[0]! },
  { name: 'Redis and PostgreSQL', store: STORES[1]!, database: TARGETS[1]! },
];

for (const { name, store, database } of COMBINATIONS) {
  describe(`cache-aside on ${name}`, { skip: store.skip || database.skip }, () => {
    test('MISS from the database, then HIT from the cache until the ttl passes; 404 for an unknown sku, never cached', async () => {
      // Unique per process: the test files share one Redis server.
      const sku = `W-${process.pid}-${Date.now()}`;
      const s = await serve(MANIFEST.replaceAll('{{REDIS}}', store.url).replaceAll('{{SKU}}', sku), await database.fresh());
      try {
        assert.equal((await s.app.inject({ method: 'POST', url: '/setup' })).statusCode, 204);
        const row = { sku, name: 'Widget', price: '9.90', stock: 12 };
        const url = `/api/v1/products/${sku}`;

        const miss = await s.app.inject({ method: 'GET', url });
        assert.equal(miss.statusCode, 200, miss.body);
        assert.equal(miss.headers['x-cache'], 'MISS');
        assert.deepEqual(miss.json(), row);

        const hit = await s.app.inject({ method: 'GET', url });
        assert.equal(hit.statusCode, 200);
        assert.equal(hit.headers['x-cache'], 'HIT');
        assert.deepEqual(hit.json(), row);
        assert.match(hit.headers['content-type'] as string, /^application\/json/);

        // The cache answers until its entry expires, even when the row changes. The ttl (3 s) is long
        // enough for these steps on a loaded machine; the expiry is then waited for, not slept for:
        // the first answer that is not a hit comes from the database.
        assert.equal((await s.app.inject({ method: 'POST', url: `/restock/${sku}` })).statusCode, 204);
        assert.equal((await s.app.inject({ method: 'GET', url })).json().stock, 12);
        const again = await eventually(
          async () => {
            const res = await s.app.inject({ method: 'GET', url });
            if (res.headers['x-cache'] === 'HIT') assert.equal(res.json().stock, 12, 'a hit answers the cached row');
            return res;
          },
          (res) => res.headers['x-cache'] !== 'HIT',
          8000,
        );
        assert.equal(again.headers['x-cache'], 'MISS');
        assert.equal(again.json().stock, 13);

        for (let i = 0; i < 2; i++) {
          const missing = await s.app.inject({ method: 'GET', url: `/api/v1/products/${sku}-nope` });
          assert.equal(missing.statusCode, 404);
          assert.equal(missing.headers['x-cache'], undefined);
          assert.equal(missing.json().title, 'Product not found');
        }
        assert.equal(await s.connectors.handle('redis', 'cache').exists(`product:${sku}-nope`), 0);
      } finally {
        await s.close();
      }
    });

    test('a hit answers the stored JSON text as it is: its spacing, and an integer past 2^53 exact', async () => {
      const sku = `T-${process.pid}-${Date.now()}`;
      const s = await serve(MANIFEST.replaceAll('{{REDIS}}', store.url).replaceAll('{{SKU}}', sku), await database.fresh());
      try {
        // Written by another program: JSON.parse would round the id, JSON.stringify drop the spaces.
        const stored = `{ "sku": "${sku}", "id": 9007199254740993, "tags": ["a", "b"] }`;
        await s.connectors.handle('redis', 'cache').set(`product:${sku}`, stored);
        const hit = await s.app.inject({ method: 'GET', url: `/api/v1/products/${sku}` });
        assert.equal(hit.statusCode, 200);
        assert.equal(hit.headers['x-cache'], 'HIT');
        assert.equal(hit.body, stored);
        assert.equal(hit.headers['content-length'], String(Buffer.byteLength(stored)));
      } finally {
        await s.close();
      }
    });
  });
}
