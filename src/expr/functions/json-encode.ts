/**
 * `json_encode(value)`: the value as JSON text. Measured against the size budget before it is
 * written (json-size.ts): a value holding the same large object many times is small in memory and
 * huge as text.
 */
import { jsonText } from '../json-size.js';
import { defineFunction } from './types.js';

export const jsonEncode = defineFunction({
  name: 'json_encode',
  params: ['value'],
  impl: (args) => jsonText(args[0] ?? null),
});
