/**
 * `join(separator, lists...)`: the elements of one or more lists (converted to strings as HCL does)
 * joined by separator, as Terraform's join. The length is charged to the size budget before the text
 * is built: a long separator from request data between many elements would otherwise multiply.
 */
import { reserveChars } from '../budget.js';
import { str, stringList } from './args.js';
import { defineFunction } from './types.js';

export const join = defineFunction({
  name: 'join',
  params: ['separator', 'list'],
  variadic: 'lists',
  impl: (args, budget) => {
    const parts = stringList(args, 1);
    for (let i = 2; i < args.length; i++) for (const p of stringList(args, i)) parts.push(p);
    const sep = str(args, 0);
    let total = parts.length > 0 ? sep.length * (parts.length - 1) : 0;
    for (const p of parts) total += p.length;
    reserveChars(budget, total);
    return parts.join(sep);
  },
});
