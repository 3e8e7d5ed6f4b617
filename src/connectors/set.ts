/**
 * The connector lifecycle: one handle per declared connection, created without I/O (so `svc check`
 * and `svc graph` compile steps against handles and open nothing); `openAll` opens, pings (bounded
 * retry) and prepares them all before `svc serve` listens, closing what opened if any fails;
 * `health` pings; `closeAll` (idempotent, final) runs after the requests have drained.
 *
 * A reload's `openAll({ reuse: previous })` takes over each unchanged connection's open resource
 * (reuse.ts; its migrations run again), which the previous set then leaves open; if the new set fails
 * to open, what it took over goes back. The outbound HTTP client (./http) is one more resource on
 * the same lifecycle, without a ping: a down upstream fails its requests (502), not the boot.
 */
import type { ConnectionModel, ServiceModel } from '../model/index.js';
import { ConnectorCategory, ConnectorError, ConnectorOpenError, describeCause, type ConnectorCategoryName } from './errors.js';
import { CONNECTOR_KINDS, type ConnectorHandle, type HandleOfKind } from './kinds.js';
import { scrubSecret } from './redact.js';
import { createOutboundHttp, type OutboundHttp } from './http/index.js';
import { DEFAULT_RETRY, retry, RetryExhausted } from './retry.js';
import { sameSettings } from './reuse.js';
import type { ConnectorDefinition, ConnectorLogger, ConnectorState, HandleIdentity, OpenContext, RetryPolicy } from './types.js';

export interface OpenAllOptions {
  readonly logger?: ConnectorLogger | undefined;
  /** Default DEFAULT_RETRY: 5 attempts over about 3 s. */
  readonly retry?: RetryPolicy | undefined;
  /** Bound of each ping; default 5 s. */
  readonly pingTimeoutMs?: number | undefined;
  /**
   * How long a caller waits for a pooled connection before it counts as unavailable (a 503);
   * default ACQUIRE_TIMEOUT_MS (10 s). A step's own shorter time-out wins (a 504).
   */
  readonly acquireTimeoutMs?: number | undefined;
  /**
   * The set this one replaces (a reload): its open connections with unchanged settings are taken
   * over rather than opened again. It must still be open; it is closed later, as usual.
   */
  readonly reuse?: ConnectorSet | undefined;
}

export interface ConnectionHealth {
  readonly key: string;
  readonly kind: string;
  readonly name: string;
  readonly url: string;
  readonly ok: boolean;
  /** The ping's round trip (or how long it took to fail). */
  readonly latencyMs: number;
  readonly error?: string;
  readonly category?: string;
}

export interface ConnectorSet {
  /** One per declared connection whose kind has a connector, in the model's order. */
  readonly handles: readonly ConnectorHandle[];
  /** Keys (`<kind>.<name>`) of declared connections whose kind has no connector yet; never opened. */
  readonly unsupported: readonly string[];
  /** The outbound HTTP client http steps bind to; opened and closed with the connections. */
  readonly outbound: OutboundHttp;
  /** By the model's key `<kind>.<name>`. */
  get(key: string): ConnectorHandle | undefined;
  /** The handle of `connection "<kind>" "<name>"`, typed by kind; throws when none is declared. */
  handle<K extends ConnectorHandle['kind']>(kind: K, name: string): HandleOfKind<K>;
  /**
   * Opens every connection (in parallel): open, ping until it answers (bounded retry while it is
   * unreachable), prepare (migrations). Rejects with a ConnectorOpenError (an AggregateError of them
   * when several fail) after closing whatever did open. Called again, answers the same promise.
   */
  openAll(options?: OpenAllOptions): Promise<void>;
  /** Pings every connection; never rejects. */
  health(options?: { readonly timeoutMs?: number }): Promise<ConnectionHealth[]>;
  /** Closes every connection (waiting for an `openAll` under way first). Idempotent; never rejects. */
  closeAll(): Promise<void>;
}

/** A kind's definition with its resource type forgotten: the set only passes the resource along. */
type AnyDefinition = ConnectorDefinition<unknown, ConnectorHandle>;

const DEFINITIONS: ReadonlyMap<string, AnyDefinition> = new Map(CONNECTOR_KINDS.map((d) => [d.kind, d as unknown as AnyDefinition]));

const DEFAULT_PING_TIMEOUT_MS = 5_000;
/**
 * How long a caller waits for a pooled connection (or a new connection's handshake) by default:
 * past it the dependency counts as unavailable (503).
 */
export const ACQUIRE_TIMEOUT_MS = 10_000;

