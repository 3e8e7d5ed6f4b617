/**
 * `auth "<name>" { type = "basic" | "bearer" | "api_key", ... }` guards (SPEC.md §5, DECISIONS.md §4).
 * Secrets are evaluated once at boot, so `password = env("ADMIN_PASSWORD")` works. Attributes of
 * another guard type are rejected by name, so a `tokens` on a basic guard is not silently ignored.
 */
import type { Attribute, Block } from '../hcl/ast.js';
import type { AuthModel, JwtConfig } from '../model/types.js';
import { blocksOf, decodeBody, blockHeader, type BodySchema } from './body.js';
import type { Scope } from './scope.js';
import { readChoice, readStatic, readString, readStringList, typeError } from './values.js';

export const GUARD_TYPES = ['basic', 'bearer', 'api_key'] as const;
type GuardType = (typeof GUARD_TYPES)[number];

const OWN_ATTRS: Record<GuardType, readonly string[]> = {
  basic: ['username', 'password'],
  bearer: ['tokens'],
  api_key: ['header', 'keys'],
};

const AUTH_BODY: BodySchema = {
  attributes: { type: { required: true }, username: {}, password: {}, tokens: {}, header: {}, keys: {} },
  blocks: { jwt: {} },
};
const JWT_BODY: BodySchema = {
  attributes: { secret: {}, jwks_url: {}, issuer: {}, audience: {}, algorithms: {} },
};

export function decodeAuth(block: Block, scope: Scope): AuthModel | undefined {
  const s = scope.enter(block);
  const name = block.labels[0]!;
  const d = decodeBody(block.body, AUTH_BODY, s, block);
  const type = readChoice(d.attrs.get('type'), s, GUARD_TYPES);
  if (!type) return undefined;
  for (const [other, attrs] of Object.entries(OWN_ATTRS)) {
    if (other === type) continue;
    for (const a of attrs) {
      const attr = d.attrs.get(a);
      if (attr) s.error('Unsupported argument', attr.nameRange, { detail: `"${a}" applies to ${other} guards; this guard is ${type}.` });
    }
  }
  const jwtBlocks = blocksOf(d, 'jwt');
  if (type !== 'bearer' && jwtBlocks[0]) s.error('Unsupported block type', jwtBlocks[0].typeRange, { detail: `jwt applies to bearer guards; this guard is ${type}.` });
  const base = { name, range: block.range };
  const required = (a: string): Attribute | undefined => {
    const attr = d.attrs.get(a);
    if (!attr) s.error('Missing required argument', blockHeader(block), { detail: `A ${type} guard needs "${a}".` });
    return attr;
  };

  switch (type) {
    case 'basic': {
      const username = readString(required('username'), s);
      const password = readString(required('password'), s);
      return username !== undefined && password !== undefined ? { ...base, type, username, password } : undefined;
    }
    case 'bearer': {
      const tokens = d.attrs.has('tokens') ? readStringList(d.attrs.get('tokens'), s) : [];
      const jwt = jwtBlocks[0] ? decodeJwt(jwtBlocks[0], s) : undefined;
      if (!d.attrs.has('tokens') && !jwtBlocks[0]) {
        s.error('Missing required argument', blockHeader(block), { detail: 'A bearer guard needs `tokens = [...]` or a `jwt { }` block.' });
        return undefined;
      }
      return tokens ? { ...base, type, tokens, ...(jwt ? { jwt } : {}) } : undefined;
    }
    case 'api_key': {
      const header = (readString(d.attrs.get('header'), s) ?? 'x-api-key').toLowerCase();
      const keys = readKeys(required('keys'), s);
      return keys ? { ...base, type, header, keys } : undefined;
    }
  }
}

function decodeJwt(block: Block, scope: Scope): JwtConfig | undefined {
  const s = scope.enter(block);
  const { attrs } = decodeBody(block.body, JWT_BODY, s, block);
  const secret = readString(attrs.get('secret'), s);
  const jwksUrl = readString(attrs.get('jwks_url'), s);
  if ((secret === undefined) === (jwksUrl === undefined)) {
    if (!attrs.has('secret') && !attrs.has('jwks_url')) s.error('Missing required argument', blockHeader(block), { detail: 'A jwt block needs `secret` or `jwks_url`.' });
    else if (secret !== undefined) s.error('Conflicting jwt keys', attrs.get('jwks_url')!.nameRange, { detail: 'Give either `secret` or `jwks_url`, not both.' });
    return undefined;
  }
  const issuer = readString(attrs.get('issuer'), s);
  const audAttr = attrs.get('audience');
  let audience: string[] | undefined;
  if (audAttr) {
    const v = readStatic(audAttr, s);
    if (v.ok) {
      if (typeof v.value === 'string') audience = [v.value];
      else if (Array.isArray(v.value) && v.value.every((x) => typeof x === 'string')) audience = v.value as string[];
      else typeError(audAttr, s, 'a string or a list of strings');
    }
  }
  const algorithms = readStringList(attrs.get('algorithms'), s);
  return {
    ...(secret !== undefined ? { secret } : {}),
    ...(jwksUrl !== undefined ? { jwksUrl } : {}),
    ...(issuer !== undefined ? { issuer } : {}),
    ...(audience ? { audience } : {}),
    ...(algorithms ? { algorithms } : {}),
  };
}

/** `keys = ["k1", "k2"]` (ids key1, key2) or `keys = { mobile = "k1" }` (ids from the map). */
function readKeys(attr: Attribute | undefined, scope: Scope): { id: string; key: string }[] | undefined {
  if (!attr) return undefined;
  const v = readStatic(attr, scope);
  if (!v.ok) return undefined;
  const need = 'a list of key strings or a map of id = key';
  if (Array.isArray(v.value) && v.value.every((k) => typeof k === 'string')) return v.value.map((key, i) => ({ id: `key${i + 1}`, key }));
  if (v.value && typeof v.value === 'object' && !Array.isArray(v.value) && Object.values(v.value).every((k) => typeof k === 'string')) {
    return Object.entries(v.value as Record<string, string>).map(([id, key]) => ({ id, key }));
  }
  return typeError(attr, scope, need), undefined;
}
