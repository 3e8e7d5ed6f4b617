/** What the built model holds: defaults, resolution, normalisation, immutability. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EndpointModel, PipelineEndpointModel, ServiceModel } from '../../src/model/index.js';
import { buildServiceModel, type StepSpec } from '../../src/steps/index.js';

function build(source: string): ServiceModel<StepSpec> {
  const r = buildServiceModel([{ filename: 'api.hcl', source }]);
  assert.deepEqual(
    r.diagnostics.map((d) => `${d.subject?.start.line}: ${d.summary} ${d.detail ?? ''}`),
    [],
  );
  return r.model!;
}

function errors(source: string): string[] {
  // Sorted: the order of checks is not part of the contract, the lines are.
  const r = buildServiceModel([{ filename: 'api.hcl', source }]);
  return r.diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => `${d.subject?.start.line}: ${d.summary}`)
    .sort();
}

const pipeline = (e: EndpointModel<StepSpec> | undefined): PipelineEndpointModel<StepSpec> => {
  assert.equal(e?.kind, 'pipeline');
  return e as PipelineEndpointModel<StepSpec>;
};

const GUARDS = `
auth "a" {
  type = "basic"
  username = "u"
  password = "p"
}
auth "b" {
  type = "bearer"
  tokens = ["t"]
}
`;

test('server defaults (DECISIONS.md §1) when no server block is given', () => {
  const m = build('endpoint "GET /" {\n  pipeline {\n    respond {}\n  }\n}\n');
  assert.deepEqual(
    { ...m.server },
    { host: '127.0.0.1', port: 8080, maxBodySize: 1048576, requestTimeoutMs: 30000, shutdownTimeoutMs: 10000, auth: [], accessLog: true },
  );
  assert.equal(m.openapi.title, 'API');
  assert.equal(m.openapi.version, '1.0.0');
});

test('server: log_level, access_log, metrics and workers decode; bad values are errors on their line', () => {
  const m = build('server {\n  log_level = "warn"\n  access_log = false\n  metrics = "/metrics"\n  workers = "auto"\n}\n');
  assert.equal(m.server.logLevel, 'warn');
  assert.equal(m.server.accessLog, false);
  assert.equal(m.server.metricsPath, '/metrics');
  assert.equal(m.server.workers, 'auto');
  assert.equal(build('server {\n  workers = 3\n}\n').server.workers, 3);
  assert.deepEqual(errors('server {\n  log_level = "loud"\n  access_log = "no"\n  metrics = "metrics"\n  workers = "many"\n}\n'), [
    '2: Invalid value',
    '3: Incorrect attribute value type',
    '4: Invalid value',
    '5: Invalid value',
  ]);
  assert.deepEqual(errors('server {\n  workers = 0\n}\n').length, 1);
});

test("an endpoint on the metrics page's path is refused at its label, whatever its method", () => {
  const source = (method: string) => `server {\n  metrics = "/metrics"\n}\nendpoint "${method} /metrics" {\n  pipeline {\n    respond {}\n  }\n}\n`;
  assert.deepEqual(errors(source('GET')), ['4: Route taken by the metrics page']);
  assert.deepEqual(errors(source('POST')), ['4: Route taken by the metrics page']);
  assert.deepEqual(errors(source('GET').replace('"/metrics"', '"/internal/metrics"')), []);
});

test('server.auth is the default guard list; an endpoint auth replaces it; auth = [] is public', () => {
  const m = build(`${GUARDS}
server {
  auth = [auth.a]
}
endpoint "GET /default" {
  pipeline {
    respond {}
  }
}
endpoint "GET /own" {
  auth = [auth.b, auth.a]
  pipeline {
    respond {}
  }
}
endpoint "GET /public" {
  auth = []
  pipeline {
    respond {}
  }
}
`);
  assert.deepEqual(
    m.endpoints.map((e) => [e.path, e.auth]),
    [
      ['/default', ['a']],
      ['/own', ['b', 'a']],
      ['/public', []],
    ],
  );
});

test('path parameters of the pattern are always in request.path, in pattern order; headers are lower-case', () => {
  const m = build(`route "GET /orgs/{org}/users/{id}/files/{rest...}" {
  request {
    path "id" {
      type = integer
    }
    header "X-Request-Source" {
      type = string
    }
  }
  respond {
    body = [ctx.request.path.org, ctx.request.path.id, ctx.request.path.rest, ctx.request.headers.x-request-source]
  }
}
`);
  const e = m.endpoints[0]!;
  assert.equal(e.dialect, 'route');
  assert.deepEqual(e.pathParams, ['org', 'id', 'rest']);
  assert.equal(e.catchAll, 'rest');
  assert.deepEqual(
    e.request.path.map((f) => [f.name, f.type.kind, f.required]),
    [
      ['org', 'string', true],
      ['id', 'integer', true],
      ['rest', 'string', true],
    ],
  );
  assert.deepEqual(
    e.request.headers.map((f) => f.name),
    ['x-request-source'],
  );
});

test('statuses known at boot, respond defaults and dynamic statuses', () => {
  const m = build(`connection "postgres" "db" {
  url = "pglite:"
}
endpoint "POST /x" {
  pipeline {
    sql "q" {
      query = "SELECT 1"
      catch "23505" {
        status = 409
      }
    }
    respond {
      condition = steps.q.rows_affected == 0
      status    = steps.q.row == null ? 404 : 410
    }
    respond {
      status = 201
    }
  }
}
`);
  const e = pipeline(m.endpoints[0]);
  assert.deepEqual(e.statuses, [201, 404, 409, 410]);
  const [sql, dyn, fixed] = e.steps;
  assert.equal(sql!.kind === 'sql' && sql.connection?.name, 'db', 'the only postgres connection is the default');
  assert.ok(dyn!.kind === 'respond' && dyn.status && dyn.statusCode === undefined);
  assert.ok(fixed!.kind === 'respond' && fixed.statusCode === 201 && !fixed.status);
});

test('compiled expressions evaluate with the request scope', () => {
  const m = build(`endpoint "GET /hello/{name}" {
  pipeline {
    respond {
      body = { greeting = "hello \${upper(ctx.request.path.name)}" }
    }
  }
}
`);
  const respond = pipeline(m.endpoints[0]).steps[0]!;
  assert.equal(respond.kind, 'respond');
  if (respond.kind !== 'respond') return;
  assert.deepEqual(respond.body!.evaluate({ ctx: { request: { path: { name: 'ada' } } }, steps: {} }), { greeting: 'hello ADA' });
  assert.deepEqual(
    respond.body!.references.map((r) => [r.root, r.path]),
    [['ctx', ['request', 'path', 'name']]],
  );
});

test('redis operations are case-insensitive and normalised; kv is an alias', () => {
  const m = build(`connection "redis" "c" {
  url = "memory:"
}
endpoint "POST /x" {
  pipeline {
    kv "n" {
      op  = "incr"
      key = "counter"
    }
    respond {
      body = steps.n.value
    }
  }
}
`);
  const step = pipeline(m.endpoints[0]).steps[0]!;
  assert.ok(step.kind === 'redis' && step.op === 'INCR' && step.blockType === 'kv' && step.connection.name === 'c');
});

test('stream specs carry format defaults', () => {
  const m = build(`connection "redis" "c" {
  url = "memory:"
}
endpoint "GET /feed" {
  pipeline {
    redis "sub" {
      command = "SUBSCRIBE"
      channel = "news"
    }
    stream "sse" {
      source = steps.sub.stream
    }
  }
}
`);
  const s = pipeline(m.endpoints[0]).steps[1]!;
  assert.ok(s.kind === 'stream');
  if (s.kind !== 'stream') return;
  assert.equal(s.contentType, 'text/event-stream');
  assert.equal(s.heartbeatMs, 15000);
  assert.equal(s.flushEvery, 1);
});

test('every expression of every step kind is checked, stream sources included', () => {
  assert.deepEqual(
    errors(`endpoint "GET /feed" {
  pipeline {
    http "h" {
      url     = "https://x/\${steps.later.status}"
      headers = { a = steps.nope.body }
    }
    stream "ndjson" {
      source = steps.missing.stream
    }
    http "later" {
      url = "https://x"
    }
  }
}
`),
    ['4: Step read before it runs', '5: Reference to undeclared step', '8: Reference to undeclared step', '10: Unreachable step'].sort(),
  );
});

test('the model is immutable', () => {
  const m = build('endpoint "GET /" {\n  pipeline {\n    respond {}\n  }\n}\n');
  assert.ok(Object.isFrozen(m));
  assert.ok(Object.isFrozen(m.endpoints));
  assert.ok(Object.isFrozen(m.endpoints[0]));
  assert.ok(Object.isFrozen(m.endpoints[0]!.request));
  assert.throws(() => {
    (m.server as { port: number }).port = 1;
  }, TypeError);
});

test('errors from several files and blocks are all reported in one run', () => {
  const r = buildServiceModel([
    { filename: 'a.hcl', source: 'server {\n  port = "x"\n}\n' },
    { filename: 'b.hcl', source: 'endpoint "GET /" {\n  pipeline {\n    respond {\n      status = 1000\n    }\n  }\n}\n' },
    { filename: 'c.hcl', source: 'schema "s" {\n  field "f" {\n    type = nope\n  }\n}\n' },
  ]);
  assert.equal(r.model, undefined);
  assert.deepEqual(
    r.diagnostics.map((d) => `${d.subject?.filename}:${d.subject?.start.line} ${d.summary}`),
    ['a.hcl:2 Incorrect attribute value type', 'b.hcl:4 Invalid status code', 'c.hcl:3 Unknown type'],
  );
});

test('a route name used by two connection kinds is an error that says so', () => {
  const r = buildServiceModel([
    {
      filename: 'x.hcl',
      source: `connection "postgres" "main" {
  url = "pglite:"
}
connection "redis" "main" {
  url = "memory:"
}
route "GET /x" {
  sql "q" {
    connection = "main"
    query = "SELECT 1"
  }
  respond {}
}
`,
    },
  ]);
  const d = r.diagnostics.find((x) => x.summary === 'Ambiguous connection name')!;
  assert.match(d.detail!, /"main" names both a postgres and a redis connection/);
});

test('configuration values are evaluated at boot: env() with defaults, digits from env accepted', () => {
  process.env.SVC_MODEL_TEST_HOST = '0.0.0.0';
  const m = build(`server {
  host = env("SVC_MODEL_TEST_HOST")
  port = env("SVC_MODEL_TEST_PORT_UNSET", "9090")
}
auth "a" {
  type     = "basic"
  username = "admin"
  password = env("SVC_MODEL_TEST_PASSWORD_UNSET", "s3cret")
}
endpoint "GET /" {
  pipeline {
    respond {}
  }
}
`);
  assert.equal(m.server.host, '0.0.0.0');
  assert.equal(m.server.port, 9090);
  const a = m.auths.get('a')!;
  assert.ok(a.type === 'basic' && a.password === 's3cret');
  // A quoted literal is still a type error: it was written wrong, not computed.
  assert.deepEqual(errors('server {\n  port = "8080"\n}\n'), ['2: Incorrect attribute value type']);
  // From env(), only decimal text is a number: "0x50" is not port 80.
  assert.deepEqual(errors('server {\n  port = env("SVC_MODEL_TEST_PORT_UNSET", "0x50")\n}\n'), ['2: Incorrect attribute value type']);
});

test('documentation endpoints: every form of DECISIONS.md §5', () => {
  const m = build(`endpoint "GET /docs" {
  openapi {}
}
endpoint "GET /swagger" {
  auth = []
  openapi {
    ui       = "swagger"
    spec_url = "/spec.json"
  }
}
endpoint "GET /spec.yaml" {
  openapi "spec" {
    format = "yaml"
  }
}
endpoint "GET /spec.json" {
  openapi {
    format = "json"
  }
}
endpoint "GET /page" {
  openapi {
    template = "<h1>{{ .Title }}</h1>"
  }
}
endpoint "GET /page2" {
  openapi "template" {
    inline = "<p>{{ .Version }}</p>"
  }
}
`);
  // A template written inline keeps where its text is, for diagnostics at its line (src/docs).
  const sources = m.endpoints.map((e) =>
    e.kind === 'docs' && e.docs.kind === 'template' ? [e.docs.source?.heredoc, e.docs.source?.range.start.line] : undefined,
  );
  assert.deepEqual(sources.slice(4), [
    [false, 23],
    [false, 28],
  ]);
  const docs = m.endpoints.map((e) => (e.kind === 'docs' ? { ...e.docs, range: undefined, ...('source' in e.docs ? { source: undefined } : {}) } : undefined));
  assert.deepEqual(docs, [
    { kind: 'ui', renderer: 'scalar', range: undefined },
    { kind: 'ui', renderer: 'swagger', specUrl: '/spec.json', range: undefined },
    { kind: 'spec', format: 'yaml', range: undefined },
    { kind: 'spec', format: 'json', range: undefined },
    { kind: 'template', inline: '<h1>{{ .Title }}</h1>', range: undefined, source: undefined },
    { kind: 'template', inline: '<p>{{ .Version }}</p>', range: undefined, source: undefined },
  ]);
});

test('guards: api_key ids from a list, header lower-cased; bearer with tokens and jwt', () => {
  const m = build(`auth "k" {
  type   = "api_key"
  header = "X-Key"
  keys   = ["one", "two"]
}
auth "j" {
  type = "bearer"
  jwt {
    jwks_url   = "https://issuer.example.com/.well-known/jwks.json"
    audience   = ["a", "b"]
    algorithms = ["RS256"]
  }
}
endpoint "GET /" {
  auth = [auth.k, auth.j]
  pipeline {
    respond {
      body = ctx.auth
    }
  }
}
`);
  const k = m.auths.get('k')!;
  assert.ok(k.type === 'api_key');
  if (k.type === 'api_key') {
    assert.equal(k.header, 'x-key');
    assert.deepEqual(k.keys, [
      { id: 'key1', key: 'one' },
      { id: 'key2', key: 'two' },
    ]);
  }
  const j = m.auths.get('j')!;
  assert.ok(j.type === 'bearer');
  if (j.type === 'bearer') {
    assert.deepEqual(j.tokens, []);
    assert.deepEqual({ ...j.jwt }, { jwksUrl: 'https://issuer.example.com/.well-known/jwks.json', audience: ['a', 'b'], algorithms: ['RS256'] });
  }
});

test('connections: url or source, pool, statement timeout, migrations resolved against the declaring file', () => {
  const r = buildServiceModel([
    {
      filename: 'conf/db.hcl',
      source: `connection "postgres" "main" {
  source            = "postgres://app:pw@localhost:5432/app"
  statement_timeout = "2s"
  migrations        = "migrations"
  pool {
    max          = 5
    idle_timeout = "1m"
  }
}
endpoint "GET /" {
  pipeline {
    respond {}
  }
}
`,
    },
  ]);
  assert.deepEqual(r.diagnostics, []);
  const c = r.model!.connections.get('postgres.main')!;
  assert.equal(c.url, 'postgres://app:pw@localhost:5432/app');
  assert.equal(c.statementTimeoutMs, 2000);
  assert.deepEqual({ ...c.pool }, { max: 5, idleTimeoutMs: 60000 });
  assert.equal(c.baseDir, 'conf');
  assert.ok(c.migrations!.endsWith('/conf/migrations'));
  assert.equal(c.preparedStatements, undefined, 'named prepared statements unless turned off');
});

test('connections: prepared_statements = false (postgres) and shared = false (redis) are read', () => {
  const m = build(`connection "postgres" "pooled" {
  url                 = "postgres://app@localhost:6432/app"
  prepared_statements = false
}
connection "redis" "local" {
  url    = "memory:"
  shared = false
}
endpoint "GET /" {
  pipeline {
    respond {}
  }
}
`);
  assert.equal(m.connections.get('postgres.pooled')!.preparedStatements, false);
  assert.equal(m.connections.get('redis.local')!.shared, false);
});

test('a schema may contain itself: the field type is the same object', () => {
  const m = build(`schema "node" {
  field "name" {
    type = string
  }
  field "children" {
    type = list(schema.node)
  }
}
endpoint "POST /tree" {
  request {
    body = schema.node
  }
  pipeline {
    respond {
      body = ctx.request.body.children[0].children[1].name
    }
  }
}
`);
  const node = m.schemas.get('node')!;
  const children = node.fields[1]!.type;
  assert.ok(children.kind === 'list' && children.items === node);
  assert.equal(m.endpoints[0]!.request.body, node);
});

test('a respond records whether its status was written', () => {
  const m = build(`
endpoint "GET /a" {
  pipeline {
    respond {
      condition = ctx.request.method == "HEAD"
      body      = problem(404, "gone")
    }
    respond {
      status = 201
      body   = {}
    }
  }
}
`);
  const [omitted, written] = pipeline(m.endpoints[0]).steps as readonly { statusOmitted?: boolean; statusCode?: number }[];
  assert.equal(omitted!.statusOmitted, true);
  assert.equal(omitted!.statusCode, 200);
  assert.equal(written!.statusOmitted, undefined);
  assert.equal(written!.statusCode, 201);
});
