/** `redis "<name>"` (alias `kv`): one command on a redis connection (a server or the memory store). */
import { defineStepKind, NAMED_STEP } from '../definition.js';
import { lower } from './lower.js';
import { compileRedis } from './node.js';
import type { RedisStepSpec } from './spec.js';

export type { RedisOp, RedisStepSpec } from './spec.js';

export const redisStep = defineStepKind<RedisStepSpec>({
  kind: 'redis',
  continuable: true,
  blocks: { redis: NAMED_STEP, kv: NAMED_STEP },
  lower,
  outputs: (spec) => (spec.op === 'SUBSCRIBE' || spec.op === 'XREAD' ? ['stream'] : ['value']),
  // An unreachable server; a command that timed out.
  failures: [503, 504],
  compile: compileRedis,
});
