/**
 * Each construct of hclapi's manifest reference, one test each: what `svc check` reports (a
 * SVC_COMPAT_ warning naming svc's spelling, once, never an error; an error saying precisely what
 * svc cannot provide), what `svc fmt --fix` writes (svc's spelling, which then checks without a
 * compat warning), and where the diagnostics point (the files as written).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer, loadService } from '../../src/api/index.js';
import { fixSources } from '../../src/cli/fmt-fix.js';
import { codeOf, type Diagnostic } from '../../src/diag/index.js';
import { buildServiceModel, loadServiceModel } from '../../src/steps/index.js';
import { tempDir } from '../connectors/helpers.js';
import { serveManifest } from '../http/helpers.js';

type Files = Record<string, string>;

function check(files: Files): Diagnostic[] {
  return buildServiceModel(Object.entries(files).map(([filename, source]) => ({ filename, source }))).diagnostics;
}

const codes = (ds: readonly Diagnostic[]) => ds.map((d) => `${d.severity} ${codeOf(d)}`);
const errors = (ds: readonly Diagnostic[]) => ds.filter((d) => d.severity === 'error').map((d) => `${d.summary}: ${d.detail}`);

/** The manifest as `svc fmt --fix` writes it (before the layout pass). */
function fixed(files: Files): Files {
  const { texts } = fixSources(Object.entries(files).map(([name, source]) => ({ name, source })));
  return Object.fromEntries(Object.entries(files).map(([name, source]) => [name, texts.get(name) ?? source]));
}

/**
 * Checks the dialect manifest (the warnings expected, no error), fixes it, checks the fixed one (no
 * compat diagnostic, no error) and gives the fixed text of `file`.
 */
function roundTrip(files: Files, expected: readonly string[], file = 'api.hcl'): string {
  const before = check(files);
  assert.deepEqual(errors(before), []);
  assert.deepEqual(
    codes(before)
      .filter((c) => c.includes('SVC_COMPAT_'))
      .sort(),
    [...expected].sort(),
  );
  const after = fixed(files);
  const again = check(after);
  assert.deepEqual(errors(again), [], after[file]);
  assert.deepEqual(
    codes(again).filter((c) => c.includes('SVC_COMPAT_')),
    [],
    after[file],
  );
  return after[file]!;
}

const PG = `connection "postgres" "main" {\n  url = "postgres://u@127.0.0.1/db"\n}\n`;
const REDIS = `connection "redis" "cache" {\n  url = "redis://127.0.0.1:6379"\n}\n`;
const W = (code: string) => `warning SVC_COMPAT_${code}`;

test('steps.<sql>.result.<column> is .row.<column>', () => {
  const text = roundTrip(
    {
      'api.hcl': `${PG}
endpoint "POST /users" {
  pipeline {
    sql "insert_user" {
      connection = connection.postgres.main
      query      = "INSERT INTO users (email) VALUES ('a') RETURNING id"
    }
    sql "insert_workspace" {
      connection = connection.postgres.main
      query      = "INSERT INTO workspaces (owner_id) VALUES (@owner) RETURNING id"
      args       = { owner = steps.insert_user.result.id }
    }
    respond {
      status = 201
      body   = { id = "\${steps.insert_user.result.id}" }
    }
  }
}
`,
    },
    [W('STEP_OUTPUT'), W('STEP_OUTPUT')],
  );
  assert.match(text, /owner = steps\.insert_user\.row\.id/);
  assert.match(text, /id = "\$\{steps\.insert_user\.row\.id\}"/, 'inside a template too');
});

test('a bare steps.<sql>.result is .row for a write or a lookup by key, .rows for any other query', () => {
  const text = roundTrip(
    {
      'api.hcl': `${PG}
endpoint "GET /accounts/{id}" {
  request {
    path {
      field "id" {
        type = int
      }
    }
  }
  pipeline {
    parallel {
      sql "account" {
        connection = connection.postgres.main
        query      = "SELECT id FROM accounts WHERE id = @id"
        args       = { id = ctx.request.path.id }
      }
      sql "invoices" {
        connection = connection.postgres.main
        query      = "SELECT id FROM invoices WHERE account_id = @id ORDER BY id LIMIT 5"
        args       = { id = ctx.request.path.id }
      }
    }
    respond {
      body = { account = steps.account.result, invoices = steps.invoices.result }
    }
  }
}
`,
    },
    [W('STEP_OUTPUT'), W('STEP_OUTPUT')],
  );
  assert.match(text, /account = steps\.account\.row, invoices = steps\.invoices\.rows/);
});

