import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { isMarkedProblem } from '../../src/problem/index.js';
import { standardFunctions } from '../../src/expr/index.js';
import { diags, run, runError } from './helpers.js';

/** Calls a function with runtime arguments (so nothing is folded) through `args...`. */
const call = (name: string, ...args: unknown[]): unknown => run(`${name}(ctx.args...)`, { ctx: { args } });
const callError = (name: string, ...args: unknown[]) => runError(`${name}(ctx.args...)`, { ctx: { args } });
/** A bad argument value is reported as "Invalid function argument" (or a call failure). */
const bad = (name: string, ...args: unknown[]): string => {
  const e = callError(name, ...args);
  assert.ok(['Invalid function argument', 'Error in function call'].includes(e.summary), `${name}: ${e.summary}`);
  return e.detail;
};

describe('function table', () => {
  it('has every function DECISIONS.md §2 lists, with arity metadata', () => {
    const expected = [
      'env',
      'problem',
      'json_encode',
      'json_decode',
      'uuid',
      'uuid_v4',
      'uuid_v7',
      'now',
      'lower',
      'upper',
      'trim',
      'trim_space',
      'trim_prefix',
      'trim_suffix',
      'split',
      'join',
      'replace',
      'format',
      'coalesce',
      'length',
      'merge',
      'lookup',
      'has',
      'keys',
      'values',
      'contains',
      'base64_encode',
      'base64_decode',
      'url_encode',
      'url_decode',
      'unencoded',
      'sha256',
      'md5',
      'hmac_sha256',
      'min',
      'max',
      'abs',
      'ceil',
      'floor',
      'parse_int',
      'tostring',
      'tonumber',
    ];
    assert.deepEqual([...standardFunctions.keys()].sort(), expected.sort());
    for (const f of standardFunctions.values()) {
      assert.ok(f.minArgs <= f.maxArgs, f.name);
      assert.equal(typeof f.pure, 'boolean');
    }
    for (const impure of ['uuid', 'uuid_v4', 'uuid_v7', 'now', 'problem']) assert.equal(standardFunctions.get(impure)!.pure, false, impure);
  });
  it('checks arity at compile time for every function', () => {
    for (const f of standardFunctions.values()) {
      if (f.minArgs > 0) assert.equal(diags(`${f.name}()`)[0]?.summary, 'Not enough function arguments', f.name);
      if (f.maxArgs !== Infinity) {
        const args = Array.from({ length: f.maxArgs + 1 }, () => 'ctx.x').join(', ');
        assert.equal(diags(`${f.name}(${args})`)[0]?.summary, 'Too many function arguments', f.name);
      }
    }
  });
});

describe('env', () => {
  it('reads the environment, with a default, else null', () => {
    process.env.SVC_FN_TEST = 'hello';
    assert.equal(call('env', 'SVC_FN_TEST'), 'hello');
    assert.equal(call('env', 'SVC_FN_TEST_MISSING', 'dflt'), 'dflt');
    assert.equal(call('env', 'SVC_FN_TEST_MISSING', 5), 5);
    assert.equal(call('env', 'SVC_FN_TEST_MISSING'), null);
    assert.equal(call('env', 'SVC_FN_TEST', 'dflt'), 'hello');
    delete process.env.SVC_FN_TEST;
    bad('env', null);
    bad('env', ['x']);
  });
});

