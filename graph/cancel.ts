import { RunAbortedError, type Site } from './errors.js';
import { claim, type Settled } from './once.js';
import { isThenable } from './result.js';
import type { Release, RunContext } from './types.js';

/*
 * Cancellation, per node. A run is a tree of lifetimes: the run's own (ended with the outcome, or
 * with a stream outcome's subscription) and one per container body (ended before `leave`); each node
 * invocation gets a StepContext in its lifetime. Cheap on the synchronous fast path: the
 * AbortController is made only when a step reads `signal`, the lifetime joined only for a signal or
 * a release, so ending what nobody read is a flag write.
 */

/** Passed as the reason of a teardown (unsubscribe): mapped to a RunAbortedError only when needed. */
export const TORN_DOWN: unique symbol = Symbol('torn down');

/** Something that ends when the lifetime it joined ends; `close` must be idempotent and never throw. */
export interface Member {
  close(reason: unknown): void;
}

/**
 * A region of a run whose members end together, last joined first (nested things end before what
 * encloses them). `reason`: undefined for a normal end, TORN_DOWN for a teardown, else the failure
 * or the external abort reason.
 */
export class Lifetime implements Settled {
  declare closed: boolean;
  declare private members: Member[] | undefined;
  declare private reason: unknown;

  constructor() {
    this.closed = false;
    this.members = undefined;
    this.reason = undefined;
  }

  /** Joins `member`; after the end it is closed at once (a late reader of an abandoned branch). */
  add(member: Member): void {
    if (this.closed) member.close(this.reason);
    else (this.members ??= []).push(member);
  }

  close(reason?: unknown): void {
    if (!claim(this)) return;
    this.reason = reason;
    const members = this.members;
    if (members === undefined) return;
    this.members = undefined;
    for (let i = members.length - 1; i >= 0; i--) members[i]!.close(reason);
  }
}

/**
 * A node invocation's RunContext. Closed by the node's own failure, time-out or teardown (see
 * step.ts and await.ts), by the container that owns it (container.ts), or by its lifetime's end.
 * `life` undefined: the owner closes it (a container's own context, which must outlive its body).
 */
export class StepContext implements RunContext, Member, Settled {
  declare closed: boolean;
  declare private readonly site: Site;
  declare private readonly life: Lifetime | undefined;
  declare private controller: AbortController | undefined;
  declare private releases: Release[] | undefined;
  declare private joined: boolean;
  declare private reason: unknown;

  constructor(site: Site, life: Lifetime | undefined) {
    this.closed = false;
    this.site = site;
    this.life = life;
    this.controller = undefined;
    this.releases = undefined;
    this.joined = false;
    this.reason = undefined;
  }

  get signal(): AbortSignal {
    let controller = this.controller;
    if (controller === undefined) {
      controller = this.controller = new AbortController();
      if (this.closed) controller.abort(abortReason(this.reason));
      else this.join();
    }
    return controller.signal;
  }

  onRelease(release: Release): void {
    if (this.closed) {
      runRelease(release, releaseReason(this.reason), this.site);
      return;
    }
    (this.releases ??= []).push(release);
    this.join();
  }

  /** Ends this node's life: aborts its signal, then runs its releases, last registered first. */
  close(reason?: unknown): void {
    if (!claim(this)) return;
    this.reason = reason;
    const { controller, releases } = this;
    if (controller === undefined && releases === undefined) return;
    const error = abortReason(reason);
    controller?.abort(error);
    if (releases === undefined) return;
    this.releases = undefined;
    const given = reason === undefined ? undefined : error;
    for (let i = releases.length - 1; i >= 0; i--) runRelease(releases[i]!, given, this.site);
  }

  private join(): void {
    if (this.joined || this.life === undefined) return;
    this.joined = true;
    this.life.add(this);
  }
}

/**
 * The reason of every normal end. One shared instance: a normal end happens for every I/O step of
 * every request, and building an Error (its stack) there cost more than the rest of the engine's
 * per-request work (bench/users). Nothing reads its stack.
 */
const RUN_OVER = Object.freeze(new RunAbortedError('the run is over'));

function abortReason(reason: unknown): unknown {
  if (reason === undefined) return RUN_OVER;
  if (reason === TORN_DOWN) return new RunAbortedError();
  return reason;
}

function releaseReason(reason: unknown): unknown {
  return reason === undefined ? undefined : abortReason(reason);
}

/** A release never fails the run: a throw or a rejection goes to onTeardownError. */
function runRelease(release: Release, reason: unknown, site: Site): void {
  try {
    const result = release(reason);
    if (isThenable(result)) result.then(undefined, site.report);
  } catch (cause) {
    site.report(cause);
  }
}