test('steps.<redis>.result is .value, and json_decode of it is the value (svc decodes JSON read back)', () => {
  const text = roundTrip(
    {
      'api.hcl': `${REDIS}
endpoint "GET /p/{sku}" {
  pipeline {
    redis "lookup" {
      connection = connection.redis.cache
      command    = "GET"
      key        = "p:\${ctx.request.path.sku}"
    }
    respond {
      condition = steps.lookup.result != null
      body      = json_decode(steps.lookup.result)
    }
    respond {
      condition = steps.lookup.value != null
      body      = json_decode(steps.lookup.value)
    }
    respond {
      status = 404
    }
  }
}
`,
    },
    [W('STEP_OUTPUT'), W('STEP_OUTPUT'), W('DECODED_VALUE'), W('DECODED_VALUE')],
  );
  assert.match(text, /condition = steps\.lookup\.value != null\n {6}body {6}= steps\.lookup\.value\n/);
  assert.doesNotMatch(text, /json_decode/);
});

test('catch { abort_with_status } is catch { status }', () => {
  const text = roundTrip(
    {
      'api.hcl': `${PG}
endpoint "POST /u" {
  pipeline {
    sql "insert" {
      connection = connection.postgres.main
      query      = "INSERT INTO u (email) VALUES ('a')"
      catch "23505" {
        abort_with_status = 409
        body              = { error = "taken" }
      }
    }
    respond {
      status = 201
    }
  }
}
`,
    },
    [W('ARGUMENT')],
  );
  assert.match(text, / status = 409/);
});

test('pool { max_open_conns | max_open | size } is pool { max }; max_idle(_conns) and (conn_)max_lifetime are accepted without effect', () => {
  const files = {
    'api.hcl': `connection "postgres" "a" {
  url = "postgres://u@127.0.0.1/db"
  pool {
    max_open_conns    = 25
    max_idle_conns    = 5
    conn_max_lifetime = "30m"
  }
}
connection "postgres" "b" {
  source = "postgres://u@127.0.0.1/db"
  pool {
    max_open     = 25
    max_idle     = 5
    max_lifetime = "30m"
    idle_timeout = "5m"
  }
}
connection "redis" "c" {
  url = "redis://127.0.0.1:6379"
  pool {
    size         = 20
    idle_timeout = "5m"
  }
}
endpoint "GET /x" {
  pipeline {
    respond {
      body = {}
    }
  }
}
`,
  };
  const text = roundTrip(files, [W('ARGUMENT'), W('ARGUMENT'), W('ARGUMENT'), ...Array(4).fill(W('ARGUMENT_IGNORED'))]);
  assert.equal(text.match(/\bmax +=/g)?.length, 3);
  assert.doesNotMatch(text, /max_idle|lifetime|size/);
  assert.match(check(files).find((d) => d.summary.includes('without'))!.detail!, /no separate idle count/);
});

test('server { read_timeout, write_timeout, idle_timeout }: write_timeout is request_timeout (the difference said), the others accepted without effect', () => {
  const files = {
    'api.hcl': `server {
  read_timeout  = "15s"
  write_timeout = "30s"
  idle_timeout  = "60s"
  cors {
    allowed_origins = ["https://a.example.com"]
    allowed_methods = ["GET"]
    allowed_headers = ["Authorization"]
  }
}
endpoint "GET /x" {
  pipeline {
    respond {
      body = {}
    }
  }
}
`,
  };
  const write = check(files).find((d) => d.subject?.start.line === 3)!;
  assert.equal(codeOf(write), 'SVC_COMPAT_ARGUMENT');
  assert.match(write.detail!, /request_timeout.*what differs/);
  const text = roundTrip(files, [W('ARGUMENT'), W('ARGUMENT_IGNORED'), W('ARGUMENT_IGNORED')]);
  assert.match(text, /request_timeout = "30s"/);
  assert.doesNotMatch(text, /read_timeout|idle_timeout/);
});

