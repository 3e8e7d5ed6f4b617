/**
 * The service model: load a manifest directory (or build from in-memory sources) into a checked,
 * immutable ServiceModel, with every diagnostic of the run. The step kinds are injected
 * (`options.steps`): src/steps owns them and sits above this layer.
 */
export { loadManifest, type LoadOptions, type LoadResult } from './load.js';
export { buildModel, type BuildOptions, type BuildResult, type SourceFile } from './build.js';
export { checkProcessLocalConnections, checkProcessLocalRateLimits } from './checks/process-local.js';
export type { AnyStepKindModel, FailureStatus, StepChildren, StepKindModel, StepKindModels } from './step-kind.js';
export type * from './types.js';
export { isSqlKind } from '../manifest/index.js';
