/**
 * The Maps node:sqlite's iterator makes per step on Node.js 22 (src/connectors/sqlite/iterator-garbage.ts):
 * whether this line's iterator makes them (checked with V8's own `%HaveSameMap`, in a child process
 * started with `--allow-natives-syntax`), and when a cursor asks for their collection.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { ITERATOR_MAP_PER_STEP, stepGarbage } from '../../src/connectors/sqlite/iterator-garbage.js';
import { SQLITE_ONLY } from './helpers.js';

const NODE = `Node.js ${process.version}`;

/** Whether two results of one `iterate()`, and two rows of `get()`, have a Map each (true) or share one. */
function mapsOfTheirOwn(): { steps: boolean; objectRows: boolean; arrayRows: boolean } {
  const script = `
    const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(':memory:');
    const st = db.prepare('SELECT 1 AS a UNION ALL SELECT 2');
    const it = st.iterate();
    const a = it.next(), b = it.next();
    const rows = [st.get(), st.get()];
    st.setReturnArrays(true);
    const arrays = [st.get(), st.get()];
    process.stdout.write(JSON.stringify({ steps: !%HaveSameMap(a, b), objectRows: !%HaveSameMap(rows[0], rows[1]), arrayRows: !%HaveSameMap(arrays[0], arrays[1]) }));
  `;
  const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--no-warnings', '-e', script], { encoding: 'utf8' });
  return JSON.parse(out) as { steps: boolean; objectRows: boolean; arrayRows: boolean };
}

describe('sqlite: the Maps of the iterator', SQLITE_ONLY, () => {
  test(`this line's iterator makes a Map per step exactly where the connector says so (${NODE})`, () => {
    const found = mapsOfTheirOwn();
    assert.equal(
      found.steps,
      ITERATOR_MAP_PER_STEP,
      `${NODE}: iterate() results ${found.steps ? 'have a Map each' : 'share one'}; update ITERATOR_MAP_PER_STEP`,
    );
    // Why svc reads rows as arrays on every line (values.ts): row objects have a Map each, arrays share one.
    assert.equal(found.objectRows, true, `${NODE}: row objects now share a Map`);
    assert.equal(found.arrayRows, false, `${NODE}: rows as arrays have a Map each`);
  });
});

describe('sqlite: collections asked for by a cursor', () => {
  test('none on a line whose iterator makes no Map per step', () => {
    assert.equal(stepGarbage({ mapPerStep: false, collect: () => assert.fail('collected') }), undefined);
  });

  test('one each 65,536 steps on a small heap, counted across batches', () => {
    let collections = 0;
    const garbage = stepGarbage({ mapPerStep: true, collect: () => collections++, heapUsed: () => 10e6 })!;
    for (let i = 0; i < 255; i++) garbage.stepped(256);
    assert.equal(collections, 0, '65,280 steps');
    garbage.stepped(256);
    assert.equal(collections, 1, '65,536 steps');
    for (let i = 0; i < 256; i++) garbage.stepped(256);
    assert.equal(collections, 2, '131,072 steps');
  });

  test('on a larger heap, once the Maps reach a quarter of it', () => {
    let collections = 0;
    // 72 bytes a Map: a quarter of 288 MB is 1,000,000 steps.
    const garbage = stepGarbage({ mapPerStep: true, collect: () => collections++, heapUsed: () => 288e6 })!;
    garbage.stepped(999_999);
    assert.equal(collections, 0);
    garbage.stepped(1);
    assert.equal(collections, 1);
  });
});
