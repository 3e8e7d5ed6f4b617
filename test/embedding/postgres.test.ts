/**
 * A custom step fed by a sql step on the real PostgreSQL server: an int8 column is a BigInt in
 * svc; an `int` attribute gets it as a number when that is exact, and refuses it (a 500, the reason
 * logged) when it is not, rather than rounding it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, defineStep, loadService } from '../../src/index.js';
import { NO_REAL_POSTGRES, REAL_POSTGRES_URL } from '../connectors/helpers.js';
import { tempManifest, until } from './helpers.js';

const double = defineStep({
  name: 'double',
  attributes: { n: { type: 'int', required: true } },
  outputs: ['value', 'type'],
  run: ({ n }) => ({ value: n * 2, type: typeof n }),
});

test('an int8 from PostgreSQL reaches an int attribute as a number when exact, and is refused when not', {
  skip: REAL_POSTGRES_URL ? false : NO_REAL_POSTGRES,
}, async () => {
  const m = tempManifest(`
connection "postgres" "db" {
  url = "${REAL_POSTGRES_URL}"
}

endpoint "GET /double/{n}" {
  request {
    path {
      field "n" {
        type = string
      }
    }
  }
  pipeline {
    sql "q" {
      connection = "db"
      query      = "SELECT @n::int8 AS n"
      args       = { n = ctx.request.path.n }
    }
    double "d" {
      n = steps.q.row.n
    }
    respond {
      body = { value = steps.d.value, type = steps.d.type }
    }
  }
}
`);
  const loaded = await loadService(m.dir, { steps: [double] });
  assert.equal(loaded.report, '');
  const logs: string[] = [];
  const server = await createServer(loaded.service!, { log: { stream: { write: (line: string) => logs.push(line) } } });
  const { url } = await server.listen({ port: 0 });
  try {
    const exact = await fetch(`${url}/double/9007199254740991`);
    assert.equal(exact.status, 200);
    assert.deepEqual(await exact.json(), { value: 18014398509481982, type: 'number' });
    const beyond = await fetch(`${url}/double/9007199254740993`);
    assert.equal(beyond.status, 500);
    assert.doesNotMatch(await beyond.text(), /2\^53|whole number|attribute/);
    await until(() => logs.some((l) => l.includes('got a whole number beyond 2^53')), 'the refusal logged');
  } finally {
    await server.close();
    m.remove();
  }
});
