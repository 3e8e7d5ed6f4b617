/**
 * An ioredis-shaped client for a library that brings its own Lua scripts (@fastify/rate-limit's
 * RedisStore: `defineCommand`, then `client[name](...keys, ...args, callback)`). It touches nothing
 * until a command runs (the server is built before `openAll`), goes through svc's connection (a down
 * Redis fails at once instead of waiting in ioredis' offline queue), and returns integers as numbers.
 * Typed by what such a library calls: no ioredis type leaves src/connectors.
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
