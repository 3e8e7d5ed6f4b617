/**
 * `auth "<name>" { type = "basic" | "bearer" | "api_key", ... }` guards (SPEC.md §5, DECISIONS.md §4).
 * Secrets are evaluated once at boot, so `password = env("ADMIN_PASSWORD")` works. Attributes of
 * another guard type are rejected by name, so a `tokens` on a basic guard is not silently ignored.
 */
import type { Attribute, Block } from '../hcl/index.js';
import type { AuthModel, JwtConfig } from './types.js';
import { blocksOf, decodeBody, blockHeader, type BodySchema } from './body.js';
import type { DecodeScope } from './scope.js';
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

export function decodeAuth(block: Block, scope: DecodeScope): AuthModel | undefined {
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
  if (type !== 'bearer' && jwtBlocks[0])
    s.error('Unsupported block type', jwtBlocks[0].typeRange, { detail: `jwt applies to bearer guards; this guard is ${type}.` });
  const base = { name, range: block.range };
  const required = (a: string): Attribute | undefined => {
    const attr = d.attrs.get(a);
    if (!attr) s.error('Missing required argument', blockHeader(block), { detail: `A ${type} guard needs "${a}".` });
    return attr;
  };

  switch (type) {
    case 'basic': {
      const usernameAttr = required('username');
      const passwordAttr = required('password');
      const username = secret(usernameAttr, readString(usernameAttr, s), s);
      const password = secret(passwordAttr, readString(passwordAttr, s), s);
      if (username?.includes(':')) {
        s.error('Invalid value', usernameAttr!.expr.range, {
          detail: 'A Basic user name cannot contain ":" (RFC 7617): it separates the user name from the password.',
        });
        return undefined;
      }
      return username !== undefined && password !== undefined ? { ...base, type, username, password } : undefined;
    }
    case 'bearer': {
      const tokensAttr = d.attrs.get('tokens');
      const tokens = tokensAttr ? secrets(tokensAttr, readStringList(tokensAttr, s), s, !jwtBlocks[0]) : [];
      const jwt = jwtBlocks[0] ? decodeJwt(jwtBlocks[0], s) : undefined;
      if (!d.attrs.has('tokens') && !jwtBlocks[0]) {
        s.error('Missing required argument', blockHeader(block), { detail: 'A bearer guard needs `tokens = [...]` or a `jwt { }` block.' });
        return undefined;
      }
      return tokens ? { ...base, type, tokens, ...(jwt ? { jwt } : {}) } : undefined;
    }
    case 'api_key': {
      const headerAttr = d.attrs.get('header');
      const header = (readString(headerAttr, s) ?? 'x-api-key').toLowerCase();
      if (headerAttr && !HEADER_NAME.test(header)) {
        s.error('Invalid value', headerAttr.expr.range, { detail: `"${header}" is not a valid HTTP header name (RFC 9110 token characters only).` });
        return undefined;
      }
      const keysAttr = required('keys');
      const keys = readKeys(keysAttr, s);
      if (
        keys &&
        !secrets(
          keysAttr!,
          keys.map((k) => k.key),
          s,
          true,
        )
      )
        return undefined;
      return keys ? { ...base, type, header, keys } : undefined;
    }
  }
}

function decodeJwt(block: Block, scope: DecodeScope): JwtConfig | undefined {
  const s = scope.enter(block);
  const { attrs } = decodeBody(block.body, JWT_BODY, s, block);
  const secretAttr = attrs.get('secret');
  const secret = secretAttr ? readSecret(secretAttr, s) : undefined;
  const jwksUrl = readString(attrs.get('jwks_url'), s);
  if ((secret === undefined) === (jwksUrl === undefined)) {
    if (!attrs.has('secret') && !attrs.has('jwks_url'))
      s.error('Missing required argument', blockHeader(block), { detail: 'A jwt block needs `secret` or `jwks_url`.' });
    else if (secret !== undefined)
      s.error('Conflicting jwt keys', attrs.get('jwks_url')!.nameRange, { detail: 'Give either `secret` or `jwks_url`, not both.' });
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

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/**
 * Credentials may not be empty: a guard holding "" would admit an empty password, token or key (an
 * unset variable given as `env("X", "")` included).
 */
function secret(attr: Attribute | undefined, value: string | undefined, scope: DecodeScope): string | undefined {
  if (attr && value === '') {
    scope.error('Empty credential', attr.expr.range, { detail: `"${attr.name}" is empty; a guard would admit an empty credential.` });
    return undefined;
  }
  return value;
}

function readSecret(attr: Attribute, scope: DecodeScope): string | undefined {
  return secret(attr, readString(attr, scope), scope);
}

/** A list of credentials: none empty, and (when `needed`) at least one, or the guard admits nobody. */
function secrets<T extends string[]>(attr: Attribute, values: T | undefined, scope: DecodeScope, needed: boolean): T | undefined {
  if (values === undefined) return undefined;
  if (values.some((v) => v === '')) {
    scope.error('Empty credential', attr.expr.range, { detail: `"${attr.name}" holds an empty value; a guard would admit an empty credential.` });
    return undefined;
  }
  if (needed && values.length === 0) {
    scope.error('Invalid value', attr.expr.range, { detail: `"${attr.name}" is empty, so the guard admits no request.` });
    return undefined;
  }
  return values;
}

/** `keys = ["k1", "k2"]` (ids key1, key2) or `keys = { mobile = "k1" }` (ids from the map). */
function readKeys(attr: Attribute | undefined, scope: DecodeScope): { id: string; key: string }[] | undefined {
  if (!attr) return undefined;
  const v = readStatic(attr, scope);
  if (!v.ok) return undefined;
  const need = 'a list of key strings or a map of id = key';
  if (Array.isArray(v.value) && v.value.every((k) => typeof k === 'string')) return v.value.map((key, i) => ({ id: `key${i + 1}`, key }));
  if (v.value && typeof v.value === 'object' && !Array.isArray(v.value) && Object.values(v.value).every((k) => typeof k === 'string')) {
    return Object.entries(v.value as Record<string, string>).map(([id, key]) => ({ id, key }));
  }
  typeError(attr, scope, need);
  return undefined;
}
