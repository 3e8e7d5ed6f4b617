/**
 * The part of undici the http connector uses, loaded by its own files instead of through undici's
 * index, which loads all of undici (fetch, WebSocket, caches, mocks...): 111 modules against 26, and
 * 8 to 9 MiB more resident (bench/users README "Internals kept"; bench/proxy README "Streaming").
 *
 * An internal (issue 34): undici's file layout is not its API (it has no `exports` map). Relied upon:
 * each path of UNDICI_CORE_MODULES resolves, `Pool` and `Agent` are the index's classes, and
 * `api-request.js` exports what the index installs as `Dispatcher.prototype.request`. Verified: undici
 * 7.30.2 on Node.js 20.20, 22.23, 24.22, 26.12; guarded by test/portability/internals.test.ts.
 */
import { createRequire } from 'node:module';
import type { Agent, Dispatcher, Pool } from 'undici';

export interface UndiciCore {
  readonly Pool: typeof Pool;
  readonly Agent: typeof Agent;
}

/** The files of undici svc loads, by what each holds. */
export const UNDICI_CORE_MODULES = {
  Dispatcher: 'undici/lib/dispatcher/dispatcher.js',
  request: 'undici/lib/api/api-request.js',
  Pool: 'undici/lib/dispatcher/pool.js',
  Agent: 'undici/lib/dispatcher/agent.js',
} as const;

export function loadUndiciCore(): UndiciCore {
  const require = createRequire(import.meta.url);
  const dispatcher = require(UNDICI_CORE_MODULES.Dispatcher) as typeof Dispatcher;
  // What undici's index does for every request API; `request` is the one svc calls.
  if (!Object.hasOwn(dispatcher.prototype, 'request')) {
    Object.defineProperty(dispatcher.prototype, 'request', {
      value: require(UNDICI_CORE_MODULES.request),
      writable: true,
      configurable: true,
    });
  }
  return {
    Pool: require(UNDICI_CORE_MODULES.Pool) as typeof Pool,
    Agent: require(UNDICI_CORE_MODULES.Agent) as typeof Agent,
  };
}
