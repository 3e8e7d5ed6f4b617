/**
 * Step kinds: one compiler per kind, turning a checked step spec into a graph node. Adding a kind is
 * adding its `node.ts` and one line here.
 *
 * Kinds whose runtime is not built yet are refused at boot with a diagnostic on the step block, never
 * silently skipped: a manifest that declares a `sql` step must not serve responses without it.
 */
import type { NodeDef } from '../../graph/index.js';
import type { Range } from '../diag/range.js';
import type { Expr } from '../model/step-common.js';
import type { ServiceModel, StepKind, StepSpec } from '../model/types.js';
import type { RequestContext } from './endpoint.js';
import { compileParallel } from './parallel/node.js';
import { compileRespond } from './respond/node.js';
import { compileStarlark } from './starlark/node.js';

/**
 * The scope every endpoint graph runs with; it is also the `vars` of expressions (`ctx`, `steps`),
 * so evaluating an expression allocates no variables object. A type alias, not an interface, so that
 * it is assignable to that record type.
 */
export type EndpointScope = {
  readonly steps: Record<string, unknown>;
  readonly ctx: RequestContext;
};

export type EndpointNode = NodeDef<EndpointScope>;

/** What a step compiler may use from the endpoint being compiled. */
export interface CompileEnv {
  readonly model: ServiceModel | undefined;
  /**
   * Compiling for `svc graph`: kinds without a runtime become placeholder nodes of the right shape
   * (so the whole pipeline can be drawn) instead of boot errors. Such a graph is never served.
   */
  readonly forDrawing: boolean;
  /** The node id: the step's name, else `<kind>#<n>` counted per kind in the endpoint. */
  idOf(spec: StepSpec): string;
  /** Step names the expressions read (`steps.<name>`): the graph's data edges. */
  readsOf(exprs: readonly (Expr | undefined)[]): string[];
  /** Compiles nested steps (parallel branches, transaction bodies). */
  compileSteps(specs: readonly StepSpec[]): EndpointNode[] | undefined;
  /** Reports a boot error on the step block (or on `at`, a more precise place). */
  error(spec: StepSpec, summary: string, detail?: string, at?: Range): void;
}

/** Answers undefined after reporting why the step cannot be compiled. */
export type NodeCompiler<T extends StepSpec> = (spec: T, env: CompileEnv) => EndpointNode | undefined;

type Compilers = { readonly [K in StepKind]: NodeCompiler<Extract<StepSpec, { kind: K }>> };

/** Refuses a step kind whose runtime a later release brings (or draws it, see `forDrawing`). */
export function notSupportedYet(spec: StepSpec, env: CompileEnv): EndpointNode | undefined {
  const kind = spec.kind === 'redis' ? spec.blockType : spec.kind;
  if (env.forDrawing) return placeholder(spec, kind, env);
  env.error(
    spec,
    `${kind} steps are not supported yet`,
    `This version of svc cannot run ${kind} steps; the endpoint would answer without them, so it is refused at boot.`,
  );
  return undefined;
}

export const STEP_COMPILERS: Compilers = {
  respond: compileRespond,
  parallel: compileParallel,
  starlark: compileStarlark,
  sql: notSupportedYet,
  redis: notSupportedYet,
  http: notSupportedYet,
  stream: notSupportedYet,
  transaction: notSupportedYet,
};

export function compileStep(spec: StepSpec, env: CompileEnv): EndpointNode | undefined {
  return (STEP_COMPILERS[spec.kind] as NodeCompiler<StepSpec>)(spec, env);
}

function placeholder(spec: StepSpec, kind: string, env: CompileEnv): EndpointNode | undefined {
  const common = {
    id: env.idOf(spec),
    kind,
    label: 'not supported yet',
    meta: spec,
  };
  const refuse = (): never => {
    throw new Error(`${kind} steps are not supported yet`);
  };
  switch (spec.kind) {
    case 'stream':
      return { ...common, type: 'sink', ...(spec.when ? { condition: () => false } : {}), run: refuse };
    case 'transaction': {
      const body = env.compileSteps(spec.steps);
      return body && { ...common, type: 'container', name: spec.name, body, wrap: {} };
    }
    default:
      return { ...common, type: 'step', name: spec.name ?? common.id, run: refuse };
  }
}
