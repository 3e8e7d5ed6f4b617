import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEncoding, type EncodingOptions, StreamItemError } from '../../src/stream/index.js';

const base: EncodingOptions = { format: 'sse', contentType: 'text/event-stream' };

function open(options: Partial<EncodingOptions> = {}) {
  return createEncoding({ ...base, ...options }).open();
}

test('sse: the encoding carries the format headers, the content type and the heartbeat interval', () => {
  const enc = createEncoding({ ...base, heartbeatMs: 15_000 });
  assert.equal(enc.format, 'sse');
  assert.equal(enc.contentType, 'text/event-stream');
  assert.deepEqual(enc.headers, { 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
  assert.equal(enc.heartbeatMs, 15_000);
  assert.equal(enc.flushEvery, 1);
  assert.equal(createEncoding(base).heartbeatMs, undefined);
  assert.equal(createEncoding({ ...base, heartbeatMs: 0 }).heartbeatMs, undefined, 'a zero interval means no heartbeat');
});

test('sse: a value is one data line of JSON text, then a blank line', () => {
  const e = open();
  assert.equal(e.start(), '');
  assert.equal(e.item({ id: 1, name: 'a\nb' }), 'data: {"id":1,"name":"a\\nb"}\n\n');
  assert.equal(e.item([1, null, true]), 'data: [1,null,true]\n\n');
  assert.equal(e.item(42), 'data: 42\n\n');
  assert.equal(e.item(null), 'data: null\n\n');
});

test('sse: a string is sent as its text, one data line per line, whatever the line end', () => {
  const e = open();
  assert.equal(e.item('hello'), 'data: hello\n\n');
  assert.equal(e.item('a\nb\r\nc\rd'), 'data: a\ndata: b\ndata: c\ndata: d\n\n');
  // Empty lines are kept: the client joins data lines with LF, so `e.data` is the text exactly.
  assert.equal(e.item('\n\nx\n'), 'data: \ndata: \ndata: x\ndata: \n\n');
  assert.equal(e.item(''), 'data: \n\n');
});

test('sse: event and id lines come before the data', () => {
  const e = open({ event: 'user.updated', idOf: (item) => (item as { seq: number }).seq });
  assert.equal(e.item({ seq: 7, v: 'x' }), 'id: 7\nevent: user.updated\ndata: {"seq":7,"v":"x"}\n\n');
  assert.equal(e.item({ v: 'no seq' }), 'event: user.updated\ndata: {"v":"no seq"}\n\n', 'an undefined id: no id line');
  const s = open({ idOf: () => 'abc-1' });
  assert.equal(s.item('t'), 'id: abc-1\ndata: t\n\n');
  const n = open({ idOf: () => null });
  assert.equal(n.item('t'), 'data: t\n\n', 'a null id: no id line');
  const big = open({ idOf: () => 2n ** 70n });
  assert.equal(big.item(1), 'id: 1180591620717411303424\ndata: 1\n\n');
  assert.equal(open({ event: '' }).item(1), 'data: 1\n\n', 'an empty event name is the default type');
});

test('sse: an id holding CR, LF or NUL is a StreamItemError', () => {
  for (const id of ['a\nb', 'a\rb', 'a\u0000b']) {
    const e = open({ idOf: () => id });
    assert.throws(() => e.item('x'), StreamItemError, JSON.stringify(id));
  }
});

test('sse: the id is read from the item before the mask drops fields', () => {
  const e = open({
    idOf: (item) => (item as { seq: number }).seq,
    mask: (item) => ({ name: (item as { name: string }).name }),
  });
  assert.equal(e.item({ seq: 3, name: 'n', secret: 's' }), 'id: 3\ndata: {"name":"n"}\n\n');
});

test('sse: retry is sent once, at the start, in whole milliseconds', () => {
  const enc = createEncoding({ ...base, retryMs: 1500 });
  const e = enc.open();
  assert.equal(e.start(), 'retry: 1500\n\n');
  assert.equal(e.item(1), 'data: 1\n\n');
  assert.equal(open({ retryMs: 0 }).start(), 'retry: 0\n\n');
  assert.equal(open({ retryMs: 2.6 }).start(), 'retry: 3\n\n');
  assert.throws(() => createEncoding({ ...base, retryMs: -1 }), RangeError);
});

test('sse: error, heartbeat and shutdown frames', () => {
  const e = open({ event: 'tick' });
  const problem = { type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'the source failed' };
  assert.equal(e.error(problem), 'event: error\ndata: {"type":"about:blank","title":"Internal Server Error","status":500,"detail":"the source failed"}\n\n');
  assert.equal(e.heartbeat(), ': heartbeat\n\n');
  assert.equal(e.shutdown(), ': server shutting down\n\n');
});

test('sse: BigInt stays exact in data', () => {
  const e = open();
  assert.equal(e.item({ n: 2n ** 64n + 1n, l: [-(2n ** 63n)] }), 'data: {"n":18446744073709551617,"l":[-9223372036854775808]}\n\n');
});

test('sse: a value JSON cannot encode is a StreamItemError', () => {
  const e = open();
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.throws(() => e.item(cyclic), StreamItemError);
  assert.throws(() => e.item(undefined), StreamItemError);
  assert.throws(() => e.item(() => 1), StreamItemError);
  assert.throws(
    () =>
      e.item({
        toJSON() {
          throw new Error('boom');
        },
      }),
    StreamItemError,
  );
});

test('sse: an event name that would break the framing is refused when the encoding is built', () => {
  assert.throws(() => createEncoding({ ...base, event: 'a\nb' }), RangeError);
  assert.throws(() => createEncoding({ ...base, event: 'a\rb' }), RangeError);
});

test('sse: the mask shapes the data', () => {
  const e = open({ mask: (item) => ({ kept: (item as { kept: number }).kept }) });
  assert.equal(e.item({ kept: 1, dropped: 2 }), 'data: {"kept":1}\n\n');
});

test('sse: one published item reaching many clients is framed once (fan-out)', () => {
  let masked = 0;
  const mask = (v: unknown): unknown => {
    masked++;
    return v;
  };
  const encoding = createEncoding({ ...base, event: 'tick', mask });
  const message = { seq: 1 };
  const frames = Array.from({ length: 100 }, () => encoding.open().item(message));
  assert.equal(masked, 1);
  assert.ok(frames.every((f) => f === 'event: tick\ndata: {"seq":1}\n\n'));
  encoding.open().item({ seq: 1 });
  assert.equal(masked, 2, 'an equal but different item is framed anew');
});

test("sse: an event name per item (event = item.kind): each item's own, none for null or '', refused when not text", () => {
  const e = open({ event: 'ignored', eventOf: (item) => (item as { kind?: unknown }).kind, idOf: (item) => (item as { seq?: number }).seq });
  assert.equal(e.item({ seq: 1, kind: 'opened' }), 'id: 1\nevent: opened\ndata: {"seq":1,"kind":"opened"}\n\n');
  assert.equal(e.item({ seq: 2, kind: 'closed' }), 'id: 2\nevent: closed\ndata: {"seq":2,"kind":"closed"}\n\n');
  assert.equal(e.item({ seq: 3, kind: null }), 'id: 3\ndata: {"seq":3,"kind":null}\n\n', 'null: the default type');
  assert.equal(e.item({ seq: 4, kind: '' }), 'id: 4\ndata: {"seq":4,"kind":""}\n\n', "'': the default type");
  assert.equal(e.item({ seq: 5, kind: 7 }), 'id: 5\nevent: 7\ndata: {"seq":5,"kind":7}\n\n');
  assert.throws(() => e.item({ seq: 6, kind: 'a\nb' }), StreamItemError);
  assert.throws(() => e.item({ seq: 7, kind: { x: 1 } }), /an event name must be a string, got object/);
});
