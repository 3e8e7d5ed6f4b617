import { Observable } from 'rxjs/internal/Observable';
import { Subscription } from 'rxjs/internal/Subscription';
import { isObservable } from 'rxjs/internal/util/isObservable';
import { PromiseResult, awaitResult, identity } from './await.js';
import { Lifetime, StepContext, TORN_DOWN, type Member } from './cancel.js';
import type { Site } from './errors.js';
import { chain, isPending, onStreamEnd, proceed, type Eventual, type Exec, type Signal } from './exec.js';
import { claim, type Settled } from './once.js';
import { ExitSignal, exitOutcome, isThenable } from './result.js';
import type { ContainerNodeDef, Ending, GraphScope, ScopeWrapper, StreamOutcome } from './types.js';
import type { StreamEnd } from './stream.js';

const DONE: Ending = { kind: 'done' };
const CANCEL: Ending = { kind: 'cancel' };

/** What every run of one container shares, fixed at compile time. */
interface ContainerPlan<S extends GraphScope> {
  readonly site: Site;
  readonly name: string | undefined;
  readonly wrap: ScopeWrapper<S>;
  readonly body: Exec<S>;
}

/**
 * A container (e.g. `transaction`): `wrap.enter` → body → `wrap.leave(ending)`. Once `enter` has
 * produced a scope, `leave` is called exactly once: 'done', 'exit', 'error' (awaited before the
 * container's result); 'stream', deferred to the stream's dispose (it may still read what the
 * container holds, a cursor on the transaction's client); 'cancel' on teardown, including while a
 * Promise-based `enter` is pending (its resource is given straight back). The body's lifetime ends
 * first: every inner step's signal aborted, its releases run.
 */
export function compileContainer<S extends GraphScope>(def: ContainerNodeDef<S>, site: Site, body: Exec<S>): Exec<S> {
  const plan: ContainerPlan<S> = { site, name: def.name, wrap: def.wrap, body };
  return (scope, life) => new ContainerRun(plan, scope, life).start();
}

const ENTERING = 0;
const RUNNING = 1;
const STREAMING = 2;

/**
 * One run of a container: a small state machine (entering → running → [streaming] → left) that
 * settles once (once.ts): the first of the body's ending and the teardown claims the one `leave`.
 * It joins the lifetime it runs in, so the end of that lifetime reaches it in every phase, even
 * when its Observable was never subscribed (a parallel branch abandoned because a sibling failed
 * synchronously). Its own context (for `enter` and `leave`) is owned, not joined: it must outlive
 * the body and is closed when `leave` has settled.
 */
class ContainerRun<S extends GraphScope> implements Member, Settled {
  declare closed: boolean;
  declare private phase: typeof ENTERING | typeof RUNNING | typeof STREAMING;
  declare private readonly plan: ContainerPlan<S>;
  declare private readonly outer: S;
  declare private readonly ctx: StepContext;
  declare private inner: S | undefined;
  /** The body's own lifetime, ended before `leave`. */
  declare private body: Lifetime | undefined;
  /** The body's subscriptions while it runs asynchronously. */
  declare private running: Subscription | undefined;
  /** A Promise-based `enter` still pending. */
  declare private entering: PromiseResult<S, unknown> | undefined;
  declare private stream: StreamOutcome | undefined;

  constructor(plan: ContainerPlan<S>, outer: S, life: Lifetime) {
    this.closed = false;
    this.phase = ENTERING;
    this.plan = plan;
    this.outer = outer;
    this.ctx = new StepContext(plan.site, undefined);
    this.inner = undefined;
    this.body = undefined;
    this.running = undefined;
    this.entering = undefined;
    this.stream = undefined;
    life.add(this);
  }

  start(): Eventual<Signal> {
    const { wrap, site } = this.plan;
    if (wrap.enter === undefined) return this.runBody(this.outer);
    let entered: unknown;
    try {
      entered = wrap.enter(this.outer, this.ctx);
    } catch (cause) {
      return this.enterFailed(cause);
    }
    if (!isObservable(entered) && isThenable(entered)) {
      // A Promise cannot be cancelled and has already started: a scope it delivers after the
      // container was abandoned is left at once (`late`), so a client is never leaked.
      this.entering = new PromiseResult<S, unknown>(entered, site, this.ctx, undefined, this.outer, identity, (inner) => this.lateEnter(inner as S));
      return this.afterEnter(this.entering.observable());
    }
    const pending = awaitResult(site, this.ctx, entered, undefined);
    if (pending === undefined) return this.runBody(entered as S);
    return this.afterEnter(pending);
  }

  private afterEnter(pending: Observable<unknown>): Observable<Signal> {
    return chain(
      pending,
      (inner) => this.runBody(inner as S),
      (cause) => this.enterFailed(cause),
    );
  }

  /** No scope, so no `leave`: the container just fails (its context ends with the failure). */
  private enterFailed(cause: unknown): never {
    claim(this);
    const error = this.plan.site.wrap(cause);
    this.ctx.close(error);
    throw error;
  }

  private lateEnter(inner: S): void {
    claim(this);
    this.inner = inner;
    this.leaveDetached(CANCEL, TORN_DOWN);
  }

