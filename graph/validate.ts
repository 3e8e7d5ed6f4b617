import { hasOutput, isTerminal, type TreeNode } from './tree.js';
import type { GraphError } from './types.js';

/** Enclosing parallel groups, outermost first, with the branch index taken in each. */
type Lanes = readonly { readonly group: string; readonly branch: number }[];

interface Located {
  readonly node: TreeNode;
  readonly lanes: Lanes;
}

export interface Validation {
  readonly errors: GraphError[];
  /** Some path through the graph ends without an exit or a stream. */
  readonly mayFinishWithoutOutcome: boolean;
}

/** What the first pass learns and the later ones read; `errors` collects every pass's findings. */
interface Index {
  readonly errors: GraphError[];
  readonly lanesOf: Map<TreeNode, Lanes>;
  readonly byName: Map<string, Located>;
}

/**
 * Compile-time checks, all reported at once: names (missing, duplicate), data edges (unknown target,
 * read of a later step, read across parallel branches, cycles), structure (empty parallel, an exit
 * or stream inside a parallel branch, nodes after an unconditional exit), time-outs. Three passes:
 * index the nodes, find data cycles, walk in execution order.
 */
export function validate(tree: readonly TreeNode[]): Validation {
  const index = indexTree(tree);
  const cyclic = findCycles(index);
  const mayFinishWithoutOutcome = walk(tree, new Set(), index, cyclic);
  return { errors: index.errors, mayFinishWithoutOutcome };
}

/** Pass 1: every node with its parallel lanes, by name; name, id, time-out and structure errors. */
function indexTree(tree: readonly TreeNode[]): Index {
  const index: Index = { errors: [], lanesOf: new Map(), byName: new Map() };
  const seenIds = new Map<string, TreeNode>();
  const visit = (seq: readonly TreeNode[], lanes: Lanes): void => {
    for (const node of seq) {
      index.lanesOf.set(node, lanes);
      checkIdentity(node, lanes, index, seenIds);
      checkTimeout(node, index.errors);
      if (node.branches !== undefined) {
        const id = node.info.id;
        if (node.branches.length === 0 || node.branches.some((b) => b.length === 0)) {
          index.errors.push({ code: 'empty-parallel', message: `"${id}" has an empty branch or no branches`, ids: [id] });
        }
        node.branches.forEach((branch, i) => {
          visit(branch, [...lanes, { group: id, branch: i }]);
        });
      }
      if (node.body !== undefined) visit(node.body, lanes);
      checkTerminalPlacement(node, lanes, index.errors);
    }
  };
  visit(tree, []);
  return index;
}

/** A step needs a name; ids and names are unique (a name's first node is the one readers get). */
function checkIdentity(node: TreeNode, lanes: Lanes, index: Index, seenIds: Map<string, TreeNode>): void {
  const { errors, byName } = index;
  const { id, name } = node.info;
  if (node.def.type === 'step' && name === undefined) {
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
  if (name !== undefined && !byName.has(name)) byName.set(name, { node, lanes });
}

function checkTimeout(node: TreeNode, errors: GraphError[]): void {
  const def = node.def;
  const timeout = 'timeout' in def ? def.timeout : undefined;
  if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0)) {
    errors.push({ code: 'invalid-timeout', message: `"${node.info.id}": timeout must be a positive number of milliseconds`, ids: [node.info.id] });
  }
}

/** An exit or a stream ends the run, which a branch running beside others cannot do. */
function checkTerminalPlacement(node: TreeNode, lanes: Lanes, errors: GraphError[]): void {
  const type = node.def.type;
  if (lanes.length === 0 || (type !== 'exit' && type !== 'sink')) return;
  errors.push({
    code: 'terminal-in-parallel',
    message: `"${node.info.id}" (${node.info.kind}) ends the run and cannot sit inside parallel "${lanes[lanes.length - 1]!.group}"`,
    ids: [node.info.id],
  });
}

/**
 * Pass 2: cycles among data edges (reader -> read), by depth-first search over readable names.
 * Returns the "reader\0target" edges that lie on a cycle, so pass 3 does not report them again.
 */
