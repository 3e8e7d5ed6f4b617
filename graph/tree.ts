import type { StepInfo } from './info.js';
import type { Branch, NodeDef } from './types.js';

/**
 * A node of any scope type: the tree only reads identities and structure, never runs a node, so the
 * scope its functions take does not matter here (a graph's nodes share one, checked where the graph
 * is compiled). `any`, because node types are invariant in their scope.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
type AnyNode = NodeDef<any>;
// biome-ignore lint/suspicious/noExplicitAny: as AnyNode
type AnyBranch = Branch<any>;

/**
 * The definition with identities resolved: one TreeNode per NodeDef occurrence, in execution order.
 * Validation, compilation, the plan and DOT all walk this one tree, so they agree on ids.
 */
export interface TreeNode {
  readonly def: AnyNode;
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

export function kindOf(def: AnyNode): string {
  return def.kind ?? DEFAULT_KIND[def.type];
}

function toSequence(branch: AnyBranch): readonly AnyNode[] {
  return Array.isArray(branch) ? (branch as readonly AnyNode[]) : [branch as AnyNode];
}

/**
 * Generated ids are `<kind>#<n>`, numbered per kind across the graph in execution order, skipping
 * numbers an explicit id or name already uses (so mixing both never collides).
 */
export function buildTree(nodes: readonly AnyNode[]): TreeNode[] {
  const counters = new Map<string, number>();
  const taken = new Set<string>();
  const collect = (defs: readonly AnyNode[]): void => {
    for (const def of defs) {
      const explicit = def.id ?? (def.name === '' ? undefined : def.name);
      if (explicit !== undefined) taken.add(explicit);
      if (def.type === 'parallel') for (const b of def.branches) collect(toSequence(b));
      if (def.type === 'container') collect(def.body);
    }
  };
  collect(nodes);
  const visit = (defs: readonly AnyNode[]): TreeNode[] =>
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
