/**
 * Summarizes a V8 CPU profile (`node --cpu-prof`, e.g. from `--cpu-prof <dir>` of the HTTP benchmarks):
 * self time per file and per function, and inclusive time of the functions named with `--root`, in
 * percent of the busy (non-idle) time and, with `--requests N`, in microseconds per request.
 *
 *     node --import tsx bench/lib/profile.ts <file.cpuprofile> [--requests N] [--top 40] [--root handle]...
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    requests: { type: 'string' },
    top: { type: 'string', default: '40' },
    root: { type: 'string', multiple: true, default: [] },
  },
});
if (positionals.length !== 1) {
  process.stderr.write('usage: profile.ts <file.cpuprofile> [--requests N] [--top 40] [--root name]...\n');
  process.exit(2);
}

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const self = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i]!;
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const file = (n: Node) => n.callFrame.url.replace(/^file:\/\/.*?\/(dist\/|node_modules\/)/, '$1') || n.callFrame.functionName;
const label = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${file(n)}:${n.callFrame.lineNumber + 1}`;

let busy = 0;
const perFile = new Map<string, number>();
const perFunction = new Map<string, number>();
for (const n of profile.nodes) {
  const t = self.get(n.id) ?? 0;
  if (n.callFrame.functionName === '(idle)') continue;
  busy += t;
  perFile.set(file(n), (perFile.get(file(n)) ?? 0) + t);
  perFunction.set(label(n), (perFunction.get(label(n)) ?? 0) + t);
}

const requests = values.requests === undefined ? undefined : Number(values.requests);
const show = (us: number) => `${((100 * us) / busy).toFixed(2).padStart(6)}%` + (requests ? `  ${(us / requests).toFixed(3).padStart(7)} us/req` : '');
const top = Number(values.top);
const list = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${show(v)}  ${k}`);
};

console.log(`busy ${(busy / 1000).toFixed(0)} ms${requests ? `, ${requests} requests, ${(busy / requests).toFixed(2)} us/req busy` : ''}`);
list('self time per file', perFile);
list('self time per function', perFunction);

// Inclusive time of named functions (a function's subtree, counted once per outermost occurrence).
function inclusive(id: number): number {
  const n = byId.get(id)!;
  let t = self.get(id) ?? 0;
  for (const c of n.children ?? []) t += inclusive(c);
  return t;
}
if (values.root.length > 0) {
  const totals = new Map<string, number>();
  const walk = (id: number, inside: Set<string>) => {
    const n = byId.get(id)!;
    const name = n.callFrame.functionName;
    let next = inside;
    if (values.root.includes(name) && !inside.has(name)) {
      totals.set(label(n), (totals.get(label(n)) ?? 0) + inclusive(id));
      next = new Set(inside).add(name);
    }
    for (const c of n.children ?? []) walk(c, next);
  };
  walk(profile.nodes[0]!.id, new Set());
  list('inclusive time of --root functions', totals);
}
