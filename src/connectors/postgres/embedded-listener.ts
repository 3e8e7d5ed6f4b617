/**
 * LISTEN/NOTIFY on PGlite: one backend session shared by every socket, and pglite-socket hands a
 * notification only to the socket whose query made it, so a listening connection of its own
 * (./listener.ts) would never hear one. The LISTEN runs through the pool (one client on PGlite), and
 * each pool client hands its notifications over (`adopt`). A new client's `DISCARD ALL` ends every
 * LISTEN: that is this listener's loss (`sessionReset`), told as a dropped connection is on a server.
 */
import type pg from 'pg';
import { ConnectorCategory, ConnectorError } from '../errors.js';
import type { ConnectorLogger } from '../types.js';
import { toConnectorError } from './errors.js';
import type { Where } from './execute.js';
import { type ListenLossListener, loseChannels } from './listen-channels.js';
import type { NotificationListener, PostgresListening } from './types.js';

interface Channel {
  readonly listeners: Map<NotificationListener, ListenLossListener | undefined>;
  readonly listening: Promise<unknown>;
}

export class EmbeddedListener {
  #pool: pg.Pool | undefined;
  readonly #where: Where;
  readonly #logger: ConnectorLogger | undefined;
  readonly #channels = new Map<string, Channel>();
  #closed = false;

  constructor(where: Where, logger: ConnectorLogger | undefined) {
    this.#where = where;
    this.#logger = logger;
  }

  /** The pool whose clients run the LISTENs (set once it exists: its config names this listener). */
  usePool(pool: pg.Pool): void {
    this.#pool = pool;
  }

  /** A new pool client, after its DISCARD ALL: the session's LISTENs are gone; it hands notifications over. */
  sessionReset(client: pg.ClientBase): void {
    client.on('notification', (message) => this.#dispatch(message.channel, message.payload ?? ''));
    if (this.#channels.size > 0) this.#lost('a new pool client reset the shared session (DISCARD ALL), ending its LISTENs');
  }

  async listen(channel: string, listener: NotificationListener, onLost?: ListenLossListener): Promise<PostgresListening> {
    const refusal = this.refusal();
    if (refusal !== undefined) throw refusal;
    const own: NotificationListener = (payload) => listener(payload);
    let entry = this.#channels.get(channel);
    if (entry === undefined) {
      entry = { listeners: new Map(), listening: this.#pool!.query(`LISTEN ${quoted(channel)}`) };
      this.#channels.set(channel, entry);
    }
    entry.listeners.set(own, onLost);
    try {
      await entry.listening;
    } catch (error) {
      if (this.#channels.get(channel) === entry) this.#channels.delete(channel);
      throw toConnectorError(error, this.#where.key, this.#where.label);
    }
    const joined = entry;
    let active = true;
    return {
      unlisten: () => {
        if (!active) return;
        active = false;
        if (!joined.listeners.delete(own) || joined.listeners.size > 0 || this.#channels.get(channel) !== joined) return;
        this.#channels.delete(channel);
        this.#pool?.query(`UNLISTEN ${quoted(channel)}`).catch(() => {});
      },
    };
  }

  refusal(): ConnectorError | undefined {
    if (!this.#closed && this.#pool !== undefined) return undefined;
    return new ConnectorError(`${this.#where.label}: cannot LISTEN: the connection is closed`, {
      connection: this.#where.key,
      category: ConnectorCategory.unavailable,
    });
  }

  /** PGlite runs no server process of its own: no process id. */
  get processId(): number | undefined {
    return undefined;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#channels.clear();
  }

  #dispatch(channel: string, payload: string): void {
    const entry = this.#channels.get(channel);
    if (entry === undefined) return;
    for (const listener of [...entry.listeners.keys()]) {
      try {
        listener(payload);
      } catch {
        // A listener that throws does not keep the payload from the others.
      }
    }
  }

  #lost(reason: string): void {
    loseChannels(this.#channels, this.#where, this.#logger, reason, 'the LISTEN of the embedded engine was reset; notifications may have been missed');
  }
}

/** A channel as an identifier, quoted: matched exactly, as pg_notify names it. */
function quoted(channel: string): string {
  return `"${channel.replaceAll('"', '""')}"`;
}
