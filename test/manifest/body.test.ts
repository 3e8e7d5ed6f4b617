/** The schema-driven body decoder on its own: what it accepts, what it reports, and where. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Diagnostics } from '../../src/diag/index.js';
import { parseFile } from '../../src/hcl/index.js';
import { blocksOf, decodeBody, type BodySchema } from '../../src/manifest/body.js';
import { DecodeScope } from '../../src/manifest/scope.js';

const SCHEMA: BodySchema = {
  attributes: { name: { required: true }, color: {}, size: {} },
  blocks: { part: { labels: ['id'], multiple: true }, meta: {}, opt: { labels: ['name'], labelCounts: [0, 1] } },
};

function decode(source: string) {
  const { file, diagnostics } = parseFile(source, 't.hcl');
  assert.deepEqual(diagnostics, []);
  const diags = new Diagnostics();
  const decoded = decodeBody(file.body, SCHEMA, new DecodeScope(diags, ['thing'], 't.hcl', '.'));
  return { decoded, diags: diags.items.map((d) => [d.subject?.start.line, d.summary, d.suggestion, d.path?.join(' > ')]) };
}

test('accepted items keep source order; repeatable blocks repeat', () => {
  const { decoded, diags } = decode('name = "x"\npart "a" {}\nmeta {}\npart "b" {}\nopt {}\n');
  assert.deepEqual(diags, []);
  assert.deepEqual([...decoded.attrs.keys()], ['name']);
  assert.deepEqual(
    decoded.blocks.map((b) => [b.type, ...b.labels]),
    [['part', 'a'], ['meta'], ['part', 'b'], ['opt']],
  );
  assert.equal(blocksOf(decoded, 'part').length, 2);
});

test('unknown, duplicated, mislabelled and missing items are all reported with the block path', () => {
  // (A repeated attribute is reported, and dropped, by the parser already, as hclsyntax does.)
  const { diags } = decode('colour = "red"\ncolor = "a"\nmeta {}\nmeta {}\npart {}\nopt "a" "b" {}\nprt "x" {}\nsize {}\npart = 1\n');
  assert.deepEqual(diags, [
    [1, 'Unsupported argument', 'color', 'thing'],
    [4, 'Duplicate meta block', undefined, 'thing'],
    [5, 'Missing id for part', undefined, 'thing'],
    [6, 'Extraneous label for opt', undefined, 'thing'],
    [7, 'Unsupported block type', 'part', 'thing'],
    [8, 'Unsupported block type', undefined, 'thing'],
    [9, 'Unsupported argument', undefined, 'thing'],
    [1, 'Missing required argument', undefined, 'thing'],
  ]);
});
