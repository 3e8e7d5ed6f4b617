/**
 * Binary floating point with a 512-bit mantissa, rounding to nearest-even: the number model of
 * HCL (cty parses literals with big.ParseFloat(s, 10, 512, ToNearestEven) and computes with
 * big.Float at that precision). Used only by the conformance runner's exact mode; the product
 * evaluates with JS doubles.
 */
export const PRECISION = 512;

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/** value = (neg ? -1 : 1) * mant * 2^exp; mant has at most PRECISION bits and no trailing zero bit. */
export class BigFloat {
  private constructor(
    readonly neg: boolean,
    readonly mant: bigint,
    readonly exp: number,
  ) {}

  static readonly ZERO = new BigFloat(false, 0n, 0);

  /** Rounds ±m·2^e (m >= 0, exact) to PRECISION bits. `sticky` says nonzero bits were cut below m. */
  static round(neg: boolean, m: bigint, e: number, sticky = false): BigFloat {
    if (m === 0n) return BigFloat.ZERO;
    const bl = bitLength(m);
    if (bl > PRECISION) {
      const shift = bl - PRECISION;
      let q = m >> BigInt(shift);
      const r = m - (q << BigInt(shift));
      const half = 1n << BigInt(shift - 1);
      if (r > half || (r === half && (sticky || (q & 1n) === 1n))) q += 1n;
      m = q;
      e += shift;
    }
    while ((m & 1n) === 0n) {
      m >>= 1n;
      e += 1;
    }
    return new BigFloat(neg, m, e);
  }

  /** A decimal literal ("3.14", "1e-3"), correctly rounded. */
  static parse(text: string): BigFloat {
    const m = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(text.trim());
    if (!m) throw new Error(`not a number: ${text}`);
    const neg = m[1] === '-';
    const digits = (m[2] ?? '') + (m[3] ?? '');
    const exp10 = Number(m[4] ?? '0') - (m[3] ?? '').length;
    const d = BigInt(digits === '' ? '0' : digits);
    if (exp10 >= 0) return BigFloat.round(neg, d * 10n ** BigInt(exp10), 0);
    return BigFloat.quotient(neg, d, 0, 10n ** BigInt(-exp10), 0);
  }

  static fromNumber(n: number): BigFloat {
    if (!Number.isFinite(n)) throw new Error('not finite');
    // Every double is exactly representable; its shortest decimal form parses back to it in 53 bits,
    // but we want the exact binary value, so decompose it.
    if (n === 0) return BigFloat.ZERO;
    const neg = n < 0;
    let a = Math.abs(n);
    let e = 0;
    while (!Number.isInteger(a)) {
      a *= 2;
      e -= 1;
    }
    return BigFloat.round(neg, BigInt(a), e);
  }

  /** Correctly rounded (a·2^ea) / (b·2^eb). */
  private static quotient(neg: boolean, a: bigint, ea: number, b: bigint, eb: number): BigFloat {
    if (b === 0n) throw new Error('division by zero');
    if (a === 0n) return BigFloat.ZERO;
    const k = Math.max(0, PRECISION + 2 - (bitLength(a) - bitLength(b)));
    const num = a << BigInt(k);
    let q = num / b;
    const r = num - q * b;
    let e = ea - eb - k;
    if (r !== 0n) {
      // Append a sticky bit so rounding sees "more than nothing" below the kept bits.
      q = (q << 1n) | 1n;
      e -= 1;
    }
    return BigFloat.round(neg, q, e);
  }

  get isZero(): boolean {
    return this.mant === 0n;
  }

  negate(): BigFloat {
    return this.isZero ? this : new BigFloat(!this.neg, this.mant, this.exp);
  }

  add(o: BigFloat): BigFloat {
    if (this.isZero) return o;
    if (o.isZero) return this;
    const e = Math.min(this.exp, o.exp);
    const a = (this.neg ? -1n : 1n) * (this.mant << BigInt(this.exp - e));
    const b = (o.neg ? -1n : 1n) * (o.mant << BigInt(o.exp - e));
    const s = a + b;
    return BigFloat.round(s < 0n, s < 0n ? -s : s, e);
  }

  sub(o: BigFloat): BigFloat {
    return this.add(o.negate());
  }

  mul(o: BigFloat): BigFloat {
    return BigFloat.round(this.neg !== o.neg, this.mant * o.mant, this.exp + o.exp);
  }

  div(o: BigFloat): BigFloat {
    return BigFloat.quotient(this.neg !== o.neg, this.mant, this.exp, o.mant, o.exp);
  }

  /** The integer part, truncated toward zero (big.Float.Int). */
  trunc(): BigFloat {
    if (this.exp >= 0 || this.isZero) return this;
    return BigFloat.round(this.neg, this.mant >> BigInt(-this.exp), 0);
  }

  /** cty's Modulo: a - b * trunc(a / b); x % 0 is x. */
  mod(o: BigFloat): BigFloat {
    if (o.isZero) return this;
    return this.sub(o.mul(this.div(o).trunc()));
  }

  cmp(o: BigFloat): number {
    const d = this.sub(o);
    return d.isZero ? 0 : d.neg ? -1 : 1;
  }

  equals(o: BigFloat): boolean {
    return this.neg === o.neg && this.mant === o.mant && this.exp === o.exp;
  }

  toNumber(): number {
    // Round to a double through its decimal form with plenty of digits.
    return Number(this.toDecimal(40));
  }

  /** A decimal approximation with `digits` significant digits (for messages). */
  toDecimal(digits = 30): string {
    if (this.isZero) return '0';
    // value = mant * 2^exp = mant * 5^-exp / 10^-exp when exp < 0.
    let intPart: bigint;
    let scale: number;
    if (this.exp >= 0) {
      intPart = this.mant << BigInt(this.exp);
      scale = 0;
    } else {
      intPart = this.mant * 5n ** BigInt(-this.exp);
      scale = -this.exp;
    }
    let s = intPart.toString();
    // Keep `digits` significant digits (truncating: this is for display and toNumber only).
    const cut = Math.max(0, s.length - digits);
    s = s.slice(0, s.length - cut);
    scale -= cut;
    let out: string;
    if (scale <= 0) out = s + '0'.repeat(-scale);
    else if (scale >= s.length) out = '0.' + '0'.repeat(scale - s.length) + s;
    else out = s.slice(0, s.length - scale) + '.' + s.slice(s.length - scale);
    if (out.includes('.')) out = out.replace(/0+$/, '').replace(/\.$/, '');
    return (this.neg ? '-' : '') + out;
  }

  toString(): string {
    return this.toDecimal(40);
  }
}
