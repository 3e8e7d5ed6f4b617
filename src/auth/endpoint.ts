/**
 * An endpoint's guards compiled into one check (SPEC.md §5, DECISIONS.md §1 and §4): the request is
 * admitted when any guard admits it. Each guard is compiled once per service and shared by every
 * endpoint that lists it (a JWT guard's key-set cache included).
 *
 * When none admits, the refusal that says most wins: a 403 (a verified token lacking a claim), then a
 * 503 (keys that could not be fetched), then a wrong credential, then a missing one.
 */
import type { AuthModel } from '../model/index.js';
import { apiKeyGuard } from './api-key.js';
import { basicGuard } from './basic.js';
import { bearerGuard } from './bearer.js';
import type { KeySetLimits } from './jwks.js';
import { Refusal, type AuthContext, type GuardCheck, type GuardInput, type GuardResult } from './types.js';

export interface EndpointGuard {
  /** The guard names, in declared order. */
  readonly guards: readonly string[];
  /**
   * `WWW-Authenticate` values of a 401, one per scheme: `Basic realm="<title>", charset="UTF-8"`,
   * `Bearer realm="<title>"`; API keys have no challenge, so an endpoint guarded by keys alone has none.
   */
  readonly challenges: readonly string[];
  /** Query parameters that carry credentials (API keys): redacted from log lines. */
  readonly secretQueryParams: readonly string[];
  /** Synchronous unless a JWT must be verified. Never rejects. */
  check(input: GuardInput): AuthContext | Refusal | Promise<AuthContext | Refusal>;
}

export interface GuardSource {
  readonly auths: ReadonlyMap<string, AuthModel>;
  /** The API title: the realm of the challenges. */
  readonly openapi: { readonly title: string };
}

export interface GuardOptions {
  /** Key-set fetching limits of JWT guards (tests shorten them). */
  readonly keySetLimits?: KeySetLimits;
}

const COMPILED = new WeakMap<ReadonlyMap<string, AuthModel>, Map<string, GuardCheck>>();

/** The check of an endpoint listing `names`; undefined for a public endpoint (`auth = []`). */
export function compileEndpointGuard(names: readonly string[], source: GuardSource, options: GuardOptions = {}): EndpointGuard | undefined {
  if (names.length === 0) return undefined;
  let compiled = COMPILED.get(source.auths);
  if (!compiled) COMPILED.set(source.auths, (compiled = new Map()));
  const models = names.map((name) => {
    const model = source.auths.get(name);
    // The model checks every reference; a missing guard here is a bug, and must not open the door.
    if (!model) throw new Error(`guard "${name}" is not declared`);
    return model;
  });
  const checks = models.map((model) => {
    let check = compiled.get(model.name);
    if (!check) compiled.set(model.name, (check = compileGuard(model, options)));
    return check;
  });
  const realm = quoted(source.openapi.title);
  const challenges = [
    ...new Set(models.flatMap((m) => (m.type === 'basic' ? [`Basic realm=${realm}, charset="UTF-8"`] : m.type === 'bearer' ? [`Bearer realm=${realm}`] : []))),
  ];
  const secretQueryParams = models.flatMap((m) => (m.type === 'api_key' && m.query !== undefined ? [m.query] : []));
  return { guards: names, challenges, secretQueryParams, check: checks.length === 1 ? checks[0]! : anyOf(checks) };
}

function compileGuard(model: AuthModel, options: GuardOptions): GuardCheck {
  switch (model.type) {
    case 'basic':
      return basicGuard(model);
    case 'bearer':
      return bearerGuard(model, options.keySetLimits);
    case 'api_key':
      return apiKeyGuard(model);
  }
}

/** Any of several guards: the synchronous ones decide alone when one admits. */
function anyOf(checks: readonly GuardCheck[]): GuardCheck {
  return (input) => {
    let refusal: Refusal | undefined;
    let pending: Promise<GuardResult>[] | undefined;
    for (const check of checks) {
      const result = check(input);
      if (result instanceof Promise) (pending ??= []).push(result);
      else if (!(result instanceof Refusal)) return result;
      else refusal = stronger(refusal, result);
    }
    if (!pending) return refusal!;
    return Promise.all(pending).then((results) => {
      for (const result of results) {
        if (!(result instanceof Refusal)) return result;
        refusal = stronger(refusal, result);
      }
      return refusal!;
    });
  };
}

function rank(r: Refusal): number {
  return r.status === 403 ? 3 : r.status === 503 ? 2 : r.presented ? 1 : 0;
}

function stronger(a: Refusal | undefined, b: Refusal): Refusal {
  return a === undefined || rank(b) > rank(a) ? b : a;
}

/** An RFC 9110 quoted-string; what cannot appear in a header becomes "?". */
function quoted(text: string): string {
  return `"${text.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&')}"`;
}
