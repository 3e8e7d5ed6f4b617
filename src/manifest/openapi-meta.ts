/**
 * Top-level `openapi { title, version, description, servers, tags, contact {...}, license {...} }`:
 * the document's metadata (DECISIONS.md §1). `servers` and `tags` take plain strings or objects.
 */
import type { Attribute, Block } from '../hcl/index.js';
import type { OpenApiMeta } from './types.js';
import { blocksOf, decodeBody, type BodySchema } from './body.js';
import type { DecodeScope } from './scope.js';
import { readStatic, readString, typeError } from './values.js';

const META_BODY: BodySchema = {
  attributes: { title: {}, version: {}, description: {}, servers: {}, tags: {} },
  blocks: { contact: {}, license: {} },
};
const CONTACT_BODY: BodySchema = { attributes: { name: {}, url: {}, email: {} } };
const LICENSE_BODY: BodySchema = { attributes: { name: { required: true }, url: {}, identifier: {} } };

export function defaultOpenApiMeta(): OpenApiMeta {
  return { title: 'API', version: '1.0.0', servers: [], tags: [] };
}

export function decodeOpenApiMeta(block: Block, scope: DecodeScope): OpenApiMeta {
  const s = scope.enter(block);
  const d = decodeBody(block.body, META_BODY, s, block);
  const description = readString(d.attrs.get('description'), s);
  const meta: { -readonly [K in keyof OpenApiMeta]: OpenApiMeta[K] } = {
    title: readString(d.attrs.get('title'), s) ?? 'API',
    version: readString(d.attrs.get('version'), s) ?? '1.0.0',
    servers: namedList(d.attrs.get('servers'), s, 'url') as { url: string; description?: string }[],
    tags: namedList(d.attrs.get('tags'), s, 'name') as { name: string; description?: string }[],
    range: block.range,
  };
  if (description !== undefined) meta.description = description;
  for (const b of blocksOf(d, 'contact')) {
    const cs = s.enter(b);
    const c = decodeBody(b.body, CONTACT_BODY, cs, b);
    meta.contact = strip({ name: readString(c.attrs.get('name'), cs), url: readString(c.attrs.get('url'), cs), email: readString(c.attrs.get('email'), cs) });
  }
  for (const b of blocksOf(d, 'license')) {
    const ls = s.enter(b);
    const l = decodeBody(b.body, LICENSE_BODY, ls, b);
    const name = readString(l.attrs.get('name'), ls);
    if (name !== undefined)
      meta.license = { name, ...strip({ url: readString(l.attrs.get('url'), ls), identifier: readString(l.attrs.get('identifier'), ls) }) };
  }
  return meta;
}

/** `["a", "b"]` or `[{ name = "a", description = "..." }]` -> objects keyed by `key`. */
function namedList(attr: Attribute | undefined, scope: DecodeScope, key: string): Record<string, string>[] {
  if (!attr) return [];
  const v = readStatic(attr, scope);
  if (!v.ok) return [];
  const need = `a list of strings or of objects with "${key}"`;
  if (!Array.isArray(v.value)) {
    typeError(attr, scope, need);
    return [];
  }
  const out: Record<string, string>[] = [];
  for (const item of v.value) {
    if (typeof item === 'string') out.push({ [key]: item });
    else if (item && typeof item === 'object' && typeof (item as Record<string, unknown>)[key] === 'string') {
      const o = item as Record<string, unknown>;
      out.push(strip({ [key]: o[key] as string, description: typeof o.description === 'string' ? o.description : undefined }) as Record<string, string>);
    } else {
      typeError(attr, scope, need);
      return [];
    }
  }
  return out;
}

function strip<T extends Record<string, unknown>>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as never;
}
