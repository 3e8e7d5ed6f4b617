/**
 * What the manifest says of mysql connections (no server needed, never skips): the URL forms and
 * their refusals at the URL, the `tls` block, and what only PostgreSQL has (`listen`,
 * `prepared_statements`) refused by name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { codeOf } from '../../src/diag/index.js';
import { buildServiceModel } from '../../src/steps/index.js';
import { bodySchema, documentOf, operation } from '../openapi/helpers.js';

function build(source: string) {
  return buildServiceModel([{ filename: join('/srv/app', 'f.hcl'), source }]);
}

function diagnostics(source: string): string[] {
  return build(source).diagnostics.map((d) => `${d.subject?.start.line}:${d.subject?.start.column} ${codeOf(d)} ${d.detail ?? ''}`);
}

const connection = (body: string): string => `connection "mysql" "db" {\n${body}\n}\n`;

test('mysql and mariadb URLs, and the URLs refused at their place', () => {
  assert.deepEqual(diagnostics(connection('  url = "mysql://app:secret@db:3306/shop"')), []);
  assert.deepEqual(diagnostics(connection('  url = "mariadb://app@127.0.0.1/shop"\n  statement_timeout = "5s"\n  migrations = "migrations"')), []);
  for (const [url, detail] of [
    ['mysql://app:secret@db/shop?ssl=true', /has query parameters.*tls \{ ca_file, cert_file, key_file, reject_unauthorized \}/],
    ['mysql:///shop', /names no host/],
    ['mysql://db/shop/extra', /more than one path segment/],
    ['postgres://db/shop', /A mysql URL starts with mysql:, mariadb:/],
  ] as const) {
    const found = diagnostics(connection(`  url = "${url}"`));
    assert.ok(found.length >= 1, url);
    assert.match(found[0]!, /^2:9 SVC_CONNECTION_INVALID_URL /, url);
    assert.match(found[0]!, detail, url);
    assert.doesNotMatch(found.join('\n'), /secret/, 'the password is never echoed');
  }
});

test('tls { ca_file, cert_file, key_file, reject_unauthorized }: files resolved against the declaring file, a certificate needs its key', () => {
  const model = build(connection('  url = "mysql://db/shop"\n  tls {\n    ca_file = "certs/ca.pem"\n    reject_unauthorized = false\n  }')).model!;
  assert.deepEqual(model.connections.get('mysql.db')!.tls, { caFile: '/srv/app/certs/ca.pem', rejectUnauthorized: false });
  const both = build(connection('  url = "mysql://db/shop"\n  tls {\n    cert_file = "c.pem"\n    key_file = "k.pem"\n  }')).model!;
  assert.deepEqual(both.connections.get('mysql.db')!.tls, { certFile: '/srv/app/c.pem', keyFile: '/srv/app/k.pem' });
  assert.deepEqual(build(connection('  url = "mysql://db/shop"\n  tls {}')).model!.connections.get('mysql.db')!.tls, {});
  const lonely = diagnostics(connection('  url = "mysql://db/shop"\n  tls {\n    cert_file = "c.pem"\n  }'));
  assert.equal(lonely.length, 1, lonely.join('\n'));
  assert.match(lonely[0]!, /^4:5 SVC_MANIFEST_MISSING_ARGUMENT The argument "key_file" is required with "cert_file"/);
  const unknown = diagnostics(connection('  url = "mysql://db/shop"\n  tls {\n    verify = false\n  }'));
  assert.match(unknown[0]!, /^4:5 SVC_MANIFEST_UNSUPPORTED_ARGUMENT/);
  // Only a mysql connection has one.
  assert.match(diagnostics('connection "postgres" "db" {\n  url = "postgres://db/x"\n  tls {}\n}\n')[0]!, /^3:3 SVC_MANIFEST_UNSUPPORTED_BLOCK/);
});

test("PostgreSQL's own settings are refused by name on a mysql connection, and so is listen", () => {
  for (const attribute of ['prepared_statements = false', 'busy_timeout = "1s"']) {
    const found = diagnostics(connection(`  url = "mysql://db/shop"\n  ${attribute}`));
    assert.equal(found.length, 1, `${attribute}: ${found.join('\n')}`);
    assert.match(found[0]!, /^3:3 SVC_MANIFEST_UNSUPPORTED_ARGUMENT/);
  }
  const listen = diagnostics(`${connection('  url = "mysql://db/shop"')}
endpoint "GET /events" {
  pipeline {
    sql "events" {
      connection = connection.mysql.db
      listen     = "events"
    }
    stream "sse" {
      source = steps.events.stream
    }
  }
}
`);
  assert.ok(listen.length >= 1, 'listen is refused');
  assert.match(listen.join('\n'), /postgres/i);
});

test('OpenAPI: the rows of a sql step on a mysql connection are inferred from its text as on PostgreSQL, with the 503 and 504 of an outage', () => {
  const doc = documentOf(`${connection('  url = "mysql://db/shop"')}
endpoint "GET /users/{id}" {
  request {
    path {
      field "id" {
        type = int
      }
    }
  }
  pipeline {
    sql "find" {
      query = "SELECT id, email AS address FROM users WHERE id = @id"
      args  = { id = ctx.request.path.id }
    }
    respond {
      body = steps.find.row
    }
  }
}

endpoint "POST /users" {
  pipeline {
    sql "insert" {
      query = "INSERT INTO users (email) VALUES ('x') RETURNING id, email"
    }
    respond {
      status = 201
      body   = steps.insert.rows
    }
  }
}
`);
  assert.deepEqual(bodySchema(doc, 'GET', '/users/{id}', '200'), { type: 'object', properties: { id: {}, address: {} }, required: ['id', 'address'] });
  assert.deepEqual(bodySchema(doc, 'POST', '/users', '201'), {
    type: 'array',
    items: { type: 'object', properties: { id: {}, email: {} }, required: ['id', 'email'] },
  });
  const statuses = Object.keys(operation(doc, 'GET', '/users/{id}').responses);
  for (const status of ['503', '504']) assert.ok(statuses.includes(status), `${status} in ${statuses.join(', ')}`);
});
