import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'csv-stringify/sync';
import { createEncoding, type EncodingOptions, StreamItemError } from '../../src/stream/index.js';

const base: EncodingOptions = { format: 'csv', contentType: 'text/csv; charset=utf-8' };

function encode(items: readonly unknown[], options: Partial<EncodingOptions> = {}): string {
  const e = createEncoding({ ...base, ...options }).open();
  let out = e.start();
  for (const item of items) out += e.item(item) as string;
  return out;
}

test('csv: the encoding: no format headers, no heartbeat, no error frame', () => {
  const enc = createEncoding(base);
  assert.equal(enc.format, 'csv');
  assert.equal(enc.contentType, 'text/csv; charset=utf-8');
  assert.deepEqual(enc.headers, {});
  assert.equal(enc.heartbeatMs, undefined);
  assert.equal(enc.flushEvery, 1);
  const e = enc.open();
  assert.equal(e.error({ type: 'about:blank', title: 'x', status: 500 }), undefined, 'the connection is aborted instead');
  assert.equal(e.heartbeat(), '');
  assert.equal(e.shutdown(), '');
});

test('csv: header from the first item keys, written before the first row, records end with CRLF', () => {
  const e = createEncoding(base).open();
  assert.equal(e.start(), '');
  assert.equal(e.item({ id: 1, name: 'a' }), 'id,name\r\n1,a\r\n');
  assert.equal(e.item({ name: 'b', id: 2, extra: 'dropped' }), '2,b\r\n', 'the header order, extra keys dropped');
  assert.equal(e.item({ id: 3 }), '3,\r\n', 'a missing key is an empty field');
});

test('csv: header from columns, sent at the start (an empty result is still a header row), in their order', () => {
  const e = createEncoding({ ...base, columns: ['name', 'id'] }).open();
  assert.equal(e.start(), 'name,id\r\n');
  assert.equal(e.item({ id: 1, name: 'a', other: 'x' }), 'a,1\r\n');
  assert.equal(e.item(['p', 'q']), 'p,q\r\n', 'an array is a row, positionally');
  assert.equal(e.item(['p']), 'p,\r\n', 'padded to the columns');
  assert.equal(e.item(['p', 'q', 'r']), 'p,q\r\n', 'cut to the columns');
  assert.equal(encode([], { columns: ['a', 'b'] }), 'a,b\r\n');
  assert.equal(encode([]), '', 'no columns, no items: nothing');
});

test('csv: each response writes its own header', () => {
  const enc = createEncoding(base);
  const a = enc.open();
  const b = enc.open();
  assert.equal(a.item({ x: 1 }), 'x\r\n1\r\n');
  assert.equal(b.item({ y: 2 }), 'y\r\n2\r\n');
  assert.equal(a.item({ x: 3 }), '3\r\n');
});

test('csv: RFC 4180 quoting of commas, quotes, CR and LF (header too)', () => {
  assert.equal(
    encode([{ 'a,b': 'x,y', q: 'say "hi"', lf: 'l1\nl2', cr: 'c1\rc2', crlf: 'r1\r\nr2', plain: 'p q' }]),
    '"a,b",q,lf,cr,crlf,plain\r\n"x,y","say ""hi""","l1\nl2","c1\rc2","r1\r\nr2",p q\r\n',
  );
  assert.equal(encode([['"', '""', ',', '']]), '"""","""""",",",\r\n');
});

test('csv: cells: null and undefined empty, scalars as text, objects and arrays as JSON, dates as ISO text', () => {
  const row = {
    n: null,
    u: undefined,
    s: 'text',
    i: 42,
    f: -1.5,
    t: true,
    fa: false,
    big: 2n ** 64n + 1n,
    o: { a: 1, b: [2n ** 60n] },
    l: [1, 'x'],
    d: new Date('2024-05-06T07:08:09.010Z'),
    nan: Number.NaN,
  };
  assert.equal(
    encode([row]),
    'n,u,s,i,f,t,fa,big,o,l,d,nan\r\n,,text,42,-1.5,true,false,18446744073709551617,"{""a"":1,""b"":[1152921504606846976]}","[1,""x""]",2024-05-06T07:08:09.010Z,\r\n',
  );
});