interface Entry {
  readonly definition: AnyDefinition;
  readonly connection: ConnectionModel;
  readonly base: HandleIdentity;
  readonly label: string;
  state: ConnectorState;
  resource: unknown;
  handle: ConnectorHandle;
  /** Taken over by the set of a reload: closing this set leaves the resource open. */
  lent: boolean;
  /** The previous set's entry this one took its resource from (a reload). */
  adoptedFrom?: Entry | undefined;
}

/** Each set's entries by key, for the set of a reload to take over (`OpenAllOptions.reuse`). */
const ENTRIES = new WeakMap<ConnectorSet, ReadonlyMap<string, Entry>>();

/** Builds the handles of every declared connection. Synchronous, and opens nothing. */
export function createConnectors(model: Pick<ServiceModel, 'connections'>): ConnectorSet {
  const entries: Entry[] = [];
  const unsupported: string[] = [];
  for (const [key, connection] of model.connections) {
    const definition = DEFINITIONS.get(connection.kind);
    if (definition === undefined) {
      unsupported.push(key);
      continue;
    }
    entries.push(entryOf(key, connection, definition));
  }
  const byKey = new Map(entries.map((e) => [e.base.key, e]));
  const outbound = createOutboundHttp();
  let logger: ConnectorLogger | undefined;
  let opening: Promise<void> | undefined;
  let closing: Promise<void> | undefined;

  async function openEverything(options: OpenAllOptions): Promise<void> {
    for (const key of unsupported) logger?.warn({ connection: key }, 'no connector for this kind yet: the connection is not opened');
    await outbound.open();
    const previous = options.reuse === undefined ? undefined : ENTRIES.get(options.reuse);
    const results = await Promise.allSettled(
      entries.map((e) => {
        const before = previous?.get(e.base.key);
        return before !== undefined && before.state === 'open' && !before.lent && sameSettings(before.connection, e.connection)
          ? adoptEntry(e, before)
          : openEntry(e, options);
      }),
    );
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as Error);
    if (failures.length === 0) return;
    await closeEntries();
    if (failures.length === 1) throw failures[0];
    throw new AggregateError(failures, failures.map((f) => f.message).join('\n'));
  }

  async function openEntry(entry: Entry, options: OpenAllOptions): Promise<void> {
    const { definition, connection, base, label } = entry;
    const context: OpenContext = { logger, key: base.key, label, acquireTimeoutMs: options.acquireTimeoutMs ?? ACQUIRE_TIMEOUT_MS };
    const started = performance.now();
    entry.state = 'opening';
    const fail = (cause: unknown, attempts: number): ConnectorOpenError =>
      new ConnectorOpenError(label, base.url, scrubSecret(withoutLabel(describeCause(cause), label), connection.url), {
        connection: base.key,
        attempts,
        category: categoryOf(definition, cause),
        code: cause instanceof ConnectorError ? cause.code : undefined,
        cause,
      });
    let resource: unknown;
    try {
      resource = await definition.open(connection, context);
    } catch (error) {
      entry.state = 'closed';
      throw fail(error, 1);
    }
    entry.resource = resource;
    try {
      const pingTimeoutMs = options.pingTimeoutMs ?? DEFAULT_PING_TIMEOUT_MS;
      await retry(
        options.retry ?? DEFAULT_RETRY,
        () => definition.ping(resource, pingTimeoutMs),
        (error) => isTransient(categoryOf(definition, error)),
        (error, attempt, delayMs) =>
          logger?.warn(
            { connection: base.key, url: base.url, attempt, retryInMs: delayMs, err: scrubSecret(describeCause(error), connection.url) },
            'connection not ready; retrying',
          ),
      );
      await definition.prepare?.(resource, connection, context);
    } catch (error) {
      entry.state = 'closed';
      entry.resource = undefined;
      await definition.close(resource).catch(() => {});
      throw error instanceof RetryExhausted ? fail(error.cause, error.attempts) : fail(error, 1);
    }
    entry.state = 'open';
    logger?.info({ connection: base.key, url: base.url, ms: Math.round(performance.now() - started) }, 'connection open');
  }

  /** Takes over the previous set's open resource, then prepares it again (new migrations run). */
  async function adoptEntry(entry: Entry, before: Entry): Promise<void> {
    const { definition, connection, base, label } = entry;
    const context: OpenContext = { logger, key: base.key, label, acquireTimeoutMs: ACQUIRE_TIMEOUT_MS };
    entry.state = 'opening';
    entry.resource = before.resource;
    entry.adoptedFrom = before;
    before.lent = true;
    try {
      await definition.prepare?.(entry.resource, connection, context);
    } catch (error) {
      // Given back untouched: the previous set keeps serving with it.
      before.lent = false;
      entry.adoptedFrom = undefined;
      entry.resource = undefined;
      entry.state = 'closed';
      throw new ConnectorOpenError(label, base.url, scrubSecret(withoutLabel(describeCause(error), label), connection.url), {
        connection: base.key,
        attempts: 1,
        category: categoryOf(definition, error),
        code: error instanceof ConnectorError ? error.code : undefined,
        cause: error,
      });
    }
    entry.state = 'open';
    logger?.info({ connection: base.key, url: base.url }, 'connection kept');
  }

  async function closeEntries(): Promise<void> {
    const outboundClosed = outbound.close();
    await Promise.all(
      entries.map(async (entry) => {
        const { resource, adoptedFrom } = entry;
        entry.state = 'closed';
        entry.resource = undefined;
        if (resource === undefined || entry.lent) return;
        // The set this one took the resource from still serves (this one failed to open, or is
        // closed first at shutdown): it is its again, to close when it is done.
        if (adoptedFrom !== undefined && adoptedFrom.state === 'open') {
          adoptedFrom.lent = false;
          return;
        }
        try {
          await entry.definition.close(resource);
        } catch (error) {
          logger?.warn({ connection: entry.base.key, err: describeCause(error) }, 'connection did not close cleanly');
        }
      }),
    );
    await outboundClosed;
  }

  const set: ConnectorSet = {
    handles: entries.map((e) => e.handle),
    outbound,
    unsupported,
    get: (key) => byKey.get(key)?.handle,
    handle<K extends ConnectorHandle['kind']>(kind: K, name: string): HandleOfKind<K> {
      const entry = byKey.get(`${kind}.${name}`);
      if (entry === undefined) throw new Error(`no connection "${kind}" "${name}" is declared`);
      return entry.handle as HandleOfKind<K>;
    },
    openAll(options = {}) {
      if (closing !== undefined) return Promise.reject(new Error('the connectors were closed; they cannot be opened again'));
      logger ??= options.logger;
      return (opening ??= openEverything(options));
    },
    async health(options = {}) {
      return Promise.all(entries.map((e) => healthOf(e, options.timeoutMs ?? DEFAULT_PING_TIMEOUT_MS)));
    },
    closeAll() {
      return (closing ??= (async () => {
        await opening?.catch(() => {});
        await closeEntries();
      })());
    },
  };
  ENTRIES.set(set, byKey);
  return set;
}

