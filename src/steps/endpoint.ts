/**
 * Endpoints, model -> graph: each pipeline's steps are compiled once at boot into a dataflow graph
 * (src/steps/registry.ts has a compiler per step kind), and this file holds the runtime contract
 * between such a compiled endpoint and the HTTP adapter.
 *
 * src/http may not be imported from here (layering), so the shapes the adapter consumes live on this
 * side: a `CompiledEndpoint` runs a request context and answers an `EndpointResult`, synchronously when
 * every step is synchronous (the fast path: no promise, no timer, no abort controller per request) or as
 * a `PendingResult` the adapter can cancel on time-out or client disconnect.
 */
import { isObservable, type Observable, type Subscription } from 'rxjs';
import { Category, compileGraph, type CompiledGraph, type Outcome } from '../../graph/index.js';
import type { Diagnostic } from '../diag/index.js';
import type { Expr } from '../model/step-common.js';
import type { PipelineEndpointModel, ServiceModel, StepSpec } from '../model/types.js';
import type { RequestSpec } from '../schema/field.js';
import { compileStep, type CompileEnv, type EndpointNode, type EndpointScope } from './registry.js';

/** The `ctx` object of expressions (SPEC.md §2.5, DECISIONS.md §2). */
export interface RequestContext {
  readonly request: {
    readonly method: string;
    readonly path: Readonly<Record<string, unknown>>;
    readonly query: Readonly<Record<string, unknown>>;
    /** Lower-case names. */
    readonly headers: Readonly<Record<string, unknown>>;
    readonly body: unknown;
  };
  readonly timestamp_epoch: number;
  readonly request_id: string;
  readonly auth?: unknown;
}

/** A response decided by the pipeline (a `respond` step, or a `catch`). */
export interface ResponseResult {
  readonly kind: 'response';
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** `null`/`undefined` sends no body. */
  readonly body: unknown;
  /** The body was built by `problem()`: sent as application/problem+json, `instance` filled in. */
  readonly problem: boolean;
  /** The body already serialized (constant bodies are serialized once at boot). */
  readonly json?: string;
}

/** A step or expression failed: the adapter answers the problem of DECISIONS.md §3 and logs `error`. */
export interface FailureResult {
  readonly kind: 'failure';
  /** 500 unless the failure is a dependency outage (503) or a time-out (504). */
  readonly status: 500 | 503 | 504;
  /** The failing step (`respond`, `starlark "score"`), named in the problem's `step` member. */
  readonly step?: string;
  /** Full detail for the log only; never sent to the client. */
  readonly error: unknown;
}

export type EndpointResult = ResponseResult | FailureResult;

/** A run that entered the event loop (real I/O). */
export interface PendingResult {
  readonly kind: 'pending';
  readonly result: Promise<EndpointResult>;
  /** Tears the running graph down (steps release their resources); the result is then ignored. */
  cancel(): void;
}

export interface CompiledEndpoint {
  readonly method: string;
  /** The manifest path, `{name}` and `{name...}` placeholders included. */
  readonly path: string;
  /** What the endpoint declares about its request, validated before the pipeline runs. */
  readonly request: RequestSpec;
  run(ctx: RequestContext): EndpointResult | PendingResult;
}

// ------------------------------------------------------------------ compilation

/**
 * Compiles an endpoint's step tree into a graph once, at boot. Problems (a step kind without a runtime,
 * a graph error) come back as diagnostics on the step blocks, all at once.
 */
export function compileEndpoint(endpoint: PipelineEndpointModel, model?: ServiceModel, options: CompileServiceOptions = {}): EndpointCompilation {
  const diagnostics: Diagnostic[] = [];
  const bySpec = new Map<StepSpec, string>();
  const byId = new Map<string, StepSpec>();
  const counters = new Map<string, number>();

  const forDrawing = options.forDrawing ?? false;
  const env: CompileEnv = {
    model,
    forDrawing,
    idOf(spec) {
      const known = bySpec.get(spec);
      if (known !== undefined) return known;
      let id: string;
      if (spec.name !== undefined) id = spec.name;
      else {
        const n = (counters.get(spec.kind) ?? 0) + 1;
        counters.set(spec.kind, n);
        id = `${spec.kind}#${n}`;
      }
      bySpec.set(spec, id);
      byId.set(id, spec);
      return id;
    },
    readsOf: stepReads,
    compileSteps(specs) {
      const nodes = specs.map((s) => compileStep(s, env));
      return nodes.every((n): n is EndpointNode => n !== undefined) ? nodes : undefined;
    },
    error(spec, summary, detail, at) {
      diagnostics.push({
        severity: 'error',
        summary,
        subject: at ?? spec.range,
        path: spec.blockPath,
        ...(detail !== undefined ? { detail } : {}),
      });
    },
  };

  if (endpoint.auth.length > 0 && !forDrawing) {
    // Serving a guarded endpoint without its guard would expose it: refuse rather than ignore.
    diagnostics.push({
      severity: 'error',
      summary: 'auth guards are not supported yet',
      detail: `This version of svc cannot check the guards ${endpoint.auth.map((a) => `auth.${a}`).join(', ')}; the endpoint would be public, so it is refused at boot. Use auth = [] to make it public explicitly.`,
      subject: endpoint.labelRange,
      path: endpoint.blockPath,
    });
  }

  const nodes = env.compileSteps(endpoint.steps);
  if (!nodes || diagnostics.length > 0) return { diagnostics };

  const compiled = compileGraph<EndpointScope>({ nodes }, { requireOutcome: true });
  if (!compiled.ok) {
    for (const error of compiled.errors) {
      const spec = error.ids.map((id) => byId.get(id)).find((s) => s !== undefined);
      diagnostics.push({
        severity: 'error',
        summary: `Invalid pipeline: ${error.message}`,
        subject: spec?.range ?? endpoint.range,
        path: spec?.blockPath ?? endpoint.blockPath,
      });
    }
    return { diagnostics };
  }
  const graph = compiled.graph;
  return {
    diagnostics,
    graph,
    endpoint: {
      method: endpoint.method,
      path: endpoint.path,
      request: endpoint.request,
      run: (ctx) => runGraph(graph, ctx),
    },
  };
}