test('csv: a column named after an Object.prototype member reads only the item own field', () => {
  assert.equal(encode([{ a: 1 }, { a: 2, constructor: 'own' }], { columns: ['a', 'constructor', 'toString'] }), 'a,constructor,toString\r\n1,,\r\n2,own,\r\n');
});

test('csv: a first item that is an array, without columns: positional rows, no header', () => {
  assert.equal(
    encode([
      [1, 'a'],
      [2, 'b,c', null],
    ]),
    '1,a\r\n2,"b,c",\r\n',
  );
});

test('csv: items that are not rows are StreamItemErrors', () => {
  for (const item of [1, 'text', null, undefined, true, 1n, new Uint8Array(2)]) {
    const e = createEncoding(base).open();
    assert.throws(() => e.item(item), StreamItemError, String(item));
  }
  const afterArrays = createEncoding(base).open();
  afterArrays.item([1]);
  assert.throws(() => afterArrays.item({ a: 1 }), StreamItemError, 'no header names the fields of an object');
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.throws(() => createEncoding(base).open().item({ c: cyclic }), StreamItemError);
});

test('csv: fields are quoted exactly when RFC 4180 requires it, as csv-stringify sync API writes them', () => {
  const alphabet = ['a', 'b', ' ', ',', '"', '\r', '\n', 'é', '\t', "'", '='];
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const rows: string[][] = [];
  for (let r = 0; r < 500; r++) {
    const row: string[] = [];
    for (let c = 0; c < 3; c++) {
      let s = '';
      const len = Math.floor(random() * 6);
      for (let k = 0; k < len; k++) s += alphabet[Math.floor(random() * alphabet.length)];
      row.push(s);
    }
    rows.push(row);
  }
  const ours = encode(rows, { columns: ['x', 'y', 'z'] });
  const rfc4180 = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  const expected = ['x,y,z', ...rows.map((row) => row.map(rfc4180).join(','))].map((line) => line + '\r\n').join('');
  assert.equal(ours, expected);
  assert.equal(ours, stringify([['x', 'y', 'z'], ...rows], { record_delimiter: '\r\n', quote_record_delimiter: true, eof: true }));
});

test('csv: formulas pass through unless neutralize_formulas is set (OWASP CSV injection)', () => {
  const items = [{ a: '=1+1', b: '+1', c: '-1', d: '@SUM(A1)', e: '\tx', f: '\ry', g: 'ok', h: -5, i: '=a,b' }];
  assert.equal(encode(items), 'a,b,c,d,e,f,g,h,i\r\n=1+1,+1,-1,@SUM(A1),\tx,"\ry",ok,-5,"=a,b"\r\n', 'off by default: the data as it is');
  assert.equal(
    encode(items, { neutralizeFormulas: true }),
    "a,b,c,d,e,f,g,h,i\r\n'=1+1,'+1,'-1,'@SUM(A1),'\tx,\"'\ry\",ok,-5,\"'=a,b\"\r\n",
    'a quote before each string that starts a formula, then RFC 4180 quoting as for any cell',
  );
});

test('csv: neutralize_formulas leaves numbers, booleans, dates, JSON text and configured columns alone; item keys are data', () => {
  const row = [-1, '-1', true, new Date('2026-01-02T03:04:05.000Z'), { x: '=1' }, ['=1'], '', 'a=b', ' =1', null];
  assert.equal(encode([row], { neutralizeFormulas: true }), '-1,\'-1,true,2026-01-02T03:04:05.000Z,"{""x"":""=1""}","[""=1""]",,a=b, =1,\r\n');
  assert.equal(encode([{ x: '=1' }], { columns: ['=x', 'x'], neutralizeFormulas: true }), "=x,x\r\n,'=1\r\n", "the author's column names as written");
  assert.equal(encode([{ '=cmd': 1, '-': '-' }], { neutralizeFormulas: true }), "'=cmd,'-\r\n1,'-\r\n", 'a header from the keys of an item');
  assert.equal(encode([{ '=cmd': 1 }]), '=cmd\r\n1\r\n');
});
