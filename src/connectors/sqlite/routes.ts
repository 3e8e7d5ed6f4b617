/**
 * Which connection a statement outside a transaction goes to on a database file (./resource.ts): a
 * text that may read (`SELECT`, `WITH`, `VALUES`) is tried on the read connection first; one that
 * turns out to write there (SQLITE_READONLY, before any change) goes to the write connection from
 * then on. Decided once per text.
 */
import type { SqliteResource } from './resource.js';
import { mayRead } from './statement.js';

/** A bound, not expected to be met: a manifest has a bounded number of texts. */
const ROUTES_LIMIT = 1000;

export function readsFirst(resource: SqliteResource, text: string): boolean {
  let reads = resource.routes.get(text);
  if (reads === undefined) {
    reads = mayRead(text);
    if (resource.routes.size >= ROUTES_LIMIT) resource.routes.clear();
    resource.routes.set(text, reads);
  }
  return reads;
}