export interface EndpointCompilation {
  readonly endpoint?: CompiledEndpoint;
  readonly graph?: CompiledGraph<EndpointScope>;
  readonly diagnostics: readonly Diagnostic[];
}

export interface ServiceCompilation {
  readonly endpoints: readonly CompiledEndpoint[];
  /** `"GET /path"` and its graph, in declaration order, for `svc graph`. */
  readonly graphs: readonly { readonly name: string; readonly graph: CompiledGraph<EndpointScope> }[];
  readonly diagnostics: readonly Diagnostic[];
}

export interface CompileServiceOptions {
  /** For `svc graph`: draw step kinds that cannot run yet instead of refusing them (never served). */
  readonly forDrawing?: boolean;
}

/** Every endpoint of the service; documentation endpoints wait for their own release. */
export function compileService(model: ServiceModel, options: CompileServiceOptions = {}): ServiceCompilation {
  const endpoints: CompiledEndpoint[] = [];
  const graphs: { name: string; graph: CompiledGraph<EndpointScope> }[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const endpoint of model.endpoints) {
    if (endpoint.kind === 'docs') {
      if (options.forDrawing) continue;
      diagnostics.push({
        severity: 'error',
        summary: 'documentation endpoints are not supported yet',
        detail: 'This version of svc cannot serve an openapi block; no route is mounted implicitly, so the endpoint is refused at boot.',
        subject: endpoint.docs.range,
        path: endpoint.blockPath,
      });
      continue;
    }
    const result = compileEndpoint(endpoint, model, options);
    diagnostics.push(...result.diagnostics);
    if (result.endpoint && result.graph) {
      endpoints.push(result.endpoint);
      graphs.push({ name: endpoint.id, graph: result.graph });
    }
  }
  return { endpoints, graphs, diagnostics };
}

// ------------------------------------------------------------------ running

/**
 * One request's run of an endpoint graph: a fresh scope, the synchronous fast path when every step is
 * synchronous, else a pending result whose `cancel` unsubscribes the run (its steps are torn down).
 */
export function runGraph(graph: CompiledGraph<EndpointScope>, ctx: RequestContext): EndpointResult | PendingResult {
  return outcomeToResult(graph.start({ steps: {}, ctx }));
}

/** Graph outcomes as the adapter's results; asynchronous runs become a cancellable pending result. */
function outcomeToResult(outcome: Outcome | Observable<Outcome>): EndpointResult | PendingResult {
  if (!isObservable(outcome)) return settle(outcome);
  let subscription: Subscription | undefined;
  const result = new Promise<EndpointResult>((resolve) => {
    subscription = outcome.subscribe({
      next: (o) => resolve(settle(o)),
      error: (error: unknown) => resolve({ kind: 'failure', status: 500, error }),
    });
  });
  return {
    kind: 'pending',
    result,
    cancel() {
      // Unsubscribing tears the run down: steps abort their I/O and release what they hold. A
      // subscription unsubscribes once; a second cancel is a no-op.
      subscription?.unsubscribe();
    },
  };
}

const GRAPH_STEP = '<graph>';

const FAILURE_STATUS: Readonly<Record<string, 503 | 504>> = {
  [Category.timeout]: 504,
  'dependency-unavailable': 503,
};

function settle(outcome: Outcome): EndpointResult {
  switch (outcome.kind) {
    case 'exit':
      return outcome.payload as ResponseResult;
    case 'error': {
      const error = outcome.error;
      // Failures outside any step (engine invariants) name no step rather than the engine's pseudo-node.
      const step = error.step === GRAPH_STEP ? undefined : error.step;
      return { kind: 'failure', status: FAILURE_STATUS[error.category] ?? 500, step, error: error.cause ?? error };
    }
    case 'stream':
      return { kind: 'failure', status: 500, step: outcome.step, error: new Error('stream outcomes are not supported yet') };
    case 'done':
      return { kind: 'failure', status: 500, error: new Error('the pipeline finished without a response') };
  }
}

/** `steps.<name>` roots read by expressions: the graph's data edges (for DOT and engine checks). */
function stepReads(exprs: readonly (Expr | undefined)[]): string[] {
  const names = new Set<string>();
  for (const expr of exprs) if (expr) for (const name of stepNamesOf(expr)) names.add(name);
  return [...names];
}

function stepNamesOf(expr: Expr): string[] {
  const names: string[] = [];
  for (const ref of expr.references) {
    const first = ref.path[0];
    if (ref.root === 'steps' && typeof first === 'string') names.push(first);
  }
  return names;
}
