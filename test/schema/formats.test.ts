import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isIPv4, isIPv6 } from 'node:net';
import { FORMAT_NAMES, checkFormat, compileRequestValidator } from '../../src/schema/index.js';
import { STRING, field, object, request } from './specs.js';

/** Each sample goes through a real compiled validator, so ajv's wiring of the format is tested too. */
function accepts(format: string, value: string): boolean {
  const v = compileRequestValidator(request({ body: object([field('v', STRING, { format })]) }));
  const result = v.validate({ path: {}, query: {}, headers: {}, body: { v: value } });
  if (!result.ok) assert.deepEqual(result.invalidParams, [{ name: 'v', reason: `must be a valid ${format} format`, in: 'body' }]);
  assert.equal(checkFormat(format, value), result.ok, `checkFormat and ajv disagree on ${format} ${JSON.stringify(value)}`);
  return result.ok;
}

function cases(format: string, valid: string[], invalid: string[]): void {
  for (const s of valid) assert.equal(accepts(format, s), true, `${format} should accept ${JSON.stringify(s)}`);
  for (const s of invalid) assert.equal(accepts(format, s), false, `${format} should refuse ${JSON.stringify(s)}`);
}

test('exactly the formats of SPEC.md §2.3 exist', () => {
  assert.deepEqual([...FORMAT_NAMES].sort(), ['date', 'date-time', 'email', 'hostname', 'ipv4', 'ipv6', 'uri', 'uuid']);
});

test('email: RFC 5322 practical subset', () => {
  cases(
    'email',
    ['ada@example.com', 'first.last+tag@sub.example.co.uk', "o'brien@example.ie", 'x@a.io', 'USER@EXAMPLE.COM', `${'a'.repeat(64)}@example.com`],
    [
      'plain',
      '@example.com',
      'ada@',
      'ada@example',
      'ada@example.com.',
      'ada@@example.com',
      'a..b@example.com',
      '.ada@example.com',
      'ada.@example.com',
      'ada @example.com',
      'ada@-example.com',
      'ada@exa_mple.com',
      `${'a'.repeat(65)}@example.com`,
      `a@${'b'.repeat(64)}.com`,
      `a@${'b.'.repeat(126)}com`,
      '"quoted"@example.com',
      'ada@[192.0.2.1]',
      'ada@bücher.example',
    ],
  );
});

test('uuid: versions 4 and 7 only, RFC 9562 variant', () => {
  cases(
    'uuid',
    [
      '9b2f3c4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f', // v4
      '9B2F3C4E-1A2B-4C3D-BE9F-0A1B2C3D4E5F', // v4 upper case
      '01890a5d-ac96-774b-bcce-b302099a8057', // v7
    ],
    [
      'c232ab00-9414-11ec-b3c8-9f6bdeced846', // v1
      '6fa459ea-ee8a-3ca4-894e-db77e160355e', // v3
      '886313e1-3b8a-5372-9b90-0c9aee199e5d', // v5
      '1ec9414c-232a-6b00-b3c8-9e6bdeced846', // v6
      '00000000-0000-0000-0000-000000000000', // nil
      '9b2f3c4e-1a2b-4c3d-ce9f-0a1b2c3d4e5f', // v4 with a non-RFC variant
      '9b2f3c4e1a2b4c3d8e9f0a1b2c3d4e5f', // no hyphens
      '{9b2f3c4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f}',
      'urn:uuid:9b2f3c4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
      '9b2f3c4e-1a2b-4c3d-8e9f-0a1b2c3d4e5',
      '9b2f3c4e-1a2b-4c3d-8e9f-0a1b2c3d4e5fa',
      'g b2f3c4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
    ],
  );
});

test('uri: RFC 3986 absolute URIs only', () => {
  cases(
    'uri',
    [
      'https://example.com',
      'https://example.com/a/b?x=1&y=%20#frag',
      'http://user:pw@[::1]:8080/',
      'mailto:ada@example.com',
      'urn:isbn:0451450523',
      'file:///etc/hosts',
      'ftp://192.0.2.1/x',
      'tel:+1-201-555-0123',
    ],
    ['/relative/path', 'relative', '//example.com/x', '#frag', '', 'http://exa mple.com', 'https://example.com/%zz', '1http://x.y', 'http://bücher.example/'],
  );
});

test('date: RFC 3339 full-date with a real calendar', () => {
  cases(
    'date',
    ['2024-02-29', '2000-02-29', '2023-12-31', '0001-01-01', '2023-02-28'],
    ['2023-02-29', '1900-02-29', '2023-04-31', '2023-13-01', '2023-00-10', '2023-01-00', '2023-1-01', '20230101', '2023-01-01T00:00:00Z', ' 2023-01-01'],
  );
});

test('date-time: RFC 3339 with offsets, fractions and leap seconds', () => {
  cases(
    'date-time',
    [
      '2024-02-29T12:00:00Z',
      '2023-06-01T08:30:15.123456+02:00',
      '2023-06-01t08:30:15z',
      '2023-06-01T23:59:59-23:59',
      '2016-12-31T23:59:60Z',
      '2016-12-31T15:59:60-08:00',
      '2023-06-01T00:00:00.5Z',
    ],
    [
      '2023-02-29T12:00:00Z',
      '2023-06-01 08:30:15Z',
      '2023-06-01T08:30:15',
      '2023-06-01T08:30:15+0200',
      '2023-06-01T08:30:15+02',
      '2023-06-01T24:00:00Z',
      '2023-06-01T08:60:00Z',
      '2023-06-01T08:30:60Z',
      '2023-06-01T08:30:15.Z',
      '2023-06-01T08:30Z',
      '2023-06-01',
      '2023-06-01T08:30:15+24:00',
      '2023-06-01T08:30:15+02:60',
    ],
  );
});

