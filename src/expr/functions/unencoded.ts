/**
 * `unencoded(str)`: the string as it is. In an http step's `url` template it is the author's opt-out
 * of the encoding of interpolated values (../url.ts): `"${base}/${unencoded(steps.cfg.path)}"` puts
 * the value in as written, slashes and all. Anywhere else it changes nothing.
 */
import { str } from './args.js';
import { defineFunction } from './types.js';

export const unencoded = defineFunction({ name: 'unencoded', params: ['str'], impl: (args) => str(args, 0) });
