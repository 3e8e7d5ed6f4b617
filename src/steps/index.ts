/**
 * Step kinds and compiled endpoints: the layer that owns the step kinds (./kinds.ts), injects them
 * into the manifest decoders and model checks, and compiles each endpoint into a graph.
 */
import { buildModel, loadManifest, type BuildOptions, type BuildResult, type LoadResult, type SourceFile } from '../model/index.js';
import { STEP_KINDS, type AnyStepKindDefinition, type StepSpec } from './kinds.js';

export type {
  CompiledEndpoint,
  EndpointNode,
  EndpointResult,
  StreamResult,
  EndpointScope,
  FailureResult,
  PendingResult,
  ResultReceiver,
  RequestContext,
  ResponseResult,
} from './contract.js';
export {
  compileEndpoint,
  compileService,
  graphsToDraw,
  type CompiledDocsEndpoint,
  type CompileServiceOptions,
  type EndpointCompilation,
  type ServiceCompilation,
} from './compile.js';
export { runGraph } from './run.js';
export { failureStatus } from './failure-status.js';
export type { StarlarkBudget, StepObserver, StepTimer } from './observe.js';
export { STEP_KINDS, type AnyStepKindDefinition, type StepKind, type StepSpec } from './kinds.js';
export {
  customStepKind,
  defineStep,
  type CustomStep,
  type CustomStepSpec,
  type JsonSchema,
  type StepAttribute,
  type StepAttributeType,
  type StepAttributeValues,
  type StepCheckReport,
  type StepCheckReportOptions,
  type StepCode,
  type StepFailureStatus,
  type StepOptions,
  type StepRunContext,
} from './custom/index.js';
export type { CompileEnv, NodeCompiler, StepKindDefinition } from './definition.js';
export type { HttpStepSpec } from './http/index.js';
export type { ParallelStepSpec } from './parallel/index.js';
export type { RedisOp, RedisStepSpec } from './redis/index.js';
export type { RespondStepSpec } from './respond/index.js';
export type { SqlStepSpec } from './sql/index.js';
export { refusedStatement, sqlStatements, type RefusalReason, type SqlStatement } from './sql/index.js';
export type { StarlarkStepSpec } from './starlark/index.js';
export type { StreamFormat, StreamStepSpec } from './stream/index.js';
export type { TransactionStepSpec } from './transaction/index.js';

/** `buildModel` with this release's step kinds: a model whose steps are the `StepSpec` union. */
export function buildServiceModel(files: readonly SourceFile[], options: Omit<BuildOptions, 'steps'> = {}): BuildResult<StepSpec> {
  return buildModel<StepSpec>(files, { ...options, steps: STEP_KINDS });
}

/** `loadManifest` with this release's step kinds, or the list an embedding program gave (theirs among them). */
export function loadServiceModel(dir: string, steps: readonly AnyStepKindDefinition[] = STEP_KINDS): Promise<LoadResult<StepSpec>> {
  return loadManifest<StepSpec>(dir, { steps });
}