describe('problem', () => {
  it('builds a marked problem from status and title', () => {
    const p = call('problem', 404, 'User not found');
    assert.deepEqual(p, { type: 'urn:svc:error:not-found', title: 'User not found', status: 404 });
    assert.ok(isMarkedProblem(p));
    assert.deepEqual(call('problem', 409, 'Conflict', 'Already there'), {
      type: 'urn:svc:error:conflict',
      title: 'Conflict',
      status: 409,
      detail: 'Already there',
    });
    assert.deepEqual(call('problem', 503), { type: 'urn:svc:error:dependency-unavailable', title: 'Service Unavailable', status: 503 });
  });
  it('builds from an object with extensions', () => {
    const p = call('problem', { status: 422, title: 'Bad', detail: 'd', type: 'urn:x', code: 'E1' });
    assert.deepEqual(p, { type: 'urn:x', title: 'Bad', status: 422, detail: 'd', code: 'E1' });
    assert.ok(isMarkedProblem(p));
    assert.deepEqual(call('problem', { status: 404 }), { type: 'urn:svc:error:not-found', title: 'Not Found', status: 404 });
  });
  it('returns a fresh object per call (the HTTP layer fills instance)', () => {
    const c = run('[problem(404, "x"), problem(404, "x")]') as object[];
    assert.notEqual(c[0], c[1]);
    assert.ok(!Object.isFrozen(c[0]));
  });
  it('refuses bad statuses and fields', () => {
    bad('problem', 'abc');
    bad('problem', 99);
    bad('problem', 404.5);
    bad('problem', {});
    bad('problem', { status: 400, title: 5 });
    bad('problem', { status: 400 }, 'x');
  });
});

describe('json', () => {
  it('encodes and decodes', () => {
    assert.equal(call('json_encode', { a: [1, 'x', null, true] }), '{"a":[1,"x",null,true]}');
    assert.equal(call('json_encode', null), 'null');
    assert.equal(call('json_encode', { '<a>': 'x & y\u2028\u2029' }), '{"\\u003ca\\u003e":"x \\u0026 y\\u2028\\u2029"}', 'escaped as Terraform');
    assert.equal(call('format', '%#v %v', '<b>', ['&']), '"\\u003cb\\u003e" ["\\u0026"]');
    assert.deepEqual(call('json_decode', '{"a":[1,2]}'), { a: [1, 2] });
    assert.equal(call('json_decode', '"s"'), 's');
    assert.match(bad('json_decode', '{bad'), /invalid JSON/);
    bad('json_decode', null);
  });

  it('refuses numbers beyond the double range instead of decoding them to Infinity', () => {
    assert.match(bad('json_decode', '{"a": [1e400]}'), /too large/);
    assert.match(bad('json_decode', '-' + '9'.repeat(400)), /too large/);
    // large but finite numbers, and texts that only look like them, decode as before
    assert.deepEqual(call('json_decode', '[1e308, "1e999", 1E+300]'), [1e308, '1e999', 1e300]);
    const o = call('json_decode', '{"__proto__": {"e": "1e999"}}') as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(o), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(o, '__proto__')?.value, { e: '1e999' });
  });
});

