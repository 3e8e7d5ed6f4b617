/**
 * The `Authorization` header's schemes (RFC 9110 §11.6.2): `<scheme> <token68>`, the scheme
 * case-insensitive, one or more spaces before the credentials.
 */
import { headerOf, type GuardInput } from './types.js';

/** RFC 9110 token68. */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

export type SchemeCredentials =
  | { readonly kind: 'none' }
  | { readonly kind: 'other' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'ok'; readonly value: string };

const NONE: SchemeCredentials = { kind: 'none' };
const OTHER: SchemeCredentials = { kind: 'other' };
const MALFORMED: SchemeCredentials = { kind: 'malformed' };

/** The credentials of `scheme` (lower-case) in the Authorization header. */
export function credentialsOf(input: GuardInput, scheme: string): SchemeCredentials {
  const header = headerOf(input, 'authorization');
  if (header === undefined || header === '') return NONE;
  const space = header.indexOf(' ');
  const name = space < 0 ? header : header.slice(0, space);
  if (name.toLowerCase() !== scheme) return OTHER;
  const value = space < 0 ? '' : header.slice(space + 1).trim();
  return TOKEN68.test(value) ? { kind: 'ok', value } : MALFORMED;
}