test('api { prefix, auth }: the prefix on every path of every file, the guards as server.auth', async () => {
  const files = {
    'main.hcl': `api {
  prefix = "/api/v1"
  auth   = [auth.jwt]
}
`,
    'auth.hcl': `auth "jwt" {
  type   = "jwt"
  secret = "0123456789abcdef0123456789abcdef"
}
`,
    'routes.hcl': `endpoint "GET /users/me" {
  pipeline {
    respond {
      body = { sub = ctx.auth.claims.sub }
    }
  }
}
endpoint "GET /health" {
  auth = []
  pipeline {
    respond {
      body = { ok = true }
    }
  }
}
`,
  };
  roundTrip(files, [W('API_BLOCK'), W('JWT_GUARD')], 'main.hcl');
  const after = fixed(files);
  assert.match(after['main.hcl']!, /^server \{\n {2}auth = \[auth\.jwt\]\n\}/);
  assert.match(after['routes.hcl']!, /endpoint "GET \/api\/v1\/users\/me"/);
  assert.match(after['routes.hcl']!, /endpoint "GET \/api\/v1\/health"/);

  const served = await serveManifest(Object.values(files).join('\n'));
  try {
    assert.equal((await served.app.inject({ url: '/api/v1/users/me' })).statusCode, 401, 'the api block guards what has no auth of its own');
    assert.equal((await served.app.inject({ url: '/api/v1/health' })).statusCode, 200, 'auth = [] stays public');
    assert.equal((await served.app.inject({ url: '/health' })).statusCode, 404);
  } finally {
    await served.close();
  }
});

test('api { auth } beside a server block goes into it; beside a server auth it is left out, said so', () => {
  const into = fixed({
    'api.hcl': `server {\n  port = 8080\n}\napi {\n  auth = [auth.k]\n}\nauth "k" {\n  type = "api_key"\n  keys = ["0123456789abcdef"]\n}\n`,
  });
  assert.match(into['api.hcl']!, /server \{\n {2}auth = \[auth\.k\]\n\n {2}port = 8080\n\}/);
  const both = check({
    'api.hcl': `server {\n  auth = []\n}\napi {\n  auth = [auth.k]\n}\nauth "k" {\n  type = "api_key"\n  keys = ["0123456789abcdef"]\n}\n`,
  });
  assert.match(both.find((d) => codeOf(d) === 'SVC_COMPAT_API_BLOCK')!.detail!, /server block sets auth already/);
});

test('auth { type = "jwt", secret, header, prefix } is a bearer guard with a jwt block; another header is refused precisely', () => {
  const text = roundTrip(
    {
      'api.hcl': `auth "jwt_bearer" {
  type   = "jwt"
  secret = "0123456789abcdef0123456789abcdef"
  header = "Authorization"
  prefix = "Bearer "
}
endpoint "GET /me" {
  auth = [auth.jwt_bearer]
  pipeline {
    respond {
      body = { sub = ctx.auth.claims.sub }
    }
  }
}
`,
    },
    [W('JWT_GUARD')],
  );
  assert.match(text, /type += "bearer"\n {2}jwt \{\n {4}secret = "0123456789abcdef0123456789abcdef"\n {2}\}\n\}/);
  const other = check({ 'api.hcl': `auth "j" {\n  type   = "jwt"\n  secret = "0123456789abcdef0123456789abcdef"\n  header = "X-Token"\n}\n` });
  assert.deepEqual(errors(other), [
    'Unsupported hclapi construct: svc reads a JWT from the Authorization header only (Authorization: Bearer <token>); another header cannot carry it.',
  ]);
});

test('a go step is refused, once, saying what to do instead', () => {
  const ds = check({
    'api.hcl': `endpoint "GET /weather/{city}" {
  pipeline {
    go "fetch_weather" {
      use  = "services.get_weather"
      args = { city = ctx.request.path.city }
    }
    respond {
      body = { ok = true }
    }
  }
}
`,
  });
  assert.deepEqual(codes(ds), ['error SVC_COMPAT_UNSUPPORTED']);
  assert.match(ds[0]!.detail!, /svc cannot run Go.*defineStep/);
  assert.equal(ds[0]!.subject!.start.line, 3);
});

