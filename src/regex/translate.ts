/**
 * JavaScript regular expression syntax (`u` mode, no flags) rewritten as RE2 syntax with the
 * JavaScript meaning: authors and OpenAPI clients read patterns as ECMA-262, svc runs them on RE2
 * (linear time). Where the two differ, JavaScript wins: `.` excludes all line terminators, `\s` is
 * JavaScript's white space, `[]` / `[^]`, `[` and `\b` in a class, `\u`/`\c`/`\0` escapes, named
 * groups, and `\p{...}` keys and long names (docs/fields-and-validation.md "Regular expressions").
 * Lookaround, back-references and script extensions are refused here with the reason; whatever else
 * RE2 refuses, compile.ts reports. The input is already a valid `u` pattern (compile.ts checks).
 */

/** A construct RE2 cannot run; `what` names it for the diagnostic. */
export class UnsupportedConstruct extends Error {
  override readonly name = 'UnsupportedConstruct';
  constructor(readonly what: string) {
    super(what);
  }
}

/** JavaScript's `\s`: WhiteSpace and LineTerminator of ECMA-262, as code point ranges. */
const JS_SPACE: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

const MAX_CODE_POINT = 0x10ffff;

/** The code points outside `ranges` (sorted, disjoint), as ranges. */
function complement(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** A name quoted in a message, cut short: a diagnostic never carries a whole long pattern. */
function excerpt(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function hex(cp: number): string {
  return `\\x{${cp.toString(16).toUpperCase()}}`;
}

/** One code point as an RE2 literal, inside or outside a class. */
function literal(cp: number): string {
  const c = String.fromCodePoint(cp);
  if (/^[A-Za-z0-9_]$/.test(c)) return c;
  // RE2 takes a backslash before any ASCII punctuation as "this character".
  if (/^[!-/:-@[-`{-~]$/.test(c)) return `\\${c}`;
  if (cp > 0x7f && cp !== 0x2028 && cp !== 0x2029 && !(cp >= 0xd800 && cp <= 0xdfff) && /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(c)) return c;
  return hex(cp);
}

function rangesText(ranges: readonly (readonly [number, number])[]): string {
  return ranges.map(([lo, hi]) => (lo === hi ? literal(lo) : `${literal(lo)}-${literal(hi)}`)).join('');
}

const SPACE_ITEMS = rangesText(JS_SPACE);
const NON_SPACE_ITEMS = rangesText(complement(JS_SPACE));
const LINE_TERMINATORS = '\\n\\r\\x{2028}\\x{2029}';
const ANY = `\\x{0}-\\x{10FFFF}`;

/** Property keys JavaScript writes before `=` whose value RE2 names alone. */
const PROPERTY_KEYS = new Set(['General_Category', 'gc', 'Script', 'sc']);

/** The long names (and aliases) of general categories that JavaScript accepts, by the short name RE2 knows. */
const CATEGORY_ALIASES: Readonly<Record<string, string>> = {
  Letter: 'L',
  Uppercase_Letter: 'Lu',
  Lowercase_Letter: 'Ll',
  Titlecase_Letter: 'Lt',
  Modifier_Letter: 'Lm',
  Other_Letter: 'Lo',
  Mark: 'M',
  Combining_Mark: 'M',
  Nonspacing_Mark: 'Mn',
  Spacing_Mark: 'Mc',
  Enclosing_Mark: 'Me',
  Number: 'N',
  Decimal_Number: 'Nd',
  digit: 'Nd',
  Letter_Number: 'Nl',
  Other_Number: 'No',
  Punctuation: 'P',
  punct: 'P',
  Connector_Punctuation: 'Pc',
  Dash_Punctuation: 'Pd',
  Open_Punctuation: 'Ps',
  Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi',
  Final_Punctuation: 'Pf',
  Other_Punctuation: 'Po',
  Symbol: 'S',
  Math_Symbol: 'Sm',
  Currency_Symbol: 'Sc',
  Modifier_Symbol: 'Sk',
  Other_Symbol: 'So',
  Separator: 'Z',
  Space_Separator: 'Zs',
  Line_Separator: 'Zl',
  Paragraph_Separator: 'Zp',
  Other: 'C',
  Control: 'Cc',
  cntrl: 'Cc',
  Format: 'Cf',
  Surrogate: 'Cs',
  Private_Use: 'Co',
};

/** The RE2 source with the JavaScript meaning of `source` (a valid `u`-mode pattern, no flags). */
export function translateToRe2(source: string): string {
  return new Translator(source).run();
}

class Translator {
  private i = 0;
  private out = '';
  constructor(private readonly src: string) {}

  run(): string {
    while (this.i < this.src.length) this.term();
    return this.out;
  }

  private peek(offset = 0): string | undefined {
    return this.src[this.i + offset];
  }

  private term(): void {
    const c = this.src[this.i]!;
    switch (c) {
      case '(':
        this.group();
        return;
      case '[':
        this.characterClass();
        return;
      case '\\':
        this.out += this.escape(false);
        return;
      case '.':
        this.i++;
        this.out += `[^${LINE_TERMINATORS}]`;
        return;
      // Syntax that RE2 spells the same: alternation, group end, anchors, quantifiers (lazy ones too).
      case ')':
      case '|':
      case '^':
      case '$':
      case '*':
      case '+':
      case '?':
        this.i++;
        this.out += c;
        return;
      case '{': {
        // In `u` mode a `{` is always a quantifier: `{n}`, `{n,}`, `{n,m}`.
        const end = this.src.indexOf('}', this.i);
        this.out += this.src.slice(this.i, end + 1);
        this.i = end + 1;
        return;
      }
      default: {
        const cp = this.src.codePointAt(this.i)!;
        this.i += cp > 0xffff ? 2 : 1;
        this.out += literal(cp);
      }
    }
  }

  private group(): void {
    const s = this.src;
    if (s.startsWith('(?=', this.i) || s.startsWith('(?!', this.i)) throw new UnsupportedConstruct(`a lookahead assertion \`${s.slice(this.i, this.i + 3)}\``);
    if (s.startsWith('(?<=', this.i) || s.startsWith('(?<!', this.i))
      throw new UnsupportedConstruct(`a lookbehind assertion \`${s.slice(this.i, this.i + 4)}\``);
    if (s.startsWith('(?:', this.i)) {
      this.out += '(?:';
      this.i += 3;
    } else if (s.startsWith('(?<', this.i)) {
      const end = s.indexOf('>', this.i);
      this.out += `(?P<${s.slice(this.i + 3, end)}>`;
      this.i = end + 1;
    } else {
      this.out += '(';
      this.i++;
    }
  }

  private characterClass(): void {
    const s = this.src;
    this.i++; // '['
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.i++;
    }
    if (this.peek() === ']') {
      this.i++;
      this.out += negated ? `[${ANY}]` : `[^${ANY}]`;
      return;
    }
    let items = '';
    while (s[this.i] !== ']') {
      const low = this.classAtom();
      // `a-z`: a dash between two single characters; a dash anywhere else is itself (`[-a]`, `[a-]`, `[a-z-0]`).
      if (low.single && s[this.i] === '-' && s[this.i + 1] !== ']') {
        this.i++;
        items += `${low.text}-${this.classAtom().text}`;
      } else items += low.text;
    }
    this.i++; // ']'
    this.out += `[${negated ? '^' : ''}${items}]`;
  }

  /** One class atom as RE2 class items; `single` when it is one character (so it may start a range). */
  private classAtom(): { text: string; single: boolean } {
    const s = this.src;
    if (s[this.i] === '\\') {
      const letter = s[this.i + 1]!;
      return { text: this.escape(true), single: !'dDwWsSpP'.includes(letter) };
    }
    const cp = s.codePointAt(this.i)!;
    this.i += cp > 0xffff ? 2 : 1;
    return { text: literal(cp), single: true };
  }

  /** A backslash sequence at `this.i`, inside a class or not, as RE2 source. */
  private escape(inClass: boolean): string {
    const s = this.src;
    const c = s[this.i + 1]!;
    this.i += 2;
    switch (c) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
        return `\\${c}`;
      case 'b':
        return inClass ? literal(0x08) : '\\b';
      case 'B':
        return '\\B';
      case 's':
        return inClass ? SPACE_ITEMS : `[${SPACE_ITEMS}]`;
      case 'S':
        return inClass ? NON_SPACE_ITEMS : `[^${SPACE_ITEMS}]`;
      case 'p':
      case 'P':
        return this.property(c);
      case 'k':
        throw new UnsupportedConstruct(`a back-reference \`\\k${excerpt(s.slice(this.i, s.indexOf('>', this.i) + 1))}\``);
      case 'f':
        return literal(0x0c);
      case 'n':
        return literal(0x0a);
      case 'r':
        return literal(0x0d);
      case 't':
        return literal(0x09);
      case 'v':
        return literal(0x0b);
      case 'c': {
        const letter = s.charCodeAt(this.i);
        this.i++;
        return literal(letter % 32);
      }
      case 'x': {
        const cp = Number.parseInt(s.slice(this.i, this.i + 2), 16);
        this.i += 2;
        return literal(cp);
      }
      case 'u':
        return literal(this.unicodeEscape());
      default:
        if (c >= '1' && c <= '9') throw new UnsupportedConstruct(`a back-reference \`\\${excerpt(/^\d+/.exec(s.slice(this.i - 1))![0])}\``);
        if (c === '0') return literal(0); // `u` mode: `\0` is NUL and never followed by a digit
        // An identity escape: in `u` mode, a syntax character, `/`, or `-` in a class.
        return literal(s.codePointAt(this.i - 1)!);
    }
  }

  /** After `\u`: `{H…}`, or `HHHH` (joined with a following `\uHHHH` trail surrogate, as `u` mode does). */
  private unicodeEscape(): number {
    const s = this.src;
    if (s[this.i] === '{') {
      const end = s.indexOf('}', this.i);
      const cp = Number.parseInt(s.slice(this.i + 1, end), 16);
      this.i = end + 1;
      return cp;
    }
    const unit = Number.parseInt(s.slice(this.i, this.i + 4), 16);
    this.i += 4;
    if (unit >= 0xd800 && unit <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(s.slice(this.i, this.i + 6))) {
      const trail = Number.parseInt(s.slice(this.i + 2, this.i + 6), 16);
      this.i += 6;
      return (unit - 0xd800) * 0x400 + (trail - 0xdc00) + 0x10000;
    }
    return unit;
  }

  /** After `\p` or `\P`: `{Name}` or `{Key=Value}`. */
  private property(letter: 'p' | 'P'): string {
    const s = this.src;
    const end = s.indexOf('}', this.i);
    const body = s.slice(this.i + 1, end);
    this.i = end + 1;
    const eq = body.indexOf('=');
    if (eq >= 0 && !PROPERTY_KEYS.has(body.slice(0, eq))) {
      throw new UnsupportedConstruct(`the Unicode property \`\\${letter}{${excerpt(body)}}\` (script extensions)`);
    }
    const name = body.slice(eq + 1); // the whole body when there is no `=`
    return `\\${letter}{${Object.hasOwn(CATEGORY_ALIASES, name) ? CATEGORY_ALIASES[name] : name}}`;
  }
}
