/**
 * The service model: load a manifest directory (or build from in-memory sources) into a checked,
 * immutable ServiceModel, with every diagnostic of the run.
 */
export { loadManifest, type LoadResult } from './load.js';
export { buildModel, type BuildOptions, type BuildResult, type SourceFile } from './build.js';
export * from './types.js';