describe('uuid and now', () => {
  it('makes v4 and v7 UUIDs', () => {
    const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    assert.match(call('uuid') as string, v4);
    assert.match(call('uuid_v4') as string, v4);
    const v7 = call('uuid_v7') as string;
    assert.match(v7, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const ms = parseInt(v7.replace(/-/g, '').slice(0, 12), 16);
    assert.ok(Math.abs(ms - Date.now()) < 5000);
  });
  it('gives the time as RFC 3339 UTC', () => {
    const t = call('now') as string;
    assert.match(t, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.ok(Math.abs(Date.parse(t) - Date.now()) < 5000);
  });
});

describe('string functions', () => {
  it('lower/upper', () => {
    assert.equal(call('lower', 'ÀbC'), 'àbc');
    assert.equal(call('upper', 'straße'), 'STRASSE');
    assert.equal(call('upper', 12), '12', 'numbers convert to strings as HCL');
    assert.equal(call('upper', true), 'TRUE');
    assert.match(bad('upper', null), /must not be null/);
    assert.match(bad('lower', { a: 1 }), /string required, not object/);
  });
  it('trim family', () => {
    assert.equal(call('trim', '?!hello?!', '!?'), 'hello');
    assert.equal(call('trim', 'xxaxx', 'x'), 'a');
    assert.equal(call('trim', 'ééaé', 'é'), 'a');
    assert.equal(call('trim_space', '  \n\thi \n'), 'hi');
    assert.equal(call('trim_space', '\u0085\u00a0\u3000hi there\u2028'), 'hi there', "Unicode White_Space, as Go's TrimSpace");
    assert.equal(call('trim_space', '\ufeffhi\ufeff'), '\ufeffhi\ufeff', 'the byte order mark is not white space (JavaScript trim() removes it)');
    assert.equal(call('trim_space', ' \t '), '');
    assert.equal(call('trim_space', `a${' '.repeat(100_000)}b`), `a${' '.repeat(100_000)}b`);
    assert.equal(call('trim_prefix', 'helloworld', 'hello'), 'world');
    assert.equal(call('trim_prefix', 'helloworld', 'x'), 'helloworld');
    assert.equal(call('trim_suffix', 'helloworld', 'world'), 'hello');
    assert.equal(call('trim_suffix', 'hello', ''), 'hello');
    bad('trim', 'a', null);
    bad('trim_space', []);
    bad('trim_prefix', 'a', [1]);
    bad('trim_suffix', { a: 1 }, 'a');
  });
  it('split and join', () => {
    assert.deepEqual(call('split', ',', 'a,b,,c'), ['a', 'b', '', 'c']);
    assert.deepEqual(call('split', ',', ''), ['']);
    assert.deepEqual(call('split', '', 'añ'), ['a', 'ñ']);
    assert.equal(call('join', '-', ['a', 'b', 3, true]), 'a-b-3-true');
    assert.equal(call('join', ',', []), '');
    assert.equal(call('join', ', ', ['a', 'b'], [], ['c']), 'a, b, c', 'several lists, as Terraform');
    assert.match(bad('join', ',', ['a'], ['b', null]), /element 1 is null/);
    assert.match(bad('join', ',', ['a', null]), /element 1 is null/);
    bad('join', ',', 'abc');
    bad('split', ',', null);
  });
  it('replace', () => {
    assert.equal(call('replace', 'a-b-c', '-', '+'), 'a+b+c');
    assert.equal(call('replace', 'hello', '', 'x'), 'hello');
    // A /pattern/ written as a constant is a regular expression, compiled at boot.
    assert.equal(run('replace(ctx.s, "/[0-9]+/", "#")', { ctx: { s: 'a1b22' } }), 'a#b#');
    assert.equal(run('replace(ctx.s, "/(\\\\w+) (\\\\w+)/", "$2 $1")', { ctx: { s: 'john smith' } }), 'smith john');
    assert.equal(run('replace("a1b22", "/[0-9]/", "")', {}), 'ab');
    assert.equal(diags('replace(ctx.s, "/(/", "")')[0]?.summary, 'Invalid function argument');
    // A pattern from request data is a plain substring: a client can never supply a regular expression.
    assert.equal(call('replace', 'a1b22', '/[0-9]+/', '#'), 'a1b22');
    assert.equal(call('replace', 'x/(a+)+$/y', '/(a+)+$/', '-'), 'x-y');
    bad('replace', 'x', 'y', null);
  });
  it('format', () => {
    assert.equal(call('format', 'Hello, %s!', 'Ann'), 'Hello, Ann!');
    assert.equal(call('format', '%d items', 3), '3 items');
    assert.equal(call('format', '%.2f', Math.PI), '3.14');
    assert.equal(call('format', '%f', 1.5), '1.500000');
    assert.equal(call('format', '%5d|%-5d|%05d', 42, 42, -42), '   42|42   |-0042');
    assert.equal(call('format', '%+d % d', 5, 5), '+5  5');
    assert.equal(call('format', '%8.3f|', Math.PI), '   3.142|');
    assert.equal(call('format', '%t %v %v %v', true, 1.5, null, [1, 'a']), 'true 1.5 null [1,"a"]');
    assert.equal(call('format', '%#v', 'x'), '"x"');
    assert.equal(call('format', '%q', 'say "hi"'), '"say \\"hi\\""');
    assert.equal(call('format', '%.3s', 'abcdef'), 'abc');
    assert.equal(call('format', '100%%'), '100%');
    assert.equal(call('format', '%[2]s %[1]s', 'a', 'b'), 'b a');
    assert.equal(call('format', '%x %X %o %b', 255, 255, 8, 5), 'ff FF 10 101');
    assert.equal(call('format', '%s', 12), '12');
    assert.equal(call('format', '%e', 1234.5), '1.234500e+03');
    assert.match(bad('format', '%d', 1.5), /no integer representation/);
    assert.match(bad('format', '%s %s', 'a'), /not enough arguments/);
    assert.match(bad('format', '%s', 'a', 'b'), /too many arguments/);
    assert.match(bad('format', '%s', null), /null value cannot be formatted/);
    assert.match(bad('format', '%t', 'x'), /bool required/);
    assert.match(bad('format', '%y', 1), /unsupported format verb/);
    assert.match(bad('format', 'abc %'), /verb letter/);
  });
});

describe('collection functions', () => {
  it('coalesce', () => {
    assert.equal(call('coalesce', null, 'a', 'b'), 'a');
    assert.equal(call('coalesce', '', null, 'z'), 'z', 'null and the empty string are skipped, as Terraform');
    assert.equal(call('coalesce', null, 0, 'a'), 0, 'zero and false are values');
    assert.equal(call('coalesce', false, 'a'), false);
    assert.deepEqual(call('coalesce', [], 'a'), [], 'an empty list is a value (Terraform: coalescelist skips those)');
    assert.equal(call('coalesce', ' ', 'a'), ' ');
    assert.equal(call('coalesce', 1, 'a'), 1, 'arguments keep their types (Terraform would give "1")');
    assert.equal(call('coalesce', null, ''), null, 'none: null, where Terraform errors');
    assert.equal(call('coalesce'), null);
    assert.equal(run('coalesce(ctx.request.query.limit, 20)', { ctx: { request: { query: {} } } }), 20);
  });
  it('length counts characters, elements, attributes', () => {
    assert.equal(call('length', 'abc'), 3);
    assert.equal(call('length', 'héllo'), 5);
    assert.equal(call('length', 'e\u0301'), 1, 'combining characters count once');
    assert.equal(call('length', '👩‍👩‍👧‍👦'), 1);
    assert.equal(call('length', ''), 0);
    assert.equal(call('length', [1, 2]), 2);
    assert.equal(call('length', { a: 1, b: 2 }), 2);
    assert.match(bad('length', 5), /not number/);
    assert.match(bad('length', null), /must not be null/);
  });
  it('merge', () => {
    assert.deepEqual(call('merge', { a: 1, b: 1 }, { b: 2 }, null, { c: 3 }), { a: 1, b: 2, c: 3 });
    assert.deepEqual(call('merge'), {});
    assert.match(bad('merge', { a: 1 }, [1]), /object required/);
  });
  it('lookup', () => {
    assert.equal(call('lookup', { a: 1 }, 'a'), 1);
    assert.equal(call('lookup', { a: 1 }, 'b', 'dflt'), 'dflt');
    assert.equal(call('lookup', { a: 1 }, 'b'), null);
    assert.equal(call('lookup', null, 'b', 2), 2);
    assert.equal(call('lookup', { a: 1 }, 'toString'), null);
    bad('lookup', [1], 'a');
  });
  it('keys and values in key order', () => {
    assert.deepEqual(call('keys', { b: 1, a: 2, c: 3 }), ['a', 'b', 'c']);
    assert.deepEqual(call('values', { b: 1, a: 2, c: 3 }), [2, 1, 3]);
    bad('keys', [1]);
    bad('values', 'x');
  });
  it('contains with HCL equality', () => {
    assert.equal(call('contains', ['a', 'b'], 'b'), true);
    assert.equal(call('contains', [1, 2], '1'), false);
    assert.equal(call('contains', [{ a: [1] }], { a: [1] }), true);
    assert.equal(call('contains', [], null), false);
    bad('contains', 'abc', 'a');
  });
});

describe('encoding and hashing', () => {
  it('base64', () => {
    assert.equal(call('base64_encode', 'héllo'), Buffer.from('héllo').toString('base64'));
    assert.equal(call('base64_decode', 'aMOpbGxv'), 'héllo');
    assert.match(bad('base64_decode', 'not base64!'), /base64/);
    assert.match(bad('base64_decode', '/w=='), /UTF-8/);
    bad('base64_encode', null);
  });
  it('url', () => {
    assert.equal(call('url_encode', 'a b&c=d/é~*'), 'a+b%26c%3Dd%2F%C3%A9~%2A');
    assert.equal(call('url_decode', 'a+b%26c%3Dd%2F%C3%A9~%2A'), 'a b&c=d/é~*');
    assert.match(bad('url_decode', '%zz'), /escape/);
    bad('url_encode', [1]);
  });
  it('sha256, md5, hmac_sha256', () => {
    assert.equal(call('sha256', 'abc'), createHash('sha256').update('abc').digest('hex'));
    assert.equal(call('sha256', 'abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(call('md5', 'abc'), '900150983cd24fb0d6963f7d28e17f72');
    assert.equal(call('hmac_sha256', 'key', 'msg'), createHmac('sha256', 'key').update('msg').digest('hex'));
    bad('sha256', null);
    bad('md5', [1]);
    bad('hmac_sha256', 'k', {});
  });
});

describe('numbers', () => {
  it('min, max, abs, ceil, floor', () => {
    assert.equal(call('min', 3, 1, 2), 1);
    assert.equal(call('max', 3, '10', 2), 10);
    assert.equal(call('abs', -2.5), 2.5);
    assert.equal(call('ceil', 1.2), 2);
    assert.equal(Object.is(call('ceil', -0.5), 0), true);
    assert.equal(call('floor', -1.2), -2);
    assert.match(callError('min').detail, /at least one/);
    assert.match(bad('max', 1, 'x'), /number required/);
    bad('abs', null);
    bad('floor', true);
    bad('ceil', 'x');
    bad('min', null);
  });
  it('parse_int', () => {
    assert.equal(call('parse_int', '100', 10), 100);
    assert.equal(call('parse_int', 'FF', 16), 255);
    assert.equal(call('parse_int', '-1010', 2), -10);
    assert.equal(call('parse_int', 'zz', 36), 1295);
    assert.equal(call('parse_int', 'ZZ', 36), 1295);
    assert.equal(call('parse_int', 'Z', 62), 61, 'bases up to 62, as Terraform: upper case above 36');
    assert.equal(call('parse_int', 'z', 62), 35);
    assert.equal(call('parse_int', '+7', 8), 7);
    assert.match(bad('parse_int', 'Z', 40), /cannot parse/);
    assert.match(bad('parse_int', '1', 63), /between 2 and 62/);
    assert.match(bad('parse_int', '12x', 10), /cannot parse/);
    assert.match(bad('parse_int', '2', 2), /cannot parse/);
    assert.match(bad('parse_int', '', 10), /cannot parse/);
    assert.match(bad('parse_int', '1', 1), /base/);
    bad('parse_int', '1', 2.5);
  });
  it('tostring and tonumber', () => {
    assert.equal(call('tostring', 1.5), '1.5');
    assert.equal(call('tostring', true), 'true');
    assert.equal(call('tostring', 'x'), 'x');
    assert.equal(call('tostring', null), null);
    assert.equal(call('tonumber', '42'), 42);
    assert.equal(call('tonumber', '-1.5e2'), -150);
    assert.equal(call('tonumber', 7), 7);
    assert.equal(call('tonumber', null), null);
    assert.match(bad('tostring', [1]), /cannot convert tuple to string/);
    assert.match(bad('tonumber', 'abc'), /cannot convert/);
    bad('tonumber', true);
  });
});

describe('folding of pure calls', () => {
  it('reports a constant call that fails at boot, on the argument', () => {
    const d = diags('upper([1])');
    assert.equal(d.length, 1);
    assert.equal(d[0]!.summary, 'Invalid function argument');
    assert.equal(diags('json_decode("{")').length, 1);
    assert.equal(diags('format("%d", "x")').length, 1);
  });
});
