/**
 * The one listening connection of a postgres connection (LISTEN/NOTIFY), shared by every channel and
 * listener in the process: a `pg` Client outside the pool, because LISTEN belongs to a session. Opened
 * by the first `listen` (application_name `svc-listen`); `LISTEN`/`UNLISTEN` follow a channel's first
 * and last listener.
 *
 * NOTIFY keeps nothing, so a drop is not kept quiet: every listener is told (`onLost`), one warning per
 * channel, every channel forgotten. The next `listen` reopens; a failed open holds the next attempt
 * back (doubling to a bound) so a down database is not hammered, and `listen` fails at once meanwhile.
 */
import pg from 'pg';
import { ConnectorCategory, ConnectorError } from '../errors.js';
import type { ConnectorLogger } from '../types.js';
import { toConnectorError } from './errors.js';
import type { Where } from './execute.js';
import { type ListenLossListener, loseChannels } from './listen-channels.js';
import type { NotificationListener, PostgresListening } from './types.js';

/** The wait before reopening after a failed open: doubled per failure up to the most. */
const FIRST_RETRY_DELAY_MS = 100;
const MOST_RETRY_DELAY_MS = 5_000;

interface Channel {
  /** Each listener and its loss listener. */
  readonly listeners: Map<NotificationListener, ListenLossListener | undefined>;
  /** The LISTEN, under way or done: a second listener waits for the same. */
  readonly listening: Promise<unknown>;
}

export class SharedListener {
  readonly #config: pg.ClientConfig;
  readonly #where: Where;
  readonly #logger: ConnectorLogger | undefined;
  readonly #channels = new Map<string, Channel>();
  #client: pg.Client | undefined;
  #opening: Promise<pg.Client> | undefined;
  /** No open is attempted before this time (Date.now()): the back-off after a failed one. */
  #retryAt = 0;
  #delay = FIRST_RETRY_DELAY_MS;
  #closed = false;

  constructor(config: pg.ClientConfig, where: Where, logger: ConnectorLogger | undefined) {
    // TCP keep-alive from 10 s of silence: a listening connection is silent while nothing is
    // notified, and a peer gone without a word (a network cut) would otherwise go unnoticed for hours.
    this.#config = { ...config, application_name: 'svc-listen', keepAlive: true, keepAliveInitialDelayMillis: 10_000 };
    this.#where = where;
    this.#logger = logger;
  }

  /**
   * Listens to `channel`: resolves once its LISTEN is done, so a notification committed after that
   * is heard. Rejects with a ConnectorError (dependency-unavailable when the server cannot be
   * reached, or while the back-off holds the next open back).
   */
  async listen(channel: string, listener: NotificationListener, onLost?: ListenLossListener): Promise<PostgresListening> {
    const refusal = this.refusal();
    if (refusal !== undefined) throw refusal;
    // A listener object of its own: the same function may listen twice and leave twice.
    const own: NotificationListener = (payload) => listener(payload);
    let entry = this.#channels.get(channel);
    if (entry === undefined) {
      const listening = this.#connected().then((client) => client.query(`LISTEN ${client.escapeIdentifier(channel)}`));
      entry = { listeners: new Map(), listening };
      this.#channels.set(channel, entry);
    }
    entry.listeners.set(own, onLost);
    try {
      await entry.listening;
    } catch (error) {
      // A failed LISTEN is not kept: the next listener tries again.
      if (this.#channels.get(channel) === entry) this.#channels.delete(channel);
      throw toConnectorError(error, this.#where.key, this.#where.label);
    }
    let active = true;
    return {
      unlisten: () => {
        if (!active) return;
        active = false;
        this.#leave(channel, entry, own);
      },
    };
  }

  /**
   * Why `listen` would fail at once now: closed, or the back-off after a failed open. No I/O; none
   * while the connection is up or was never needed.
   */
  refusal(): ConnectorError | undefined {
    if (this.#closed) return this.#error('the connection is closed');
    if (this.#client === undefined && this.#opening === undefined && Date.now() < this.#retryAt) {
      return this.#error(`the listening connection could not be opened; the next attempt is in ${this.#retryAt - Date.now()} ms`);
    }
    return undefined;
  }

  /** The server process id of the listening connection, when it is open (for tests and logs). */
  get processId(): number | undefined {
    return (this.#client as { processID?: number } | undefined)?.processID;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#channels.clear();
    const client = this.#client ?? (await this.#opening?.catch(() => undefined));
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  #leave(channel: string, entry: Channel, listener: NotificationListener): void {
    if (!entry.listeners.delete(listener) || entry.listeners.size > 0) return;
    // Forgotten already when the connection was lost (the channel may even be listened to afresh).
    if (this.#channels.get(channel) !== entry) return;
    this.#channels.delete(channel);
    const client = this.#client;
    // After the LISTEN, on the same connection (pg runs a client's queries in order). A failure
    // means the connection is going away, which ends its LISTENs anyway.
    if (client !== undefined) entry.listening.then(() => client.query(`UNLISTEN ${client.escapeIdentifier(channel)}`)).catch(() => {});
  }

  #connected(): Promise<pg.Client> {
    if (this.#client !== undefined) return Promise.resolve(this.#client);
    this.#opening ??= this.#open().finally(() => {
      this.#opening = undefined;
    });
    return this.#opening;
  }

  async #open(): Promise<pg.Client> {
    const client = new pg.Client(this.#config);
    // Until connected, a failure is the open's, reported to its callers.
    client.on('error', () => {});
    try {
      await client.connect();
    } catch (error) {
      this.#retryAt = Date.now() + this.#delay;
      this.#delay = Math.min(this.#delay * 2, MOST_RETRY_DELAY_MS);
      client.end().catch(() => {});
      throw error;
    }
    if (this.#closed) {
      await client.end().catch(() => {});
      throw this.#error('the connection is closed');
    }
    this.#delay = FIRST_RETRY_DELAY_MS;
    client.on('notification', (message) => this.#dispatch(message.channel, message.payload ?? ''));
    // pg reports a dropped connection as 'error' (the server's reason, e.g. 57P01 after
    // pg_terminate_backend) and then 'end'; the first one counts.
    client.on('error', (error) => this.#lost(client, error.message));
    client.on('end', () => this.#lost(client, 'the connection ended'));
    this.#client = client;
    return client;
  }

  #dispatch(channel: string, payload: string): void {
    const entry = this.#channels.get(channel);
    if (entry === undefined) return;
    // A copy: a listener may leave (or another join) while the payload is handed out.
    for (const listener of [...entry.listeners.keys()]) {
      try {
        listener(payload);
      } catch {
        // A listener that throws does not keep the payload from the others.
      }
    }
  }

  /**
   * The listening connection dropped: every channel is forgotten and each listener told once, with
   * one warning per channel. The next `listen` opens a new connection.
   */
  #lost(client: pg.Client, reason: string): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    client.end().catch(() => {});
    if (this.#closed) return;
    loseChannels(this.#channels, this.#where, this.#logger, reason, 'the LISTEN connection to PostgreSQL was lost; notifications may have been missed');
  }

  #error(why: string): ConnectorError {
    return new ConnectorError(`${this.#where.label}: cannot LISTEN: ${why}`, { connection: this.#where.key, category: ConnectorCategory.unavailable });
  }
}
