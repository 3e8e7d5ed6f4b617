/**
 * `request { headers = schema.x }` (and `query`, `path`): hclapi's attribute form, the fields of a
 * named schema. svc spells the same thing as a block listing the fields, so the schema's field
 * blocks are written into a `headers { ... }` block.
 */
import type { Attribute, Block, File } from '../../../hcl/index.js';
import { alias, replace, Sources, type Finding } from '../finding.js';
import { blocksUnder, topBlocks } from '../walk.js';

const PARTS = new Set(['headers', 'query', 'path']);

export function requestSchemas(files: readonly File[]): Finding[] {
  const src = new Sources(files);
  const schemas = new Map<string, Block>();
  for (const { block } of topBlocks(files)) if (block.type === 'schema' && block.labels.length === 1) schemas.set(block.labels[0]!, block);
  const out: Finding[] = [];
  for (const file of files) {
    for (const { block } of blocksUnder(file.body)) {
      if (block.type !== 'request') continue;
      for (const item of block.body.items) {
        if (item.kind !== 'Attribute' || !PARTS.has(item.name)) continue;
        const e = (item as Attribute).expr;
        const [name, ...rest] = e.kind === 'ScopeTraversal' && e.root === 'schema' ? e.steps : [];
        const schema = name?.kind === 'Attr' && rest.length === 0 ? schemas.get(name.name) : undefined;
        if (!schema) continue;
        const indent = src.indent(item.range);
        const fields = schema.body.items
          .filter((i) => i.kind === 'Block')
          .map((f) => reindent(src.text(f.range), src.indent(f.range), indent + '  '))
          .join('\n');
        out.push(
          alias(
            'hclapi request attribute',
            item.nameRange,
            `svc declares ${item.name} as a block of fields: ${item.name} { field ... }, here the fields of schema "${schema.labels[0]}".`,
            [replace(item.range, `${item.name} {\n${fields}\n${indent}}`)],
          ),
        );
      }
    }
  }
  return out;
}

/** A block's text moved from one indentation to another (its first line has none: it starts at the block). */
function reindent(text: string, from: string, to: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? to + line : line.startsWith(from) ? to + line.slice(from.length) : line))
    .join('\n');
}
