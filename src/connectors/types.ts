/**
 * The shapes every connector kind shares: its one definition (what ./kinds.ts lists), the access a
 * handle has to the opened resource, and the options of the lifecycle (./set.ts).
 *
 * A kind's definition is the only place that knows its driver; the set drives every kind through the
 * same steps: `handle` at creation (no I/O, so `svc check` and `svc graph` can bind steps to it), then
 * at boot `open`, `ping` (retried while the dependency is unreachable), `prepare` (once-only work such
 * as migrations), and at shutdown `close`.
 */
import type { ConnectionKind, ConnectionModel } from '../model/index.js';
import type { ConnectorCategoryName } from './errors.js';

/** pino-compatible: the server's logger fits, and so does a test's recorder. */
export interface ConnectorLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** Bounded retry of the first ping: `attempts` tries, waiting `initialDelayMs`, doubling up to `maxDelayMs`. */
export interface RetryPolicy {
  readonly attempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

/** Where a connection is in its life; `closed` is final (a set is opened once, closed once). */
export type ConnectorState = 'created' | 'opening' | 'open' | 'closed';

/** A handle's view of its resource: present only while the connection is open. */
export interface ResourceAccess<R> {
  readonly state: ConnectorState;
  /** The open resource; a ConnectorError naming the connection before `openAll` or after `closeAll`. */
  get(): R;
}

/** Who a connection is: fixed at creation. */
export interface HandleIdentity {
  /** `<kind>.<name>`, the model's key. */
  readonly key: string;
  readonly kind: ConnectionKind;
  readonly name: string;
  /** The URL as it may be logged: password redacted, embedded engines spelled out. */
  readonly url: string;
}

/** What every handle says about itself, whatever its kind. */
export interface HandleBase extends HandleIdentity {
  /** Where the connection is in its life, now. */
  readonly state: ConnectorState;
}

/** Given to a kind's `open` and `prepare`. */
export interface OpenContext {
  readonly logger: ConnectorLogger | undefined;
  /** `<kind>.<name>` */
  readonly key: string;
  /** `connection "<kind>" "<name>"`, for messages. */
  readonly label: string;
  /** How long a caller may wait for a pooled connection (or a new one's handshake) before it is unavailable. */
  readonly acquireTimeoutMs: number;
}

/** One connector kind. `R` is what `open` acquires (a pool, an engine); `H` what step compilers bind to. */
export interface ConnectorDefinition<R, H extends HandleBase> {
  readonly kind: ConnectionKind;
  /** The URL without its password, for logs and errors. */
  describe(connection: ConnectionModel): string;
  /** The handle step compilers bind to at boot. No I/O. */
  handle(connection: ConnectionModel, access: ResourceAccess<R>, identity: HandleIdentity): H;
  /** Acquires what the connection needs (a pool, an embedded engine). Not retried: see `ping`. */
  open(connection: ConnectionModel, context: OpenContext): Promise<R>;
  /** One round trip, bounded by `timeoutMs`; retried at boot while it fails as unavailable or timed out. */
  ping(resource: R, timeoutMs: number): Promise<void>;
  /** Once-only work after the first successful ping (migrations). Not retried. */
  prepare?(resource: R, connection: ConnectionModel, context: OpenContext): Promise<void>;
  /** Drains and releases everything `open` acquired. Called once. */
  close(resource: R): Promise<void>;
  /** A driver error's category (see ./errors.ts), or undefined when the kind does not know it. */
  classify(cause: unknown): ConnectorCategoryName | undefined;
}
