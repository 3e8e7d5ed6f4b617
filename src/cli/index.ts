/**
 * What the commands share with the public API (src/api): the load and compile of `svc check`, and
 * one generation served as `svc serve` serves it. The commands themselves start from main.ts.
 */
export { loadService, type Booted } from './boot.js';
export { closeConnections, startGeneration, type Generation } from './generation.js';
export { serveTelemetry } from './log-settings.js';
export { compileOptions } from './serve-process.js';
