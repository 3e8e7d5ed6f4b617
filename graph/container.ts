import { Observable, Subscription, type Subscriber, isObservable } from 'rxjs';
import type { RunState } from './cancel.js';
import { StepError, type ErrorWrapper } from './errors.js';
import { ExitSignal, exitOutcome } from './exit.js';
import { chain, isPending, onStreamEnd, proceed, type Eventual, type Exec, type Signal } from './exec.js';
import { awaitResult, isThenable } from './step.js';
import type { ContainerNodeDef, Ending, GraphScope, StepInfo, StreamOutcome } from './types.js';

const DONE: Ending = { kind: 'done' };
const CANCEL: Ending = { kind: 'cancel' };

/**
 * A container (e.g. `transaction`): `wrap.enter` → body → `wrap.leave(ending)`.
 *
 * Guarantee: once `enter` has produced a scope, `leave` is called exactly once, whatever happens:
 * 'done', 'exit', 'error' (awaited before the container's own result); 'stream' when the body
 * ended with a stream, deferred to the end of the stream's subscription because the stream may
 * still need what the container holds (a cursor on the transaction's client); or 'cancel' when
 * the run is torn down while the body is still running (unsubscribe, a failing parallel sibling,
 * time-out, client gone) or while a Promise-based `enter` is still pending (the resource arrives
 * after nobody wants it and is given straight back).
 */
