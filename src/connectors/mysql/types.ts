/** What the mysql connector offers step compilers: every SQL engine's handle (../sql-types.ts), nothing more. */
import type { SqlHandle } from '../sql-types.js';

export interface MysqlHandle extends SqlHandle {
  readonly kind: 'mysql';
}
