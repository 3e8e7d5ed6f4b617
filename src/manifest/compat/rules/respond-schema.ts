/**
 * `respond { schema = { count = int, tags = list(string) } }`: hclapi's inline type map of an
 * answer. svc names a response schema (`schema.<name>` or `list(schema.<name>)`), so the map becomes
 * a schema block of its own, written before the endpoint, and the respond names it. Its fields are
 * optional, as the map's are in hclapi. A map with a nested map is left as it is (svc reports it).
 */
import type { Block, Expression, File, ObjectCons } from '../../../hcl/index.js';
import type { Edit } from '../edit.js';
import { alias, insertAt, replace, Sources, type Finding } from '../finding.js';
import { blocksUnder, literalString, topBlocks } from '../walk.js';

const ROUTE_BLOCKS = new Set(['endpoint', 'route']);

export function inlineResponseSchemas(files: readonly File[]): Finding[] {
  const src = new Sources(files);
  const taken = new Set<string>();
  for (const { block } of topBlocks(files)) if (block.type === 'schema' && block.labels[0]) taken.add(block.labels[0]);
  const out: Finding[] = [];
  for (const { block: endpoint } of topBlocks(files)) {
    if (!ROUTE_BLOCKS.has(endpoint.type)) continue;
    for (const { block } of blocksUnder(endpoint.body)) {
      if (block.type !== 'respond') continue;
      const attr = block.body.items.find((i) => i.kind === 'Attribute' && i.name === 'schema');
      if (attr?.kind !== 'Attribute') continue;
      const map = inlineMap(attr.expr);
      if (!map) continue;
      const fields = fieldsOf(map.object, src);
      if (!fields) continue;
      const name = freshName(endpoint, taken);
      const schema = `schema "${name}" {\n${fields}}\n\n`;
      const edits: Edit[] = [insertAt(endpoint.range.filename, endpoint.range.start.byte, schema), replace(map.object.range, `schema.${name}`)];
      out.push(
        alias(
          'hclapi inline response schema',
          attr.expr.range,
          `svc names a response schema: this map is schema "${name}" (its fields optional, as in hclapi), and the respond reads schema = ${map.list ? `list(schema.${name})` : `schema.${name}`}.`,
          edits,
        ),
      );
    }
  }
  return out;
}

/** `{ ... }` or `list({ ... })`. */
function inlineMap(e: Expression): { object: ObjectCons; list: boolean } | undefined {
  if (e.kind === 'ObjectCons') return { object: e, list: false };
  if (e.kind === 'FunctionCall' && e.name === 'list' && e.args.length === 1 && e.args[0]!.kind === 'ObjectCons') return { object: e.args[0], list: true };
  return undefined;
}

/** The field blocks of a map of names to types, or undefined when one is not a plain name and type. */
function fieldsOf(map: ObjectCons, src: Sources): string | undefined {
  let out = '';
  for (const item of map.items) {
    const key = item.key.kind === 'Literal' && typeof item.key.value === 'string' ? item.key.value : literalString(item.key);
    if (key === undefined || item.value.kind === 'ObjectCons') return undefined;
    out += `  field ${JSON.stringify(key)} {\n    type = ${src.text(item.value.range)}\n  }\n`;
  }
  return out;
}

/** `get_users_id_response`, numbered when taken. */
function freshName(endpoint: Block, taken: Set<string>): string {
  const base =
    (endpoint.labels[0] ?? 'endpoint')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '') + '_response';
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}
