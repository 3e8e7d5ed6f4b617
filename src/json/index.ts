/** JSON helpers shared by every layer: exact stringification of values that hold BigInts, nesting checks. */
export { stringifyExact } from './stringify.js';
export { jsonNestsDeeper } from './nesting.js';
export { keepSourceText, parseKeepingText, sourceTextOf } from './source-text.js';
