// Float formatting with the exact rules of starlark-go (Go's strconv.FormatFloat):
// str(float) is %g with the shortest round-tripping digits, in exponent form
// when the decimal exponent is < -4 or >= 6, and always with a '.' or 'e'.

/** Shortest digits and decimal exponent: x = 0.d1d2d3... * 10^dp */
function shortest(x: number): { digits: string; dp: number } {
  const e = Math.abs(x).toExponential(); // e.g. "1.2345e+2"
  const [m, ex] = e.split('e') as [string, string];
  const digits = m.replace('.', '');
  return { digits, dp: Number(ex) + 1 };
}

function expStr(exp: number): string {
  const sign = exp < 0 ? '-' : '+';
  const a = Math.abs(exp);
  return sign + (a < 10 ? '0' + a : String(a));
}

/** Go's FormatFloat(x, 'g' or 'G', -1, 64) */
function formatG(x: number, upper: boolean): string {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const neg = x < 0;
  const { digits, dp } = shortest(x);
  const nd = digits.length;
  // Go decides with precision 6 when the shortest form is requested.
  const exp = dp - 1;
  let s: string;
  if (exp < -4 || exp >= 6) {
    // %e with nd-1 fraction digits
    s = digits[0]! + (nd > 1 ? '.' + digits.slice(1) : '') + (upper ? 'E' : 'e') + expStr(exp);
  } else {
    // %f with max(nd-dp, 0) fraction digits
    if (dp <= 0) s = '0.' + '0'.repeat(-dp) + digits;
    else if (dp >= nd) s = digits + '0'.repeat(dp - nd);
    else s = digits.slice(0, dp) + '.' + digits.slice(dp);
  }
  return (neg ? '-' : '') + s;
}

function formatE(x: number, prec: number, upper: boolean): string {
  if (Object.is(x, -0)) return '-' + formatE(0, prec, upper);
  const s = x.toExponential(prec); // "1.234560e+6"
  const [m, ex] = s.split('e') as [string, string];
  return m + (upper ? 'E' : 'e') + expStr(Number(ex));
}

function formatF(x: number, prec: number): string {
  if (Object.is(x, -0)) return '-' + formatF(0, prec);
  if (Math.abs(x) < 1e21) return x.toFixed(prec);
  // toFixed switches to exponent notation at 1e21; Go prints all digits.
  return BigInt(x).toString() + (prec > 0 ? '.' + '0'.repeat(prec) : '');
}

/** Format a float like starlark-go's Float.format(buf, conv). */
export function formatFloat(x: number, conv: string): string {
  if (!Number.isFinite(x)) {
    if (x === Infinity) return '+inf';
    if (x === -Infinity) return '-inf';
    return 'nan';
  }
  switch (conv) {
    case 'g':
    case 'G': {
      const s = formatG(x, conv === 'G');
      if (!s.includes(conv === 'g' ? 'e' : 'E') && !s.includes('.')) return s + '.0';
      return s;
    }
    case 'e':
    case 'E':
      return formatE(x, 6, conv === 'E');
    case 'f':
    case 'F':
      return formatF(x, 6);
  }
  return formatG(x, false);
}

/** str(float) / repr(float) */
export function floatStr(x: number): string {
  return formatFloat(x, 'g');
}
