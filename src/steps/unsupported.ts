/**
 * Step kinds whose runtime a later release brings are refused at boot with a diagnostic on the step
 * block, never silently skipped: a manifest that declares a `sql` step must not serve responses
 * without it. For `svc graph` they are drawn as placeholders of the right shape instead.
 */
import type { Expr, StepSpecBase } from '../model/index.js';
import type { EndpointNode } from './contract.js';
import type { CompileEnv, NodeCompiler } from './definition.js';

export interface PlaceholderShape<S extends StepSpecBase> {
  /** The graph node a real compiler would produce: a plain step, a sink (stream), a container. */
  readonly node: 'step' | 'sink' | 'container';
  /** The kind as the user wrote it (`kv` for a redis step declared as kv); default `spec.kind`. */
  label?(spec: S): string;
  /** A container's body (transaction). */
  body?(spec: S): readonly StepSpecBase[];
  /** The expressions the step reads, so `svc graph` draws its data edges. */
  reads?(spec: S): readonly (Expr | undefined)[];
}

/** A compiler that refuses the kind at boot, or draws it for `svc graph`. */
export function notSupportedYet<S extends StepSpecBase>(shape: PlaceholderShape<S>): NodeCompiler<S> {
  return (spec, env) => {
    const kind = shape.label?.(spec) ?? spec.kind;
    if (env.forDrawing) return placeholder(spec, kind, shape, env);
    env.error(
      spec,
      `${kind} steps are not supported yet`,
      `This version of svc cannot run ${kind} steps; the endpoint would answer without them, so it is refused at boot.`,
    );
    return undefined;
  };
}

function placeholder<S extends StepSpecBase>(spec: S, kind: string, shape: PlaceholderShape<S>, env: CompileEnv): EndpointNode | undefined {
  const reads = shape.reads ? env.readsOf(shape.reads(spec)) : [];
  const common = { id: env.idOf(spec), kind, label: 'not supported yet', meta: spec, ...(reads.length > 0 ? { reads } : {}) };
  const refuse = (): never => {
    throw new Error(`${kind} steps are not supported yet`);
  };
  switch (shape.node) {
    case 'sink': {
      const conditional = (spec as { when?: unknown }).when !== undefined;
      return { ...common, type: 'sink', ...(conditional ? { condition: () => false } : {}), run: refuse };
    }
    case 'container': {
      const body = env.compileSteps(shape.body?.(spec) ?? []);
      return body && { ...common, type: 'container', name: spec.name ?? common.id, body, wrap: {} };
    }
    default:
      return { ...common, type: 'step', name: spec.name ?? common.id, run: refuse };
  }
}
