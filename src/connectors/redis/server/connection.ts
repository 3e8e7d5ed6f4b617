/**
 * One ioredis connection and what is known of its health. ioredis reconnects on its own but does not
 * fail fast (a command waits in an unbounded offline queue), so the state is followed from its
 * events: `up` sends, `opening` and `blip` (lost, first reconnect pending: usually healed in tens of
 * ms) queue up to OFFLINE_QUEUE_LIMIT, `down` (a reconnect failed) refuses at once (a 503).
 * `maxRetriesPerRequest: 0` rejects queued and in-flight commands when a connection closes, so none
 * waits past one reconnect attempt and none is sent twice (a resent INCR could count twice).
 */
import { Redis, type RedisOptions } from 'ioredis';
import type { TurnEndWrites } from '../../../io/index.js';
import { ConnectorCategory, ConnectorError, describeCause } from '../../errors.js';
import type { ConnectorLogger } from '../../types.js';
import type { RedisStats } from '../types.js';
import { unavailable } from '../errors.js';

/** Commands that may wait for a connection under way; past it they fail at once. */
export const OFFLINE_QUEUE_LIMIT = 256;
/** Reconnect delays: 50 ms doubling up to 1 s, so a server that comes back is used within a second. */
const FIRST_RECONNECT_DELAY_MS = 50;
const MAX_RECONNECT_DELAY_MS = 1000;
/** QUIT waits this long for the replies of commands under way before the socket is destroyed. */
const QUIT_TIMEOUT_MS = 2000;

type State = 'opening' | 'up' | 'blip' | 'down' | 'closed';

export interface ConnectionOptions {
  readonly url: string;
  /** `<kind>.<name>` and `connection "redis" "<name>"`, for errors and logs. */
  readonly key: string;
  readonly label: string;
  /** Shown by CLIENT LIST, so an operator can tell svc's connections apart. */
  readonly name: 'svc' | 'svc-subscriber' | 'svc-stream-reader';
  readonly connectTimeoutMs: number;
  readonly logger: ConnectorLogger | undefined;
  /** The write queue the connection's socket is held to (its store's, src/io). */
  readonly writes: TurnEndWrites;
}

export class ServerConnection {
  readonly client: Redis;
  private state: State = 'opening';
  private lastError: Error | undefined;
  private queued = 0;

  constructor(private readonly options: ConnectionOptions) {
    this.client = new Redis(options.url, clientOptions(options));
    // The commands of one turn of the event loop leave together at its end, one write where there
    // was one per command, each waking the server (src/io). A reconnection brings a new socket.
    this.client.on('connect', () => options.writes.hold(this.client.stream));
    this.client.on('ready', () => this.enter('up'));
    // A close while up is a blip; a close in any other state means a connection attempt failed.
    this.client.on('close', () => this.enter(this.state === 'up' ? 'blip' : 'down'));
    this.client.on('end', () => this.enter('closed'));
    // Without a listener ioredis would report errors on stderr; they are reported as state changes.
    this.client.on('error', (error: Error) => {
      this.lastError = error;
    });
  }

  /**
   * Runs `command` when the connection can take it, else rejects at once with a ConnectorError
   * (dependency-unavailable). The ready path adds nothing but the status check.
   */
  send<T>(command: (client: Redis) => Promise<T>): Promise<T> {
    if (this.client.status === 'ready') return command(this.client);
    const refusal = this.refusal();
    if (refusal !== undefined) return Promise.reject(refusal);
    this.queued++;
    return command(this.client).finally(() => {
      this.queued--;
    });
  }

  /** Up (commands go out at once), and how many commands wait for the connection. */
  stats(): RedisStats {
    return { up: this.client.status === 'ready', queued: this.queued };
  }

