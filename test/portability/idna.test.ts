/**
 * The hostname and email formats give the same answer on every Node.js line (issue 17): the IDNA
 * step is tr46 (pure JavaScript, its own Unicode 17.0 mapping table), not the runtime's
 * `domainToASCII`, which changed between lines. `npm test` runs this file under each supported line.
 *
 * The vectors are ours, one per rule of UTS #46 and IDNA2008 that the formats rely on, each naming
 * the rule (the status codes are those of Unicode's IdnaTestV2.txt: P processing, V validity, B bidi
 * RFC 5893, C joiners RFC 5892 appendix A; P4 is an `xn--` label that is not punycode or decodes to
 * ASCII only). The conversion is checked to the letter,
 * so a table or option change shows here. Checked once by hand against IdnaTestV2.txt of Unicode 16.0
 * (all 6,389 lines): the formats agree with it except on three lines whose characters Unicode 17.0
 * assigned (CJK extension J), which a 16.0 table disallows.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { idnaToASCII } from '../../src/schema/formats.js';
import { checkFormat } from '../../src/schema/index.js';

/** [input, its ASCII form (null: refused), why]. */
type Vector = readonly [string, string | null, string];

const CONVERTED: readonly Vector[] = [
  ['bücher.example', 'xn--bcher-kva.example', 'a U-label is punycode-encoded'],
  ['BÜCHER.EXAMPLE', 'xn--bcher-kva.example', 'mapping: case folded'],
  ['ＢＵＣＨＥＲ.example', 'bucher.example', 'mapping: full-width letters to ASCII'],
  ['Ⅻ.example', 'xii.example', 'mapping: compatibility decomposition (ROMAN NUMERAL TWELVE)'],
  ['ab\u00adc.example', 'abc.example', 'mapping: SOFT HYPHEN is ignored'],
  ['bücher\u3002example', 'xn--bcher-kva.example', 'mapping: IDEOGRAPHIC FULL STOP separates labels'],
  ['bu\u0308cher.example', 'xn--bcher-kva.example', 'normalisation: u + COMBINING DIAERESIS is NFC ü'],
  ['faß.de', 'xn--fa-hia.de', 'nontransitional: ß is kept (deviation), not mapped to ss'],
  ['ς.com', 'xn--3xa.com', 'nontransitional: final sigma is kept'],
  ['例え.テスト', 'xn--r8jz45g.xn--zckzah', 'CJK labels'],
  ['مثال.إختبار', 'xn--mgbh0fb.xn--kgbechtv', 'bidi: right-to-left labels (RFC 5893 rules 1-4)'],
  ['דוגמה.טעסט', 'xn--6dbbec0c.xn--deba0ad', 'bidi: Hebrew labels'],
  ['a.b.xn--mgbh0fb', 'a.b.xn--mgbh0fb', 'bidi: left-to-right ASCII labels beside a right-to-left one'],
  ['\u0915\u094d\u200d\u0937.example', 'xn--11b2ezcw70k.example', 'joiners: ZWJ after a virama (C2 holds)'],
  ['\u0915\u094d\u200c\u0937.example', 'xn--11b2ezcs70k.example', 'joiners: ZWNJ after a virama (C1 holds)'],
  ['XN--BCHER-KVA.EXAMPLE', 'xn--bcher-kva.example', 'an A-label in capitals decodes like its lower case'],
  ['💩.la', 'xn--ls8h.la', 'UTS #46 admits symbols that IDNA2008 alone does not'],
];

const REFUSED: readonly Vector[] = [
  ['xn--zz.example', null, 'P4: not valid punycode (accepted by domainToASCII on Node.js 24 and later)'],
  ['xn--a.example', null, 'V7: decodes to a C1 control character (U+0080)'],
  ['xn--ab-.example', null, 'P4: an A-label that decodes to ASCII only'],
  ['xn--.example', null, 'P4: an A-label that decodes to nothing'],
  ['xn--bcher-kva.xn--zz', null, 'P4 in the last label'],
  ['xn--bucher-xyd.example', null, 'V1: decodes to a label not in NFC (u + COMBINING DIAERESIS)'],
  ['a\u200cb.example', null, 'C1: ZWNJ without a virama or joining context'],
  ['a\u200db.example', null, 'C2: ZWJ without a virama'],
  ['\u0301a.example', null, 'V6: a label must not begin with a combining mark'],
  ['a.b\u05d0', null, 'B5, B6: a left-to-right label with a right-to-left letter (accepted by domainToASCII)'],
  ['\u0661.\u0662', null, 'B1: a bidi label must begin with L, R or AL, not an Arabic digit (accepted by domainToASCII)'],
  ['0\u0645\u062b\u0627\u0644.example', null, 'B1: a right-to-left label must not begin with a European digit'],
  ['\u0645\u062b\u0627\u0644a.example', null, 'B2, B3: a right-to-left label with a left-to-right letter'],
  ['⒈.com', null, 'V7: DIGIT ONE FULL STOP is disallowed'],
  ['ab\ufffdc.example', null, 'V7: REPLACEMENT CHARACTER is disallowed'],
];

describe('IDNA: one answer on every Node.js line', () => {
  it(`converts as UTS #46 nontransitional processing does (${process.version})`, () => {
    for (const [input, ascii, why] of CONVERTED) {
      assert.equal(idnaToASCII(input), ascii, `${JSON.stringify(input)}: ${why}`);
      assert.equal(checkFormat('hostname', input), true, `hostname ${JSON.stringify(input)}: ${why}`);
    }
  });

  it('refuses what UTS #46 with CheckBidi and CheckJoiners refuses', () => {
    for (const [input, , why] of REFUSED) {
      assert.equal(idnaToASCII(input), null, `${JSON.stringify(input)}: ${why}`);
      assert.equal(checkFormat('hostname', input), false, `hostname ${JSON.stringify(input)}: ${why}`);
    }
  });

  it('checks the RFC 1123 rules on the ASCII form, not on the Unicode input', () => {
    // 57 ü make a 63-character A-label, the most a DNS label holds; 58 make 64.
    assert.equal(idnaToASCII(`${'ü'.repeat(57)}.example`)?.split('.')[0]?.length, 63);
    assert.equal(checkFormat('hostname', `${'ü'.repeat(57)}.example`), true);
    assert.equal(checkFormat('hostname', `${'ü'.repeat(58)}.example`), false);
    // Mapped to an underscore: UTS #46 without STD3 rules lets it through, RFC 1123 does not.
    assert.equal(idnaToASCII('a＿b.com'), 'a_b.com');
    assert.equal(checkFormat('hostname', 'a＿b.com'), false);
    // A trailing dot (a fully qualified name) survives the conversion.
    assert.equal(checkFormat('hostname', 'bücher.example.'), true);
  });

  it('email: the domain must be ASCII, and an A-label in it must decode', () => {
    assert.equal(checkFormat('email', 'ada@xn--bcher-kva.example'), true);
    assert.equal(checkFormat('email', 'ada@xn--zz.example'), false);
    assert.equal(checkFormat('email', 'ada@a.xn--bucher-xyd'), false);
    assert.equal(checkFormat('email', 'ada@bücher.example'), false);
  });
});
