/**
 * The part of undici the http connector uses, loaded by its own files instead of through undici's
 * index. The index loads all of undici (fetch, WebSocket, EventSource, caches, mocks, proxies: 110
 * modules, about 7 MiB of resident memory); pools, the agent and `request` are 31 modules and under
 * 1 MiB, which is what keeps a streaming proxy under 100 MB (bench/proxy "Streaming"). undici has
 * no `exports` map, so these paths are reachable; the http connector's tests fail at once if a
 * release moves them.
 */
import { createRequire } from 'node:module';
import type { Agent, Dispatcher, Pool } from 'undici';

export interface UndiciCore {
  readonly Pool: typeof Pool;
  readonly Agent: typeof Agent;
}

export function loadUndiciCore(): UndiciCore {
  const require = createRequire(import.meta.url);
  const dispatcher = require('undici/lib/dispatcher/dispatcher.js') as typeof Dispatcher;
  // What undici's index does for every request API; `request` is the one svc calls.
  if (!Object.hasOwn(dispatcher.prototype, 'request')) {
    Object.defineProperty(dispatcher.prototype, 'request', {
      value: require('undici/lib/api/api-request.js'),
      writable: true,
      configurable: true,
    });
  }
  return {
    Pool: require('undici/lib/dispatcher/pool.js') as typeof Pool,
    Agent: require('undici/lib/dispatcher/agent.js') as typeof Agent,
  };
}
