import type { StepInfo } from './info.js';
import type { Branch, NodeDef } from './types.js';

/**
 * The definition with identities resolved: one TreeNode per NodeDef occurrence, in execution order.
 * Validation, compilation, the plan and DOT all walk this one tree, so they agree on ids.
 */
export interface TreeNode {
  readonly def: NodeDef<any>;
  readonly info: StepInfo;
  /** parallel: its branches, each a sub-sequence. */
  readonly branches?: readonly (readonly TreeNode[])[];
  /** container: its body. */
  readonly body?: readonly TreeNode[];
}

const DEFAULT_KIND: Record<NodeDef['type'], string> = {
  step: 'step',
  exit: 'respond',
  sink: 'stream',
  parallel: 'parallel',
  container: 'container',
};

export function kindOf(def: NodeDef<any>): string {
  return def.kind ?? DEFAULT_KIND[def.type];
}

function toSequence(branch: Branch<any>): readonly NodeDef<any>[] {
  return Array.isArray(branch) ? (branch as readonly NodeDef<any>[]) : [branch as NodeDef<any>];
}

/**
 * Generated ids are `<kind>#<n>`, numbered per kind across the graph in execution order, skipping
 * numbers an explicit id or name already uses (so mixing both never collides).
 */
export function buildTree(nodes: readonly NodeDef<any>[]): TreeNode[] {
  const counters = new Map<string, number>();
  const taken = new Set<string>();
  const collect = (defs: readonly NodeDef<any>[]): void => {
    for (const def of defs) {
      const explicit = def.id ?? (def.name === '' ? undefined : def.name);
      if (explicit !== undefined) taken.add(explicit);
      if (def.type === 'parallel') def.branches.forEach((b) => collect(toSequence(b)));
      if (def.type === 'container') collect(def.body);
    }
  };
  collect(nodes);
  const visit = (defs: readonly NodeDef<any>[]): TreeNode[] =>
    defs.map((def) => {
      const kind = kindOf(def);
      const name = def.name === undefined || def.name === '' ? undefined : def.name;
      let id = def.id ?? name;
      if (id === undefined) {
        let n = counters.get(kind) ?? 0;
        do id = `${kind}#${++n}`;
        while (taken.has(id));
        counters.set(kind, n);
      }
      const info: StepInfo = Object.freeze({ id, name, kind });
      if (def.type === 'parallel') {
        return { def, info, branches: def.branches.map((b) => visit(toSequence(b))) };
      }
      if (def.type === 'container') return { def, info, body: visit(def.body) };
      return { def, info };
    });
  return visit(nodes);
}

/** Nodes whose output is stored under their name and can therefore be read. */
export function hasOutput(node: TreeNode): boolean {
  return node.info.name !== undefined && (node.def.type === 'step' || node.def.type === 'container');
}

/** Unconditional exit or sink: always ends the run when reached. */
export function isTerminal(node: TreeNode): boolean {
  return (node.def.type === 'exit' || node.def.type === 'sink') && node.def.condition === undefined;
}
