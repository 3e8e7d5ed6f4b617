/**
 * `catch` on a sql step, on one engine: a constraint violation taken by the portable SQLSTATE
 * (23505 unique, 23503 foreign key, 23514 check: the same labels on every engine by design) and by
 * the engine's own code (a MySQL error number, a SQLite result code name), answered as declared; the
 * same violation uncaught is the catalogue's 500 naming the step, with nothing of the engine in it;
 * and the connection goes back after each.
 */
import { before, after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertProblem, exec, poolWhole, rowsOf, serveOn, type Engine, type ServedSql } from './engine.js';

const BODY = `
  request {
    body {
      field "name" {
        type     = string
        required = true
      }
      field "qty" {
        type    = int
        default = 1
      }
      field "parent" {
        type    = int
        default = 1
      }
    }
  }
`;

const INSERT = `
      query = "INSERT INTO items (name, qty, parent) VALUES (@name, @qty, @parent) RETURNING name, qty, parent"
      args = {
        name   = ctx.request.body.name
        qty    = ctx.request.body.qty
        parent = ctx.request.body.parent
      }`;

/** An endpoint inserting an item, its catch blocks labelled `unique`, `foreignKey` and `check`. */
function itemsEndpoint(path: string, labels?: { unique: string; foreignKey: string; check: string }, suffix = ''): string {
  const catches =
    labels === undefined
      ? ''
      : `
      catch "${labels.unique}" {
        status = 409
        body   = problem(409, "Name taken${suffix}", ctx.request.body.name)
      }
      catch "${labels.foreignKey}" {
        status = 404
        body   = problem(404, "No such parent${suffix}")
      }
      catch "${labels.check}" {
        status = 422
        body   = problem(422, "Bad quantity${suffix}", "qty must not be negative")
      }`;
  return `
endpoint "POST ${path}" {
  ${BODY}
  pipeline {
    sql "made" {${INSERT}${catches}
    }
    respond {
      status = 201
      body = {
        item     = steps.made.row
        affected = steps.made.rows_affected
      }
    }
  }
}
`;
}

function manifest(engine: Engine): string {
  return `
connection "{{KIND}}" "db" {
  url = "{{DB}}"
}
${itemsEndpoint('/items', { unique: '23505', foreignKey: '23503', check: '23514' })}
${itemsEndpoint('/items-own', engine.codes, ' (own code)')}
${itemsEndpoint('/items-uncaught')}
`;
}

export function catchSuite(engine: Engine): void {
  describe(`catch on sql steps on ${engine.name}`, { skip: engine.skip }, () => {
    let s: ServedSql;

    before(async () => {
      s = await serveOn(engine, manifest(engine), await engine.fresh());
      await exec(s, [
        'CREATE TABLE parents (id INTEGER PRIMARY KEY)',
        'CREATE TABLE items (name VARCHAR(40) NOT NULL UNIQUE, qty INTEGER NOT NULL, parent INTEGER NOT NULL, CONSTRAINT item_qty CHECK (qty >= 0), FOREIGN KEY (parent) REFERENCES parents (id))',
        'INSERT INTO parents (id) VALUES (1)',
      ]);
    });
    after(() => s?.close());

    const post = (url: string, payload: Record<string, unknown>) => s.app.inject({ method: 'POST', url, payload });

    for (const [path, suffix, what] of [
      ['/items', '', 'the portable SQLSTATEs 23505, 23503, 23514'],
      ['/items-own', ' (own code)', `${engine.name}'s own codes ${engine.codes.unique}, ${engine.codes.foreignKey}, ${engine.codes.check}`],
    ] as const) {
      test(`unique, foreign key and check violations caught by ${what}`, async () => {
        const name = `pear${suffix}`;
        const made = await post(path, { name, qty: 2 });
        assert.equal(made.statusCode, 201, made.body);
        assert.deepEqual(made.json(), { item: { name, qty: 2, parent: 1 }, affected: 1 });
        const taken = await post(path, { name });
        assert.equal(taken.statusCode, 409, taken.body);
        assertProblem(taken);
        assert.equal(taken.json().title, `Name taken${suffix}`);
        assert.equal(taken.json().detail, name);
        const orphan = await post(path, { name: `plum${suffix}`, parent: 77 });
        assert.equal(orphan.statusCode, 404, orphan.body);
        assert.equal(orphan.json().title, `No such parent${suffix}`);
        const negative = await post(path, { name: `fig${suffix}`, qty: -1 });
        assert.equal(negative.statusCode, 422, negative.body);
        assert.equal(negative.json().title, `Bad quantity${suffix}`);
        assert.deepEqual(
          await rowsOf(s, `SELECT name FROM items WHERE name IN ('${name}', 'plum${suffix}', 'fig${suffix}')`),
          [{ name }],
          'only the first insert is there',
        );
        await poolWhole(s);
      });
    }

    test('a violation nothing catches is the 500 of its step, nothing of the engine in it', async () => {
      assert.equal((await post('/items-uncaught', { name: 'kiwi' })).statusCode, 201);
      for (const payload of [{ name: 'kiwi' }, { name: 'lime', parent: 77 }, { name: 'sloe', qty: -1 }]) {
        const r = await post('/items-uncaught', payload);
        assert.equal(r.statusCode, 500, r.body);
        assertProblem(r);
        assert.deepEqual(r.json(), { type: 'urn:svc:error:internal', title: 'Internal Server Error', status: 500, step: 'made', instance: '/items-uncaught' });
      }
      await poolWhole(s);
    });
  });
}
