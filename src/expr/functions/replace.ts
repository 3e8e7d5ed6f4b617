/**
 * `replace(str, substr, replacement)`: every occurrence of substr. As in Terraform, a substr written
 * `/pattern/` is a regular expression (JS syntax) and the replacement may use `$1` groups.
 *
 * The regular-expression form applies only to a pattern written as a constant in the manifest: it is
 * compiled once, at boot (an invalid one is a boot error). A substr computed from request data is
 * always a plain substring, so a client can never supply a pattern (catastrophic backtracking would
 * stall the whole server).
 */
import { FunctionArgError } from '../errors.js';
import { str } from './args.js';
import { defineFunction } from './types.js';

function literal(s: string, sub: string, rep: string): string {
  return sub === '' ? s : s.split(sub).join(rep);
}

function isPattern(sub: string): boolean {
  return sub.length > 1 && sub.startsWith('/') && sub.endsWith('/');
}

function compilePattern(sub: string): RegExp {
  try {
    return new RegExp(sub.slice(1, -1), 'gu');
  } catch (e) {
    throw new FunctionArgError(1, `invalid regular expression: ${(e as Error).message}`);
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
    // A global RegExp keeps state in lastIndex, but String.prototype.replace resets it on every call.
    return (args) => str(args, 0).replace(re, str(args, 2));
  },
});
