/**
 * `replace(str, substr, replacement)`: every occurrence of substr; as in Terraform, `/pattern/` is a
 * regular expression (JavaScript syntax) and the replacement may use `$1`. Only a constant pattern:
 * compiled once at boot by src/regex and matched in linear time (RE2), so nothing can make it
 * backtrack, and one RE2 cannot run is a boot error. A substr from request data is always plain text.
 */
import { compileRegex, type LinearRegex, RegexError } from '../../regex/index.js';
import { FunctionArgError } from '../errors.js';
import { str } from './args.js';
import { defineFunction } from './types.js';

function literal(s: string, sub: string, rep: string): string {
  return sub === '' ? s : s.split(sub).join(rep);
}

function isPattern(sub: string): boolean {
  return sub.length > 1 && sub.startsWith('/') && sub.endsWith('/');
}

function compilePattern(sub: string): LinearRegex {
  try {
    return compileRegex(sub.slice(1, -1));
  } catch (e) {
    if (!(e instanceof RegexError)) throw e;
    throw new FunctionArgError(1, `invalid regular expression: ${e.reason}`);
  }
}

export const replace = defineFunction({
  name: 'replace',
  params: ['str', 'substr', 'replace'],
  impl: (args) => literal(str(args, 0), str(args, 1), str(args, 2)),
  specialize: (constants) => {
    const sub = constants[1]?.value;
    if (typeof sub !== 'string' || !isPattern(sub)) return undefined;
    const re = compilePattern(sub);
    return (args) => re.replaceAll(str(args, 0), str(args, 2));
  },
});
