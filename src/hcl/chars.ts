/**
 * Character classes used by the scanner and the template parser. ASCII takes a fast path; only
 * non-ASCII code points reach the Unicode property regexes.
 */

/**
 * String values are NFC-normalized, here in the parser and nowhere else (hclsyntax builds them with
 * cty.StringVal, which normalizes): template literal text and bare object keys. A combining tilde
 * after "n" becomes "ñ". Only text with non-ASCII characters can change.
 */
export function nfc(s: string): string {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return s.normalize('NFC');
  return s;
}

const ID_START = /^\p{ID_Start}$/u;
const ID_CONTINUE = /^\p{ID_Continue}$/u;

/** Identifier = (ID_Start | '_') (ID_Continue | '-')* (hclsyntax scan_tokens.rl). */
export function isIdentStart(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) || cp === 0x5f;
  return ID_START.test(String.fromCodePoint(cp));
}

export function isIdentContinue(cp: number): boolean {
  if (cp < 0x80) {
    return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x30 && cp <= 0x39) || cp === 0x5f || cp === 0x2d;
  }
  return ID_CONTINUE.test(String.fromCodePoint(cp));
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * Go's unicode.IsSpace, which hclsyntax uses for strip markers and flush heredocs. It differs
 * from JS `\s`: it includes U+0085 and excludes U+FEFF.
 */
export function isSpace(c: number): boolean {
  if (c <= 0xff) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x85 || c === 0xa0;
  return c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/** The code point at UTF-16 index i (a lone surrogate is returned as itself). */
export function codePointAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

export function trimLeftSpace(s: string): string {
  let i = 0;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i === 0 ? s : s.slice(i);
}

export function trimRightSpace(s: string): string {
  let i = s.length;
  while (i > 0 && isSpace(s.charCodeAt(i - 1))) i--;
  return i === s.length ? s : s.slice(0, i);
}

export function trimSpace(s: string): string {
  return trimRightSpace(trimLeftSpace(s));
}
