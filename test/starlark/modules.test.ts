import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ev, fails } from './helpers.js';

test('json.encode / decode / indent', () => {
  assert.equal(ev('json.encode({"b": [1, 2.5, None, True], "a": "x\\"y"})'), '{"a":"x\\"y","b":[1,2.5,null,true]}');
  assert.deepEqual(ev('json.decode(\'{"k": [1, 2.0, "s", null, false], "big": 12345678901234567890}\')'), {
    k: [1, 2, 's', null, false],
    big: 12345678901234567890n,
  });
  assert.equal(ev('type(json.decode("2.0"))'), 'float');
  assert.equal(ev('json.indent(\'{"a":[1,2]}\', indent="  ")'), '{\n  "a": [\n    1,\n    2\n  ]\n}');
  assert.equal(ev('json.encode_indent([1], indent=" ")'), '[\n 1\n]');
  assert.equal(ev('json.decode("[1,", default="bad")'), 'bad');
  assert.match(fails('x = json.decode("[1,")').msg, /json\.decode: at offset 3, unexpected end of file/);
  assert.match(fails('x = json.encode({1: 2})').msg, /dict has int key, want string/);
  assert.match(fails('x = json.encode(float("nan"))').msg, /cannot encode non-finite float nan/);
  assert.equal(ev('json.encode("Ω")'), '"Ω"');
});

test('math module', () => {
  assert.deepEqual(ev('[math.floor(2.7), math.ceil(2.1), math.sqrt(16), math.pow(2, 10), math.fabs(-1.5)]'), [2, 3, 4, 1024, 1.5]);
  assert.deepEqual(ev('[math.round(2.5), math.round(-2.5), math.mod(7, 3), math.log(math.e), math.log(8, 2)]'), [3, -3, 1, 1, 3]);
  assert.equal(ev('type(math.floor(2.5))'), 'int');
  assert.equal(ev('math.pi > 3.14'), true);
  assert.match(fails('x = math.sqrt("a")').msg, /sqrt: for parameter 1: got string, want float or int/);
});
