import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseExpression } from '../../src/hcl/index.js';
import { BigFloat, exactOverlay } from '../../src/expr/exact/overlay.js';

const big = BigFloat.parse;

describe('512-bit numbers (conformance exact mode)', () => {
  it('parses and compares exactly', () => {
    assert.ok(big('3.2').equals(big('3.20')));
    assert.ok(big('1e3').equals(big('1000')));
    assert.ok(!big('0.1').equals(BigFloat.fromNumber(0.1)), '0.1 at 512 bits is not the double 0.1');
    assert.equal(big('-2.5').toDecimal(), '-2.5');
    assert.equal(BigFloat.fromNumber(0.1).toNumber(), 0.1);
  });
  it('computes as cty does', () => {
    assert.ok(big('1').div(big('10')).equals(big('0.1')));
    assert.ok(big('2').mul(big('4.5')).equals(big('9')));
    assert.ok(big('3.5').sub(big('2')).equals(big('1.5')));
    assert.ok(big('11').mod(big('5')).equals(big('1')));
    assert.ok(big('-7').mod(big('3')).equals(big('-1')), 'modulo truncates toward zero');
    assert.ok(big('5').mod(big('0')).equals(big('5')), 'x % 0 is x in cty');
    assert.equal(big('1').cmp(big('2')), -1);
  });
  it('matches the specsuite expectations that doubles cannot', () => {
    const pi = '3.14159265358979323846264338327950288419716939937510582097494459';
    assert.ok(big(pi).add(big('1')).equals(big('4.14159265358979323846264338327950288419716939937510582097494459')));
    const modFrac = '0.8' + '0'.repeat(152) + '24';
    assert.ok(big('11').mod(big('5.1')).equals(big(modFrac)));
    assert.notEqual(11 % 5.1, 0.8);
  });
  it('overlays exact values on literal-only arithmetic', () => {
    const { expr } = parseExpression('{ a = 11 % 5.1, b = "x", c = [1 + 2] }', 'o.hcl');
    const v = exactOverlay(expr, { a: 11 % 5.1, b: 'x', c: [3] }) as { a: BigFloat; b: string; c: BigFloat[] };
    assert.ok(v.a instanceof BigFloat);
    assert.equal(v.b, 'x');
    assert.ok(v.c[0]!.equals(big('3')));
  });
});
