/**
 * Where CORS goes on each route (server.ts asks, cors.ts says why): first among a route's hooks when
 * it has any, otherwise at the start of its handler; the policy also in the route's config, for the
 * error handler. Policies are compiled once per manifest block (every endpoint inheriting the
 * server's shares one), apart for rate-limited endpoints, which expose their rate-limit fields.
 */
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { CorsModel } from '../model/index.js';
import type { CompiledEndpoint } from '../steps/index.js';
import { applyCors, compileCors, corsHook, type CorsPolicy } from './cors.js';
import { type PathPreflight, pathPreflight, preflightHook, preflightOr } from './cors-preflight.js';
import type { Logger } from './log.js';
import { allowedMethods } from './methods.js';

type Handler = (request: FastifyRequest, reply: FastifyReply) => void;

export interface RouteCors {
  /** Spread into the route's options: its hooks with CORS's first, and the config. */
  readonly options: { onRequest?: onRequestHookHandler[]; config?: { svcCors: CorsPolicy } };
  /** The policy the handler applies itself (the route has no hook to do it). */
  readonly inHandler?: CorsPolicy;
}

export interface CorsPolicies {
  /** The server block's policy: 404 answers. */
  readonly server: CorsPolicy | undefined;
  ofEndpoint(endpoint: CompiledEndpoint): CorsPolicy | undefined;
  ofDocs(model: CorsModel | undefined): CorsPolicy | undefined;
  preflightOf(endpoints: readonly CompiledEndpoint[], docs: readonly { method: string; cors?: CorsModel }[]): PathPreflight | undefined;
  forRoute(policy: CorsPolicy | undefined, hooks: onRequestHookHandler[] | undefined, preflight: PathPreflight | undefined): RouteCors;
  /** `handler` with the policy's headers set first; `handler` itself without a policy. */
  around(policy: CorsPolicy | undefined, handler: Handler): Handler;
  /** The 405 route's handler: preflights answered, the rest as `handler` with the path's policy (when it has one). */
  preflightOr(preflight: PathPreflight | undefined, handler: Handler): Handler;
}

export function corsPolicies(logger: Logger, serverModel: CorsModel | undefined): CorsPolicies {
  const compiled = new Map<CorsModel, [CorsPolicy | undefined, CorsPolicy | undefined]>();
  const compile = (model: CorsModel | undefined, rateLimited: boolean): CorsPolicy | undefined => {
    if (model === undefined) return undefined;
    let pair = compiled.get(model);
    if (pair === undefined) compiled.set(model, (pair = [undefined, undefined]));
    const i = rateLimited ? 1 : 0;
    return (pair[i] ??= compileCors(model, logger, { rateLimited }));
  };
  const ofEndpoint = (endpoint: CompiledEndpoint): CorsPolicy | undefined => compile(endpoint.cors, endpoint.rateLimit !== undefined);
  const server = compile(serverModel, false);
  return {
    server,
    ofEndpoint,
    ofDocs: (model) => compile(model, false),
    preflightOf(endpoints, docs) {
      const declared = [
        ...endpoints.map((e) => ({ method: e.method, cors: ofEndpoint(e) })),
        ...docs.map((d) => ({ method: d.method, cors: compile(d.cors, false) })),
      ];
      return pathPreflight(declared, allowedMethods(declared.map((d) => d.method)));
    },
    forRoute(policy, hooks, preflight) {
      const first: onRequestHookHandler[] = preflight !== undefined ? [preflightHook(preflight)] : [];
      const config = policy !== undefined ? { config: { svcCors: policy } } : {};
      if (first.length === 0 && (hooks === undefined || hooks.length === 0)) return { options: config, ...(policy ? { inHandler: policy } : {}) };
      return { options: { onRequest: [...first, ...(policy !== undefined ? [corsHook(policy)] : []), ...(hooks ?? [])], ...config } };
    },
    around(policy, handler) {
      if (policy === undefined) return handler;
      return (request, reply) => {
        applyCors(policy, request, reply);
        handler(request, reply);
      };
    },
    preflightOr(preflight, handler) {
      // A path none of whose endpoints allows cross-origin requests answers OPTIONS as before (405).
      if (preflight === undefined) return handler;
      // Its 405 answers carry the policy of its first endpoint that has one: a page learns the method is wrong.
      return preflightOr(preflight, preflight.values().next().value!.policy, handler);
    },
  };
}