export function compileContainer<S extends GraphScope>(
  def: ContainerNodeDef<S>,
  info: StepInfo,
  body: Exec<S>,
  wrap: ErrorWrapper,
  onTeardownError: (error: StepError) => void,
): Exec<S> {
  const { enter, leave } = def.wrap;
  const name = def.name;

  /** `leave`'s value: `exitWith(payload)` turns any awaited ending into an exit; else `after` maps it. */
  const left = (value: unknown, after: (value: unknown) => Signal): Signal =>
    value instanceof ExitSignal ? exitOutcome(info, value.payload) : after(value);

  /** Runs `leave` for a settled body; `after` maps its value (unless an exit) to the container's signal. */
  const finish = (inner: S, rt: RunState, ending: Ending, after: (value: unknown) => Signal): Eventual<Signal> => {
    if (leave === undefined) return after(undefined);
    let result: unknown;
    try {
      result = leave(inner, ending, rt);
    } catch (cause) {
      throw wrap(cause);
    }
    const pending = awaitResult(info, result, wrap, undefined);
    if (pending === undefined) return left(result, after);
    return chain(pending, (value) => left(value, after));
  };

  const afterSignal = (scope: S, inner: S, rt: RunState, signal: Signal): Eventual<Signal> => {
    if (signal === undefined) {
      return finish(inner, rt, DONE, (value) => {
        if (name !== undefined && value !== undefined) scope.steps[name] = value;
        return undefined;
      });
    }
    if (signal.kind === 'stream') return deferToStream(inner, rt, signal);
    return finish(inner, rt, { kind: 'exit', outcome: signal }, () => signal);
  };

  const afterError = (inner: S, rt: RunState, cause: unknown): Eventual<Signal> => {
    const error = wrap(cause);
    return finish(inner, rt, { kind: 'error', error }, () => {
      throw error;
    });
  };

  /** Teardown paths: nobody waits for `leave`; its failures are reported, never thrown. */
  const leaveUnawaited = (inner: S, rt: RunState, ending: Ending): void => {
    if (leave === undefined) return;
    const report = (cause: unknown) => onTeardownError(wrap(cause));
    try {
      const result = leave(inner, ending, rt);
      if (isObservable(result)) result.subscribe({ error: report });
      else if (isThenable(result)) result.then(undefined, report);
    } catch (cause) {
      report(cause);
    }
  };
  const cancel = (inner: S, rt: RunState): void => leaveUnawaited(inner, rt, CANCEL);

  /**
   * The body ended with a stream: the container is left when the stream's subscription ends
   * (`end` says how), or at the run's end if the stream is never subscribed.
   */
  const deferToStream = (inner: S, rt: RunState, outcome: StreamOutcome): StreamOutcome => {
    let left = false;
    const leaveOnce = (end: 'complete' | 'error' | 'cancel', error?: unknown) => {
      if (left) return;
      left = true;
      deregister();
      leaveUnawaited(inner, rt, { kind: 'stream', outcome, end, ...(end === 'error' ? { error } : {}) });
    };
    const deregister = rt.onAbort(() => leaveOnce('cancel'));
    return onStreamEnd(outcome, leaveOnce);
  };

  const runBody = (scope: S, inner: S, rt: RunState): Eventual<Signal> => {
    let signal: Eventual<Signal>;
    try {
      signal = body(inner, rt);
    } catch (cause) {
      return afterError(inner, rt, cause);
    }
    if (!isPending(signal)) return afterSignal(scope, inner, rt, signal);
    const running = signal;
    let settled = false;
    // Reached by the run's end even if the Observable below is never subscribed (a parallel branch
    // abandoned because a sibling failed synchronously).
    const deregister = rt.onAbort(() => {
      if (settled) return;
      settled = true;
      cancel(inner, rt);
    });
    return new Observable<Signal>((subscriber) => {
      const subscriptions = new Subscription();
      subscriptions.add(
        running.subscribe({
          next(s) {
            settled = true;
            deregister();
            proceed(subscriber, subscriptions, (signal: Signal) => afterSignal(scope, inner, rt, signal), s);
          },
          error(e: unknown) {
            settled = true;
            deregister();
            proceed(subscriber, subscriptions, (cause: unknown) => afterError(inner, rt, cause), e);
          },
        }),
      );
      return () => {
        subscriptions.unsubscribe();
        if (!settled) {
          settled = true;
          deregister();
          cancel(inner, rt);
        }
      };
    });
  };

  return (scope, rt) => {
    if (enter === undefined) return runBody(scope, scope, rt);
    let entered: unknown;
    try {
      entered = enter(scope, rt);
    } catch (cause) {
      throw wrap(cause);
    }
    if (!isObservable(entered) && isThenable(entered)) return enterLater(entered as PromiseLike<S>, scope, rt);
    const pending = awaitResult(info, entered, wrap, undefined);
    if (pending === undefined) return runBody(scope, entered as S, rt);
    return chain(pending, (inner) => runBody(scope, inner as S, rt));
  };

  /**
   * A Promise-based `enter` cannot be cancelled, and it has already started. If the run is torn
   * down (or this continuation abandoned) before it resolves, the late scope is left at once.
   */
  function enterLater(promise: PromiseLike<S>, scope: S, rt: RunState): Eventual<Signal> {
    let receiver: Subscriber<S> | undefined;
    let value: { inner: S } | undefined;
    let failure: { cause: unknown } | undefined;
    let delivered = false;
    let dropped = false;
    const drop = () => {
      if (delivered || dropped) return;
      dropped = true;
      if (value !== undefined) cancel(value.inner, rt);
    };
    const deregister = rt.onAbort(drop);
    const deliver = (to: Subscriber<S>) => {
      deregister();
      if (value !== undefined) {
        delivered = true;
        to.next(value.inner);
        to.complete();
      } else if (failure !== undefined) {
        dropped = true;
        to.error(wrap(failure.cause));
      }
    };
    promise.then(
      (inner) => {
        if (dropped) return cancel(inner, rt);
        value = { inner };
        if (receiver !== undefined) deliver(receiver);
      },
      (cause: unknown) => {
        if (dropped) return;
        failure = { cause };
        if (receiver !== undefined) deliver(receiver);
      },
    );
    const later = new Observable<S>((subscriber) => {
      receiver = subscriber;
      if (value !== undefined || failure !== undefined) deliver(subscriber);
      return () => {
        receiver = undefined;
        drop();
      };
    });
    return chain(later, (inner) => runBody(scope, inner, rt));
  }
}
