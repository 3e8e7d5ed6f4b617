/**
 * The response-size bound (src/expr/json-size.ts): `jsonLengthExceeds` says whether a value written as
 * JSON is certainly longer than a limit, without writing it; `responseJson` refuses such a body.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonLengthExceeds, MAX_RESPONSE_CHARS, ResponseTooLarge, responseJson } from '../../src/expr/index.js';

test('a value is over the limit only when its JSON text certainly is', () => {
  const values: unknown[] = ['abc', 42, null, true, [], {}, { status: 'ok', timestamp: 1_700_000_000 }, [1, [2, [3, 'x']], { a: null }], { d: new Date(0) }];
  for (const value of values) {
    const length = JSON.stringify(value).length;
    assert.equal(jsonLengthExceeds(value, length + 10), false, `${JSON.stringify(value)} within ${length + 10}`);
    assert.equal(jsonLengthExceeds(value, 0), true, `${JSON.stringify(value)} over 0`);
  }
});

test('a walk that stops early leaves nothing behind for the next one', () => {
  const wide = { big: 'x'.repeat(100), list: Array.from({ length: 50 }, (_, i) => ({ i })) };
  assert.equal(jsonLengthExceeds(wide, 50), true);
  // The same small value, after an early stop with many entries still queued: measured alone.
  assert.equal(jsonLengthExceeds({ a: 1 }, 10), false);
  assert.equal(jsonLengthExceeds([], 2), false);
});

test('responseJson writes a body, and refuses one over MAX_RESPONSE_CHARS before writing it', () => {
  assert.equal(responseJson({ status: 'ok' }), '{"status":"ok"}');
  const huge = Array.from({ length: 64 }, () => 'y'.repeat(Math.ceil(MAX_RESPONSE_CHARS / 63)));
  assert.throws(() => responseJson(huge), ResponseTooLarge);
});