test('ipv4: dotted decimal without leading zeros', () => {
  cases(
    'ipv4',
    ['0.0.0.0', '192.0.2.1', '255.255.255.255', '10.0.0.10'],
    ['256.1.1.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1.2.3.04', '1.2.3.4 ', '0x7f.0.0.1', '1.2.3.-1', '', '::1'],
  );
});

test('ipv6: every RFC 4291 text form; zone ids refused', () => {
  const valid = [
    '::',
    '::1',
    'fe80::1',
    '::ffff:192.0.2.1',
    '2001:0db8:0000:0000:0000:ff00:0042:8329',
    '2001:db8::ff00:42:8329',
    '2001:DB8::1',
    '1::',
    '1:2:3:4:5:6:7::',
    '::2:3:4:5:6:7:8',
    '1:2:3:4:5:6:192.0.2.1',
    '64:ff9b::192.0.2.33',
  ];
  const invalid = [
    '1:::2',
    ':1',
    '1:',
    '1:2:3:4:5:6:7:8:9',
    '2001:db8::1::1',
    '12345::',
    'g::1',
    'fe80::1%eth0',
    '::ffff:192.0.2.256',
    '::ffff:01.2.3.4',
    '1.2.3.4',
    '',
    '[::1]',
    '1:2:3:4:5:6:7:192.0.2.1',
  ];
  cases('ipv6', valid, invalid);
  // Cross-check with Node's parser where it has no zone-id leniency.
  for (const s of [...valid, ...invalid.filter((s) => !s.includes('%'))]) assert.equal(checkFormat('ipv6', s), isIPv6(s), s);
});

test('hostname: RFC 1123, FQDN with trailing dot, IDN through domainToASCII', () => {
  const label63 = 'a'.repeat(63);
  cases(
    'hostname',
    [
      'localhost',
      'example.com',
      'example.com.',
      'a-b.c-d.example',
      '1password.com',
      'xn--bcher-kva.example',
      'bücher.example',
      'BÜCHER.example.',
      '例え.テスト',
      'münchen.de',
      `${label63}.com`,
      `${'a'.repeat(49)}.${'b'.repeat(49)}.${'c'.repeat(49)}.${'d'.repeat(49)}.${'e'.repeat(51)}`,
    ],
    [
      '',
      '.',
      '.example.com',
      'example..com',
      '-example.com',
      'example-.com',
      'exa_mple.com',
      'exa mple.com',
      `${'a'.repeat(64)}.com`,
      `${'a'.repeat(50)}.${'b'.repeat(50)}.${'c'.repeat(50)}.${'d'.repeat(50)}.${'e'.repeat(50)}`,
      'xn--zz.example',
      'example.com..',
      'http://example.com',
      'bü cher.example',
      `${'ü'.repeat(60)}.example`,
    ],
  );
});

test('a format applies to every element of a list of strings', () => {
  const v = compileRequestValidator(request({ query: [field('ips', { kind: 'list', items: STRING }, { format: 'ipv4' })] }));
  const result = v.validate({ path: {}, query: { ips: ['192.0.2.1', '01.1.1.1'] }, headers: {}, body: undefined });
  assert.deepEqual(result, { ok: false, invalidParams: [{ name: 'ips[1]', reason: 'must be a valid ipv4 format', in: 'query' }] });
});

test('ipv4 and ipv6 agree with node:net on generated addresses and corruptions of them', () => {
  let seed = 42;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const hex = () => (rnd(4) === 0 ? '0' : rnd(0x10000).toString(16));
  const octet = () => String(rnd(4) === 0 ? rnd(10) : rnd(300));
  const samples: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const groups = Array.from({ length: 8 }, hex);
    let text: string;
    if (rnd(3) === 0) text = `${groups.slice(0, 6).join(':')}:${octet()}.${octet()}.${octet()}.${octet()}`;
    else text = groups.join(':');
    if (rnd(2) === 0) {
      // Compress a run of groups (not necessarily zero: the text form does not care).
      const parts = text.split(':');
      const start = rnd(parts.length);
      const len = 1 + rnd(parts.length - start);
      parts.splice(start, len, start === 0 ? ':' : '');
      text = parts.join(':').replace(/^:(?!:)/, '::');
    }
    const corrupt = rnd(4);
    if (corrupt === 1) text = text.replace(/:/, ':::');
    if (corrupt === 2) text = `${text}:1`;
    if (corrupt === 3) text = text.toUpperCase();
    samples.push(text);
  }
  let v6valid = 0;
  for (const s of samples) {
    assert.equal(checkFormat('ipv6', s), isIPv6(s), s);
    if (isIPv6(s)) v6valid++;
  }
  assert.ok(v6valid > 500 && v6valid < 2900, `a useful mix of valid and invalid samples (${v6valid} valid)`);
  for (let i = 0; i < 3000; i++) {
    const s = Array.from({ length: 3 + rnd(3) }, octet).join('.');
    assert.equal(checkFormat('ipv4', s), isIPv4(s), s);
  }
});
