import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEncoding, StreamItemError } from '../../src/stream/index.js';

test('raw: bytes pass through as they are, text as text; nothing else is framed', () => {
  const enc = createEncoding({ format: 'raw', contentType: 'application/pdf' });
  assert.equal(enc.contentType, 'application/pdf');
  assert.deepEqual(enc.headers, {});
  assert.equal(enc.heartbeatMs, undefined);
  assert.equal(enc.flushEvery, 1);
  const e = enc.open();
  const bytes = new Uint8Array([0, 255, 10]);
  assert.equal(e.item(bytes), bytes);
  const buffer = Buffer.from('héllo');
  assert.equal(e.item(buffer), buffer);
  assert.equal(e.item('héllo'), 'héllo');
  assert.equal(e.start(), '');
  assert.equal(e.heartbeat(), '');
  assert.equal(e.shutdown(), '');
  assert.equal(e.error({ type: 'about:blank', title: 'x', status: 502 }), undefined, 'no error frame: the connection is aborted');
});

test('raw: an item that is neither bytes nor text is a StreamItemError', () => {
  const e = createEncoding({ format: 'raw', contentType: 'application/octet-stream' }).open();
  for (const item of [1, null, undefined, { a: 1 }, [1, 2], new ArrayBuffer(2), 1n]) {
    assert.throws(() => e.item(item), StreamItemError, String(item));
  }
});
