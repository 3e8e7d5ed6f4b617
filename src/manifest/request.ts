/**
 * `request { ... }` in both dialects, into one RequestSpec (src/schema/field.ts): the endpoint
 * dialect's `path { field "id" {...} }` / `body = schema.x` and the route dialect's `path "id" {...}`
 * / `header "x-api-key" {...}` / `body = SchemaName`, mixed freely. Header names are stored
 * lower-case (RFC 9110); a field declared twice in one coordinate is an error.
 */
import type { Block } from '../hcl/index.js';
import { type FieldSpec, type ObjectTypeSpec, type RequestSpec, typeName } from '../schema/index.js';
import { decodeBody, where, type BodySchema } from './body.js';
import { decodeField, fieldSites, objectAsBody } from './field.js';
import { decodeFieldBlocks } from './schema.js';
import type { DecodeScope } from './scope.js';
import { decodeType, type SchemaResolver } from './type-expr.js';

const REQUEST_BODY: BodySchema = {
  attributes: { body: {} },
  blocks: {
    path: { labels: ['name'], labelCounts: [0, 1], multiple: true },
    query: { labels: ['name'], labelCounts: [0, 1], multiple: true },
    header: { labels: ['name'], multiple: true },
    headers: { labels: ['name'], labelCounts: [0, 1], multiple: true },
    body: {},
  },
};

const FIELDS_ONLY: BodySchema = { blocks: { field: { labels: ['name'], multiple: true } } };

type Coord = 'path' | 'query' | 'headers';

export function decodeRequest(block: Block, scope: DecodeScope, schemas: SchemaResolver): RequestSpec {
  const rs = scope.enter(block);
  const decoded = decodeBody(block.body, REQUEST_BODY, rs, block);
  const fields: Record<Coord, FieldSpec[]> = { path: [], query: [], headers: [] };
  let body: ObjectTypeSpec | undefined;

  for (const b of decoded.blocks) {
    if (b.type === 'body') {
      body = decodeInlineBody(b, rs, schemas);
      continue;
    }
    const coord: Coord = b.type === 'header' || b.type === 'headers' ? 'headers' : (b.type as Coord);
    const options = { requiredByDefault: coord === 'path', lowerCase: coord === 'headers' };
    if (b.labels.length === 0) {
      const inner = rs.enter(b);
      const d = decodeBody(b.body, FIELDS_ONLY, inner, b);
      fields[coord].push(...decodeFieldBlocks(d.blocks, inner, schemas, options));
    } else {
      const name = options.lowerCase ? b.labels[0]!.toLowerCase() : b.labels[0]!;
      const f = decodeField(name, b.body, b.labelRanges[0]!, rs.enter(b), schemas, options);
      if (f) fields[coord].push(f);
    }
  }

  const bodyAttr = decoded.attrs.get('body');
  if (bodyAttr) {
    if (body)
      rs.error('Conflicting body declarations', bodyAttr.nameRange, {
        detail: 'Declare the body either as `body = <schema>` or as a `body { }` block, not both.',
      });
    const t = decodeType(bodyAttr.expr, rs, schemas);
    if (t && t.kind !== 'object') {
      rs.error('Invalid request body type', bodyAttr.expr.range, {
        detail: `The request body must be an object (a schema or a body block), not ${typeName(t)}.`,
      });
    } else if (t && !body) body = t;
  }

  for (const coord of ['path', 'query', 'headers'] as const) fields[coord] = dedupe(fields[coord], rs);
  for (const f of fields.path) {
    if (!f.required) {
      // At the `required = false` that says so, in the field's own block.
      const site = f.range ? fieldSites.get(f.range) : undefined;
      rs.warning('Path parameters are always required', site?.attrs.get('required')?.expr.range ?? f.range, {
        detail: `A request cannot match "${f.name}"'s route without it; required = false has no effect.`,
        ...(site ? { path: site.path } : {}),
      });
    }
  }
  return { path: fields.path, query: fields.query, headers: fields.headers, ...(body ? { body } : {}) };
}

/** `body { field "n" {...} }` or `body { n = { type = ... } }` (both may be mixed). */
function decodeInlineBody(block: Block, scope: DecodeScope, schemas: SchemaResolver): ObjectTypeSpec {
  const bs = scope.enter(block);
  const fields: FieldSpec[] = [];
  const fieldBlocks: Block[] = [];
  for (const item of block.body.items) {
    if (item.kind === 'Block') {
      if (item.type === 'field' && item.labels.length === 1) fieldBlocks.push(item);
      else
        bs.error('Unsupported block type', item.typeRange, {
          detail: 'A body declares its fields as `field "<name>" { ... }` blocks or `<name> = { type = ... }` attributes.',
        });
      continue;
    }
    if (item.expr.kind !== 'ObjectCons') {
      bs.error('Invalid body field', item.expr.range, { detail: `Body field "${item.name}" must be declared as ${item.name} = { type = ..., ... }.` });
      continue;
    }
    const fs = bs.enter(item.name);
    const body = objectAsBody(item.expr, fs);
    if (!body) continue;
    const f = decodeField(item.name, body, item.nameRange, fs, schemas);
    if (f) fields.push(f);
  }
  fields.push(...decodeFieldBlocks(fieldBlocks, bs, schemas));
  return { kind: 'object', fields: dedupe(fields, bs) };
}

function dedupe(fields: FieldSpec[], scope: DecodeScope): FieldSpec[] {
  const seen = new Map<string, FieldSpec>();
  const out: FieldSpec[] = [];
  for (const f of fields) {
    const previous = seen.get(f.name);
    if (previous) {
      scope.error('Duplicate field', f.range, {
        detail: `A field named "${f.name}" was already declared${previous.range ? ` at ${where(previous.range)}` : ''}.`,
      });
      continue;
    }
    seen.set(f.name, f);
    out.push(f);
  }
  return out;
}
