import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFile, type Attribute, type Block } from '../../src/hcl/index.js';
import { at, file, num, shape, str, summaries } from './helpers.js';

test('attributes and blocks keep source order, with ranges', () => {
  const src = 'b = 1\nendpoint "GET /x" {\n  a = "v"\n}\na = 2\n';
  const f = file(src);
  assert.deepEqual(
    f.body.items.map((i) => (i.kind === 'Attribute' ? `attr ${i.name}` : `block ${i.type}`)),
    ['attr b', 'block endpoint', 'attr a'],
  );
  const b = f.body.items[0] as Attribute;
  assert.equal(at(b.range), '1:1@0-1:6@5');
  assert.equal(at(b.nameRange), '1:1@0-1:2@1');
  const blk = f.body.items[1] as Block;
  assert.deepEqual(blk.labels, ['GET /x']);
  assert.equal(at(blk.typeRange), '2:1@6-2:9@14');
  assert.equal(at(blk.labelRanges[0]), '2:10@15-2:18@23');
  assert.equal(at(blk.openBraceRange), '2:19@24-2:20@25');
  assert.equal(at(blk.closeBraceRange), '4:1@36-4:2@37');
  assert.equal(at(blk.range), '2:1@6-4:2@37');
  assert.equal(at(blk.body.range), '2:19@24-4:2@37');
  assert.equal(at(f.body.range), '1:1@0-6:1@44');
});

test('blocks take any number of labels, quoted or bare, with escapes decoded', () => {
  const f = file('a b "c\\td" e {\n}\nf {}\n');
  const [a, fb] = f.body.items as Block[];
  assert.deepEqual(a!.labels, ['b', 'c\td', 'e']);
  assert.equal(a!.labelRanges.length, 3);
  assert.deepEqual(fb!.labels, []);
  assert.deepEqual(fb!.body.items, []);
});

test('nested blocks and identifiers with dashes', () => {
  const f = file('outer-block {\n  inner-block "x" {\n    some-attr = 1\n  }\n}\n');
  assert.deepEqual(shape(f.body), {
    kind: 'Body',
    items: [
      {
        kind: 'Block',
        type: 'outer-block',
        labels: [],
        body: {
          kind: 'Body',
          items: [
            {
              kind: 'Block',
              type: 'inner-block',
              labels: ['x'],
              body: { kind: 'Body', items: [{ kind: 'Attribute', name: 'some-attr', expr: num(1) }] },
            },
          ],
        },
      },
    ],
  });
});

test('one-line blocks: empty, or a single attribute', () => {
  const f = file('a {}\nb "l" { c = "x" }\n');
  const [a, b] = f.body.items as Block[];
  assert.deepEqual(a!.body.items, []);
  assert.deepEqual(shape(b!.body.items), [{ kind: 'Attribute', name: 'c', expr: str('x') }]);
  assert.equal(at(b!.closeBraceRange), '2:17@21-2:18@22');
});

test('the three comment forms, and comments after attributes', () => {
  const f = file('# one\n// two\n/* three\n   lines */\na = 1 # trailing\nb = 2 // trailing\nc = /* inline */ 3\n');
  assert.deepEqual(
    (f.body.items as Attribute[]).map((a) => [a.name, (a.expr as { value: unknown }).value]),
    [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ],
  );
});

test('a file without a trailing newline, and an empty file', () => {
  assert.equal(file('a = 1').body.items.length, 1);
  assert.equal(file('a {\n}').body.items.length, 1);
  assert.equal(file('').body.items.length, 0);
  assert.equal(file('\n\n# only a comment').body.items.length, 0);
});

test('duplicate attributes: "Attribute redefined" on the second, which is dropped', () => {
  const r = parseFile('a = 1\nb {\n  x = 1\n  x = 2\n}\na = 3\n', 't.hcl');
  assert.deepEqual(summaries(r.diagnostics), ['Attribute redefined', 'Attribute redefined']);
  assert.equal(at(r.diagnostics[0]!.subject), '4:3@20-4:4@21');
  assert.match(r.diagnostics[0]!.detail!, /already set at t\.hcl:3,3-4/);
  assert.equal(at(r.diagnostics[1]!.subject), '6:1@28-6:2@29');
  assert.equal(r.file.body.items.length, 2);
  // The same name in different blocks is fine.
  file('a { x = 1 }\nb { x = 1 }\n');
});

test('one-line block errors match the hcl specsuite positions', () => {
  const r = parseFile('a { b = "foo", c = "bar" }\na { d {} }\n', 't.hcl');
  assert.deepEqual(summaries(r.diagnostics), ['Invalid single-argument block definition', 'Argument definition required']);
  assert.equal(at(r.diagnostics[0]!.subject), '1:14@13-1:15@14');
  assert.equal(at(r.diagnostics[1]!.subject), '2:5@31-2:8@34');
});

test('several independent errors in one file are all reported', () => {
  const r = parseFile('a = 1 2\nb = \nc {\n  d = [1 2]\n}\ne = 3,\n', 't.hcl');
  assert.deepEqual(summaries(r.diagnostics), [
    'Missing newline after argument',
    'Invalid expression',
    'Missing item separator',
    'Unexpected comma after argument',
  ]);
  // and the valid parts are still there
  assert.deepEqual(
    r.file.body.items.map((i) => (i.kind === 'Attribute' ? i.name : i.type)),
    ['a', 'b', 'c', 'e'],
  );
});

test('never throws, whatever the input', () => {
  const nasty = [
    '{',
    '}',
    '"',
    '${',
    'a = "${',
    'a = <<EOT\n${',
    'a {{{{',
    ']]]',
    'a = (((',
    'a = [for',
    'a = {for x',
    '%{',
    'a = "%{ if }"',
    '\u0000',
    '<<',
    'a = <<EOT',
  ];
  for (const src of nasty) {
    const r = parseFile(src, 't.hcl');
    assert.ok(Array.isArray(r.diagnostics), src);
    assert.equal(r.file.body.kind, 'Body');
  }
});

test('a stray bracketed value in a body is skipped as a whole, even across lines', () => {
  const r = parseFile('[1,\n 2]\na = 1\n', 't.hcl');
  assert.deepEqual(summaries(r.diagnostics), ['Argument or block definition required']);
  assert.deepEqual(
    r.file.body.items.map((i) => (i.kind === 'Attribute' ? i.name : i.type)),
    ['a'],
  );
  // a stray closing brace inside a block does not close it twice
  const b = parseFile('a {\n  ]\n  x = 1\n}\nb = 2\n', 't.hcl');
  assert.deepEqual(summaries(b.diagnostics), ['Argument or block definition required']);
  assert.equal(b.file.body.items.length, 2);
});
