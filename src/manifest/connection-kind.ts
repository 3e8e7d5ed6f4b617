/**
 * The kinds of `connection "<kind>" "<name>"` block and how a declared connection is keyed. Its own
 * file because both the decoded shapes (./types.ts) and the connection decoder need it.
 */
export type ConnectionKind = 'postgres' | 'redis';

/** Connections are keyed `<kind>.<name>`: a postgres and a redis connection may share a name. */
export function connectionKey(kind: ConnectionKind, name: string): string {
  return `${kind}.${name}`;
}
