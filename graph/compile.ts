import { compileContainer } from './container.js';
import { siteOf } from './errors.js';
import type { Exec } from './exec.js';
import { compileExit } from './exit.js';
import { compileParallel } from './parallel.js';
import { run, runPromise, start, type Root } from './run.js';
import { compileSequence } from './sequence.js';
import { compileSink } from './sink.js';
import { compileStep } from './step.js';
import { buildTree, isTerminal, type TreeNode } from './tree.js';
import type { CompileResult, CompiledGraph, GraphCompileOptions, GraphDef, GraphError, GraphScope, PlanNode } from './types.js';
import { validate } from './validate.js';

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
export function compileGraph<S extends GraphScope>(def: GraphDef<S>, options: GraphCompileOptions = {}): CompileResult<S> {
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

  const { classify, onTeardownError } = options;
  const compileNode = (node: TreeNode): Exec<S> => {
    const def = node.def;
    const site = siteOf(node.info, def.classify, classify, onTeardownError);
    switch (def.type) {
      case 'step':
        return compileStep<S>(def, site);
      case 'exit':
        return compileExit<S>(def, site);
      case 'sink':
        return compileSink<S>(def, site);
      case 'parallel':
        return compileParallel<S>(node.branches!.map(compileSeq), node.info);
      case 'container':
        return compileContainer<S>(def, site, compileSeq(node.body!));
    }
  };
  const compileSeq = (seq: readonly TreeNode[]): Exec<S> => compileSequence<S>(seq.map(compileNode));
  const root: Root<S> = { exec: compileSeq(tree), classify };

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

export function compileGraphOrThrow<S extends GraphScope>(def: GraphDef<S>, options?: GraphCompileOptions): CompiledGraph<S> {
  const result = compileGraph(def, options);
  if (!result.ok) throw new GraphCompileError(result.errors);
  return result.graph;
}
