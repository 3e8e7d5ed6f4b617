/**
 * The dataflow engine: an endpoint's steps compiled once into a DAG, run per request on RxJS.
 * Knows nothing of HCL, HTTP or databases. See README.md for the contract.
 */
export { compileGraph, compileGraphOrThrow, GraphCompileError } from './compile.js';
export { ExitSignal, exitWith } from './exit.js';
export { asValue, Value } from './step.js';
export { Category, RunAbortedError, StepError, StepTimeoutError } from './errors.js';
export { toDot, type DotGraph } from './dot.js';
export type {
  Branch,
  Classifier,
  CompileOptions,
  CompileResult,
  CompiledGraph,
  ContainerNodeDef,
  DoneOutcome,
  Ending,
  ErrorOutcome,
  ExitNodeDef,
  ExitOutcome,
  GraphDef,
  GraphError,
  GraphErrorCode,
  GraphScope,
  NodeDef,
  Outcome,
  ParallelNodeDef,
  PlanNode,
  RunContext,
  ScopeWrapper,
  SinkNodeDef,
  SinkResult,
  StepInfo,
  StepNodeDef,
  StepResult,
  StreamOutcome,
} from './types.js';
