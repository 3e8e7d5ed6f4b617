/**
 * The document's frame: metadata (DECISIONS.md §1), paths and operations (SPEC.md §4.5), operationIds,
 * parameters, guards as security schemes, and documentation endpoints left out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rowColumns } from '../../src/openapi/sql-columns.js';
import { documentOf, operation } from './helpers.js';

test('metadata: defaults, then the top-level openapi block; servers default to the document origin', () => {
  const bare = documentOf('endpoint "GET /a" {\n  pipeline {\n    respond { body = 1 }\n  }\n}\n');
  assert.deepEqual(bare.info, { title: 'API', version: '1.0.0' });
  assert.deepEqual(bare.servers, [{ url: '/' }]);
  assert.equal(bare.tags, undefined);
  const full = documentOf(`
openapi {
  title       = "Shop"
  version     = "2.1.0"
  description = "Sells things."
  servers     = ["https://api.example.org"]
  tags        = [{ name = "orders", description = "Orders" }]
  contact {
    email = "api@example.org"
  }
  license {
    name = "MIT"
    identifier = "MIT"
  }
}
route "GET /a" {
  tag = "extra"
  respond {
    body = 1
  }
}`);
  assert.deepEqual(full.info, {
    title: 'Shop',
    description: 'Sells things.',
    contact: { email: 'api@example.org' },
    license: { name: 'MIT', identifier: 'MIT' },
    version: '2.1.0',
  });
  assert.deepEqual(full.servers, [{ url: 'https://api.example.org' }]);
  // Declared tags first, then the ones only operations use.
  assert.deepEqual(full.tags, [{ name: 'orders', description: 'Orders' }, { name: 'extra' }]);
  assert.deepEqual(Object.keys(full), ['openapi', 'info', 'servers', 'paths', 'components', 'tags']);
});

test('paths in declaration order, methods in Path Item order, stable unique operationIds, summaries', () => {
  const doc = documentOf(`
endpoint "POST /items" {
  description = "Adds an item\\nwith more words on a second line"
  pipeline {
    respond { status = 201 }
  }
}
endpoint "GET /items" {
  pipeline {
    respond { body = [] }
  }
}
endpoint "GET /a-b" {
  pipeline {
    respond { body = 1 }
  }
}
endpoint "GET /a_b" {
  pipeline {
    respond { body = 1 }
  }
}
endpoint "GET /" {
  pipeline {
    respond { body = 1 }
  }
}
route "DELETE /items/{id}" {
  summary = "Removes an item"
  respond { status = 204 }
}
endpoint "GET /docs" {
  openapi {
    format = "json"
  }
}`);
  assert.deepEqual(Object.keys(doc.paths), ['/items', '/a-b', '/a_b', '/', '/items/{id}']);
  assert.deepEqual(Object.keys(doc.paths['/items']!), ['get', 'post']);
  const post = operation(doc, 'POST', '/items');
  assert.equal(post.operationId, 'postItems');
  assert.equal(post.summary, 'Adds an item');
  assert.equal(post.description, 'Adds an item\nwith more words on a second line');
  assert.equal(operation(doc, 'GET', '/items').summary, 'GET /items');
  assert.equal(operation(doc, 'GET', '/a-b').operationId, 'getAB');
  assert.equal(operation(doc, 'GET', '/a_b').operationId, 'getAB2');
  assert.equal(operation(doc, 'GET', '/').operationId, 'getRoot');
  const del = operation(doc, 'DELETE', '/items/{id}');
  assert.equal(del.operationId, 'deleteItemsById');
  assert.equal(del.summary, 'Removes an item');
  assert.equal(del.description, undefined);
  // The documentation endpoint is not part of what it documents.
  assert.equal(doc.paths['/docs'], undefined);
});

test('parameters: path in pattern order (a catch-all says it takes the rest), query, then headers, with their schemas', () => {
  const doc = documentOf(`
endpoint "GET /files/{bucket}/{path...}" {
  request {
    query {
      field "tags" {
        type        = list(string)
        description = "Filter by tags"
        max_items   = 3
      }
    }
    path {
      field "path" {
        type = string
      }
      field "bucket" {
        type = string
        enum = ["a", "b"]
      }
    }
    headers {
      field "X-Tenant" {
        type = int
      }
    }
  }
  pipeline {
    respond { body = ctx.request.path.path }
  }
}`);
  assert.deepEqual(Object.keys(doc.paths), ['/files/{bucket}/{path}']);
  const op = operation(doc, 'GET', '/files/{bucket}/{path}');
  assert.deepEqual(op.parameters, [
    { name: 'bucket', in: 'path', required: true, schema: { type: 'string', enum: ['a', 'b'] } },
    { name: 'path', in: 'path', description: 'Matches the rest of the path, slashes included.', required: true, schema: { type: 'string' } },
    { name: 'tags', in: 'query', description: 'Filter by tags', required: false, schema: { type: 'array', items: { type: 'string' }, maxItems: 3 } },
    { name: 'x-tenant', in: 'header', required: false, schema: { type: 'integer' } },
  ]);
  assert.ok(op.responses['422'], 'constrained parameters can be refused');
});

test('guards: security schemes of the guards in use, alternatives per operation, [] when public; 401 and 403 where they apply', () => {
  const doc = documentOf(`
server {
  auth = [auth.admin]
}
auth "admin" {
  type     = "basic"
  username = "a"
  password = "b"
}
auth "partner" {
  type   = "api_key"
  header = "X-Partner-Key"
  keys   = ["k1"]
}
auth "query" {
  type  = "api_key"
  query = "key"
  keys  = ["k1"]
}
auth "jwt" {
  type = "bearer"
  jwt {
    secret          = "0123456789abcdef0123456789abcdef"
    required_claims = ["role"]
  }
}
auth "unused" {
  type   = "bearer"
  tokens = ["t"]
}
endpoint "GET /default" {
  pipeline {
    respond { body = ctx.auth.principal }
  }
}
endpoint "GET /either" {
  auth = [auth.partner, auth.query, auth.jwt]
  pipeline {
    respond { body = ctx.auth }
  }
}
endpoint "GET /public" {
  auth = []
  pipeline {
    respond { body = ctx.auth }
  }
}`);
  assert.deepEqual((doc.components as { securitySchemes: unknown }).securitySchemes, {
    admin: { type: 'http', scheme: 'basic' },
    jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    partner: { type: 'apiKey', name: 'x-partner-key', in: 'header' },
    query: { type: 'apiKey', name: 'key', in: 'query' },
  });
  const byDefault = operation(doc, 'GET', '/default');
  assert.deepEqual(byDefault.security, [{ admin: [] }]);
  assert.deepEqual(Object.keys(byDefault.responses), ['200', '401', '500']);
  assert.deepEqual(byDefault.responses['200'].content['application/json'].schema, { type: ['string', 'null'] });
  const either = operation(doc, 'GET', '/either');
  assert.deepEqual(either.security, [{ partner: [] }, { query: [] }, { jwt: [] }]);
  assert.deepEqual(Object.keys(either.responses), ['200', '401', '403', '500']);
  assert.equal(either.responses['200'].content['application/json'].schema.properties.guard.type, 'string');
  const open = operation(doc, 'GET', '/public');
  assert.deepEqual(open.security, []);
  assert.deepEqual(open.responses['200'].content['application/json'].schema, { type: 'null' });
});

test('sql row columns: RETURNING, the select list, aliases, casts, functions; unknown with * or an unnamed expression', () => {
  assert.deepEqual(rowColumns('SELECT id, email FROM users WHERE id = @id'), ['id', 'email']);
  assert.deepEqual(rowColumns('select u.id, u.Email as "Mail", count(*), created_at::text, lower(name) from users u'), [
    'id',
    'Mail',
    'count',
    'created_at',
    'lower',
  ]);
  assert.deepEqual(rowColumns('SELECT DISTINCT ON (a) a, b FROM t'), ['a', 'b']);
  assert.deepEqual(rowColumns("INSERT INTO t (a) VALUES ('returning x') RETURNING id, a AS alpha"), ['id', 'alpha']);
  assert.deepEqual(rowColumns('WITH x AS (SELECT 1 AS one) SELECT one FROM x'), ['one']);
  assert.deepEqual(rowColumns('-- the users\nSELECT /* all */ id FROM users'), ['id']);
  assert.equal(rowColumns('SELECT * FROM users'), undefined);
  assert.equal(rowColumns('SELECT t.* FROM t'), undefined);
  assert.equal(rowColumns('SELECT 1 + 2 FROM t'), undefined);
  assert.equal(rowColumns('UPDATE t SET a = 1'), undefined);
  assert.equal(rowColumns("SELECT 'unterminated FROM t"), undefined);
});

test('endpoints whose paths differ only by parameter names share one path, named by the first', () => {
  const doc = documentOf(`
endpoint "GET /items/{id}" {
  pipeline {
    respond { body = ctx.request.path.id }
  }
}
endpoint "DELETE /items/{item}" {
  request {
    path {
      field "item" {
        type = int
      }
    }
  }
  pipeline {
    respond { body = ctx.request.path.item }
  }
}`);
  assert.deepEqual(Object.keys(doc.paths), ['/items/{id}']);
  const del = operation(doc, 'DELETE', '/items/{id}');
  assert.deepEqual(del.parameters, [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }]);
  assert.equal(del.operationId, 'deleteItemsByItem');
  assert.deepEqual(del.responses['200'].content['application/json'].schema, { type: 'integer' });
});
