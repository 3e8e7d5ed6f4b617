/**
 * JSON text kept with the value parsed from it (src/json/source-text.ts): an object or a list
 * remembers its text, exactly; a primitive has none to remember; a value built otherwise, even an
 * equal one, has none; invalid text throws as JSON.parse does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keepSourceText, parseKeepingText, sourceTextOf } from '../../src/json/index.js';

test('an object or a list parsed from text gives that text back, spacing and all', () => {
  for (const text of ['{"a":1}', ' { "a" : [1, 2] } ', '[]', '[{"big": 9007199254740993}]', '{"s":"caf\\u00e9"}']) {
    const value = parseKeepingText(text);
    assert.deepEqual(value, JSON.parse(text));
    assert.equal(sourceTextOf(value), text);
  }
});

test('primitives, values built otherwise and parts of a parsed value have no source text', () => {
  assert.equal(parseKeepingText('42'), 42);
  assert.equal(parseKeepingText('"s"'), 's');
  assert.equal(parseKeepingText('null'), null);
  for (const v of [42, 's', null, undefined, true]) assert.equal(sourceTextOf(v), undefined);
  assert.equal(sourceTextOf({ a: 1 }), undefined);
  const parsed = parseKeepingText('{"inner":{"a":1}}') as { inner: object };
  assert.equal(sourceTextOf(parsed.inner), undefined);
});

test('invalid text throws a SyntaxError, as JSON.parse does', () => {
  assert.throws(() => parseKeepingText('{"a":'), SyntaxError);
});

test('the kept text is invisible in the value and not carried by a copy', () => {
  const text = '{"sku":"W-1","tags":["blue"]}';
  const value = parseKeepingText(text) as Record<string, unknown>;
  assert.deepStrictEqual(value, { sku: 'W-1', tags: ['blue'] });
  assert.deepEqual(Reflect.ownKeys(value), ['sku', 'tags']);
  assert.equal(JSON.stringify(value), text);
  // A copy, changed or not, is another value: it is written by serialising it, never as the text.
  const copy = { ...value, sku: 'W-2' };
  assert.equal(sourceTextOf(copy), undefined);
  assert.equal(sourceTextOf(structuredClone(value)), undefined);
  // Kept again (an upstream's text after a decode of its own): the later text is the one kept.
  keepSourceText(value, ` ${text}`);
  assert.equal(sourceTextOf(value), ` ${text}`);
  // A frozen value can still be stamped.
  const frozen = Object.freeze(JSON.parse('[1,2]') as number[]);
  keepSourceText(frozen, '[1,2]');
  assert.equal(sourceTextOf(frozen), '[1,2]');
});
