/**
 * node:sqlite is synchronous: a statement runs on the JavaScript thread and nothing else runs
 * meanwhile. So statements take turns with the rest of the event loop: they run back to back only
 * while the statements of this turn have taken less than TURN_BUDGET_MS, and past that the next
 * one waits for `setImmediate`, after the loop has handled whatever I/O and timers came due. So the
 * loop is never held longer than the budget plus one statement, however many are queued (bench/sqlite
 * turns.ts measures it), while short statements arriving together (many requests read from one
 * socket batch, a `parallel` block) pay no extra turn each: a statement submitted to an idle queue
 * within the budget runs at once.
 */

/** Statement time one turn of the loop may take before the next statement waits for the next turn. */
export const TURN_BUDGET_MS = 1;

export interface Turn {
  /** Runs the statement (synchronously); skipped once `cancelled`. */
  run(): void;
  /** Ends it without running it (the connection closed): rejects whoever waits. */
  fail(error: Error): void;
  cancelled: boolean;
}

export class Turns {
  private readonly queue: Turn[] = [];
  /** When the first statement of this turn of the loop started; undefined when none ran yet. */
  private turnStarted: number | undefined;
  private closed = false;

  /** Statements waiting for their turn. */
  get waiting(): number {
    return this.queue.length;
  }

  submit(turn: Turn): void {
    if (this.closed) throw new Error('closed');
    if (this.queue.length === 0 && this.withinBudget()) {
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

  private withinBudget(): boolean {
    return this.turnStarted === undefined || performance.now() - this.turnStarted < TURN_BUDGET_MS;
  }

  private take(turn: Turn): void {
    if (this.turnStarted === undefined) {
      this.turnStarted = performance.now();
      setImmediate(this.next);
    }
    turn.run();
  }

  /** A new turn of the loop: queued statements run until the budget is spent. */
  private readonly next = (): void => {
    this.turnStarted = undefined;
    while (this.queue.length > 0 && this.withinBudget()) {
      const turn = this.queue.shift()!;
      if (!turn.cancelled) this.take(turn);
    }
  };
}
