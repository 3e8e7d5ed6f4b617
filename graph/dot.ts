import type { PlanNode } from './types.js';

/** One endpoint to draw: its name (the cluster label) and its compiled graph (only `plan` is read). */
export interface DotGraph {
  readonly name: string;
  readonly graph: { readonly plan: readonly PlanNode[] };
}

/** A control edge waiting for its target: the node it leaves from and an optional edge label. */
interface Pending {
  readonly from: string;
  readonly label?: string;
}

const LEGEND = [
  '  // Legend:',
  '  //   solid black edge  = control flow (sequence order; "true"/"false" out of a conditional respond)',
  '  //   dashed blue edge  = data edge (the reader reads steps.<name> of the producer)',
  '  //   bold edge to the double circle = the run ends there with a response (exit) or a stream',
  '  //   nested dashed box = a parallel group (its branches run concurrently, between fork and join points)',
  '  //   nested solid box  = a container (e.g. a transaction): enter, the steps it wraps, leave (commit/rollback)',
];

/**
 * A DOT string literal. Backslashes are doubled so user text can never form Graphviz escapes
 * (`\N`, `\G`, `\l`...); quotes are escaped; line breaks become `\n`; other control characters go.
 */
export function dotString(text: string): string {
  const escaped = text
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/[\u0000-\u001f\u007f]/g, ' ');
  return `"${escaped}"`;
}

/** Lines of a node's label, joined as DOT line breaks (escaped per line, joined by a real `\n`). */
function labelOf(lines: readonly string[]): string {
  return `"${lines.map((l) => dotString(l).slice(1, -1)).join('\\n')}"`;
}

function nodeLines(node: PlanNode): string[] {
  const lines = [node.kind];
  if (node.name !== undefined) lines.push(node.name);
  if (node.label !== undefined && node.label !== '') lines.push(node.label);
  if (node.timeout !== undefined) lines.push(`timeout ${node.timeout} ms`);
  return lines;
}

const SHAPES: Record<PlanNode['type'], string> = {
  step: 'shape=box',
  exit: 'shape=octagon',
  sink: 'shape=cds',
  parallel: 'shape=point, width=0.12',
  container: 'shape=box, style=rounded, fontsize=9, height=0.3',
};

/**
 * Renders endpoint graphs as one Graphviz digraph: one `cluster_N` per endpoint, nodes labelled with
 * kind and name, control edges solid, data edges dashed, parallel groups and containers as nested
 * clusters, and each endpoint's exits leading to its own response node.
 */
export function toDot(graphs: readonly DotGraph[]): string {
  const out: string[] = [
    'digraph svc {',
    ...LEGEND,
    '  compound=true;',
    '  rankdir=TB;',
    '  fontname="Helvetica";',
    '  node [fontname="Helvetica", fontsize=11];',
    '  edge [fontname="Helvetica", fontsize=9];',
  ];
  graphs.forEach((entry, index) => {
    new EndpointRenderer(out, index).render(entry);
  });
  out.push('}');
  return out.join('\n') + '\n';
}

/**
 * One endpoint's cluster. Nodes are written as they are met (nested clusters need their lines in
 * place); control edges, data edges and the response node are collected and written at the end.
 */
class EndpointRenderer {
  private readonly prefix: string;
  /** Step name -> DOT node id (data edge sources). */
  private readonly ids = new Map<string, string>();
  private readonly readers: { readonly dotId: string; readonly reads: readonly string[] }[] = [];
  private readonly edges: string[] = [];
  private readonly responseId: string;
  private responseUsed = false;
  private counter = 0;
  private clusterCounter = 0;

  constructor(
    private readonly out: string[],
    private readonly index: number,
  ) {
    this.prefix = `e${index}`;
    this.responseId = `${this.prefix}_response`;
  }

  render(entry: DotGraph): void {
    const { out, prefix } = this;
    out.push(`  subgraph cluster_${this.index} {`);
    out.push(`    label=${dotString(entry.name)};`);
    out.push('    style=rounded;');
    const startId = `${prefix}_start`;
    out.push(`    ${startId} [shape=circle, width=0.25, label="", style=filled, fillcolor=black];`);
    const rest = this.sequence(entry.graph.plan, [{ from: startId }], '    ');
    if (this.responseUsed) out.push(`    ${this.responseId} [shape=doublecircle, label="response"];`);
    if (rest.length > 0) {
      const endId = `${prefix}_end`;
      out.push(`    ${endId} [shape=plaintext, label="end without response"];`);
      this.control(rest, endId);
    }
    for (const edge of this.edges) out.push(`    ${edge}`);
    for (const { dotId, reads } of this.readers) {
      for (const name of reads) {
        const from = this.ids.get(name);
        if (from !== undefined) out.push(`    ${from} -> ${dotId} [style=dashed, color="#1f77b4", arrowhead=open, constraint=false];`);
      }
    }
    out.push('  }');
  }

