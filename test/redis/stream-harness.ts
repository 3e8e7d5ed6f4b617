/**
 * The step-level harness of the stream sources (a redis SUBSCRIBE, an http step with stream = true),
 * until a `stream` step can read them end to end: the manifest is built and its connections opened
 * as `svc serve` does, the named step compiled by its kind's compiler, and the graph run is that
 * step followed by a sink handing its output `stream` on, as a `stream` step does. So the step runs
 * with the engine's real context: its release runs when the stream outcome is disposed, or at once
 * when the step fails or the run is torn down. The outcome's payload is the step's whole output.
 * Shared by test/redis and test/http-step.
 */
import assert from 'node:assert/strict';
import { compileGraphOrThrow, type CompiledGraph, type Outcome, type SinkNodeDef, type StreamOutcome } from '../../graph/index.js';
import { classifyConnectorError, createConnectors, type ConnectorSet } from '../../src/connectors/index.js';
import type { Diagnostic } from '../../src/diag/index.js';
import { buildServiceModel, STEP_KINDS, type CompileEnv, type EndpointScope, type StepSpec } from '../../src/steps/index.js';
import { ctx } from '../steps/helpers.js';

export interface StreamHarness {
  readonly connectors: ConnectorSet;
  /** One run; `path` is the request's path parameters. */
  run(path?: Record<string, unknown>, signal?: AbortSignal): Promise<Outcome>;
  /** One run that must end with the stream outcome. */
  stream(path?: Record<string, unknown>): Promise<StreamOutcome>;
  /** The graph, for runs driven by hand (`run(...).subscribe()`, then unsubscribe: a teardown). */
  readonly graph: CompiledGraph<EndpointScope>;
  close(): Promise<void>;
}

const summaries = (ds: readonly Diagnostic[]): string[] => ds.map((d) => `${d.subject?.start.line}: ${d.summary}: ${d.detail ?? ''}`);

/** `manifest`'s first endpoint's first step must be the one that outputs `stream`. */
export async function streamHarness(manifest: string): Promise<StreamHarness> {
  const built = buildServiceModel([{ filename: 'api.hcl', source: manifest }], { dir: '.' });
  assert.deepEqual(summaries(built.diagnostics.filter((d) => d.severity === 'error')), []);
  const model = built.model!;
  const endpoint = model.endpoints[0]!;
  assert.equal(endpoint.kind, 'pipeline');
  const spec = endpoint.steps[0] as StepSpec;
  const connectors = createConnectors(model);
  const errors: Diagnostic[] = [];
  const env: CompileEnv = {
    model,
    connection: (ref) => connectors.handle(ref.kind, ref.name),
    sqlConnection: (ref) => connectors.handle(ref.kind as 'postgres', ref.name),
    outbound: connectors.outbound,
    idOf: (s) => s.name ?? s.kind,
    orderOf: () => undefined,
    readsOf: () => [],
    compileSteps: () => assert.fail('no nested steps here'),
    error: (s, summary, detail) => void errors.push({ severity: 'error', summary, subject: s.range, ...(detail ? { detail } : {}) }),
  };
  const kind = STEP_KINDS.find((k) => k.kind === spec.kind)!;
  const node = kind.compile(spec as never, env);
  assert.deepEqual(summaries(errors), []);
  const name = spec.name!;
  const sink: SinkNodeDef<EndpointScope> = {
    type: 'sink',
    reads: [name],
    // The step's whole output rides along as the payload, for tests of its other outputs.
    run: (scope) => {
      const output = scope.steps[name] as { stream: AsyncIterable<unknown> };
      return { source: output.stream, payload: output };
    },
  };
  const graph = compileGraphOrThrow<EndpointScope>({ nodes: [node!, sink] }, { requireOutcome: true, classify: classifyConnectorError });
  await connectors.openAll();
  const run = (path: Record<string, unknown> = {}, signal?: AbortSignal): Promise<Outcome> => graph.runPromise({ steps: {}, ctx: ctx({ path }) }, signal);
  return {
    connectors,
    graph,
    run,
    async stream(path) {
      const outcome = await run(path);
      if (outcome.kind === 'error') throw outcome.error;
      assert.equal(outcome.kind, 'stream');
      return outcome as StreamOutcome;
    },
    close: () => connectors.closeAll(),
  };
}

/** The output the step ran with, as the sink handed it on. */
export function sourceOf<T>(outcome: StreamOutcome): T {
  return outcome.source as T;
}
