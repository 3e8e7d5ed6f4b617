export * from './range.js';
export * from './diagnostic.js';
export * from './codes.js';
export * from './suggest.js';
export * from './render.js';