test('connections to engines svc has no connector for are refused by name; cockroachdb is postgres', () => {
  for (const [kind, name] of [
    ['sqlserver', 'Microsoft SQL Server'],
    ['clickhouse', 'ClickHouse'],
    ['oracle', 'Oracle'],
    ['duckdb', 'DuckDB'],
  ]) {
    const ds = check({ 'api.hcl': `connection "${kind}" "x" {\n  source = "x"\n}\n` });
    assert.ok(
      ds.some((d) => codeOf(d) === 'SVC_COMPAT_UNSUPPORTED' && d.detail!.includes(`no connector for ${name}`)),
      kind,
    );
  }
  const text = roundTrip(
    {
      'api.hcl': `connection "cockroachdb" "main" {
  source = "postgres://root@127.0.0.1:26257/defaultdb?sslmode=disable"
}
endpoint "GET /x" {
  pipeline {
    sql "q" {
      connection = connection.cockroachdb.main
      query      = "SELECT 1 AS one"
    }
    respond {
      body = steps.q.row
    }
  }
}
`,
    },
    [W('CONNECTION'), W('CONNECTION')],
  );
  assert.match(text, /connection "postgres" "main"/);
  assert.match(text, /connection = connection\.postgres\.main/);
});

test("a source in the Go drivers' forms is the URL svc's connector reads", () => {
  const text = roundTrip(
    {
      'api.hcl': `connection "postgres" "kv" {
  source = "host=db.internal port=5433 dbname=app user=svc sslmode=disable"
}
connection "mysql" "my" {
  source = "app:secret@tcp(127.0.0.1:3306)/shop?parseTime=true"
}
endpoint "GET /x" {
  pipeline {
    respond {
      body = {}
    }
  }
}
`,
    },
    Array(2).fill(W('CONNECTION')),
  );
  assert.match(text, /source = "postgres:\/\/svc@db\.internal:5433\/app\?sslmode=disable"/);
  assert.match(text, /source = "mysql:\/\/app:secret@127\.0\.0\.1:3306\/shop"/);
  // SQLite runs on node:sqlite (Node.js 22.16+): the spelling is fixed whatever this Node.js can run.
  const sqlite = fixed({
    'api.hcl': `connection "sqlite" "file" {\n  source = "file:./data/app.db?mode=rwc"\n}\nconnection "sqlite" "mem" {\n  source = ":memory:"\n}\n`,
  })['api.hcl']!;
  assert.match(sqlite, /source = "sqlite:\.\/data\/app\.db"/);
  assert.match(sqlite, /source = "sqlite::memory:"/);
});

test('request { headers = schema.x } (and query, path) is a block of the schema fields', async () => {
  const files = {
    'api.hcl': `schema "tenant" {
  field "x-tenant" {
    type     = string
    required = true
  }
}
endpoint "GET /t" {
  request {
    headers = schema.tenant
  }
  pipeline {
    respond {
      body = { tenant = ctx.request.headers.x-tenant }
    }
  }
}
`,
  };
  const text = roundTrip(files, [W('REQUEST_ATTRIBUTE')]);
  assert.match(text, /headers \{\n {6}field "x-tenant" \{\n {8}type {5}= string\n {8}required = true\n {6}\}\n {4}\}/);
  const served = await serveManifest(files['api.hcl']);
  try {
    assert.equal((await served.app.inject({ url: '/t' })).statusCode, 422, 'the required header is missing');
    const ok = await served.app.inject({ url: '/t', headers: { 'x-tenant': 'acme' } });
    assert.deepEqual(ok.json(), { tenant: 'acme' });
  } finally {
    await served.close();
  }
});

test('problem { type_prefix } is accepted without effect', () => {
  const text = roundTrip(
    {
      'api.hcl': `problem {\n  type_prefix = "https://docs.example.com/errors/"\n}\nendpoint "GET /x" {\n  pipeline {\n    respond {\n      body = {}\n    }\n  }\n}\n`,
    },
    [W('PROBLEM_BLOCK')],
  );
  assert.doesNotMatch(text, /problem/);
});

