/**
 * The one definition of a step kind (src/steps/<kind>/index.ts), as ajv defines a keyword: one object
 * that says everything about the kind, listed once in ./kinds.ts. The manifest reads its decoding
 * part (`StepDecoder`: block types, places, `lower`, its own diagnostic `codes`), the model its
 * checking part (`StepKindModel`: children, outputs, whether it answers, statuses), and this layer
 * its compiler to graph nodes (and, reporting for it, its codes again).
 */
import type { Range } from '../diag/index.js';
import type { ConnectorHandle, HandleOfKind, OutboundHttp, SqlHandle } from '../connectors/index.js';
import type { ConnectionKind, Expr, ServiceModel, StepKindModel, StepSpecBase } from '../model/index.js';
import type { EndpointNode } from './contract.js';

/** What a step compiler may use from the endpoint being compiled. */
export interface CompileEnv {
  readonly model: ServiceModel;
  /** The handle of a declared connection (not open at compile time: bind to it, use it per request). */
  connection<K extends ConnectorHandle['kind']>(ref: { readonly kind: K; readonly name: string }): HandleOfKind<K>;
  /**
   * The handle of a declared SQL connection, whatever its engine (sql and transaction steps); throws
   * for another kind (the decoders accept only SQL kinds there).
   */
  sqlConnection(ref: { readonly kind: ConnectionKind; readonly name: string }): SqlHandle;
  /** The outbound HTTP client http steps bind to (opened and closed with the connections). */
  readonly outbound: OutboundHttp;
  /** The node id: the step's name, else `<kind>#<n>` counted per kind in the endpoint. */
  idOf(spec: StepSpecBase): string;
  /**
   * Where a step compiled so far stands in the endpoint's order of compilation (its steps in
   * declaration order, nested ones where they are declared); undefined for a step not compiled yet.
   */
  orderOf(id: string): number | undefined;
  /** Step names the expressions read (`steps.<name>`): the graph's data edges. */
  readsOf(exprs: readonly (Expr | undefined)[]): string[];
  /** Compiles nested steps (parallel branches, transaction bodies). */
  compileSteps(specs: readonly StepSpecBase[]): EndpointNode[] | undefined;
  /**
   * Reports a boot error on the step block (or on `at`, a more precise place); a summary of the
   * kind's `codes` gets that code, any other the central catalogue's.
   */
  error(spec: StepSpecBase, summary: string, detail?: string, at?: Range): void;
}

/** Answers undefined after reporting why the step cannot be compiled. */
export type NodeCompiler<S extends StepSpecBase> = (spec: S, env: CompileEnv) => EndpointNode | undefined;

export interface StepKindDefinition<S extends StepSpecBase = StepSpecBase> extends StepKindModel<S> {
  /** The step as graph nodes, once at boot. */
  readonly compile: NodeCompiler<S>;
}

/**
 * Checks a definition's types against its spec while keeping the list heterogeneous: each entry of
 * ./kinds.ts is written `defineStepKind<SqlStepSpec>({...})`.
 */
export function defineStepKind<S extends StepSpecBase>(definition: StepKindDefinition<S>): StepKindDefinition<S> {
  return definition;
}

/** The block rule of a kind declared `<type> "<name>" { ... }`, any number of times. */
export const NAMED_STEP = { labels: ['name'], multiple: true } as const;

/** Where a step that answers the request may not stand. */
export const ANSWERS_NOT_IN = {
  parallel: 'a parallel branch cannot answer the request; put it after the parallel block',
  after_response: 'after_response runs once the request has been answered; answer in the pipeline',
} as const;
