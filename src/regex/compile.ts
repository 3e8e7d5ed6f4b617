/**
 * Every regular expression a manifest holds (a field's `pattern`, a `replace()` with `/re/`) is
 * compiled here, once, at boot, for RE2 (`re2js`, pure JavaScript), whose matching is linear in time:
 * JavaScript's engine backtracks (`^(a+)+$` on thirty `a` and a `!` takes seconds, serving nothing
 * meanwhile). Written and meant as JavaScript (translate.ts); what RE2 cannot express is refused
 * with the reason, for a boot diagnostic.
 */
import { RE2JS, RE2JSException } from 're2js';
import { translateToRe2, UnsupportedConstruct } from './translate.js';

/** A compiled manifest regular expression. Stateless: one instance serves every request. */
export interface LinearRegex {
  /** The pattern as the manifest wrote it. */
  readonly source: string;
  /** Whether the pattern matches somewhere in `text` (as `RegExp.prototype.test`, unanchored). */
  test(text: string): boolean;
  /**
   * Every match replaced, as `text.replace(/source/gu, replacement)`: `$1`, `$<name>`, `$&`, `` $` ``,
   * `$'` and `$$` expand as in JavaScript.
   */
  replaceAll(text: string, replacement: string): string;
  /** `/source/u`: ajv keys its cache of compiled patterns by this text. */
  toString(): string;
}

/** Why a pattern cannot be used; `reason` quotes at most a short excerpt of the pattern. */
export class RegexError extends Error {
  override readonly name = 'RegexError';
  constructor(
    readonly source: string,
    readonly reason: string,
  ) {
    super(`invalid regular expression: ${reason}`);
  }
}

const WHY_LINEAR = 'svc matches every regular expression of a manifest in time linear in the input (RE2), which rules out lookaround and back-references';

/** Compiles `source` (JavaScript syntax, `u` mode, no flags) for linear-time matching. Throws `RegexError`. */
export function compileRegex(source: string): LinearRegex {
  try {
    // Parses only (nothing is matched): the syntax check and its message are JavaScript's.
    new RegExp(source, 'u');
  } catch (e) {
    throw new RegexError(source, syntaxReason(e as Error));
  }
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(translateToRe2(source));
  } catch (e) {
    if (e instanceof UnsupportedConstruct) throw new RegexError(source, `${e.what} cannot be matched in linear time (${WHY_LINEAR})`);
    if (e instanceof RE2JSException) throw new RegexError(source, `RE2 refuses it: ${re2Reason(e.message)}`);
    throw e;
  }
  return {
    source,
    test: (text) => re2.test(text),
    replaceAll: (text, replacement) => re2.matcher(text).replaceAll(replacement),
    toString: () => `/${source}/u`,
  };
}

/** V8's "Invalid regular expression: /x/u: Unterminated group" without the repeated pattern. */
function syntaxReason(e: Error): string {
  const m = /^Invalid regular expression: \/.*\/[a-z]*: (.*)$/s.exec(e.message);
  return m ? m[1]! : e.message;
}

/** RE2's "error parsing regexp: invalid repeat count: `{1001}`", with what the author can do about it. */
function re2Reason(message: string): string {
  // RE2 quotes the offending part, which may be most of a long pattern.
  const full = message.replace(/^error parsing regexp: /, '');
  const text = full.length > 200 ? `${full.slice(0, 200)}…\`` : full;
  if (text.startsWith('invalid repeat count')) return `${text} (a repeat count is at most 1000)`;
  if (text.startsWith('invalid character class range') && text.includes('\\p')) {
    return `${text} (RE2 knows general categories by their short names, like \\p{L} or \\p{Lu}, and scripts, like \\p{sc=Greek})`;
  }
  return text;
}
