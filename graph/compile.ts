import { errorWrapper, type StepError } from './errors.js';
import { compileContainer } from './container.js';
import type { Exec } from './exec.js';
import { compileExit } from './exit.js';
import { compileParallel } from './parallel.js';
import { run, runPromise, start } from './run.js';
import { compileSequence } from './sequence.js';
import { compileSink } from './sink.js';
import { compileStep } from './step.js';
import { buildTree, isTerminal, type TreeNode } from './tree.js';
import type { CompileOptions, CompileResult, CompiledGraph, GraphDef, GraphError, GraphScope, PlanNode } from './types.js';
import { validate } from './validate.js';

function ignore(_error: StepError): void {}

function toPlan(seq: readonly TreeNode[]): readonly PlanNode[] {
  return Object.freeze(
    seq.map((node): PlanNode => {
      const def = node.def;
      const plan: PlanNode = {
        id: node.info.id,
        type: def.type,
        kind: node.info.kind,
        name: node.info.name,
        label: def.label,
        reads: Object.freeze([...(def.reads ?? [])]),
        conditional: (def.type === 'exit' || def.type === 'sink') && def.condition !== undefined,
        terminal: isTerminal(node),
        timeout: 'timeout' in def ? def.timeout : undefined,
        meta: def.meta,
        ...(node.branches !== undefined ? { branches: Object.freeze(node.branches.map(toPlan)) } : {}),
        ...(node.body !== undefined ? { body: toPlan(node.body) } : {}),
      };
      return Object.freeze(plan);
    }),
  );
}

/**
 * Boot-time compilation of one endpoint's pipeline: validates it (every error at once), then builds
 * the closures a request runs. Nothing is looked up by name per request.
 */
export function compileGraph<S extends GraphScope>(def: GraphDef<S>, options: CompileOptions = {}): CompileResult<S> {
  const tree = buildTree(def.nodes);
  const { errors, mayFinishWithoutOutcome } = validate(tree);
  if (options.requireOutcome && mayFinishWithoutOutcome) {
    const last = tree[tree.length - 1];
    errors.push({
      code: 'no-response',
      message: 'the pipeline can finish without a response: end it with an unconditional respond or stream',
      ids: last === undefined ? [] : [last.info.id],
    });
  }
  if (errors.length > 0) return { ok: false, graph: undefined, errors };

  const onTeardownError = options.onTeardownError ?? ignore;
  const compileNode = (node: TreeNode): Exec<S> => {
    const def = node.def;
    const wrap = errorWrapper(node.info, def.classify, options.classify);
    switch (def.type) {
      case 'step':
        return compileStep<S>(def, node.info, wrap);
      case 'exit':
        return compileExit<S>(def, node.info, wrap);
      case 'sink':
        return compileSink<S>(def, node.info, wrap);
      case 'parallel':
        return compileParallel<S>(node.branches!.map(compileSeq), node.info);
      case 'container':
        return compileContainer<S>(def, node.info, compileSeq(node.body!), wrap, onTeardownError);
    }
  };
  const compileSeq = (seq: readonly TreeNode[]): Exec<S> => compileSequence<S>(seq.map(compileNode));
  const root = compileSeq(tree);

  const graph: CompiledGraph<S> = {
    plan: toPlan(tree),
    mayFinishWithoutOutcome,
    run: (scope, signal) => run(root, scope, signal),
    start: (scope, signal) => start(root, scope, signal),
    runPromise: (scope, signal) => runPromise(root, scope, signal),
  };
  return { ok: true, graph: Object.freeze(graph), errors: [] };
}

/** For callers that treat a bad graph as a bug (tests, hand-built graphs). */
export class GraphCompileError extends Error {
  override readonly name = 'GraphCompileError';
  constructor(readonly errors: readonly GraphError[]) {
    super(errors.map((e) => `${e.code}: ${e.message}`).join('; '));
  }
}

export function compileGraphOrThrow<S extends GraphScope>(def: GraphDef<S>, options?: CompileOptions): CompiledGraph<S> {
  const result = compileGraph(def, options);
  if (!result.ok) throw new GraphCompileError(result.errors);
  return result.graph;
}
