/**
 * Responses: which statuses an operation lists, with which media type, and the body schemas inferred
 * from the manifest's expressions (SPEC.md §4.5 and issue 12: literals, ctx.request.* of declared
 * types, problem(), ctx.timestamp_epoch as integer, `{}` for what cannot be known).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bodySchema, documentOf, operation } from './helpers.js';

const PROBLEM = { $ref: '#/components/schemas/Problem' };

test('an object literal body: literals are consts, ctx values have their types, unknown parts are {}', () => {
  const doc = documentOf(`
endpoint "GET /health" {
  pipeline {
    starlark "s" {
      source = "def execute(ctx):\\n    return 1\\n"
    }
    respond {
      body = {
        status  = "ok"
        ratio   = 0.5
        up      = true
        nothing = null
        at      = ctx.timestamp_epoch
        id      = ctx.request_id
        method  = ctx.request.method
        loose   = steps.s.result
        sum     = 1 + 2
        half    = 1 / 2
        ok      = 1 < 2 && !false
        word    = "a-\${ctx.request_id}"
        list    = [1, 2, 3]
        nested  = { inner = "x" }
      }
    }
  }
}`);
  const schema = bodySchema(doc, 'GET', '/health', '200');
  assert.deepEqual(schema, {
    type: 'object',
    properties: {
      status: { type: 'string', const: 'ok' },
      ratio: { type: 'number', const: 0.5 },
      up: { type: 'boolean', const: true },
      nothing: { type: 'null' },
      at: { type: 'integer', description: 'Seconds since the Unix epoch.' },
      id: { type: 'string' },
      method: { type: 'string', const: 'GET' },
      loose: {},
      sum: { type: 'integer' },
      half: { type: 'number' },
      ok: { type: 'boolean' },
      word: { type: 'string' },
      list: { type: 'array', items: { type: 'integer' } },
      nested: { type: 'object', properties: { inner: { type: 'string', const: 'x' } }, required: ['inner'] },
    },
    required: ['status', 'ratio', 'up', 'nothing', 'at', 'id', 'method', 'loose', 'sum', 'half', 'ok', 'word', 'list', 'nested'],
  });
  // Nothing is validated, nothing reaches a database: svc's own 500 besides the 200, and the
  // starlark step's time-out.
  assert.deepEqual(Object.keys(operation(doc, 'GET', '/health').responses), ['200', '500', '504']);
});

test('ctx.request reads have the declared field schemas; an optional field without default may be null', () => {
  const doc = documentOf(`
schema "address" {
  field "city" {
    type     = string
    required = true
  }
}
endpoint "POST /echo/{id}" {
  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
    query {
      field "limit" {
        type    = int
        default = 20
        max     = 100
      }
      field "cursor" {
        type = string
      }
    }
    headers {
      field "x-trace" {
        type     = string
        format   = "uuid"
        required = true
      }
    }
    body {
      field "tags" {
        type = list(string)
      }
      field "home" {
        type     = schema.address
        required = true
      }
    }
  }
  pipeline {
    respond {
      body = {
        id     = ctx.request.path.id
        limit  = ctx.request.query.limit
        cursor = ctx.request.query.cursor
        trace  = ctx.request.headers.x-trace
        first  = ctx.request.body.tags[0]
        home   = ctx.request.body.home
        city   = ctx.request.body.home.city
        query  = ctx.request.query
      }
    }
  }
}`);
  const { properties } = bodySchema(doc, 'POST', '/echo/{id}', '200');
  assert.deepEqual(properties.id, { type: 'integer', minimum: 1 });
  // The default is the request's business: what is echoed is always present.
  assert.deepEqual(properties.limit, { type: 'integer', maximum: 100 });
  assert.deepEqual(properties.cursor, { type: ['string', 'null'] });
  assert.deepEqual(properties.trace, { type: 'string', format: 'uuid' });
  assert.deepEqual(properties.first, { type: 'string' });
  assert.deepEqual(properties.home, { $ref: '#/components/schemas/address' });
  assert.deepEqual(properties.city, { type: 'string' });
  assert.deepEqual(properties.query, {
    type: 'object',
    properties: { limit: { type: 'integer', maximum: 100 }, cursor: { type: ['string', 'null'] } },
    required: ['limit'],
  });
  assert.deepEqual((doc.components as { schemas: Record<string, unknown> }).schemas.address, {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  });
});

test('problem() bodies are application/problem+json; without a status the problem status is the response status', () => {
  const doc = documentOf(`
endpoint "GET /tea/{kind}" {
  pipeline {
    respond {
      condition = ctx.request.path.kind == "coffee"
      body      = problem(418, "I am a teapot")
    }
    respond {
      condition = ctx.request.path.kind == "cocoa"
      body      = problem({ status = 409, title = "Not now" })
    }
    respond {
      condition = ctx.request.path.kind == "juice"
      status    = 400
      body      = problem(400, "No juice")
    }
    respond {
      status = 204
      body   = null
    }
  }
}`);
  const op = operation(doc, 'GET', '/tea/{kind}');
  assert.deepEqual(Object.keys(op.responses), ['204', '400', '409', '418', '500']);
  for (const status of ['400', '409', '418']) assert.deepEqual(bodySchema(doc, 'GET', '/tea/{kind}', status, 'application/problem+json'), PROBLEM);
  assert.deepEqual(op.responses['204'], { description: 'No Content.' });
  assert.equal(op.responses['418'].description, "I'm a teapot.");
});

test('a body that is a problem() on one branch of a conditional lists both statuses, as svc graph labels them', () => {
  const doc = documentOf(`
endpoint "GET /items/{id}" {
  pipeline {
    respond {
      body = ctx.request.path.id == "old" ? problem(410, "Gone") : { id = ctx.request.path.id }
    }
  }
}`);
  const op = operation(doc, 'GET', '/items/{id}');
  assert.deepEqual(Object.keys(op.responses), ['200', '410', '500']);
});

test('responses sharing a status merge; statuses written as literals in a conditional are listed; others are default', () => {
  const doc = documentOf(`
endpoint "GET /pick/{x}" {
  pipeline {
    respond {
      condition = ctx.request.path.x == "a"
      body      = { kind = "a" }
    }
    respond {
      condition = ctx.request.path.x == "b"
      status    = ctx.request.path.x == "b" ? 409 : 502
      body      = problem(409, "Conflict")
    }
    respond {
      condition = ctx.request.path.x == "c"
      status    = length(ctx.request.path.x) + 200
      body      = { computed = true }
    }
    respond {
      body = { kind = "z" }
    }
  }
}`);
  const op = operation(doc, 'GET', '/pick/{x}');
  assert.deepEqual(Object.keys(op.responses), ['200', '409', '500', '502', 'default']);
  assert.deepEqual(bodySchema(doc, 'GET', '/pick/{x}', '200'), {
    anyOf: [
      { type: 'object', properties: { kind: { type: 'string', const: 'a' } }, required: ['kind'] },
      { type: 'object', properties: { kind: { type: 'string', const: 'z' } }, required: ['kind'] },
    ],
  });
  assert.match(op.responses.default.description, /computed at run time/);
});

test('headers of a respond are response headers; a Content-Type header sets the media type', () => {
  const doc = documentOf(`
endpoint "GET /page" {
  pipeline {
    respond {
      condition = ctx.request_id == "x"
      headers = {
        "Content-Type" = "text/html; charset=utf-8"
        "X-Cache"      = "HIT"
      }
      body = "<p>hello</p>"
    }
    respond {
      headers = {
        "Content-Type" = "text/html; charset=utf-8"
        "X-Cache"      = "MISS"
        "X-Id"         = ctx.request_id
      }
      body = "<p>\${ctx.request_id}</p>"
    }
  }
}`);
  const response = operation(doc, 'GET', '/page').responses['200'];
  assert.deepEqual(response.content, { 'text/html': { schema: { type: 'string' } } });
  assert.deepEqual(response.headers, {
    'X-Cache': { required: true, schema: { type: 'string', enum: ['HIT', 'MISS'] } },
    'X-Id': { schema: { type: 'string' } },
  });
});

test('expressions: conditionals, functions, for expressions, splats and step outputs', () => {
  const doc = documentOf(`
connection "redis" "c" {
  url = "memory:"
}
connection "postgres" "db" {
  url = "pglite:"
}
endpoint "GET /mixed" {
  pipeline {
    redis "hits" {
      connection = connection.redis.c
      command    = "INCR"
      key        = "hits"
    }
    redis "cached" {
      connection = connection.redis.c
      command    = "GET"
      key        = "k"
    }
    sql "users" {
      connection = connection.postgres.db
      query      = "SELECT u.id, u.email AS mail, count(*), created_at::text FROM users u GROUP BY u.id"
    }
    sql "opaque" {
      connection = connection.postgres.db
      query      = "SELECT * FROM users"
    }
    respond {
      body = {
        either   = ctx.request_id == "" ? "none" : "some"
        maybe    = ctx.request_id == "" ? 1 : null
        hits     = steps.hits.value
        cached   = steps.cached.value
        users    = steps.users.rows
        count    = steps.users.rows_affected
        mails    = steps.users.rows[*].mail
        first    = steps.users.row.mail
        opaque   = steps.opaque.row
        id       = uuid_v7()
        when     = now()
        upper    = upper("x")
        size     = length([])
        decoded  = json_decode("{}")
        words    = [for w in split(" ", "a b") : upper(w)]
        indexed  = { for i, w in ["a"] : w => i }
        grouped  = { for w in ["a"] : w => w... }
        looked   = lookup({ a = 1, b = 2 }, ctx.request_id, 0)
        problem  = problem(500, "x")
      }
    }
  }
}`);
  const { properties: p } = bodySchema(doc, 'GET', '/mixed', '200');
  assert.deepEqual(p.either, { type: 'string', enum: ['none', 'some'] });
  assert.deepEqual(p.maybe, { anyOf: [{ type: 'integer', const: 1 }, { type: 'null' }] });
  assert.deepEqual(p.hits, { type: 'integer' });
  assert.deepEqual(p.cached, {});
  const row = { type: 'object', properties: { id: {}, mail: {}, count: {}, created_at: {} }, required: ['id', 'mail', 'count', 'created_at'] };
  assert.deepEqual(p.users, { type: 'array', items: row });
  assert.deepEqual(p.count, { type: 'integer', minimum: 0 });
  assert.deepEqual(p.mails, { type: 'array', items: {} });
  assert.deepEqual(p.first, {});
  assert.deepEqual(p.opaque, { type: 'object' });
  assert.deepEqual(p.id, { type: 'string', format: 'uuid' });
  assert.deepEqual(p.when, { type: 'string', format: 'date-time' });
  assert.deepEqual(p.upper, { type: 'string' });
  assert.deepEqual(p.size, { type: 'integer' });
  assert.deepEqual(p.decoded, {});
  assert.deepEqual(p.words, { type: 'array', items: { type: 'string' } });
  assert.deepEqual(p.indexed, { type: 'object', additionalProperties: { type: 'integer' } });
  assert.deepEqual(p.grouped, { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } });
  assert.deepEqual(p.looked, { type: 'integer' });
  assert.deepEqual(p.problem, PROBLEM);
  // I/O steps can be unreachable or slow; the database can refuse a value of the request.
  assert.deepEqual(Object.keys(operation(doc, 'GET', '/mixed').responses), ['200', '400', '500', '503', '504']);
});

test('catch blocks answer with their status and body; a JSON body adds 400, 413, 415 and 422', () => {
  const doc = documentOf(`
connection "postgres" "db" {
  url = "pglite:"
}
endpoint "POST /users" {
  request {
    body {
      field "email" {
        type     = string
        required = true
      }
    }
  }
  pipeline {
    transaction "t" {
      connection = connection.postgres.db
      sql "u" {
        query = "INSERT INTO users (email) VALUES (@email) RETURNING id, email"
        args  = { email = ctx.request.body.email }
        catch "23514" {
          status = 422
        }
      }
      catch "23505" {
        status = 409
        body   = problem(409, "Taken")
      }
    }
    respond {
      status = 201
      body   = steps.u.row
    }
  }
}`);
  const op = operation(doc, 'POST', '/users');
  assert.deepEqual(Object.keys(op.responses), ['201', '400', '409', '413', '415', '422', '500', '503', '504']);
  assert.deepEqual(bodySchema(doc, 'POST', '/users', '201'), { type: 'object', properties: { id: {}, email: {} }, required: ['id', 'email'] });
  assert.deepEqual(bodySchema(doc, 'POST', '/users', '409', 'application/problem+json'), PROBLEM);
  assert.match(op.responses['409'].description, /SQLSTATE 23505/);
  // The pipeline's own 422 (a caught check violation, no body) replaces svc's validation 422.
  assert.deepEqual(op.responses['422'], { description: 'Unprocessable Entity. The database reported SQLSTATE 23514.' });
  assert.deepEqual(op.responses['413'], { $ref: '#/components/responses/PayloadTooLarge' });
  assert.deepEqual(op.requestBody, {
    content: { 'application/json': { schema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] } } },
    required: true,
  });
});

test('stream steps: their media type, the item schema from `schema` or from the streamed query', () => {
  const doc = documentOf(`
connection "postgres" "db" {
  url = "pglite:"
}
connection "redis" "c" {
  url = "memory:"
}
schema "message" {
  field "text" {
    type     = string
    required = true
  }
}
endpoint "GET /events" {
  pipeline {
    redis "feed" {
      connection = connection.redis.c
      command    = "SUBSCRIBE"
      channel    = "x"
    }
    stream "sse" {
      source = steps.feed.stream
      event  = "posted"
      schema = schema.message
    }
  }
}
endpoint "GET /rows.ndjson" {
  pipeline {
    sql "q" {
      connection = connection.postgres.db
      query      = "SELECT seq, text FROM messages"
      stream     = true
    }
    stream "ndjson" {
      source = steps.q.stream
    }
  }
}
endpoint "GET /rows.csv" {
  pipeline {
    sql "q" {
      connection = connection.postgres.db
      query      = "SELECT seq, text FROM messages"
      stream     = true
    }
    stream "csv" {
      source  = steps.q.stream
      columns = ["seq", "text"]
      headers = { "Content-Disposition" = "attachment" }
    }
  }
}
endpoint "GET /raw" {
  pipeline {
    http "up" {
      url    = "http://127.0.0.1:1/x"
      stream = true
    }
    stream "raw" {
      source       = steps.up.stream
      content_type = "application/pdf"
    }
  }
}`);
  assert.deepEqual(bodySchema(doc, 'GET', '/events', '200', 'text/event-stream'), { $ref: '#/components/schemas/message' });
  assert.match(operation(doc, 'GET', '/events').responses['200'].description, /Server-Sent Events.*named `posted`/);
  assert.deepEqual(bodySchema(doc, 'GET', '/rows.ndjson', '200', 'application/x-ndjson'), {
    type: 'object',
    properties: { seq: {}, text: {} },
    required: ['seq', 'text'],
  });
  const csv = operation(doc, 'GET', '/rows.csv').responses['200'];
  assert.deepEqual(csv.content, { 'text/csv': { schema: { type: 'string' } } });
  assert.match(csv.description, /Columns: seq, text\./);
  assert.deepEqual(csv.headers, { 'Content-Disposition': { required: true, schema: { type: 'string', const: 'attachment' } } });
  assert.deepEqual(operation(doc, 'GET', '/raw').responses['200'].content, { 'application/pdf': {} });
});
