/**
 * Endpoints, model -> graph: each pipeline's steps are compiled once at boot into a dataflow graph,
 * every step by its kind's compiler (./kinds.ts). What the compiled endpoint runs is in ./run.ts.
 */
import { compileGraph, type CompiledGraph, type ContinueOnError, type StepError } from '../../graph/index.js';
import { compileEndpointGuard, type EndpointGuard } from '../auth/index.js';
import { classifyConnectorError, createConnectors, type ConnectorSet, type SqlHandle } from '../connectors/index.js';
import { codeIn, type Diagnostic } from '../diag/index.js';
import { planDocsPage, type DocsPage } from '../docs/index.js';
import {
  isSqlKind,
  type CorsModel,
  type DocsConfig,
  type DocsEndpointModel,
  type Expr,
  type PipelineEndpointModel,
  type RateLimitModel,
  type ServiceModel,
  type StepSpecBase,
} from '../model/index.js';
import type { CompiledEndpoint, EndpointNode, EndpointRateLimit, EndpointScope } from './contract.js';
import type { CompileEnv, NodeCompiler } from './definition.js';
import { STEP_KINDS, type AnyStepKindDefinition, type StepSpec } from './kinds.js';
import { observeNode, type StepObserver } from './observe.js';
import { continueOnError } from './continue.js';
import { AfterResponseRunner, type AfterResponseReports } from './after-response.js';
import { runGraph, runGraphThen } from './run.js';
import { traceNode } from './trace.js';

type Compilers = ReadonlyMap<string, Pick<AnyStepKindDefinition, 'compile' | 'codes'>>;

/**
 * Each kind's compiler and codes by its `kind`: this release's kinds, or the list an embedding
 * program gave.
 */
const COMPILERS: Compilers = compilersOf(STEP_KINDS);

function compilersOf(kinds: readonly AnyStepKindDefinition[]): Compilers {
  return new Map(kinds.map((k) => [k.kind, k]));
}

function compileStep(
  spec: StepSpec,
  env: CompileEnv,
  observer: StepObserver | undefined,
  traced: boolean,
  continuing: ContinueOnError,
  compilers: Compilers,
): EndpointNode | undefined {
  const compiled = (compilers.get(spec.kind)!.compile as NodeCompiler<StepSpec>)(spec, env);
  // `on_error = "continue"` (./continue.ts): the kinds that take it compile to a plain step.
  const node = spec.onError === 'continue' && compiled?.type === 'step' ? { ...compiled, continueOnError: continuing } : compiled;
  const observed = node === undefined || observer === undefined ? node : observeNode(node, observer);
  return observed === undefined || !traced ? observed : traceNode(observed);
}

/**
 * Compiles an endpoint's step tree into a graph once, at boot. Problems (a step kind without a runtime,
 * a graph error) come back as diagnostics on the step blocks, all at once.
 */
export function compileEndpoint(
  endpoint: PipelineEndpointModel<StepSpec>,
  model: ServiceModel<StepSpec>,
  options: CompileServiceOptions = {},
  /** The service's runner of after_response work (compileService's); one of its own when absent. */
  afterRunner?: AfterResponseRunner,
): EndpointCompilation {
  const diagnostics: Diagnostic[] = [];
  const bySpec = new Map<StepSpecBase, string>();
  const byId = new Map<string, StepSpecBase>();
  const counters = new Map<string, number>();
  const order = new Map<string, number>();
  /** While after_response compiles: the pipeline's step names, read from a finished run (compileAfterResponse). */
  const pipelineReads: { skip: ReadonlySet<string> | undefined } = { skip: undefined };

  // Handles exist without I/O; `svc serve` opens them before it listens, check and graph never do.
  const connectors = options.connectors ?? createConnectors(model);
  const observer = options.forDrawing ? undefined : options.observeSteps?.(model);
  const traced = options.forDrawing !== true && options.traceSteps?.(model) === true;
  const continuing = continueOnError(options.onContinuedError);
  const compilers = options.steps === undefined ? COMPILERS : compilersOf(options.steps);
  const env: CompileEnv = {
    model,
    connection(ref) {
      return connectors.handle(ref.kind, ref.name);
    },
    sqlConnection(ref) {
      const handle = connectors.get(`${ref.kind}.${ref.name}`);
      if (handle === undefined || !isSqlKind(handle.kind)) throw new Error(`no SQL connection "${ref.kind}" "${ref.name}" is declared`);
      return handle as SqlHandle;
    },
    outbound: connectors.outbound,
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
      order.set(id, order.size);
      return id;
    },
    orderOf: (id) => order.get(id),
    readsOf: (exprs) => {
      const names = stepReads(exprs);
      const skip = pipelineReads.skip;
      return skip === undefined ? names : names.filter((name) => !skip.has(name));
    },
    compileSteps(specs) {
      const nodes = specs.map((s) => compileStep(s as StepSpec, env, observer, traced, continuing, compilers));
      return nodes.every((n): n is EndpointNode => n !== undefined) ? nodes : undefined;
    },
    error(spec, summary, detail, at) {
      // A kind's own problem gets its code from the kind's list (the central catalogue has the rest).
      const code = codeIn(compilers.get(spec.kind)?.codes ?? [], summary);
      diagnostics.push({
        severity: 'error',
        summary,
        ...(code !== undefined ? { code } : {}),
        subject: at ?? spec.range,
        path: spec.blockPath,
        ...(detail !== undefined ? { detail } : {}),
      });
    },
  };

  // The endpoint's guards, one check compiled once (src/auth): the HTTP adapter runs it before the
  // body is read and before any step. `svc graph` draws steps only.
  const guard = options.forDrawing ? undefined : compileEndpointGuard(endpoint.auth, model);
  const rateLimit = endpoint.rateLimit && endpointRateLimit(endpoint.rateLimit, model, connectors);

  const nodes = env.compileSteps(endpoint.steps);
  if (!nodes || diagnostics.length > 0) return { diagnostics };

  const compiled = compileGraph<EndpointScope>({ nodes }, { requireOutcome: true, classify: classifyConnectorError, onTeardownError: options.onTeardownError });
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
  const after = endpoint.after ? compileAfterResponse(endpoint.after, env, diagnostics, byId, pipelineReads) : undefined;
  if (endpoint.after && after === undefined) return { diagnostics };
  const runner = after ? (afterRunner ?? new AfterResponseRunner()) : undefined;
  return {
    diagnostics,
    graph,
    ...(after ? { afterResponse: after } : {}),
    endpoint: {
      method: endpoint.method,
      path: endpoint.path,
      request: endpoint.request,
      ...(guard ? { guard } : {}),
      ...(rateLimit ? { rateLimit } : {}),
      ...(endpoint.cors ? { cors: endpoint.cors } : {}),
      ...(endpoint.representation ? { representation: endpoint.representation } : {}),
      run:
        after === undefined
          ? (ctx) => runGraph(graph, ctx)
          : (ctx) =>
              runGraphThen(graph, ctx, (result, scope) => {
                if (result.kind === 'response' && result.status < 400) runner!.schedule(after, scope);
              }),
    },
  };
}

