/** `tonumber(value)`: HCL's conversion to number (numeric strings); null stays null. */
import { FunctionArgError } from '../errors.js';
import { parseNumber, typeName } from '../values.js';
import { defineFunction } from './types.js';

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
