/**
 * hclapi's byte-size suffixes `K`, `M` and `G` (decimal, as its `KB`, `MB`, `GB`): svc spells them
 * `KB`, `MB`, `GB`. Only where hclapi reads a size (`max_body_size`) and only in a literal string.
 */
import type { File } from '../../../hcl/index.js';
import { alias, replace, type Finding } from '../finding.js';
import { blocksUnder, literalString } from '../walk.js';

const SHORT = /^(\s*[0-9]+(?:\.[0-9]+)?\s*)([kmg])\s*$/i;

export function sizeSuffixes(files: readonly File[]): Finding[] {
  const out: Finding[] = [];
  for (const file of files) {
    for (const { block } of blocksUnder(file.body)) {
      for (const item of block.body.items) {
        if (item.kind !== 'Attribute' || item.name !== 'max_body_size') continue;
        const text = literalString(item.expr);
        const m = text === undefined ? null : SHORT.exec(text);
        if (!m) continue;
        const svc = `${m[1]!.trim()}${m[2]!.toUpperCase()}B`;
        out.push(
          alias('hclapi argument spelling', item.expr.range, `"${text}" is written "${svc}" in svc (the same ${m[2]!.toUpperCase()}B, decimal).`, [
            replace(item.expr.range, JSON.stringify(svc)),
          ]),
        );
      }
    }
  }
  return out;
}
