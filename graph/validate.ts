import { hasOutput, isTerminal, type TreeNode } from './tree.js';
import type { GraphError } from './types.js';

interface Located {
  readonly node: TreeNode;
  /** Enclosing parallel groups, outermost first, with the branch index taken in each. */
  readonly lanes: readonly { readonly group: string; readonly branch: number }[];
}

export interface Validation {
  readonly errors: GraphError[];
  /** Some path through the graph ends without an exit or a stream. */
  readonly mayFinishWithoutOutcome: boolean;
}

/**
 * Compile-time checks, all reported at once: names (missing, duplicate), data edges (unknown target,
 * read of a later step, read across parallel branches, cycles), structure (empty parallel, an exit
 * or stream inside a parallel branch, nodes after an unconditional exit), time-outs.
 */
export function validate(tree: readonly TreeNode[]): Validation {
  const errors: GraphError[] = [];
  const lanesOf = new Map<TreeNode, Located['lanes']>();
  const byName = new Map<string, Located>();
  const seenIds = new Map<string, TreeNode>();

  // Pass 1: index every node with its parallel lanes; names and ids.
  const index = (seq: readonly TreeNode[], lanes: Located['lanes']) => {
    for (const node of seq) {
      const located: Located = { node, lanes };
      lanesOf.set(node, lanes);
      const { id, name } = node.info;
      const def = node.def;
      if (def.type === 'step' && name === undefined) {
        errors.push({ code: 'missing-name', message: `a ${node.info.kind} step needs a name`, ids: [id] });
      }
      const other = seenIds.get(id);
      if (other !== undefined) {
        errors.push({ code: 'duplicate-name', message: `"${id}" is declared twice`, ids: [other.info.id, id] });
      } else seenIds.set(id, node);
      if (name !== undefined && name !== id) {
        const prior = byName.get(name);
        if (prior !== undefined) {
          errors.push({ code: 'duplicate-name', message: `"${name}" is declared twice`, ids: [prior.node.info.id, id] });
        }
      }
      if (name !== undefined && !byName.has(name)) byName.set(name, located);
      const timeout = 'timeout' in def ? def.timeout : undefined;
      if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0)) {
        errors.push({ code: 'invalid-timeout', message: `"${id}": timeout must be a positive number of milliseconds`, ids: [id] });
      }
      if (node.branches !== undefined) {
        if (node.branches.length === 0 || node.branches.some((b) => b.length === 0)) {
          errors.push({ code: 'empty-parallel', message: `"${id}" has an empty branch or no branches`, ids: [id] });
        }
        node.branches.forEach((branch, i) => index(branch, [...lanes, { group: id, branch: i }]));
      }
      if (node.body !== undefined) index(node.body, lanes);
      if (lanes.length > 0 && (def.type === 'exit' || def.type === 'sink')) {
        errors.push({
          code: 'terminal-in-parallel',
          message: `"${id}" (${node.info.kind}) ends the run and cannot sit inside parallel "${lanes[lanes.length - 1]!.group}"`,
          ids: [id],
        });
      }
    }
  };
  index(tree, []);

  // Pass 2: cycles among data edges (reader -> read), by depth-first search over readable names.
  const cyclic = new Set<string>(); // "reader\0target" edges that lie on a cycle
  const state = new Map<string, 1 | 2>(); // 1 on the stack, 2 done
  const stack: string[] = [];
  const readsOf = (name: string): readonly string[] => byName.get(name)?.node.def.reads ?? [];
  const dfs = (name: string) => {
    state.set(name, 1);
    stack.push(name);
    for (const target of readsOf(name)) {
      const located = byName.get(target);
      if (located === undefined || !hasOutput(located.node)) continue;
      const s = state.get(target);
      if (s === 1) {
        const cycle = stack.slice(stack.indexOf(target));
        cycle.forEach((from, i) => cyclic.add(`${from}\0${cycle[(i + 1) % cycle.length]}`));
        const ids = cycle.map((n) => byName.get(n)!.node.info.id);
        errors.push({
          code: 'cycle',
          message: `data cycle: ${[...cycle, target].join(' -> ')}`,
          ids,
          target,
        });
      } else if (s === undefined) dfs(target);
    }
    stack.pop();
    state.set(name, 2);
  };
  for (const [name, located] of byName) if (hasOutput(located.node) && !state.has(name)) dfs(name);

  // Pass 3: walk in execution order with the set of outputs available at each point.
  const checkReads = (node: TreeNode, available: ReadonlySet<string>) => {
    const reader = node.info;
    for (const target of node.def.reads ?? []) {
      if (available.has(target)) continue;
      const located = byName.get(target);
      if (located === undefined) {
        errors.push({ code: 'unknown-read', message: `"${reader.id}" reads "${target}", which is not a step`, ids: [reader.id], target });
        continue;
      }
      if (!hasOutput(located.node)) {
        errors.push({
          code: 'unknown-read',
          message: `"${reader.id}" reads "${target}", a ${located.node.info.kind} that has no output`,
          ids: [reader.id, located.node.info.id],
          target,
        });
        continue;
      }
      if (reader.name !== undefined && cyclic.has(`${reader.name}\0${target}`)) continue; // reported as a cycle
      const mine = lanesOf.get(node) ?? [];
      const theirs = located.lanes;
      const sibling = mine.find((lane) => theirs.some((t) => t.group === lane.group && t.branch !== lane.branch));
      if (sibling !== undefined) {
        errors.push({
          code: 'read-parallel-sibling',
          message: `"${reader.id}" reads "${target}" from another branch of parallel "${sibling.group}"; branches run concurrently`,
          ids: [reader.id, located.node.info.id],
          target,
        });
      } else {
        errors.push({
          code: 'read-before-run',
          message: `"${reader.id}" reads "${target}", which has not run yet at that point`,
          ids: [reader.id, located.node.info.id],
          target,
        });
      }
    }
  };

  /** Returns whether the sequence can fall through its end; adds outputs to `available`. */
  const walk = (seq: readonly TreeNode[], available: Set<string>): boolean => {
    for (let i = 0; i < seq.length; i++) {
      const node = seq[i]!;
      checkReads(node, available);
      let fallsThrough = true;
      if (node.branches !== undefined) {
        const produced: Set<string>[] = node.branches.map((branch) => {
          const local = new Set(available);
          walk(branch, local);
          return local;
        });
        for (const set of produced) for (const name of set) available.add(name);
      } else if (node.body !== undefined) {
        fallsThrough = walk(node.body, available);
      }
      if (hasOutput(node)) available.add(node.info.name!);
      if (isTerminal(node) || !fallsThrough) {
        const rest = seq.slice(i + 1);
        if (rest.length > 0) {
          errors.push({
            code: 'unreachable',
            message: `${rest.map((n) => `"${n.info.id}"`).join(', ')} can never run: "${node.info.id}" always ends the run before`,
            ids: rest.map((n) => n.info.id),
          });
        }
        return false;
      }
    }
    return true;
  };
  const mayFinishWithoutOutcome = walk(tree, new Set());
  return { errors, mayFinishWithoutOutcome };
}