  /** Why a command would be refused now, or undefined when it may be sent (or queued). */
  refusal(): ConnectorError | undefined {
    if (this.client.status === 'ready') return undefined;
    const { key, label } = this.options;
    switch (this.state) {
      case 'closed':
        return unavailable(key, label, 'the connection is closed');
      case 'down':
        return unavailable(key, label, `Redis is unreachable${this.lastError ? ` (${describeCause(this.lastError)})` : ''}; reconnecting`, this.lastError);
      default:
        if (this.queued < OFFLINE_QUEUE_LIMIT) return undefined;
        return unavailable(key, label, `Redis is reconnecting and ${OFFLINE_QUEUE_LIMIT} commands already wait for it`);
    }
  }

  /**
   * Resolves when the connection is ready; rejects with the next connection error (a refused
   * connection, a wrong password) or after `timeoutMs`. For the boot ping, which set.ts retries
   * while the failure is an unreachable server.
   */
  ready(timeoutMs: number): Promise<void> {
    if (this.client.status === 'ready') return Promise.resolve();
    if (this.state === 'closed') return Promise.reject(unavailable(this.options.key, this.options.label, 'the connection is closed'));
    return new Promise((resolve, reject) => {
      const settle = (error?: Error): void => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        this.client.off('error', onError);
        this.client.off('end', onEnd);
        if (error === undefined) resolve();
        else reject(error);
      };
      const onReady = (): void => settle();
      const onError = (error: Error): void => settle(error);
      const onEnd = (): void => settle(unavailable(this.options.key, this.options.label, 'the connection is closed'));
      const timer = setTimeout(
        () =>
          settle(
            new ConnectorError(`${this.options.label}: Redis did not answer within ${timeoutMs} ms`, {
              connection: this.options.key,
              category: ConnectorCategory.timeout,
              cause: this.lastError,
            }),
          ),
        timeoutMs,
      );
      this.client.on('ready', onReady);
      this.client.on('error', onError);
      this.client.on('end', onEnd);
    });
  }

  /** QUIT (bounded: replies under way are read first), then the socket is destroyed; no reconnect. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const wasReady = this.client.status === 'ready';
    this.state = 'closed';
    if (wasReady) {
      let timer: NodeJS.Timeout | undefined;
      const bounded = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, QUIT_TIMEOUT_MS);
      });
      await Promise.race([this.client.quit().catch(() => {}), bounded]);
      clearTimeout(timer);
    }
    this.client.disconnect();
  }

  /**
   * Closes at once, without QUIT: for a connection blocked in a command (XREAD BLOCK), whose QUIT
   * would wait for it. A command under way is rejected.
   */
  destroy(): void {
    this.state = 'closed';
    this.client.disconnect();
  }

  private enter(next: State): void {
    const previous = this.state;
    if (previous === 'closed' || previous === next) return;
    this.state = next;
    const { logger, key, name } = this.options;
    const fields = { connection: key, role: name };
    if (next === 'blip') logger?.warn(fields, 'redis connection lost; reconnecting');
    else if (next === 'down')
      logger?.warn(
        { ...fields, err: this.lastError ? describeCause(this.lastError) : undefined },
        'redis unreachable; commands fail as unavailable until it is back',
      );
    else if (next === 'up' && previous !== 'opening') logger?.info(fields, 'redis connection restored');
  }
}

function clientOptions(options: ConnectionOptions): RedisOptions {
  return {
    // RESP2, pinned: the protocol the tests run with (ioredis 6 would negotiate RESP3 with HELLO).
    protocol: 2,
    connectionName: options.name,
    // CLIENT SETINFO exists from Redis 7.2 only; older servers would answer two errors per connect.
    disableClientInfo: true,
    connectTimeout: options.connectTimeoutMs,
    retryStrategy: (times) => Math.min(FIRST_RECONNECT_DELAY_MS * 2 ** (times - 1), MAX_RECONNECT_DELAY_MS),
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    autoResubscribe: true,
    // Integer replies as text, made exact numbers or BigInts by ../integer.ts (INCR past 2^53).
    stringNumbers: true,
  };
}
