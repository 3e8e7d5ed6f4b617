/**
 * `svc fmt --diff`: a unified diff (`diff -u`, three lines of context) between a file and its
 * formatted text, from a Myers shortest edit script over lines. The search stops after MAX_EDITS
 * edits (a 16 MiB file rewritten throughout would take quadratic memory); past that the changed
 * middle of the file is shown as one hunk, which is still a correct diff, only a long one.
 */

const CONTEXT = 3;
const MAX_EDITS = 4000;

type Edit = { readonly op: ' ' | '-' | '+'; readonly line: string };

export function unifiedDiff(before: string, after: string, name: string): string {
  if (before === after) return '';
  const edits = diffLines(lines(before), lines(after));
  // Line numbers (old, new) at which each edit starts.
  const at: (readonly [number, number])[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (const e of edits) {
    at.push([oldLine, newLine]);
    if (e.op !== '+') oldLine++;
    if (e.op !== '-') newLine++;
  }
  const changes = edits.flatMap((e, i) => (e.op === ' ' ? [] : [i]));
  const out = [`--- ${name}`, `+++ ${name} (formatted)`];
  for (let c = 0; c < changes.length; ) {
    // A hunk: changes less than 2 * CONTEXT unchanged lines apart, with CONTEXT lines around them.
    let last = changes[c]!;
    const first = last;
    for (c++; c < changes.length && changes[c]! - last <= 2 * CONTEXT; c++) last = changes[c]!;
    const from = Math.max(0, first - CONTEXT);
    const to = Math.min(edits.length, last + 1 + CONTEXT);
    const hunk = edits.slice(from, to);
    const oldCount = hunk.filter((e) => e.op !== '+').length;
    const newCount = hunk.filter((e) => e.op !== '-').length;
    out.push(`@@ -${range(at[from]![0], oldCount)} +${range(at[from]![1], newCount)} @@`);
    for (const e of hunk) out.push(e.op + e.line);
  }
  return out.join('\n') + '\n';
}

/** Lines without their `\n`; a last line without one is marked as diff marks it. */
function lines(text: string): string[] {
  const out = text.split('\n');
  if (out[out.length - 1] === '') out.pop();
  else out[out.length - 1] += '\n\\ No newline at end of file';
  return out;
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;
}

/** The edit script from a to b: Myers' greedy forward search, kept snapshots for the way back. */
function diffLines(a: readonly string[], b: readonly string[]): Edit[] {
  // Equal head and tail are common for a formatter's changes and cost nothing to set aside.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x0 = a.slice(head, a.length - tail);
  const y0 = b.slice(head, b.length - tail);
  const same = (from: readonly string[], k: number, n: number): Edit[] => from.slice(k, k + n).map((line) => ({ op: ' ', line }));
  const middle = myers(x0, y0) ?? [...x0.map((line): Edit => ({ op: '-', line })), ...y0.map((line): Edit => ({ op: '+', line }))];
  return [...same(a, 0, head), ...middle, ...same(a, a.length - tail, tail)];
}

function myers(a: readonly string[], b: readonly string[]): Edit[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, d, offset);
    }
    v = next;
  }
  return undefined;
}

function backtrack(a: readonly string[], b: readonly string[], trace: readonly Int32Array[], dEnd: number, offset: number): Edit[] {
  const edits: Edit[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK]!;
    // The step from (prevX, prevX - prevK) lands here, then a diagonal of equal lines leads to (x, y).
    const landX = down ? prevX : prevX + 1;
    while (x > landX) {
      x--;
      y--;
      edits.push({ op: ' ', line: a[x]! });
    }
    if (down) edits.push({ op: '+', line: b[--y]! });
    else edits.push({ op: '-', line: a[--x]! });
  }
  while (x > 0) {
    x--;
    edits.push({ op: ' ', line: a[x]! });
  }
  return edits.reverse();
}
