/** `tostring(value)`: HCL's conversion to string (numbers, bools); null stays null; lists and objects are refused. */
import { FunctionArgError } from '../errors.js';
import { primitiveToString, typeName } from '../values.js';
import { defineFunction } from './types.js';

export const tostring = defineFunction({
  name: 'tostring',
  params: ['v'],
  impl: (args) => {
    const v = args[0];
    if (v === null || v === undefined) return null;
    const s = typeof v === 'object' && !(v instanceof Date) ? undefined : primitiveToString(v);
    if (s === undefined) throw new FunctionArgError(0, `cannot convert ${typeName(v)} to string`);
    return s;
  },
});
