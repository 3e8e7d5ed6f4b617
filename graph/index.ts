/**
 * The dataflow engine: an endpoint's steps compiled once into a DAG, run per request on RxJS.
 * Knows nothing of HCL, HTTP or databases. See README.md for the contract.
 */
export { compileGraph, compileGraphOrThrow } from './compile.js';
export { follow, type Receiver } from './direct.js';
export { ExitSignal, exitWith, asValue } from './result.js';
export { Category, GRAPH_STEP_ID, StepError, messageOf } from './errors.js';
export { toDot, type DotGraph } from './dot.js';
export {
  SourceLostError,
  SourceOverflowError,
  handsOverItems,
  isLiveSource,
  isPulledSource,
  type PulledSource,
  type PushConsumer,
  type SourceTraits,
  type StreamEnd,
} from './stream.js';
export type { Classifier, StepInfo } from './info.js';
export type {
  Branch,
  CompileResult,
  CompiledGraph,
  ContainerNodeDef,
  ContinueOnError,
  DoneOutcome,
  Ending,
  ErrorOutcome,
  ExitNodeDef,
  ExitOutcome,
  GraphCompileOptions,
  GraphDef,
  GraphError,
  GraphErrorCode,
  GraphScope,
  NodeDef,
  Outcome,
  ParallelNodeDef,
  PlanNode,
  Release,
  RunContext,
  ScopeWrapper,
  SinkNodeDef,
  SinkResult,
  StepNodeDef,
  StepResult,
  StreamOutcome,
} from './types.js';
