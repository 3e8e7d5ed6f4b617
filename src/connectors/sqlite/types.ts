/** What the sqlite connector offers step compilers: every SQL engine's handle (../sql-types.ts), nothing more. */
import type { SqlHandle } from '../sql-types.js';

export interface SqliteHandle extends SqlHandle {
  readonly kind: 'sqlite';
}
