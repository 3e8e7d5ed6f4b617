/**
 * What svc takes from the Node.js runtime rather than from its own code, pinned (issue 17). `npm test`
 * runs this file under every supported line (scripts/node-lines.sh), so a line that answers
 * differently fails here, under a name that says which behaviour moved:
 * - Unicode data (ICU, V8): NFC in string equality and identifiers, `\p{...}` classes of the HCL and
 *   Starlark scanners, case mapping of upper()/lower(), grapheme clusters of length(). Every supported
 *   line carries Unicode 17.0 (ICU 78).
 * - The IDNA step of the hostname format is tr46, not the runtime, except for its NFC check, which is
 *   sound while the runtime's Unicode is no older than tr46's table.
 * - The WHATWG URL parser (Ada) of outbound URLs (http step, JWKS): it changed in Node.js 24, and is
 *   the runtime's on purpose: it is the parser that will make the request.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { run } from '../expr/helpers.js';
import { ROOT as root } from '../paths.js';

const major = Number(process.versions.node.split('.')[0]);

/** "17.0.0" -> 17.0, for comparing Unicode versions. */
const unicodeNumber = (v: string): number => {
  const [a = '0', b = '0'] = v.split('.');
  return Number(a) + Number(b) / 100;
};

describe(`runtime dependencies, pinned (node ${process.version}, ICU ${process.versions.icu}, Unicode ${process.versions.unicode})`, () => {
  it('the supported lines are the same in scripts/node-lines.sh, package.json engines and docs/development.md', () => {
    const lines = execFileSync('bash', [join(root, 'scripts/node-lines.sh'), 'lines'], { encoding: 'utf8' })
      .trim()
      .split('\n');
    assert.ok(lines.length > 0);
    const engines = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const page = readFileSync(join(root, 'docs/development.md'), 'utf8');
    const section = page.split('\n## Supported Node.js lines\n')[1]?.split(/^#{1,2} /m)[0];
    assert.ok(section, 'docs/development.md has a "## Supported Node.js lines" section');
    for (const line of lines) {
      assert.match(engines, new RegExp(`(?:\\^|>=)${line}\\.`), `package.json engines admits ${line}.x`);
      assert.match(section, new RegExp(`\\b${line}\\b`), `the docs/development.md section names ${line}`);
    }
  });

  it("the runtime's Unicode is no older than the IDNA table's (tr46 checks labels are NFC with the runtime's normalize)", () => {
    const tr46 = createRequire(import.meta.url)('tr46/package.json') as { unicodeVersion: string };
    assert.ok(
      unicodeNumber(process.versions.unicode ?? '0') >= unicodeNumber(tr46.unicodeVersion),
      `Unicode ${process.versions.unicode} of this runtime is older than ${tr46.unicodeVersion} of tr46`,
    );
  });

  it('string equality compares NFC forms (expressions)', () => {
    assert.equal(run('"caf\u00e9" == "cafe\u0301"'), true);
    assert.equal(run('"\uac01" == "\u1100\u1161\u11a8"'), true); // Hangul syllable and its jamo
  });

  it('length() counts grapheme clusters as Unicode 17.0 defines them', () => {
    const length = (s: string): unknown => run('length(ctx.s)', { ctx: { s } });
    assert.equal(length('cafe\u0301'), 4);
    assert.equal(length('👩‍👩‍👧‍👦'), 1); // a ZWJ emoji sequence
    assert.equal(length('🇫🇷🇩🇪'), 2); // regional indicator pairs
    assert.equal(length('\u0915\u094d\u0937\u093f'), 1); // क्षि: one conjunct cluster since Unicode 15.1 (ICU 74)
    assert.equal(length('\r\n'), 1);
  });

  it('upper() and lower() use the full Unicode case mappings', () => {
    assert.equal(run('upper("stra\u00dfe")'), 'STRASSE');
    assert.equal(run('lower("\u0130")'), 'i\u0307'); // capital I with dot: i + combining dot
    assert.equal(run('upper("\u1f80")'), '\u1f08\u0399'); // a Greek iota subscript expands
  });

  it('identifiers may be non-ASCII letters (\\p{ID_Start}, \\p{ID_Continue})', () => {
    assert.equal(run('ctx.gr\u00f6\u00dfe', { ctx: { 'gr\u00f6\u00dfe': 1 } }), 1);
    assert.equal(run('ctx.\u540d\u524d', { ctx: { '\u540d\u524d': 2 } }), 2);
  });

  it('outbound URLs: an invalid punycode host is refused up to Node.js 22 and accepted from 24 (WHATWG URL, Ada 3)', () => {
    // Not normalised on purpose: the runtime's parser is the one that sends the request, so svc takes
    // its answer; this pins which answer each line gives, so a change is seen.
    assert.equal(URL.canParse('http://xn--zz.example/'), major >= 24);
    assert.equal(new URL('http://B\u00dcCHER.example/').host, 'xn--bcher-kva.example');
  });
});
