/** JSON helpers shared by every layer: exact stringification of values that hold BigInts. */
export { stringifyExact } from './stringify.js';
