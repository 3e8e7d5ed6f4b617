// Core operations on values, re-exported from one place for the compiler and
// the built-ins: truth, hashing and hash tables (hash.ts), equality and
// ordering (compare.ts), iteration, indexing and slicing (sequence.ts), and
// operators (operators.ts). Messages mirror starlark-go.
export * from './hash.js';
export * from './compare.js';
export * from './sequence.js';
export * from './operators.js';
