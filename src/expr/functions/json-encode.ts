/** `json_encode(value)`: the value as JSON text. */
import { defineFunction } from './types.js';

export const jsonEncode = defineFunction({
  name: 'json_encode',
  params: ['value'],
  impl: (args) => JSON.stringify(args[0] ?? null),
});
