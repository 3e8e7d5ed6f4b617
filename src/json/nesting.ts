/**
 * JSON nesting checked before `JSON.parse` builds anything (shared by request bodies and
 * `json_decode`, whose parser would otherwise recurse to a stack overflow).
 *
 * True when an object or array nests deeper than `max`. A valid document of depth d has at least 2d
 * characters, so short texts skip the scan; brackets inside strings do not count.
 */
export function jsonNestsDeeper(text: string, max: number): boolean {
  const n = text.length;
  if (n <= 2 * max) return false;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Jump to the closing quote: one not preceded by an odd run of backslashes.
      let j = i;
      for (;;) {
        j = text.indexOf('"', j + 1);
        if (j < 0) return false; // unterminated string: JSON.parse will say so
        let k = j - 1;
        while (text.charCodeAt(k) === 0x5c /* \ */) k--;
        if ((j - 1 - k) % 2 === 0) break;
      }
      i = j;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}