test("problem(status, text, type): svc's meaning is kept; said only in a manifest with other hclapi spellings", () => {
  const endpoint = `endpoint "GET /x" {\n  pipeline {\n    respond {\n      status = 404\n      body   = problem(404, "Member not found", "member-missing")\n    }\n  }\n}\n`;
  assert.deepEqual(codes(check({ 'api.hcl': endpoint })), [], 'svc spelling on its own');
  const ds = check({ 'api.hcl': `problem {\n  type_prefix = "x"\n}\n${endpoint}` });
  const said = ds.find((d) => codeOf(d) === 'SVC_COMPAT_PROBLEM_ARGUMENTS')!;
  assert.equal(said.severity, 'warning');
  assert.match(said.detail!, /problem\(\{ status = <status>, detail = <second argument>, type = <third argument> \}\)/);
});

test('commas between arguments are read as newlines, and fixed', () => {
  const files = {
    'api.hcl': `endpoint "POST /hook" {
  request {
    body {
      field "type" { type = string, required = true }
      field "data" {
        type = any,
        required = true
      }
    }
  }
  pipeline {
    respond {
      body = { type = ctx.request.body.type }
    }
  }
}
`,
  };
  const ds = check(files);
  assert.deepEqual(codes(ds), [W('BLOCK_COMMA'), W('BLOCK_COMMA')]);
  // Where each comma is in the text as written.
  assert.deepEqual(
    ds.map((d) => [d.subject!.start.line, d.subject!.start.column]),
    [
      [4, 35],
      [6, 19],
    ],
  );
  const text = fixed(files)['api.hcl']!;
  assert.deepEqual(errors(check({ 'api.hcl': text })), []);
  assert.deepEqual(codes(check({ 'api.hcl': text })), []);
});

test('a diagnostic after an edited line points at the file as written', () => {
  const ds = check({
    'api.hcl': `${PG}
endpoint "GET /x" {
  pipeline {
    sql "q" {
      connection = connection.postgres.main
      query      = "SELECT 1 AS one WHERE 1 = @n"
      args       = { n = 1 }
    }
    respond {
      body = { one = steps.q.result.one, nope = steps.missing.row }
    }
  }
}
`,
  });
  const error = ds.find((d) => d.severity === 'error')!;
  assert.match(error.detail ?? error.summary, /missing/);
  // Where "steps.missing" starts in the text as written (column 46 in the decoded text, where .result became .row).
  assert.deepEqual([error.subject!.start.line, error.subject!.start.column], [13, 49]);
});

test('svc check -c FILE.hcl reads that one file', async () => {
  const dir = await tempDir('svc-hclapi-file-');
  await writeFile(join(dir, 'main.hcl'), `endpoint "GET /x" {\n  pipeline {\n    respond {\n      body = {}\n    }\n  }\n}\n`);
  await writeFile(join(dir, 'other.hcl'), 'this is not HCL {');
  const { model, diagnostics } = await loadServiceModel(join(dir, 'main.hcl'));
  assert.deepEqual(diagnostics, []);
  assert.equal(model!.endpoints.length, 1);
});

test("the functions of hclapi's reference answer as its pages say", async () => {
  const served = await serveManifest(`endpoint "GET /f" {
  pipeline {
    respond {
      body = {
        join        = join(":", ["GET", "42", "COMPLETED"])
        trim_prefix = trim_prefix("Bearer abc", "Bearer ")
        trim_suffix = trim_suffix("file.txt", ".txt")
        trim_space  = trim_space("  x  ")
        trim        = trim("--x--", "-")
        upper       = upper("abc")
        lower       = lower("ABC")
        split       = split(",", "a,b")
        replace     = replace("a-b-c", "-", "+")
        format      = format("%s=%d", "n", 3)
        sha256      = sha256("abc")
        parse_int   = parse_int("ff", 16)
        ceil        = ceil(7 / 2)
        json        = json_decode(json_encode({ a = [1, 2] }))
        base64      = base64_decode(base64_encode("hi"))
        url         = url_decode(url_encode("a b&c"))
        uuid        = length(uuid())
        uuid_v4     = length(uuid_v4())
        uuid_v7     = length(uuid_v7())
        now         = length(now()) > 0
      }
    }
  }
}
`);
  try {
    const res = await served.app.inject({ url: '/f' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      join: 'GET:42:COMPLETED',
      trim_prefix: 'abc',
      trim_suffix: 'file',
      trim_space: 'x',
      trim: 'x',
      upper: 'ABC',
      lower: 'abc',
      split: ['a', 'b'],
      replace: 'a+b+c',
      format: 'n=3',
      sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      parse_int: 255,
      ceil: 4,
      json: { a: [1, 2] },
      base64: 'hi',
      url: 'a b&c',
      uuid: 36,
      uuid_v4: 36,
      uuid_v7: 36,
      now: true,
    });
  } finally {
    await served.close();
  }
});

