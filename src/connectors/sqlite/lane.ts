/**
 * One connection's queue of statements, in front of the shared turns (./turns.ts). A `transaction`
 * (and, on an in-memory database, a streamed read) holds the connection with a lease for its whole
 * life: its own statements go straight to their turns, everybody else's wait here, in order, until
 * the lease is given back. Lease requests wait in the same line, so nobody is overtaken.
 */
import type { Turn, Turns } from './turns.js';

/** The right to the connection between statements; `release` ends it once. */
export interface Lease {
  readonly held: boolean;
  release(): void;
}

export interface LeaseRequest {
  grant(lease: Lease): void;
  fail(error: Error): void;
  cancelled: boolean;
}

type Waiter = { readonly type: 'turn'; readonly turn: Turn } | { readonly type: 'lease'; readonly request: LeaseRequest };

export class Lane {
  private holder: Lease | undefined;
  private readonly waiters: Waiter[] = [];

  constructor(private readonly turns: Turns) {}

  /** Statements and leases waiting for the current lease to end. */
  get waiting(): number {
    return this.waiters.length;
  }

  get leased(): boolean {
    return this.holder !== undefined;
  }

  /** A statement: run in its turn unless someone else holds the connection. */
  submit(turn: Turn, lease?: Lease): void {
    if (lease !== undefined && lease === this.holder) this.turns.submit(turn);
    else if (this.holder === undefined && this.waiters.length === 0) this.turns.submit(turn);
    else this.waiters.push({ type: 'turn', turn });
  }

  /** Asks for the connection; granted at once when free and nobody waits. */
  acquire(request: LeaseRequest): void {
    if (this.holder === undefined && this.waiters.length === 0) this.grant(request);
    else this.waiters.push({ type: 'lease', request });
  }

  /** Fails every waiter (the connection closed). */
  failAll(error: Error): void {
    for (const waiter of this.waiters.splice(0)) (waiter.type === 'turn' ? waiter.turn : waiter.request).fail(error);
  }

  private grant(request: LeaseRequest): void {
    let held = true;
    const lease: Lease = {
      get held() {
        return held;
      },
      release: () => {
        if (!held) return;
        held = false;
        if (this.holder === lease) this.holder = undefined;
        this.wake();
      },
    };
    this.holder = lease;
    request.grant(lease);
  }

  /** After a lease: statements go to their turns, until the next lease request is granted. */
  private wake(): void {
    while (this.holder === undefined && this.waiters.length > 0) {
      const waiter = this.waiters.shift()!;
      if (waiter.type === 'turn') {
        if (!waiter.turn.cancelled) this.turns.submit(waiter.turn);
      } else if (!waiter.request.cancelled) {
        this.grant(waiter.request);
      }
    }
  }
}
