/** `redis "<name>"` / `kv "<name>"` { connection, command | op, key, value, ttl, channel, timeout } */
import type { ConnectionRef, Expr, StepSpecBase } from '../../manifest/index.js';

export type RedisOp = 'GET' | 'SET' | 'DEL' | 'EXISTS' | 'INCR' | 'EXPIRE' | 'PUBLISH' | 'SUBSCRIBE';

export interface RedisStepSpec extends StepSpecBase {
  readonly kind: 'redis';
  readonly name: string;
  /** Which block type was written (`kv` is an alias). */
  readonly blockType: 'redis' | 'kv';
  readonly connection: ConnectionRef;
  /** Upper-cased `command` / `op`. */
  readonly op: RedisOp;
  /** GET SET DEL EXISTS INCR EXPIRE. */
  readonly key?: Expr;
  /** SET, PUBLISH; non-strings are stored JSON-encoded. */
  readonly value?: Expr;
  /** SET (optional) and EXPIRE (required): a static duration. */
  readonly ttlMs?: number;
  /** PUBLISH, SUBSCRIBE. */
  readonly channel?: Expr;
  readonly timeoutMs?: number;
}