  /** Renders `seq` after the `pending` control edges; returns the edges that fall through its end. */
  private sequence(seq: readonly PlanNode[], pending: readonly Pending[], indent: string): Pending[] {
    let current: Pending[] = [...pending];
    for (const node of seq) {
      const dotId = `${this.prefix}_n${++this.counter}`;
      if (node.name !== undefined && !this.ids.has(node.name)) this.ids.set(node.name, dotId);
      if (node.reads.length > 0) this.readers.push({ dotId, reads: node.reads });
      switch (node.type) {
        case 'step':
          this.out.push(`${indent}${dotId} [${SHAPES.step}, label=${labelOf(nodeLines(node))}];`);
          this.control(current, dotId);
          current = [{ from: dotId }];
          break;
        case 'exit':
        case 'sink':
          current = this.terminal(node, dotId, current, indent);
          break;
        case 'parallel':
          current = this.parallel(node, dotId, current, indent);
          break;
        case 'container':
          current = this.container(node, dotId, current, indent);
          break;
      }
    }
    return current;
  }

  /** An exit or sink leads to the response; a conditional one also falls through on "false". */
  private terminal(node: PlanNode, dotId: string, current: readonly Pending[], indent: string): Pending[] {
    const lines = nodeLines(node);
    if (node.conditional) lines.push('(conditional)');
    this.out.push(`${indent}${dotId} [${SHAPES[node.type]}, label=${labelOf(lines)}];`);
    this.control(current, dotId);
    if (node.conditional) {
      this.toResponse(dotId, node.type === 'sink' ? 'stream (when true)' : 'true');
      return [{ from: dotId, label: 'false' }];
    }
    this.toResponse(dotId, node.type === 'sink' ? 'stream' : undefined);
    return [];
  }

  private parallel(node: PlanNode, dotId: string, current: readonly Pending[], indent: string): Pending[] {
    const { out } = this;
    out.push(`${indent}subgraph cluster_${this.prefix}_${++this.clusterCounter} {`);
    out.push(`${indent}  label=${labelOf(node.name !== undefined ? [node.kind, node.name] : [node.kind])};`);
    out.push(`${indent}  style=dashed;`);
    const fork = `${dotId}_fork`;
    const join = `${dotId}_join`;
    out.push(`${indent}  ${fork} [${SHAPES.parallel}, label=""];`);
    this.control(current, fork);
    const ends: Pending[] = [];
    for (const branch of node.branches ?? []) ends.push(...this.sequence(branch, [{ from: fork }], `${indent}  `));
    out.push(`${indent}  ${join} [${SHAPES.parallel}, label=""];`);
    this.control(ends, join);
    out.push(`${indent}}`);
    if (node.name !== undefined) this.ids.set(node.name, join);
    return [{ from: join }];
  }

  /**
   * enter -> body -> leave inside a solid cluster; the container's own output (the value of
   * `leave`) exists only after leave, so data edges reading its name start there.
   */
  private container(node: PlanNode, dotId: string, current: readonly Pending[], indent: string): Pending[] {
    const { out } = this;
    const leave = `${dotId}_leave`;
    out.push(`${indent}subgraph cluster_${this.prefix}_${++this.clusterCounter} {`);
    out.push(`${indent}  label=${labelOf(nodeLines(node))};`);
    out.push(`${indent}  style=solid;`);
    out.push(`${indent}  ${dotId} [${SHAPES.container}, label="enter"];`);
    this.control(current, dotId);
    const ends = this.sequence(node.body ?? [], [{ from: dotId }], `${indent}  `);
    out.push(`${indent}  ${leave} [${SHAPES.container}, label="leave"];`);
    this.control(ends, leave);
    out.push(`${indent}}`);
    if (node.name !== undefined) this.ids.set(node.name, leave);
    return [{ from: leave }];
  }

  private control(pending: readonly Pending[], to: string): void {
    for (const p of pending) this.edges.push(`${p.from} -> ${to}${p.label !== undefined ? ` [label=${dotString(p.label)}]` : ''};`);
  }

  private toResponse(from: string, label: string | undefined): void {
    this.responseUsed = true;
    this.edges.push(`${from} -> ${this.responseId} [style=bold${label !== undefined ? `, label=${dotString(label)}` : ''}];`);
  }
}
