import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEncoding, type EncodingOptions, StreamItemError } from '../../src/stream/index.js';

const base: EncodingOptions = { format: 'ndjson', contentType: 'application/x-ndjson' };

test('ndjson: the encoding: no format headers, no heartbeat, flush_every passed through (default 1)', () => {
  const enc = createEncoding(base);
  assert.equal(enc.format, 'ndjson');
  assert.equal(enc.contentType, 'application/x-ndjson');
  assert.deepEqual(enc.headers, {});
  assert.equal(enc.heartbeatMs, undefined);
  assert.equal(enc.flushEvery, 1);
  assert.equal(createEncoding({ ...base, flushEvery: 100 }).flushEvery, 100);
  assert.throws(() => createEncoding({ ...base, flushEvery: 0 }), RangeError);
  assert.throws(() => createEncoding({ ...base, flushEvery: 1.5 }), RangeError);
});

test('ndjson: one JSON value per line; a string item is a JSON string', () => {
  const e = createEncoding(base).open();
  assert.equal(e.start(), '');
  assert.equal(e.item({ a: 1, s: 'x\ny' }), '{"a":1,"s":"x\\ny"}\n');
  assert.equal(e.item('line\r\nbreak'), '"line\\r\\nbreak"\n');
  assert.equal(e.item([1, 2]), '[1,2]\n');
  assert.equal(e.item(null), 'null\n');
  assert.equal(e.heartbeat(), '');
  assert.equal(e.shutdown(), '');
});

test('ndjson: BigInt stays exact', () => {
  const e = createEncoding(base).open();
  assert.equal(e.item({ id: 9007199254740993n }), '{"id":9007199254740993}\n');
});

test('ndjson: an error is a last {"error": problem} line', () => {
  const e = createEncoding(base).open();
  assert.equal(
    e.error({ type: 'about:blank', title: 'Gateway Timeout', status: 504 }),
    '{"error":{"type":"about:blank","title":"Gateway Timeout","status":504}}\n',
  );
});

test('ndjson: a value JSON cannot encode is a StreamItemError', () => {
  const e = createEncoding(base).open();
  const cyclic: unknown[] = [];
  cyclic.push(cyclic);
  assert.throws(() => e.item(cyclic), StreamItemError);
  assert.throws(() => e.item(undefined), StreamItemError);
  assert.throws(() => e.item(Symbol('s')), StreamItemError);
});

test('ndjson: the mask is applied before encoding', () => {
  const e = createEncoding({ ...base, mask: (item) => ({ id: (item as { id: number }).id }) }).open();
  assert.equal(e.item({ id: 1, password: 'x' }), '{"id":1}\n');
});
