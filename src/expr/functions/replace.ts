/**
 * `replace(str, substr, replacement)`: every occurrence of substr. As in Terraform, a substr written
 * `/pattern/` is a regular expression (JS syntax) and the replacement may use `$1` groups.
 */
import { FunctionArgError } from '../errors.js';
import { str } from './args.js';
import { defineFunction } from './types.js';

export const replace = defineFunction({
  name: 'replace',
  params: ['str', 'substr', 'replace'],
  impl: (args) => {
    const s = str(args, 0);
    const sub = str(args, 1);
    const rep = str(args, 2);
    if (sub.length > 1 && sub.startsWith('/') && sub.endsWith('/')) {
      let re: RegExp;
      try {
        re = new RegExp(sub.slice(1, -1), 'gu');
      } catch (e) {
        throw new FunctionArgError(1, `invalid regular expression: ${(e as Error).message}`);
      }
      return s.replace(re, rep);
    }
    if (sub === '') return s;
    return s.split(sub).join(rep);
  },
});
