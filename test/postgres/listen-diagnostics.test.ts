/**
 * Where a `sql { listen }` step cannot listen, the manifest is refused with a diagnostic (file, line,
 * stable code), never at the first request: in a transaction, beside a query's own arguments, and on
 * a connection that says a pooler in transaction mode is in front (prepared_statements = false).
 * PGlite and a server are accepted. No engine is opened.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createConnectors } from '../../src/connectors/index.js';
import { codeOf, type Diagnostic } from '../../src/diag/index.js';
import { buildServiceModel, compileService } from '../../src/steps/index.js';

type Found = [summary: string, code: string | undefined, line: number | undefined];

const found = (ds: readonly Diagnostic[]): Found[] => ds.filter((d) => d.severity === 'error').map((d) => [d.summary, codeOf(d), d.subject?.start.line]);

function decodeErrors(source: string): Found[] {
  return found(buildServiceModel([{ filename: 'api.hcl', source }], { dir: '.' }).diagnostics);
}

/** The errors `svc serve` reports at boot: the model's, then the compiler's (no connection opened). */
function bootErrors(source: string): { errors: Found[]; details: string[] } {
  const built = buildServiceModel([{ filename: 'api.hcl', source }], { dir: '.' });
  assert.deepEqual(found(built.diagnostics), []);
  const service = compileService(built.model!, { connectors: createConnectors(built.model!) });
  return { errors: found(service.diagnostics), details: service.diagnostics.map((d) => d.detail ?? '') };
}

function listening(connection: string, step = 'listen = "orders"'): string {
  return `
connection "postgres" "db" {
${connection}
}

endpoint "GET /events" {
  pipeline {
    sql "feed" {
      connection = connection.postgres.db
      ${step}
    }
    stream "sse" {
      source = steps.feed.stream
    }
  }
}
`;
}

test('a listening step on a PostgreSQL server or on PGlite compiles', () => {
  assert.deepEqual(bootErrors(listening('  url = "postgres://svc@127.0.0.1:1/app"')).errors, []);
  assert.deepEqual(bootErrors(listening('  url = "pglite:"')).errors, []);
});

test('with prepared_statements = false (a pooler in transaction mode): refused at boot', () => {
  const { errors, details } = bootErrors(listening('  url = "postgres://svc@127.0.0.1:6432/app"\n  prepared_statements = false'));
  assert.deepEqual(errors, [['LISTEN not supported by the connection', 'SVC_STEP_LISTEN_UNSUPPORTED', 10]]);
  assert.match(details[0]!, /PgBouncer/);
});

test("a query's arguments beside listen, and neither query nor listen", () => {
  const server = '  url = "postgres://svc@127.0.0.1:1/app"';
  assert.deepEqual(decodeErrors(listening(server, 'listen = "orders"\n      query = "SELECT 1"')), [
    ['Conflicting arguments', 'SVC_MANIFEST_CONFLICTING_ARGUMENTS', 11],
  ]);
  assert.deepEqual(decodeErrors(listening(server, 'listen = "orders"\n      stream = true')), [
    ['Unsupported argument', 'SVC_MANIFEST_UNSUPPORTED_ARGUMENT', 11],
  ]);
  assert.deepEqual(decodeErrors(listening(server, 'listen = "orders"\n      catch "23505" {\n        status = 409\n      }')), [
    ['Unsupported block type', 'SVC_MANIFEST_UNSUPPORTED_BLOCK', 11],
  ]);
  assert.deepEqual(decodeErrors(listening(server, 'timeout = "1s"')), [['Missing required argument', 'SVC_MANIFEST_MISSING_ARGUMENT', 8]]);
});

test('a listening step inside a transaction', () => {
  const errors = decodeErrors(`
connection "postgres" "db" {
  url = "postgres://svc@127.0.0.1:1/app"
}

endpoint "GET /t" {
  pipeline {
    transaction "tx" {
      connection = connection.postgres.db

      sql "feed" {
        listen = "orders"
      }
    }
    respond {
      body = "x"
    }
  }
}
`);
  assert.deepEqual(errors, [['Listening sql step in a transaction', 'SVC_STEP_LISTEN_IN_TRANSACTION', 12]]);
});

test("the step's output is stream: reading rows is refused with the reason", () => {
  const errors = decodeErrors(
    listening('  url = "postgres://svc@127.0.0.1:1/app"').replace(
      'stream "sse" {\n      source = steps.feed.stream\n    }',
      'respond {\n      body = steps.feed.rows\n    }',
    ),
  );
  assert.equal(errors.length, 1);
  assert.equal(errors[0]![2], 13);
});
