/**
 * node:sqlite is synchronous: a statement runs on the JavaScript thread and nothing else runs
 * meanwhile. So statements take turns: at most one runs per turn of the event loop, and the next one
 * waits for `setImmediate`, after the loop has handled whatever I/O and timers came due. No request
 * then waits longer than one statement of someone else's, however many are queued (bench/sqlite
 * measures the loop's delay under load). A statement submitted while nothing else ran this turn runs
 * at once, so a lone request pays no extra turn.
 */

export interface Turn {
  /** Runs the statement (synchronously); skipped once `cancelled`. */
  run(): void;
  /** Ends it without running it (the connection closed): rejects whoever waits. */
  fail(error: Error): void;
  cancelled: boolean;
}

export class Turns {
  private readonly queue: Turn[] = [];
  /** A statement ran in this turn of the loop; the next one waits for the next turn. */
  private busy = false;
  private closed = false;

  /** Statements waiting for their turn. */
  get waiting(): number {
    return this.queue.length;
  }

  submit(turn: Turn): void {
    if (this.closed) throw new Error('closed');
    if (!this.busy && this.queue.length === 0) {
      this.take(turn);
      return;
    }
    this.queue.push(turn);
  }

  /** No more turns; what waits is the caller's to fail (they are its tasks). */
  close(): Turn[] {
    this.closed = true;
    return this.queue.splice(0);
  }

  private take(turn: Turn): void {
    this.busy = true;
    setImmediate(this.next);
    turn.run();
  }

  private readonly next = (): void => {
    this.busy = false;
    while (this.queue.length > 0) {
      const turn = this.queue.shift()!;
      if (turn.cancelled) continue;
      this.take(turn);
      return;
    }
  };
}