/**
 * `after_response`'s steps as a graph of their own (./after-response.ts), run on the pipeline's
 * scope: what they read of the pipeline's steps is there already, so only their reads among
 * themselves are this graph's edges (`pipelineReads` leaves the others out). Nothing in it answers.
 */
function compileAfterResponse(
  specs: readonly StepSpecBase[],
  env: CompileEnv,
  diagnostics: Diagnostic[],
  byId: ReadonlyMap<string, StepSpecBase>,
  pipelineReads: { skip: ReadonlySet<string> | undefined },
): CompiledGraph<EndpointScope> | undefined {
  pipelineReads.skip = new Set(byId.keys());
  const nodes = env.compileSteps(specs);
  pipelineReads.skip = undefined;
  if (!nodes || diagnostics.length > 0) return undefined;
  const compiled = compileGraph<EndpointScope>({ nodes }, { classify: classifyConnectorError });
  if (compiled.ok) return compiled.graph;
  for (const error of compiled.errors) {
    const spec = error.ids.map((id) => byId.get(id)).find((s) => s !== undefined);
    diagnostics.push({
      severity: 'error',
      summary: `Invalid pipeline: ${error.message}`,
      subject: spec?.range ?? specs[0]!.range,
      path: spec?.blockPath ?? [],
    });
  }
  return undefined;
}

/** An endpoint's graphs, for `svc graph`: its pipeline, and its after_response block's. */
export interface EndpointGraphs {
  /** `"GET /path"`. */
  readonly name: string;
  readonly graph: CompiledGraph<EndpointScope>;
  readonly afterResponse?: CompiledGraph<EndpointScope>;
}

/** The graphs to draw, in order: each pipeline, then its after_response block's as `"<name> (after response)"`. */
export function graphsToDraw(endpoints: readonly EndpointGraphs[]): { readonly name: string; readonly graph: CompiledGraph<EndpointScope> }[] {
  return endpoints.flatMap((e) => (e.afterResponse ? [e, { name: `${e.name} (after response)`, graph: e.afterResponse }] : [e]));
}

export interface EndpointCompilation {
  readonly endpoint?: CompiledEndpoint;
  readonly graph?: CompiledGraph<EndpointScope>;
  /** The graph of its `after_response` block, when it has one. */
  readonly afterResponse?: CompiledGraph<EndpointScope>;
  readonly diagnostics: readonly Diagnostic[];
}

/** A documentation endpoint ready to serve (DECISIONS.md §5): src/http builds what it serves. */
export interface CompiledDocsEndpoint {
  readonly method: string;
  readonly path: string;
  readonly docs: DocsConfig;
  /** A renderer or template page, planned (src/docs); absent for a spec endpoint. */
  readonly page?: DocsPage;
  /** The endpoint's guards, as for any endpoint; absent when public. */
  readonly guard?: EndpointGuard;
  /** The endpoint's cross-origin policy, as for any endpoint; absent: no CORS headers. */
  readonly cors?: CorsModel;
}

