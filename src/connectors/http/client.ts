/**
 * The outbound HTTP client as a boot-time resource on the connections' lifecycle (../set.ts): created
 * without I/O, opened by `openAll`, closed by `closeAll` after the requests have drained. A URL known
 * at boot gets a keep-alive Pool of its own for its origin; computed URLs share one Agent. Upstreams
 * are not pinged: one that is down is its requests' 502, not a reason to refuse to start.
 */
import type { Agent, Dispatcher, Pool } from 'undici';
import { ConnectorCategory, ConnectorError } from '../errors.js';
import { exchange, exchangeStream, targetOf, type OutboundRequest, type OutboundResponse, type OutboundStreamResponse } from './exchange.js';
import { loadUndiciCore, type UndiciCore } from './undici-core.js';

/** The requests of one binding: an origin known at boot, or any. */
export interface OutboundClient {
  /** The whole exchange, its body read into memory up to `maxBodyBytes`. */
  request(request: OutboundRequest): Promise<OutboundResponse>;
  /** Up to the response headers; the body is a pullable source to read or dispose. */
  stream(request: OutboundRequest): Promise<OutboundStreamResponse>;
}

export interface OutboundHttp {
  /**
   * A client for URLs of `origin` (`http://host:port`), known at boot: its pool is created by
   * `open`. No I/O. A URL of another origin is sent through the shared agent.
   */
  forOrigin(origin: string): OutboundClient;
  /** A client for URLs known only per request (the shared agent). */
  readonly any: OutboundClient;
  /**
   * Lets requests through. undici is loaded here when an http step was compiled against the client
   * (so no request waits for it), else by a first request; pools and the agent come with the first
   * request that needs them.
   */
  open(): Promise<void>;
  /** Closes every pool and the agent, waiting up to `graceMs` for requests still under way. Final. */
  close(graceMs?: number): Promise<void>;
}

/** How long an idle upstream connection is kept for the next request (undici's default is 4 s). */
const KEEP_ALIVE_MS = 10_000;
const CLOSE_GRACE_MS = 5_000;

const DISPATCHER_OPTIONS = { keepAliveTimeout: KEEP_ALIVE_MS } as const;

/**
 * undici is loaded when the client opens for a service with http steps (or by a first request), not
 * by every process that imports the connectors: a service without http steps never pays its memory
 * and load time. Only the part svc uses is loaded (./undici-core.ts); the module loader keeps it.
 */
let undici: UndiciCore | undefined;

export function createOutboundHttp(): OutboundHttp {
  let state: 'created' | 'open' | 'closed' = 'created';
  /** Origins registered at boot: each gets a keep-alive Pool of its own on first use. */
  const origins = new Set<string>();
  const pools = new Map<string, Pool>();
  let agent: Agent | undefined;

  const dispatcherFor = (origin: string | undefined, target: URL): Dispatcher => {
    if (state !== 'open') {
      const why = state === 'created' ? 'is not open: it opens with the connections, before the server listens' : 'is closed';
      throw new ConnectorError(`the outbound HTTP client ${why}`, { connection: 'http', category: ConnectorCategory.unavailable });
    }
    const { Agent, Pool } = undici!;
    if (origin !== undefined && origin === target.origin && origins.has(origin)) {
      let pool = pools.get(origin);
      if (pool === undefined) pools.set(origin, (pool = new Pool(origin, DISPATCHER_OPTIONS)));
      return pool;
    }
    return (agent ??= new Agent(DISPATCHER_OPTIONS));
  };

  /** The dispatcher, undici loaded first if need be. */
  const dispatcher = (origin: string | undefined, target: URL): Dispatcher => {
    undici ??= loadUndiciCore();
    return dispatcherFor(origin, target);
  };

  const clientOf = (origin: string | undefined): OutboundClient => ({
    async request(request) {
      const target = targetOf(request.url);
      return exchange(dispatcher(origin, target), target, request);
    },
    async stream(request) {
      const target = targetOf(request.url);
      return exchangeStream(dispatcher(origin, target), target, request);
    },
  });

  const anyClient = clientOf(undefined);
  /** An http step was compiled against this client: undici is loaded at open, not by a request. */
  let bound = false;

  return {
    forOrigin(origin) {
      bound = true;
      origins.add(origin);
      return clientOf(origin);
    },
    get any() {
      bound = true;
      return anyClient;
    },
    async open() {
      if (state === 'created') state = 'open';
      // Loaded before the server listens, so no request (and no step time-out) waits for it.
      if (bound) undici ??= loadUndiciCore();
    },
    async close(graceMs = CLOSE_GRACE_MS) {
      state = 'closed';
      const dispatchers: Dispatcher[] = [...pools.values(), ...(agent ? [agent] : [])];
      pools.clear();
      agent = undefined;
      await Promise.all(dispatchers.map((d) => closeWithin(d, graceMs)));
    },
  };
}

/** `close()` lets requests under way finish; one that outlives the grace (an unread stream) is destroyed. */
async function closeWithin(dispatcher: Dispatcher, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), graceMs);
  });
  try {
    if ((await Promise.race([dispatcher.close(), late])) === 'late') await dispatcher.destroy();
  } finally {
    clearTimeout(timer);
  }
}
