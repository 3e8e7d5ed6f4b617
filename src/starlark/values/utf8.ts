// Starlark strings are byte strings holding (usually) UTF-8 text, as in
// starlark-go: len("Ω") == 2 and "aΩb"[1] == "\xce". We represent them as JS
// "binary strings": one JS char (0..255) per byte. Indexing, slicing, len and
// comparison are then plain JS string operations with exactly the byte
// semantics of the spec; ASCII text (the common case) is identical in both
// representations, so conversion at the host boundary is a cheap check.

const ASCII = /^[\x00-\x7f]*$/;

/** JS (UTF-16) text -> binary string of its UTF-8 bytes. */
export function encodeUTF8(s: string): string {
  if (isASCII(s)) return s;
  return Buffer.from(s, 'utf8').toString('latin1');
}

/** Binary string of UTF-8 bytes -> JS text (invalid bytes become U+FFFD). */
export function decodeUTF8(b: string): string {
  if (isASCII(b)) return b;
  return Buffer.from(b, 'latin1').toString('utf8');
}

export function isASCII(s: string): boolean {
  if (s.length > 32) return ASCII.test(s);
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * Decode one UTF-8 sequence of binary string s at byte offset i.
 * Returns [codepoint, size]; an invalid byte yields [0xFFFD, 1] like Go's utf8.DecodeRuneInString.
 */
export function decodeRune(s: string, i: number): [number, number] {
  const b0 = s.charCodeAt(i);
  if (b0 < 0x80) return [b0, 1];
  const n = s.length;
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    if (i + 1 < n) {
      const b1 = s.charCodeAt(i + 1);
      if ((b1 & 0xc0) === 0x80) return [((b0 & 0x1f) << 6) | (b1 & 0x3f), 2];
    }
    return [0xfffd, 1];
  }
  if (b0 >= 0xe0 && b0 <= 0xef) {
    if (i + 2 < n) {
      const b1 = s.charCodeAt(i + 1),
        b2 = s.charCodeAt(i + 2);
      const lo = b0 === 0xe0 ? 0xa0 : 0x80,
        hi = b0 === 0xed ? 0x9f : 0xbf;
      if (b1 >= lo && b1 <= hi && (b2 & 0xc0) === 0x80) return [((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f), 3];
    }
    return [0xfffd, 1];
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    if (i + 3 < n) {
      const b1 = s.charCodeAt(i + 1),
        b2 = s.charCodeAt(i + 2),
        b3 = s.charCodeAt(i + 3);
      const lo = b0 === 0xf0 ? 0x90 : 0x80,
        hi = b0 === 0xf4 ? 0x8f : 0xbf;
      if (b1 >= lo && b1 <= hi && (b2 & 0xc0) === 0x80 && (b3 & 0xc0) === 0x80) {
        return [((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f), 4];
      }
    }
    return [0xfffd, 1];
  }
  return [0xfffd, 1];
}

/** Encode one code point as a binary UTF-8 string. */
export function runeToUTF8(cp: number): string {
  if (cp < 0x80) return String.fromCharCode(cp);
  if (cp >= 0xd800 && cp < 0xe000) cp = 0xfffd;
  return Buffer.from(String.fromCodePoint(cp), 'utf8').toString('latin1');
}

/**
 * Text for humans from a message that may embed Starlark (binary) strings:
 * decoded as UTF-8 when it is valid UTF-8, otherwise returned unchanged
 * (it is then already JS text, e.g. from a host error).
 */
export function displayText(s: string): string {
  if (isASCII(s) || /[^\x00-\xff]/.test(s)) return s;
  const t = Buffer.from(s, 'latin1').toString('utf8');
  return t.includes('\ufffd') && !s.includes('\xef\xbf\xbd') ? s : t;
}
