/**
 * `stream "<format>"` as a graph sink (SPEC.md §4.3): evaluates `source` to something that can be
 * pulled (a list computed by an expression, or a step's `stream` output: a cursor, a subscription,
 * an upstream body) and ends the run with a stream outcome the HTTP edge writes on demand. The
 * encoding (format, framing options, the `id` expression, the `schema` mask) is built here, once.
 */
import { isLiveSource, isPulledSource, type PulledSource, type SinkNodeDef, type SourceTraits } from '../../../graph/index.js';
import type { Expr } from '../../model/index.js';
import { compileMask } from '../../schema/index.js';
import { createEncoding, type StreamEncoding } from '../../stream/index.js';
import type { EndpointScope } from '../contract.js';
import type { CompileEnv, NodeCompiler } from '../definition.js';
import { checkHeaders } from '../headers.js';
import { ResumedSource } from './resume.js';
import type { StreamStepSpec } from './spec.js';

/** What the sink hands the HTTP edge besides the source. */
export interface StreamPayload {
  readonly encoding: StreamEncoding;
  readonly headers: Readonly<Record<string, string>> | undefined;
}

/** A stream step failed at run time (a source that is no sequence, bad headers, bad `when`). */
export class StreamStepError extends Error {
  override readonly name = 'StreamStepError';
}

const fail = (message: string): Error => new StreamStepError(message);

export const compileStream: NodeCompiler<StreamStepSpec> = (spec, env) => {
  const encoding = encodingOf(spec);
  if (typeof encoding === 'string') {
    env.error(spec, 'Invalid stream step', encoding);
    return undefined;
  }
  const { source, headers, when, replay } = spec;
  if (replay && !replayRunsAfterLive(spec, replay, env)) return undefined;
  const resume = replay ? resumeOf(spec, replay) : undefined;
  let fixedHeaders: Record<string, string> | undefined;
  if (headers?.constant) {
    try {
      fixedHeaders = checkHeaders(headers.evaluate({}), fail);
    } catch (error) {
      env.error(spec, 'Invalid stream step', (error as Error).message);
      return undefined;
    }
  }
  const node: SinkNodeDef<EndpointScope> = {
    type: 'sink',
    kind: 'stream',
    id: env.idOf(spec),
    label: spec.format,
    reads: env.readsOf([source, headers, when, replay, spec.lastEventId]),
    meta: spec,
    ...(when ? { condition: (scope: EndpointScope) => checkWhen(when.evaluate(scope)) } : {}),
    run(scope) {
      const items = source.evaluate(scope);
      if (!isPulledSource(items) || typeof items === 'string') {
        throw new StreamStepError(`source must be a list or a step's stream, got ${describe(items)}`);
      }
      const payload: StreamPayload = {
        encoding,
        headers: headers === undefined ? undefined : headers.constant ? fixedHeaders : checkHeaders(headers.evaluate(scope), fail),
      };
      return { source: resume ? resume(items, scope) : items, payload };
    },
  };
  return node;
};

/**
 * The live source is joined when its step runs, and the replay's snapshot taken when the replay's
 * step runs (a query, a range read): the live step must run first, or what is published between
 * the two is in neither. Steps run in their declared order, so the replay's steps must be declared
 * after the live source's.
 */
function replayRunsAfterLive(spec: StreamStepSpec, replay: Expr, env: CompileEnv): boolean {
  const liveSteps = env.readsOf([spec.source]);
  const replaySteps = env.readsOf([replay]).filter((name) => !liveSteps.includes(name));
  for (const live of liveSteps) {
    const liveAt = env.orderOf(live);
    for (const missed of replaySteps) {
      const missedAt = env.orderOf(missed);
      if (liveAt === undefined || missedAt === undefined || missedAt > liveAt) continue;
      env.error(
        spec,
        'Replay read before its live source',
        `The replay comes from step "${missed}", declared before the live source's step "${live}": what is published between the two would be missed. Declare "${missed}" after "${live}".`,
        replay.range,
      );
      return false;
    }
  }
  return true;
}

/** Wraps the live source in one that sends the replay first (./resume.ts). */
function resumeOf(spec: StreamStepSpec, replay: Expr): (live: PulledSource, scope: EndpointScope) => ResumedSource {
  const idOf = itemExpression(spec.id!);
  const lastEventId = spec.lastEventId;
  return (live, scope) => {
    if (!isLiveSource(live) || !(Symbol.asyncIterator in live))
      throw new StreamStepError(`source must be a live source (a subscription) when the stream has replay, got ${describe(live)}`);
    const missed = replay.evaluate(scope);
    if (!isPulledSource(missed) || typeof missed === 'string') {
      throw new StreamStepError(`replay must be a list or a step's stream, got ${describe(missed)}`);
    }
    return new ResumedSource({
      live: live as AsyncIterable<unknown> & SourceTraits,
      replay: missed,
      idOf,
      lastEventId: lastEventId ? lastEventId.evaluate(scope) : scope.ctx.request.headers['last-event-id'],
    });
  };
}

/** The step's encoding, or why its options cannot be sent (an event name with a line break). */
function encodingOf(spec: StreamStepSpec): StreamEncoding | string {
  try {
    return createEncoding({
      format: spec.format,
      contentType: spec.contentType,
      ...(spec.event !== undefined ? { event: spec.event } : {}),
      ...(spec.retryMs !== undefined ? { retryMs: spec.retryMs } : {}),
      ...(spec.heartbeatMs !== undefined ? { heartbeatMs: spec.heartbeatMs } : {}),
      flushEvery: spec.flushEvery,
      ...(spec.columns ? { columns: spec.columns } : {}),
      ...(spec.neutralizeFormulas ? { neutralizeFormulas: true } : {}),
      ...(spec.maxBacklogBytes !== undefined ? { maxBacklogBytes: spec.maxBacklogBytes } : {}),
      ...(spec.id ? { idOf: itemExpression(spec.id) } : {}),
      ...(spec.eventOf ? { eventOf: itemExpression(spec.eventOf) } : {}),
      ...(spec.replay ? { resumable: true } : {}),
      ...(spec.schema ? { mask: compileMask(spec.schema) } : {}),
    });
  } catch (error) {
    return (error as Error).message;
  }
}

/** The `id` or `event` expression, a function of the item alone (its only root is `item`: ITEM_ROOTS). */
function itemExpression(expr: Expr): (item: unknown) => unknown {
  return (item) => expr.evaluate({ item });
}

function checkWhen(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  // A missing value in dynamic data is null (DECISIONS.md §2): the guard does not hold.
  if (value === null || value === undefined) return false;
  throw new StreamStepError(`when must be a bool, got ${typeof value}`);
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return 'an object (a map)';
  return `a ${typeof value}`;
}
