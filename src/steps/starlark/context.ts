/**
 * A script's `ctx`, on both sides of the pool. On the event loop (`contextPlan`): only the members
 * the program's static reads of `ctx` can reach (src/starlark reads.ts) are sent, the others as
 * `undefined` (names kept for dir() and did-you-mean), so a script reading the body does not copy
 * every step's rows across threads; one that passes `ctx` whole or reads it by a computed name gets
 * all of it. In the worker (`contextValue`): struct-like values converted on first read; the
 * request's and steps' dicts read `d.key` as `d["key"]` where no dict method has that name (as
 * hclapi's Starlark does).
 */
import { type ConvertLimits, DEFAULT_CONVERT_LIMITS, fromJS, headersFromJS, lazyStruct, type Reads, type Value } from '../../starlark/index.js';
import type { EndpointScope } from '../contract.js';
import type { CallContext } from './protocol.js';

/** Builds, per call, the data of `ctx` a script can read. */
export type ContextPlan = (scope: EndpointScope) => CallContext;

export function contextPlan(reads: Reads): ContextPlan {
  const top = (name: string): Reads | undefined => (reads === 'all' ? 'all' : reads.get(name));
  const request = top('request');
  const steps = top('steps');
  const want = {
    method: wants(request, 'method'),
    path: wants(request, 'path'),
    query: wants(request, 'query'),
    headers: wants(request, 'headers'),
    body: wants(request, 'body'),
    timestamp_epoch: top('timestamp_epoch') !== undefined,
    request_id: top('request_id') !== undefined,
    auth: top('auth') !== undefined,
  };
  const stepNames = steps === undefined || steps === 'all' ? undefined : new Set(steps.keys());
  return (scope) => {
    const { ctx } = scope;
    const r = ctx.request;
    return {
      request:
        request === undefined
          ? undefined
          : {
              method: want.method ? r.method : undefined,
              path: want.path ? r.path : undefined,
              query: want.query ? r.query : undefined,
              headers: want.headers ? (r.headers as Record<string, string | string[] | undefined>) : undefined,
              body: want.body ? (r.body ?? null) : undefined,
            },
      timestamp_epoch: want.timestamp_epoch ? ctx.timestamp_epoch : undefined,
      request_id: want.request_id ? ctx.request_id : undefined,
      // The guard that admitted the request: { guard, type, principal, claims }; None when public.
      auth: want.auth ? (ctx.auth ?? null) : undefined,
      steps: steps === undefined ? undefined : stepNames === undefined ? scope.steps : onlySteps(scope.steps, stepNames),
    };
  };
}

/** Whether member `name` of a part the script reads as `part` can be read. */
function wants(part: Reads | undefined, name: string): boolean {
  return part === 'all' || part?.has(name) === true;
}

/** Every step's name, with the outputs of those the script reads. */
function onlySteps(steps: Record<string, unknown>, read: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(steps)) {
    const value = read.has(name) ? steps[name] : undefined;
    if (name === '__proto__') Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    else out[name] = value;
  }
  return out;
}

/** The `ctx` value a script receives, from the data sent (undefined parts are None: never read). */
export function contextValue(data: CallContext): Value {
  return lazyStruct(data as unknown as Record<string, unknown>, (value, name) => {
    if (name === 'request' && isRecord(value))
      return lazyStruct(value, (v, n) => (n === 'headers' && isRecord(v) ? headersFromJS(v as Record<string, string>) : fromJS(v, FIELDS)));
    if (name === 'steps' && isRecord(value)) return lazyStruct(value, (v) => fromJS(v, FIELDS));
    return fromJS(value);
  });
}

/**
 * The request's and the steps' dicts, nested ones too, read `d.name` as `d["name"]` as well
 * (`ctx.request.body.email`, as manifests written for hclapi do): marked as they are converted.
 */
const FIELDS: ConvertLimits = { ...DEFAULT_CONVERT_LIMITS, keysAsFields: true };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
