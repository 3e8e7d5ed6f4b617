/**
 * A bad manifest is a list of diagnostics, never an exception: the reference fixtures cut short,
 * with lines dropped or duplicated, and with tokens swapped, all decode without throwing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildModel } from '../../src/model/index.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'good');
const sources = readdirSync(dir)
  .filter((f) => f.endsWith('.hcl'))
  .sort()
  .map((f) => readFileSync(join(dir, f), 'utf8'));

/** A small deterministic PRNG (mulberry32), so a failure is reproducible from its seed. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SWAPS = ['{', '}', '=', '"', '[', ']', '(', ')', ',', '.', 'respond', 'sql "x"', '${', '<<EOT', 'null', '-1', '"GET /"', 'schema.', 'steps.', 'ctx.'];

function mutate(text: string, random: () => number): string {
  const lines = text.split('\n');
  const ops = 1 + Math.floor(random() * 4);
  for (let k = 0; k < ops; k++) {
    const i = Math.floor(random() * lines.length);
    const r = random();
    if (r < 0.25) lines.splice(i, 1);
    else if (r < 0.5) lines.splice(i, 0, lines[Math.floor(random() * lines.length)]!);
    else if (r < 0.75) {
      const line = lines[i]!;
      const at = Math.floor(random() * (line.length + 1));
      lines[i] = line.slice(0, at) + SWAPS[Math.floor(random() * SWAPS.length)]! + line.slice(at + 1);
    } else return lines.slice(0, i).join('\n');
  }
  return lines.join('\n');
}

test('mutated manifests produce diagnostics, never exceptions', () => {
  let withErrors = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const random = rng(seed);
    const files = sources.map((s, i) => ({ filename: `f${i}.hcl`, source: random() < 0.7 ? mutate(s, random) : s }));
    let result;
    try {
      result = buildModel(files);
    } catch (e) {
      assert.fail(`seed ${seed}: ${(e as Error).stack}`);
    }
    if (!result.model) {
      withErrors++;
      for (const d of result.diagnostics) assert.equal(typeof d.summary, 'string');
    }
  }
  assert.ok(withErrors > 100, `most mutations are errors (${withErrors})`);
});
