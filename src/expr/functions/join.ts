/** `join(separator, list)`: the elements (converted to strings as HCL does) joined by separator. */
import { str, stringList } from './args.js';
import { defineFunction } from './types.js';

export const join = defineFunction({
  name: 'join',
  params: ['separator', 'list'],
  impl: (args) => stringList(args, 1).join(str(args, 0)),
});
