import { awaitResult, type Then } from './await.js';
import { StepContext, type Lifetime } from './cancel.js';
import { Category, StepError, type Site } from './errors.js';
import { chain, isPending, type Eventual, type Exec, type Signal } from './exec.js';
import { ExitSignal, Value, exitOutcome } from './result.js';
import type { ContinueOnError, GraphScope, RunContext, StepNodeDef } from './types.js';

/**
 * Calls `run` with a fresh context of its own and hands its value to `then`, synchronously when
 * the value is synchronous. Shared by steps, exits and sinks. `then` receives values unwrapped from
 * `asValue()`. A node that fails ends its context before the error leaves this function; one that
 * succeeds keeps it until its lifetime ends (its output may be a stream opened with its signal).
 */
export function invoke<S extends GraphScope, R>(
  site: Site,
  run: (scope: S, ctx: RunContext) => unknown,
  timeoutMs: number | undefined,
  then: Then<S, R>,
  scope: S,
  life: Lifetime,
): Eventual<R> {
  const ctx = new StepContext(site, life);
  let result: unknown;
  try {
    result = run(scope, ctx);
  } catch (cause) {
    const error = site.wrap(cause);
    ctx.close(error);
    throw error;
  }
  if (result instanceof Value) return thenNow(ctx, then, scope, result.value);
  const pending = awaitResult(site, ctx, result, timeoutMs, scope, then);
  if (pending === undefined) return thenNow(ctx, then, scope, result);
  return pending;
}

function thenNow<S, R>(ctx: StepContext, then: Then<S, R>, scope: S, value: unknown): R {
  try {
    return then(scope, value);
  } catch (e) {
    ctx.close(e);
    throw e;
  }
}

/** A plain step: run, store the output under its name, carry on (or exit when asked to). */
export function compileStep<S extends GraphScope>(def: StepNodeDef<S>, site: Site): Exec<S> {
  const { name, run, timeout, continueOnError } = def;
  const { info } = site;
  if (continueOnError !== undefined) return continuingStep(def, site, continueOnError);
  const store = (scope: S, value: unknown): Signal => {
    if (value instanceof ExitSignal) return exitOutcome(info, value.payload);
    scope.steps[name] = value;
    return undefined;
  };
  return (scope, life) => invoke(site, run, timeout, store, scope, life);
}

/**
 * A step whose own failure becomes its output (StepNodeDef.continueOnError). Its failure has ended
 * its context already (invoke); a cancellation is not its failure and travels on.
 */
function continuingStep<S extends GraphScope>(def: StepNodeDef<S>, site: Site, outputs: ContinueOnError): Exec<S> {
  const { name, run, timeout } = def;
  const { info } = site;
  const store = (scope: S, value: unknown): Signal => {
    if (value instanceof ExitSignal) return exitOutcome(info, value.payload);
    scope.steps[name] = outputs.succeeded(value);
    return undefined;
  };
  const recover = (scope: S, cause: unknown): Signal => {
    if (!(cause instanceof StepError) || cause.category === Category.cancelled) throw cause;
    scope.steps[name] = outputs.failed(cause);
    return undefined;
  };
  return (scope, life) => {
    let result: Eventual<Signal>;
    try {
      result = invoke(site, run, timeout, store, scope, life);
    } catch (cause) {
      return recover(scope, cause);
    }
    return isPending(result) ? chain(result, passOn, (cause) => recover(scope, cause)) : result;
  };
}

const passOn = (signal: Signal): Signal => signal;

/**
 * A terminal node (exit, sink) behind its optional condition: the condition is evaluated
 * synchronously; when false the node is skipped (undefined: the sequence carries on, and no
 * context is made), otherwise the node's run is invoked and its result becomes the outcome.
 */
export function guardedInvoke<S extends GraphScope, R extends Signal>(
  condition: ((scope: S) => boolean) | undefined,
  site: Site,
  run: (scope: S, ctx: RunContext) => unknown,
  timeout: number | undefined,
  toOutcome: Then<S, R>,
): Exec<S> {
  return (scope, life) => {
    if (condition !== undefined) {
      let pass: boolean;
      try {
        pass = condition(scope);
      } catch (cause) {
        throw site.wrap(cause);
      }
      if (!pass) return undefined;
    }
    return invoke(site, run, timeout, toOutcome, scope, life);
  };
}
