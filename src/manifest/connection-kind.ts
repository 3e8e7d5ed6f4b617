/**
 * The kinds of `connection "<kind>" "<name>"` block and how a declared connection is keyed. Its own
 * file because both the decoded shapes (./types.ts) and the connection decoder need it.
 */
export type ConnectionKind = 'postgres' | 'sqlite' | 'mysql' | 'redis';

/** Every kind, in the order messages list them. */
export const CONNECTION_KIND_NAMES: readonly ConnectionKind[] = ['postgres', 'sqlite', 'mysql', 'redis'];

/** The SQL engines: a `sql` step or a `transaction` may use a connection of any of them. */
export type SqlKind = Extract<ConnectionKind, 'postgres' | 'sqlite' | 'mysql'>;
export const SQL_KINDS: readonly SqlKind[] = ['postgres', 'sqlite', 'mysql'];

/** Whether a connection kind is a SQL engine. */
export function isSqlKind(kind: ConnectionKind): kind is SqlKind {
  return (SQL_KINDS as readonly string[]).includes(kind);
}

/** Connections are keyed `<kind>.<name>`: a postgres and a redis connection may share a name. */
export function connectionKey(kind: ConnectionKind, name: string): string {
  return `${kind}.${name}`;
}
