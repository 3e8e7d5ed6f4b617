/**
 * `auth "<name>" { type = "basic" | "bearer" | "api_key", ... }` guards (SPEC.md §5, DECISIONS.md §4).
 * Secrets are evaluated once at boot, so `password = env("ADMIN_PASSWORD")` works. Attributes of
 * another guard type are rejected by name, so a `tokens` on a basic guard is not silently ignored.
 */
import type { Attribute, Block } from '../hcl/index.js';
import type { AuthModel, JwtConfig, RequiredClaim } from './types.js';
import { blocksOf, decodeBody, blockHeader, type BodySchema } from './body.js';
import type { DecodeScope } from './scope.js';
import { readChoice, readStatic, readString, readStringList, typeError } from './values.js';

export const GUARD_TYPES = ['basic', 'bearer', 'api_key'] as const;
type GuardType = (typeof GUARD_TYPES)[number];

const OWN_ATTRS: Record<GuardType, readonly string[]> = {
  basic: ['username', 'password'],
  bearer: ['tokens'],
  api_key: ['header', 'query', 'keys'],
};

const AUTH_BODY: BodySchema = {
  attributes: { type: { required: true }, username: {}, password: {}, tokens: {}, header: {}, query: {}, keys: {} },
  blocks: { jwt: {} },
};
const JWT_BODY: BodySchema = {
  attributes: { secret: {}, jwks_url: {}, issuer: {}, audience: {}, algorithms: {}, required_claims: {} },
};

/**
 * The signature algorithms a jwt block may accept, by the kind of key it holds. A shared secret can
 * only check HMAC signatures and a key set only public-key ones, so the two lists never mix: that is
 * what keeps a token signed with HS256 over a public key (algorithm confusion) out. `none` is in
 * neither.
 */
const JWT_ALGORITHMS = {
  secret: ['HS256', 'HS384', 'HS512'],
  jwks: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'],
} as const;

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
      const queryAttr = d.attrs.get('query');
      if (headerAttr && queryAttr) {
        s.error('Conflicting arguments', queryAttr.nameRange, { detail: 'An api_key guard reads its key from `header` or from `query`, not both.' });
        return undefined;
      }
      const query = readString(queryAttr, s);
      if (queryAttr && query !== undefined && !QUERY_NAME.test(query)) {
        s.error('Invalid value', queryAttr.expr.range, { detail: `"${query}" is not a usable query parameter name (letters, digits, "-", "_", "." only).` });
        return undefined;
      }
      const header = query === undefined ? (readString(headerAttr, s) ?? 'x-api-key').toLowerCase() : undefined;
      if (headerAttr && header !== undefined && !HEADER_NAME.test(header)) {
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
      if (!keys || (queryAttr && query === undefined)) return undefined;
      return { ...base, type, ...(query !== undefined ? { query } : { header: header! }), keys };
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
  if (jwksUrl !== undefined && !httpUrl(jwksUrl)) {
    s.error('Invalid value', attrs.get('jwks_url')!.expr.range, { detail: `"${jwksUrl}" is not an absolute http: or https: URL.` });
    return undefined;
  }
  if (jwksUrl !== undefined && plainHttpToRemoteHost(jwksUrl)) {
    // A warning, not an error: a key host inside a trusted network (a sidecar, a cluster service) is
    // a deliberate choice; elsewhere anyone on the path can serve their own keys and sign any token.
    s.warning('Key set over plain http', attrs.get('jwks_url')!.expr.range, {
      detail: `"${jwksUrl}" is fetched without TLS, so anyone on the path to that host can substitute the keys and sign tokens this guard accepts; use https: (plain http: is expected only for a loopback host).`,
    });
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
  const algorithmsAttr = attrs.get('algorithms');
  const algorithms = readStringList(algorithmsAttr, s);
  if (algorithms && !checkAlgorithms(algorithmsAttr!, algorithms, secret !== undefined ? 'secret' : 'jwks', s)) return undefined;
  const claimsAttr = attrs.get('required_claims');
  const requiredClaims = claimsAttr ? readRequiredClaims(claimsAttr, s) : undefined;
  if (claimsAttr && !requiredClaims) return undefined;
  return {
    ...(secret !== undefined ? { secret } : {}),
    ...(jwksUrl !== undefined ? { jwksUrl } : {}),
    ...(issuer !== undefined ? { issuer } : {}),
    ...(audience ? { audience } : {}),
    ...(algorithms ? { algorithms } : {}),
    ...(requiredClaims ? { requiredClaims } : {}),
  };
}

function checkAlgorithms(attr: Attribute, algorithms: readonly string[], key: keyof typeof JWT_ALGORITHMS, scope: DecodeScope): boolean {
  const allowed: readonly string[] = JWT_ALGORITHMS[key];
  if (algorithms.length === 0) {
    scope.error('Invalid value', attr.expr.range, { detail: '"algorithms" is empty, so the guard admits no token.' });
    return false;
  }
  const wrong = algorithms.find((a) => !allowed.includes(a));
  if (wrong === undefined) return true;
  const other = key === 'secret' ? 'jwks' : 'secret';
  const why = (JWT_ALGORITHMS[other] as readonly string[]).includes(wrong)
    ? `"${wrong}" needs ${key === 'secret' ? 'a public key (jwks_url)' : 'a shared secret'}; with ${key === 'secret' ? 'a secret' : 'jwks_url'} the algorithms are ${allowed.join(', ')}.`
    : `"${wrong}" is not a supported signature algorithm; with ${key === 'secret' ? 'a secret' : 'jwks_url'} they are ${allowed.join(', ')}.`;
  scope.error('Invalid value', attr.expr.range, { detail: why });
  return false;
}

/** `["role"]`: each claim must be present; `{ role = "admin" }`: each must hold that value. */
function readRequiredClaims(attr: Attribute, scope: DecodeScope): RequiredClaim[] | undefined {
  const v = readStatic(attr, scope);
  if (!v.ok) return undefined;
  if (Array.isArray(v.value) && v.value.every((c) => typeof c === 'string' && c !== '')) return v.value.map((name: string) => ({ name }));
  const scalar = (x: unknown): boolean => typeof x === 'string' || typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean';
  if (v.value && typeof v.value === 'object' && !Array.isArray(v.value) && Object.values(v.value).every(scalar)) {
    // Whole numbers may arrive as bigint; a claim compares with JSON numbers.
    return Object.entries(v.value as Record<string, string | number | bigint | boolean>).map(([name, value]) => ({
      name,
      value: typeof value === 'bigint' ? Number(value) : value,
    }));
  }
  typeError(attr, scope, 'a list of claim names or a map of claim = value (string, number or bool)');
  return undefined;
}

/** http: to a host other than `localhost`, 127.0.0.0/8 or ::1 (called on a URL `httpUrl` accepted). */
function plainHttpToRemoteHost(text: string): boolean {
  const url = new URL(text);
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.toLowerCase();
  return !(host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host));
}

function httpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
const QUERY_NAME = /^[A-Za-z0-9._-]+$/;

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
