/**
 * `tostring(v)` and `tonumber(v)`: HCL's primitive conversions; null stays null.
 * Lists and objects have no string form; bools have no number form.
 */
import { FunctionArgError } from '../errors.js';
import { parseNumber, primitiveToString, typeName } from '../values.js';
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

export const tonumber = defineFunction({
  name: 'tonumber',
  params: ['v'],
  impl: (args) => {
    const v = args[0];
    if (v === null || v === undefined) return null;
    if (typeof v === 'number') return v;
    if (typeof v === 'string') {
      const n = parseNumber(v);
      if (n === undefined) throw new FunctionArgError(0, `cannot convert ${JSON.stringify(v)} to number: a number is required`);
      return n;
    }
    throw new FunctionArgError(0, `cannot convert ${typeName(v)} to number`);
  },
});