export interface ServiceCompilation {
  readonly endpoints: readonly CompiledEndpoint[];
  /** Documentation endpoints, in declaration order. */
  readonly docs: readonly CompiledDocsEndpoint[];
  /** `"GET /path"` and its graph, in declaration order, for `svc graph`. */
  readonly graphs: readonly EndpointGraphs[];
  readonly diagnostics: readonly Diagnostic[];
  /** The work of every endpoint's after_response, run and bounded here; `svc serve` drains it at shutdown. */
  readonly afterResponse: AfterResponseRunner;
}

export interface CompileServiceOptions {
  /** The step kinds the model was built with (an embedding program's own among them); default `STEP_KINDS`. */
  readonly steps?: readonly AnyStepKindDefinition[];
  /**
   * The handles step compilers bind to (created from the model when absent). Pass the set `svc
   * serve` opens, so the compiled steps use the very connections it opens and closes.
   */
  readonly connectors?: ConnectorSet;
  /**
   * For `svc graph` and `svc openapi` (nothing is served): documentation endpoints, which have no
   * pipeline, are left out, and guards are not compiled (no key set is needed to draw or document).
   */
  readonly forDrawing?: boolean;
  /**
   * Failures nobody awaits, from every compiled graph: a step's release that throws or rejects, a
   * transaction's `leave` on cancel or after a stream. `svc serve` logs them at error level.
   */
  readonly onTeardownError?: (error: StepError) => void;
  /** A step with `on_error = "continue"` failed and the pipeline went on: `svc serve` logs it (warn). */
  readonly onContinuedError?: (error: StepError) => void;
  /** after_response work that failed, was dropped or was cut at shutdown: `svc serve` logs it. */
  readonly afterResponse?: AfterResponseReports;
  /**
   * Metrics (`server { metrics }`): the observer every step node reports its duration and ending to
   * (./observe.ts), chosen from the model since the server block says whether metrics are on. When
   * absent or answering undefined, nodes are compiled unwrapped: nothing is paid per request.
   */
  readonly observeSteps?: (model: ServiceModel<StepSpec>) => StepObserver | undefined;
  /**
   * Tracing (`server { tracing }` or the `OTEL_*` environment): whether each step node runs in a span
   * (./trace.ts). When absent or false, nodes are compiled unwrapped.
   */
  readonly traceSteps?: (model: ServiceModel<StepSpec>) => boolean;
}

/** Every endpoint of the service, documentation endpoints included. */
export function compileService(model: ServiceModel<StepSpec>, options: CompileServiceOptions = {}): ServiceCompilation {
  const endpoints: CompiledEndpoint[] = [];
  const graphs: EndpointGraphs[] = [];
  const diagnostics: Diagnostic[] = [];
  const docs: CompiledDocsEndpoint[] = [];
  // One set for the whole service: every endpoint binds to the same handles.
  const shared = { ...options, connectors: options.connectors ?? createConnectors(model) };
  const afterResponse = new AfterResponseRunner(options.afterResponse);
  for (const endpoint of model.endpoints) {
    if (endpoint.kind === 'docs') {
      if (options.forDrawing) continue;
      const compiled = compileDocsEndpoint(endpoint, model);
      diagnostics.push(...compiled.diagnostics);
      if (compiled.endpoint) docs.push(compiled.endpoint);
      continue;
    }
    const result = compileEndpoint(endpoint, model, shared, afterResponse);
    diagnostics.push(...result.diagnostics);
    if (result.endpoint && result.graph) {
      endpoints.push(result.endpoint);
      graphs.push({ name: endpoint.id, graph: result.graph, ...(result.afterResponse ? { afterResponse: result.afterResponse } : {}) });
    }
  }
  return { endpoints, graphs, docs, diagnostics, afterResponse };
}

/**
 * A documentation endpoint: what it serves and its guard. src/http builds the files (the document
 * from src/openapi, pages from src/docs); a page is planned here, so a template's unknown variable or
 * a renderer that is not installed stops the boot (and `svc check`) instead of a request.
 */
function compileDocsEndpoint(
  endpoint: DocsEndpointModel,
  model: ServiceModel<StepSpec>,
): { endpoint?: CompiledDocsEndpoint; diagnostics: readonly Diagnostic[] } {
  const { page, diagnostics } = planDocsPage(endpoint, model.endpoints);
  if (diagnostics.some((d) => d.severity === 'error')) return { diagnostics };
  const guard = compileEndpointGuard(endpoint.auth, model);
  return {
    endpoint: {
      method: endpoint.method,
      path: endpoint.path,
      docs: endpoint.docs,
      ...(page ? { page } : {}),
      ...(guard ? { guard } : {}),
      ...(endpoint.cors ? { cors: endpoint.cors } : {}),
    },
    diagnostics,
  };
}

/** A limit with the handle of the server's rate-limit connection (one store for the service). */
function endpointRateLimit(limit: RateLimitModel, model: ServiceModel<StepSpec>, connectors: ConnectorSet): EndpointRateLimit {
  const connection = model.server.rateLimit?.connection;
  return connection === undefined ? { limit } : { limit, store: connectors.handle('redis', connection) };
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
