import type { Observable } from 'rxjs/internal/Observable';
import type { Unsubscribable } from 'rxjs/internal/types';
import { DirectObservable, follow, type Receiver } from './direct.js';
import { Category, StepError } from './errors.js';
import { isPending, type Exec, type Signal } from './exec.js';
import type { StepInfo } from './info.js';
import type { GraphScope } from './types.js';

/**
 * `parallel`: every branch is started in declaration order; the synchronous ones finish on the
 * spot, the asynchronous ones are joined (`Join`, written out: the operator form built several
 * subscribers per branch and per request). All outputs are in `scope.steps` after it.
 *
 * - A branch that completes without a value fails the group rather than making it vanish.
 * - The first error or exit wins: the other branches are unsubscribed (their steps torn down), and
 *   the lifetime they ran in reaches whatever they had started (cancel.ts).
 */
export function compileParallel<S extends GraphScope>(branches: readonly Exec<S>[], info: StepInfo): Exec<S> {
  return (scope, life) => {
    let pending: Observable<Signal>[] | undefined;
    for (const branch of branches) {
      const signal = branch(scope, life);
      if (signal === undefined) continue;
      if (isPending(signal)) (pending ??= []).push(signal);
      else return signal;
    }
    if (pending === undefined) return undefined;
    return new Group(pending, info);
  };
}

/** The asynchronous branches of one group in one run; each receiver gets a Join of its own. */
class Group extends DirectObservable<Signal> {
  declare private readonly branches: readonly Observable<Signal>[];
  declare private readonly info: StepInfo;

  constructor(branches: readonly Observable<Signal>[], info: StepInfo) {
    super();
    this.branches = branches;
    this.info = info;
  }

  deliverTo(receiver: Receiver<Signal>): Unsubscribable {
    return new Join(receiver, this.branches.length, this.info).start(this.branches);
  }
}

/** Joins the asynchronous branches of one group for one receiver; settles once. */
class Join implements Unsubscribable {
  declare private readonly subscriber: Receiver<Signal>;
  declare private readonly info: StepInfo;
  declare private readonly subscriptions: Unsubscribable[];
  declare private left: number;
  declare private ended: boolean;

  constructor(subscriber: Receiver<Signal>, count: number, info: StepInfo) {
    this.subscriber = subscriber;
    this.info = info;
    this.subscriptions = [];
    this.left = count;
    this.ended = false;
  }

  start(branches: readonly Observable<Signal>[]): this {
    for (const branch of branches) {
      if (this.ended) break;
      const subscription = follow(branch, new BranchObserver(this));
      if (this.ended) subscription.unsubscribe();
      else this.subscriptions.push(subscription);
    }
    return this;
  }

  /** A branch gave its one signal: `undefined` carries on, anything else ends the group with it. */
  value(signal: Signal): void {
    if (this.ended) return;
    if (signal !== undefined) {
      this.end();
      this.subscriber.next(signal);
      this.subscriber.complete();
    } else if (--this.left === 0) {
      this.ended = true;
      this.subscriber.next(undefined);
      this.subscriber.complete();
    }
  }

  failure(cause: unknown): void {
    if (this.ended) return;
    this.end();
    this.subscriber.error(cause);
  }

  /** Teardown (unsubscribed from outside): every branch still running is torn down. */
  unsubscribe(): void {
    if (!this.ended) this.end();
  }

  private end(): void {
    this.ended = true;
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }

  emptyBranch(): void {
    this.failure(new StepError(this.info, `a branch of "${this.info.id}" completed without a value`, undefined, Category.empty));
  }
}

/** One branch's observer: remembers whether its branch gave a value before completing. */
class BranchObserver implements Receiver<Signal> {
  declare private readonly join: Join;
  declare private got: boolean;

  constructor(join: Join) {
    this.join = join;
    this.got = false;
  }

  next(signal: Signal): void {
    this.got = true;
    this.join.value(signal);
  }

  error(cause: unknown): void {
    this.join.failure(cause);
  }

  complete(): void {
    if (!this.got) this.join.emptyBranch();
  }
}