test('respond { schema = { name = type } } (an inline type map) is a schema block of its own that the respond names', () => {
  const text = roundTrip(
    {
      'api.hcl': `endpoint "GET /tags" {
  pipeline {
    respond {
      status = 200
      schema = {
        count = int
        tags  = list(string)
      }
      body = { count = 1, tags = ["a"], secret = "not sent" }
    }
  }
}
`,
    },
    [W('INLINE_RESPONSE_SCHEMA')],
  );
  assert.match(
    text,
    /^schema "get_tags_response" \{\n {2}field "count" \{\n {4}type = int\n {2}\}\n {2}field "tags" \{\n {4}type = list\(string\)\n {2}\}\n\}\n\nendpoint/,
  );
  assert.match(text, /schema = schema\.get_tags_response/);
});

test('openapi "template" { spec_url } is the {{ .SpecURL }} of the page', async () => {
  const dir = await tempDir('svc-hclapi-template-');
  await writeFile(join(dir, 'view.html'), '<a href="{{ .SpecURL }}">spec</a>');
  await writeFile(
    join(dir, 'main.hcl'),
    `endpoint "GET /view" {\n  openapi "template" {\n    file     = "./view.html"\n    spec_url = "https://cdn.example.com/openapi.json"\n  }\n}\nendpoint "GET /x" {\n  pipeline {\n    respond {\n      body = {}\n    }\n  }\n}\n`,
  );
  const loaded = await loadService(dir);
  assert.ok(loaded.service, loaded.report);
  const server = await createServer(loaded.service, { log: { level: 'silent' } });
  const { url } = await server.listen({ host: '127.0.0.1', port: 0 });
  try {
    const page = await fetch(`${url}/view`);
    assert.equal(page.status, 200);
    assert.equal(await page.text(), '<a href="https://cdn.example.com/openapi.json">spec</a>');
  } finally {
    await server.close();
  }
});

test('max_body_size = "10M" (hclapi decimal K, M, G) is "10MB"', () => {
  const text = roundTrip(
    { 'api.hcl': `server {\n  max_body_size = "10M"\n}\nendpoint "GET /x" {\n  pipeline {\n    respond {\n      body = {}\n    }\n  }\n}\n` },
    [W('ARGUMENT')],
  );
  assert.match(text, /max_body_size = "10MB"/);
});

test('Starlark reads the request body and step outputs as fields (ctx.request.body.email), as hclapi does; a dict the script builds does not', async () => {
  const served = await serveManifest(`endpoint "POST /s" {
  request {
    body {
      field "email" {
        type = string
      }
      field "address" {
        type = any
      }
    }
  }
  pipeline {
    starlark "first" {
      source = <<-STARLARK
        def execute(ctx):
          return {"email": ctx.request.body.email.strip().lower(), "city": ctx.request.body.address.city, "missing": ctx.request.body.get("nope", "default")}
      STARLARK
    }
    starlark "second" {
      source = <<-STARLARK
        def execute(ctx):
          return {"again": ctx.steps.first.result.email, "keys": sorted(ctx.request.body.keys())}
      STARLARK
    }
    respond {
      body = { first = steps.first.result, second = steps.second.result }
    }
  }
}
endpoint "GET /own" {
  pipeline {
    starlark "own" {
      source = <<-STARLARK
        def execute(ctx):
          d = {"a": 1}
          return {"a": d.a}
      STARLARK
    }
    respond {
      body = steps.own.result
    }
  }
}
`);
  try {
    const res = await served.app.inject({ method: 'POST', url: '/s', payload: { email: ' Jane@Example.COM ', address: { city: 'Lyon' } } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      first: { email: 'jane@example.com', city: 'Lyon', missing: 'default' },
      second: { again: 'jane@example.com', keys: ['address', 'email'] },
    });
    const own = await served.app.inject({ url: '/own' });
    assert.equal(own.statusCode, 500, 'a dict the script builds has no fields');
    assert.ok(served.log.lines.some((l) => JSON.stringify(l).includes('dict has no .a field or method')));
  } finally {
    await served.close();
  }
});
