/** `redis "<name>"` / `kv "<name>"` { connection, command | op, key, value, ttl, channel, fields, id, maxlen, minid, start, end, count, timeout } */
import type { ConnectionRef, Expr, StepSpecBase } from '../../manifest/index.js';

export type RedisOp = 'GET' | 'SET' | 'DEL' | 'EXISTS' | 'INCR' | 'EXPIRE' | 'PUBLISH' | 'SUBSCRIBE' | 'XADD' | 'XRANGE' | 'XREVRANGE' | 'XREAD';

export interface RedisStepSpec extends StepSpecBase {
  readonly kind: 'redis';
  readonly name: string;
  /** Which block type was written (`kv` is an alias). */
  readonly blockType: 'redis' | 'kv';
  readonly connection: ConnectionRef;
  /** Upper-cased `command` / `op`. */
  readonly op: RedisOp;
  /** GET SET DEL EXISTS INCR EXPIRE, and the stream commands. */
  readonly key?: Expr;
  /** SET, PUBLISH; non-strings are stored JSON-encoded. */
  readonly value?: Expr;
  /** SET (optional) and EXPIRE (required): a static duration. */
  readonly ttlMs?: number;
  /** PUBLISH, SUBSCRIBE. */
  readonly channel?: Expr;
  /** XADD: the entry's fields, an object; its values stored as `value` is (../text-values.ts). */
  readonly fields?: Expr;
  /** XADD: the entry's id (`*` when absent: the server's clock). */
  readonly id?: Expr;
  /** XADD: keep at least this many newest entries (`MAXLEN ~`). */
  readonly maxLen?: number;
  /** XADD: keep at least the entries from this id on (`MINID ~`). */
  readonly minId?: Expr;
  /** XRANGE, XREVRANGE: the low and high bounds (`-` and `+` when absent), and how many at most. */
  readonly start?: Expr;
  readonly end?: Expr;
  readonly count?: Expr;
  readonly timeoutMs?: number;
}
