/**
 * The step's value encoding (DECISIONS.md §1) and the redis classifier's categories, as units:
 * what is stored for each kind of value and what is read back for each kind of text; which driver
 * failures are outages (503), time-outs (504) or plain failures (500).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyConnectorError, ConnectorError } from '../../src/connectors/index.js';
import { classifyRedisError, StoreReplyError } from '../../src/connectors/redis/errors.js';
import { decodeValue, encodeValue, textOperand } from '../../src/steps/text-values.js';

test('encode: a string as it is, anything else as JSON (BigInt exact, undefined as null)', () => {
  assert.equal(encodeValue('text'), 'text');
  assert.equal(encodeValue('{"a":1}'), '{"a":1}');
  assert.equal(encodeValue(''), '');
  assert.equal(encodeValue(42), '42');
  assert.equal(encodeValue(true), 'true');
  assert.equal(encodeValue(null), 'null');
  assert.equal(encodeValue(undefined), 'null');
  assert.equal(encodeValue({ a: [1, 'x'], b: null }), '{"a":[1,"x"],"b":null}');
  assert.equal(encodeValue({ big: 9007199254740993n }), '{"big":9007199254740993}');
});

test('decode: JSON text as its value, integers exact, anything else as the text', () => {
  const cases: [string, unknown][] = [
    ['{"a":[1,"x"]}', { a: [1, 'x'] }],
    ['[]', []],
    ['"s"', 's'],
    ['42', 42],
    ['-7', -7],
    ['0', 0],
    ['1.5e3', 1500],
    ['9007199254740993', 9007199254740993n],
    ['true', true],
    ['false', false],
    ['null', null],
    ['  {"padded": true}  ', { padded: true }],
    ['hello', 'hello'],
    ['', ''],
    ['truthy', 'truthy'],
    ['nullable', 'nullable'],
    ['42 apples', '42 apples'],
    ['{broken', '{broken'],
    ['-', '-'],
    ['007', '007'],
  ];
  for (const [text, value] of cases) assert.deepEqual(decodeValue(text), value, JSON.stringify(text));
});

test('a key or channel is text; numbers and booleans become text; null and structures are refused', () => {
  assert.equal(textOperand('k', 'key', 'redis "s"'), 'k');
  assert.equal(textOperand(12, 'key', 'redis "s"'), '12');
  assert.equal(textOperand(false, 'channel', 'redis "s"'), 'false');
  assert.throws(() => textOperand(null, 'key', 'redis "s"'), /redis "s": the key must be a string, got null/);
  assert.throws(() => textOperand(['a'], 'channel', 'kv "s"'), /kv "s": the channel must be a string, got a list/);
  assert.throws(() => textOperand({}, 'key', 'redis "s"'), /got object/);
});

test('classifier: unreachable and closed connections are outages, command errors are not', () => {
  const errno = (code: string): Error => Object.assign(new Error(`connect ${code} 127.0.0.1:6379`), { code });
  const named = (name: string, message: string): Error => Object.assign(new Error(message), { name });
  assert.equal(classifyRedisError(errno('ECONNREFUSED')), 'dependency-unavailable');
  assert.equal(classifyRedisError(errno('ECONNRESET')), 'dependency-unavailable');
  assert.equal(classifyRedisError(named('MaxRetriesPerRequestError', 'Reached the max retries per request limit (which is 0).')), 'dependency-unavailable');
  assert.equal(classifyRedisError(new Error('Connection is closed.')), 'dependency-unavailable');
  assert.equal(classifyRedisError(named('ReplyError', 'LOADING Redis is loading the dataset in memory')), 'dependency-unavailable');
  assert.equal(classifyRedisError(new Error('Command timed out')), 'timeout');
  assert.equal(classifyRedisError(new StoreReplyError('ERR value is not an integer or out of range')), undefined);
  assert.equal(classifyRedisError(named('ReplyError', 'WRONGTYPE Operation against a key holding the wrong kind of value')), undefined);
  assert.equal(classifyRedisError(new Error('something else')), undefined);
  assert.equal(classifyRedisError('not an error'), undefined);
  // The graph's hook asks every kind, through a cause chain.
  assert.equal(classifyConnectorError(new Error('step failed', { cause: errno('ECONNREFUSED') })), 'dependency-unavailable');
  assert.equal(classifyConnectorError(new ConnectorError('x', { connection: 'redis.c', category: 'timeout' })), 'timeout');
});
