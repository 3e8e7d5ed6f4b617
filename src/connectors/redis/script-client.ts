/**
 * An ioredis-shaped client for a library that brings its own Lua scripts: @fastify/rate-limit's
 * RedisStore calls `defineCommand(name, { numberOfKeys, lua })` once, then `client[name](...keys,
 * ...args, callback)`. Handed this object instead of an ioredis instance, the library:
 *
 * - can be set up before the connection opens (the server is built before `openAll`): nothing
 *   here touches the connection until a command runs;
 * - goes through svc's connection, so a Redis that is down fails the command at once
 *   (dependency-unavailable) instead of waiting in ioredis' offline queue;
 * - gets integer replies as numbers (svc's connection reads them as text, `stringNumbers`).
 *
 * No ioredis type leaves src/connectors: the object is typed by what such a library calls.
 */
import type { RedisHandle, RedisScript } from './types.js';

type Callback = (error: Error | null, reply?: unknown) => void;

export interface ScriptClient {
  defineCommand(name: string, definition: { readonly numberOfKeys: number; readonly lua: string }): void;
  readonly [command: string]: unknown;
}

export function scriptClient(handle: RedisHandle): ScriptClient {
  const client: Record<string, unknown> = {
    defineCommand(name: string, definition: { readonly numberOfKeys: number; readonly lua: string }): void {
      const script: RedisScript = { name, lua: definition.lua };
      client[name] = (...params: unknown[]): void => {
        const callback = typeof params.at(-1) === 'function' ? (params.pop() as Callback) : undefined;
        const values = params.map((p) => (typeof p === 'number' ? p : String(p)));
        const keys = values.slice(0, definition.numberOfKeys).map(String);
        const reply = handle.runScript(script, keys, values.slice(definition.numberOfKeys));
        reply.then(
          (value) => callback?.(null, numbersOf(value)),
          (error: Error) => callback?.(error),
        );
      };
    },
  };
  return client as ScriptClient;
}

/** Integer replies arrive as text (`stringNumbers`): numbers again, in arrays too. */
function numbersOf(reply: unknown): unknown {
  if (Array.isArray(reply)) return reply.map(numbersOf);
  if (typeof reply === 'string' && /^-?\d{1,15}$/.test(reply)) return Number(reply);
  return reply;
}