  private runBody(inner: S): Eventual<Signal> {
    this.inner = inner;
    this.phase = RUNNING;
    const body = (this.body = new Lifetime());
    let signal: Eventual<Signal>;
    try {
      signal = this.plan.body(inner, body);
    } catch (cause) {
      return this.afterError(cause);
    }
    if (!isPending(signal)) return this.afterSignal(signal);
    const pending = signal;
    return new Observable<Signal>((subscriber) => {
      const subscriptions = (this.running = new Subscription());
      subscriptions.add(
        pending.subscribe({
          next: (s) => proceed(subscriber, subscriptions, (s: Signal) => this.afterSignal(s), s),
          error: (e: unknown) => proceed(subscriber, subscriptions, (e: unknown) => this.afterError(e), e),
        }),
      );
      return () => {
        subscriptions.unsubscribe();
        // Unsubscribed while the body still ran; after a signal this teardown is just the end of
        // delivery, and a stream's ending belongs to the stream's dispose (deferToStream).
        if (this.phase === RUNNING) this.close(TORN_DOWN);
      };
    });
  }

  private afterSignal(signal: Signal): Eventual<Signal> {
    if (signal === undefined) return this.leaveAwaited(DONE, undefined, (value) => this.store(value));
    if (signal.kind === 'stream') return this.deferToStream(signal);
    return this.leaveAwaited({ kind: 'exit', outcome: signal }, undefined, () => signal);
  }

  private afterError(cause: unknown): Eventual<Signal> {
    const error = this.plan.site.wrap(cause);
    return this.leaveAwaited({ kind: 'error', error }, error, () => {
      throw error;
    });
  }

  /** On 'done', `leave`'s value is the container's output. */
  private store(value: unknown): Signal {
    const { name } = this.plan;
    if (name !== undefined && value !== undefined) this.outer.steps[name] = value;
    return undefined;
  }

  /**
   * 'done', 'exit', 'error': `leave` is awaited; `exitWith(payload)` from it turns any of them into
   * an exit, else `after` maps its value to the container's signal. `reason` is why the body ended
   * (undefined when it ended normally), given to the releases of the body and of the container.
   */
  private leaveAwaited(ending: Ending, reason: unknown, after: (value: unknown) => Signal): Eventual<Signal> {
    claim(this);
    this.body?.close(reason);
    const { wrap, site } = this.plan;
    if (wrap.leave === undefined) return this.left(undefined, reason, after);
    let result: unknown;
    try {
      result = wrap.leave(this.inner!, ending, this.ctx);
    } catch (cause) {
      const error = site.wrap(cause);
      this.ctx.close(error);
      throw error;
    }
    const pending = awaitResult(site, this.ctx, result, undefined, undefined, (_scope, value) => this.left(value, reason, after));
    if (pending === undefined) return this.left(result, reason, after);
    return pending;
  }

  private left(value: unknown, reason: unknown, after: (value: unknown) => Signal): Signal {
    this.ctx.close(reason);
    return value instanceof ExitSignal ? exitOutcome(this.plan.site.info, value.payload) : after(value);
  }

  /**
   * The body ended with a stream: the container is left when the stream is disposed (`end` says
   * how), or when the lifetime it runs in ends if the stream is never read.
   */
  private deferToStream(outcome: StreamOutcome): StreamOutcome {
    this.phase = STREAMING;
    this.stream = outcome;
    return onStreamEnd(outcome, (end, error) => this.endStream(end, error, end === 'complete' ? undefined : end === 'error' ? error : TORN_DOWN));
  }

  private endStream(end: StreamEnd, error: unknown, reason: unknown): void {
    if (!claim(this)) return;
    const outcome = this.stream!;
    this.leaveDetached(end === 'error' ? { kind: 'stream', outcome, end, error } : { kind: 'stream', outcome, end }, reason);
  }

  /** Teardown endings ('cancel', 'stream'): nobody waits for `leave`; its failures are reported, never thrown. */
  private leaveDetached(ending: Ending, reason: unknown): void {
    this.body?.close(reason);
    const { wrap, site } = this.plan;
    const ctx = this.ctx;
    if (wrap.leave === undefined) return ctx.close(reason);
    const fail = (cause: unknown): void => {
      site.report(cause);
      ctx.close(reason);
    };
    try {
      const result = wrap.leave(this.inner!, ending, ctx);
      if (isObservable(result)) result.subscribe({ error: fail, complete: () => ctx.close(reason) });
      else if (isThenable(result)) result.then(() => ctx.close(reason), fail);
      else ctx.close(reason);
    } catch (cause) {
      fail(cause);
    }
  }

  /**
   * The end of the lifetime this container runs in, or the teardown of its body's subscription.
   * Running: the body ends first (its steps' signals, its own subscriptions), then `leave(cancel)`.
   */
  close(reason: unknown): void {
    if (this.phase === STREAMING) return this.endStream('cancel', undefined, reason);
    if (!claim(this)) return;
    if (this.phase === ENTERING) {
      this.entering?.abandon(reason);
      this.ctx.close(reason);
      return;
    }
    this.body?.close(reason);
    this.running?.unsubscribe();
    this.leaveDetached(CANCEL, reason);
  }
}
