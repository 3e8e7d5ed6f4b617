/**
 * `join(separator, list)`: the elements (converted to strings as HCL does) joined by separator. The
 * length is charged to the size budget before the text is built: a long separator from request data
 * between many elements would otherwise multiply.
 */
import { reserveChars } from '../budget.js';
import { str, stringList } from './args.js';
import { defineFunction } from './types.js';

export const join = defineFunction({
  name: 'join',
  params: ['separator', 'list'],
  impl: (args) => {
    const parts = stringList(args, 1);
    const sep = str(args, 0);
    let total = parts.length > 0 ? sep.length * (parts.length - 1) : 0;
    for (const p of parts) total += p.length;
    reserveChars(total);
    return parts.join(sep);
  },
});