function findCycles(index: Index): Set<string> {
  const { byName, errors } = index;
  const cyclic = new Set<string>();
  const state = new Map<string, 1 | 2>(); // 1 on the stack, 2 done
  const stack: string[] = [];
  const dfs = (name: string): void => {
    state.set(name, 1);
    stack.push(name);
    for (const target of byName.get(name)?.node.def.reads ?? []) {
      const located = byName.get(target);
      if (located === undefined || !hasOutput(located.node)) continue;
      const s = state.get(target);
      if (s === 1) {
        const cycle = stack.slice(stack.indexOf(target));
        cycle.forEach((from, i) => {
          cyclic.add(`${from}\0${cycle[(i + 1) % cycle.length]}`);
        });
        const ids = cycle.map((n) => byName.get(n)!.node.info.id);
        errors.push({ code: 'cycle', message: `data cycle: ${[...cycle, target].join(' -> ')}`, ids, target });
      } else if (s === undefined) dfs(target);
    }
    stack.pop();
    state.set(name, 2);
  };
  for (const [name, located] of byName) if (hasOutput(located.node) && !state.has(name)) dfs(name);
  return cyclic;
}

/**
 * Pass 3: walks `seq` in execution order with the set of outputs available at each point (adding
 * to `available`); returns whether the sequence can fall through its end.
 */
function walk(seq: readonly TreeNode[], available: Set<string>, index: Index, cyclic: ReadonlySet<string>): boolean {
  for (let i = 0; i < seq.length; i++) {
    const node = seq[i]!;
    checkReads(node, available, index, cyclic);
    let fallsThrough = true;
    if (node.branches !== undefined) {
      // Branches see what was there before the group, not each other's outputs; all of them after.
      const produced = node.branches.map((branch) => {
        const local = new Set(available);
        walk(branch, local, index, cyclic);
        return local;
      });
      for (const set of produced) for (const name of set) available.add(name);
    } else if (node.body !== undefined) {
      fallsThrough = walk(node.body, available, index, cyclic);
    }
    if (hasOutput(node)) available.add(node.info.name!);
    if (isTerminal(node) || !fallsThrough) {
      const rest = seq.slice(i + 1);
      if (rest.length > 0) {
        index.errors.push({
          code: 'unreachable',
          message: `${rest.map((n) => `"${n.info.id}"`).join(', ')} can never run: "${node.info.id}" always ends the run before`,
          ids: rest.map((n) => n.info.id),
        });
      }
      return false;
    }
  }
  return true;
}

/** Each read of `node` must name an output available at that point; says why when it does not. */
function checkReads(node: TreeNode, available: ReadonlySet<string>, index: Index, cyclic: ReadonlySet<string>): void {
  const reader = node.info;
  for (const target of node.def.reads ?? []) {
    if (available.has(target)) continue;
    const located = index.byName.get(target);
    if (located === undefined) {
      index.errors.push({ code: 'unknown-read', message: `"${reader.id}" reads "${target}", which is not a step`, ids: [reader.id], target });
    } else if (!hasOutput(located.node)) {
      index.errors.push({
        code: 'unknown-read',
        message: `"${reader.id}" reads "${target}", a ${located.node.info.kind} that has no output`,
        ids: [reader.id, located.node.info.id],
        target,
      });
    } else if (reader.name === undefined || !cyclic.has(`${reader.name}\0${target}`)) {
      index.errors.push(misplacedRead(node, target, located, index));
    } // else: reported as a cycle
  }
}

/** A read of an existing output that is not available here: a parallel sibling's, or a later step's. */
function misplacedRead(node: TreeNode, target: string, located: Located, index: Index): GraphError {
  const reader = node.info;
  const mine = index.lanesOf.get(node) ?? [];
  const sibling = mine.find((lane) => located.lanes.some((t) => t.group === lane.group && t.branch !== lane.branch));
  const ids = [reader.id, located.node.info.id];
  if (sibling !== undefined) {
    return {
      code: 'read-parallel-sibling',
      message: `"${reader.id}" reads "${target}" from another branch of parallel "${sibling.group}"; branches run concurrently`,
      ids,
      target,
    };
  }
  return { code: 'read-before-run', message: `"${reader.id}" reads "${target}", which has not run yet at that point`, ids, target };
}