function entryOf(key: string, connection: ConnectionModel, definition: AnyDefinition): Entry {
  const label = `connection "${connection.kind}" "${connection.name}"`;
  const base: HandleIdentity = { key, kind: connection.kind, name: connection.name, url: definition.describe(connection) };
  const entry = { definition, connection, base, label, state: 'created', resource: undefined, lent: false } as Omit<Entry, 'handle'> & {
    handle?: ConnectorHandle;
  };
  entry.handle = definition.handle(
    connection,
    {
      get state() {
        return entry.state;
      },
      get() {
        if (entry.state === 'open') return entry.resource;
        throw new ConnectorError(notOpenMessage(label, entry.state), { connection: key, category: ConnectorCategory.unavailable });
      },
    },
    base,
  );
  return entry as Entry;
}

function notOpenMessage(label: string, state: ConnectorState): string {
  switch (state) {
    case 'created':
      return `${label} is not open: connections are opened at boot (openAll) before the server listens`;
    case 'opening':
      return `${label} is still opening`;
    default:
      return `${label} is closed`;
  }
}

async function healthOf(entry: Entry, timeoutMs: number): Promise<ConnectionHealth> {
  const { key, kind, name, url } = entry.base;
  const started = performance.now();
  const elapsed = (): number => Math.round((performance.now() - started) * 100) / 100;
  if (entry.state !== 'open') return { key, kind, name, url, ok: false, latencyMs: 0, error: notOpenMessage(entry.label, entry.state) };
  try {
    await entry.definition.ping(entry.resource, timeoutMs);
    return { key, kind, name, url, ok: true, latencyMs: elapsed() };
  } catch (error) {
    const category = categoryOf(entry.definition, error);
    return {
      key,
      kind,
      name,
      url,
      ok: false,
      latencyMs: elapsed(),
      error: scrubSecret(describeCause(error), entry.connection.url),
      ...(category !== undefined ? { category } : {}),
    };
  }
}

function categoryOf(definition: AnyDefinition, error: unknown): ConnectorCategoryName | undefined {
  return error instanceof ConnectorError ? error.category : definition.classify(error);
}

/** Worth another ping: the dependency is not there yet, or did not answer in time. */
function isTransient(category: string | undefined): boolean {
  return category === ConnectorCategory.unavailable || category === ConnectorCategory.timeout;
}

/** A handle's error already starts with the connection's label; the open error says it once. */
function withoutLabel(message: string, label: string): string {
  return message.startsWith(`${label}: `) ? message.slice(label.length + 2) : message;
}
