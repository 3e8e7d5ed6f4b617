/**
 * Builds the Fastify instance of a compiled service. Everything is decided here, at boot: routes,
 * 405 routes with their `Allow`, validators, error mapping. Requests only run.
 */
import { fastify, type FastifyInstance } from 'fastify';
import type { ConnectorSet } from '../connectors/index.js';
import type { CorsModel } from '../model/index.js';
import type { CompiledEndpoint } from '../steps/index.js';
import { installRawBodyParser } from './body.js';
import { compileRepresentation } from './compress-reply.js';
import { corsPolicies } from './cors-routes.js';
import type { DocsSite } from './docs.js';
import { clientErrorHandler, errorHandler, frameworkErrorHandler, notFoundHandler } from './errors.js';
import { guardHook } from './guard.js';
import { makeHandler } from './handler.js';
import { requestLogger, type Logger } from './log.js';
import { countingRequests, type ServiceMetrics } from './metrics.js';
import { installMetricsRoute } from './metrics-route.js';
import { arriveTraced, tracedRequests } from './tracing.js';
import { type HealthOptions, installHealthRoutes } from './health.js';
import { allowedMethods, methodNotAllowedHandler, notAllowedMethods } from './methods.js';
import { createNodeServer } from './node-server.js';
import { transportOf, type TlsFiles } from './tls.js';
import { pathShape, toRoutePath } from './paths.js';
import { installRateLimits, routeHooks } from './rate-limit.js';
import { NO_ROUTE_SCHEMAS } from './route-schemas.js';
import { arrive } from './note.js';
import { serveStaticFile, type StaticFile } from './static-file.js';
import { OpenStreams } from './stream-reply.js';
import type { ConnectionStates } from './connection-states.js';
import { compileValidator, declaresJsonBody } from './validation.js';

export interface ServerOptions {
  readonly endpoints: readonly CompiledEndpoint[];
  /** Documentation endpoints and the files they serve (docs.ts). */
  readonly docs?: readonly DocsSite[];
  /** `server.max_body_size` in bytes. */
  readonly bodyLimit: number;
  /** `server.request_timeout` in milliseconds. */
  readonly requestTimeoutMs: number;
  readonly logger: Logger;
  /** `server.access_log`: false drops the request lines logged at `info` (log.ts); default true. */
  readonly accessLog?: boolean;
  /** `server.metrics`: the page's path and the process's registry (metrics.ts); absent, metrics are off. */
  readonly metrics?: { readonly path: string; readonly metrics: ServiceMetrics; readonly connectors?: ConnectorSet };
  /** `server { health { live, ready } }`: the probes' paths and the readiness check (health.ts); absent, none. */
  readonly health?: HealthOptions;
  /** `server.cors`: the policy of the 404 answers, which belong to no endpoint (cors.ts). */
  readonly cors?: CorsModel;
  /** `server.tls` / `server.h2c`: HTTPS with HTTP/2, or cleartext HTTP/2 (h2-server.ts). */
  readonly tls?: TlsFiles;
  readonly h2c?: boolean;
  /** Tracing is configured (src/tracing): server spans, step spans' parent, trace ids in log lines (tracing.ts). */
  readonly tracing?: boolean;
}

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { logger } = options;
  let connections: ConnectionStates | undefined;
  const app: FastifyInstance = fastify({
    // Logging is ours: one line per request, see log.ts.
    logger: false,
    genReqId: options.tracing === true ? arriveTraced : arrive,
    requestIdHeader: false,
    bodyLimit: options.bodyLimit,
    // Receiving the request (headers and body) is bounded too, so a slow upload cannot hold a
    // connection; Node answers 408, written as a problem by clientErrorHandler. The Node server is
    // built here so that the bound covers the body and a request without Host is a problem too
    // (node-server.ts says why Fastify's own construction does neither).
    serverFactory: (handler) => {
      const built = createNodeServer({ ...transportOf(options), requestTimeoutMs: options.requestTimeoutMs, log: () => app.svcLogLine }, handler);
      connections = built.connections;
      return built.server;
    },
    requestTimeout: options.requestTimeoutMs,
    // Fastify's 503-while-closing body is not a problem record; in-flight and late requests are
    // served instead, bounded by the shutdown time-out (lifecycle.ts).
    return503OnClosing: false,
    routerOptions: { maxParamLength: 2048 },
    // No route has a Fastify schema: Fastify's Ajv and serializer compilers are never loaded.
    schemaController: NO_ROUTE_SCHEMAS,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });

  app.decorateRequest('svcNote', null);
  app.decorateRequest('svcAuth', null);
  app.decorateRequest('svcRepresentation', null);
  installRawBodyParser(app);
  // Before any route: limited endpoints get their hooks from it (rate-limit.ts).
  const rateLimits = await installRateLimits(app, options.endpoints, logger);
  app.setErrorHandler(errorHandler);
  const cors = corsPolicies(logger, options.cors);
  app.setNotFoundHandler(cors.around(cors.server, notFoundHandler));

  const docs = (options.docs ?? []).flatMap(docsRoutes);
  // API keys sent in a query string are blanked out of every line's url, whatever the path.
  const guards = [...options.endpoints.map((e) => e.guard), ...docs.map((d) => d.guard)];
  const secretQueryParams = [...new Set(guards.flatMap((g) => g?.secretQueryParams ?? []))];
  const logLine = requestLogger(logger, { secretQueryParams, ...(options.accessLog === false ? { accessLog: false } : {}) });
  const { metrics } = options;
  // With metrics on, every request is counted where its line is written; off, nothing is wrapped.
  const counted = metrics ? countingRequests(logLine, metrics.metrics, routeNames(options.endpoints, docs, metrics.path)) : logLine;
  // With tracing on, each request's spans end where its line is written, and the line carries the trace.
  app.decorate('svcLogLine', options.tracing === true ? tracedRequests(counted, routeTemplates(options.endpoints, docs)) : counted);
  app.decorate('svcStreams', new OpenStreams());
  if (metrics) {
    installMetricsRoute(app, metrics.path, metrics.metrics);
    if (metrics.connectors) metrics.metrics.watchConnections(metrics.connectors);
  }
  if (options.health) {
    checkHealthPaths(options.health, options.endpoints);
    installHealthRoutes(app, options.health);
  }
  app.decorate('svcConnections', connections!);

  // Routes grouped by path shape (parameter names aside: `/a/{x}` and `/a/{y}` are one path to the
  // router), so each path's 405 route knows all its methods, documentation routes' included.
  const byShape = new Map<string, { endpoints: CompiledEndpoint[]; docs: DocsRoute[] }>();
  const shapeOf = (path: string) => {
    const shape = pathShape(path);
    let group = byShape.get(shape);
    if (group === undefined) byShape.set(shape, (group = { endpoints: [], docs: [] }));
    return group;
  };
  for (const endpoint of options.endpoints) shapeOf(endpoint.path).endpoints.push(endpoint);
  for (const route of docs) shapeOf(route.path).docs.push(route);

  for (const group of byShape.values()) {
    const { endpoints } = group;
    // What a preflight on this path is answered with, by the method it asks for (cors-preflight.ts).
    const preflight = cors.preflightOf(endpoints, group.docs);
    // An endpoint declared for HEAD takes the place of the HEAD route Fastify derives from GET.
    const explicitHead = endpoints.some((e) => e.method.toUpperCase() === 'HEAD');
    for (const endpoint of endpoints) {
      const { url, catchAll } = toRoutePath(endpoint.path);
      // Only a guarded or limited endpoint has hooks: they run before the body is read (guard.ts, rate-limit.ts).
      const hooks = routeHooks(endpoint.guard && guardHook(endpoint.guard), rateLimits.get(endpoint));
      // CORS goes first among hooks (preflights, then the headers), or into the handler of a route without any.
      const routeCors = cors.forRoute(cors.ofEndpoint(endpoint), hooks.onRequest, endpoint.method === 'OPTIONS' ? preflight : undefined);
      const representation = compileRepresentation(endpoint.representation);
      app.route({
        method: endpoint.method.toUpperCase(),
        url,
        ...(explicitHead ? { exposeHeadRoute: false } : {}),
        ...routeCors.options,
        handler: makeHandler({
          endpoint,
          validate: compileValidator(endpoint.request),
          jsonBody: declaresJsonBody(endpoint.request),
          requestTimeoutMs: options.requestTimeoutMs,
          ...(representation ? { representation } : {}),
          ...(routeCors.inHandler ? { cors: routeCors.inHandler } : {}),
          ...(catchAll !== undefined ? { catchAll } : {}),
          ...(options.tracing === true ? { traced: true } : {}),
        }),
      });
    }
    for (const route of group.docs) {
      const routeCors = cors.forRoute(cors.ofDocs(route.cors), route.guard ? [guardHook(route.guard)] : undefined, undefined);
      app.route({
        method: route.method.toUpperCase(),
        url: toRoutePath(route.path).url,
        ...(explicitHead ? { exposeHeadRoute: false } : {}),
        ...routeCors.options,
        handler: cors.around(routeCors.inHandler, serveStaticFile(route.file, route.compressor)),
      });
    }
    const declared = [...endpoints.map((e) => e.method), ...group.docs.map((d) => d.method)];
    const others = notAllowedMethods(declared);
    const { url } = toRoutePath(endpoints[0]?.path ?? group.docs[0]!.path);
    if (others.length > 0) app.route({ method: others, url, handler: cors.preflightOr(preflight, methodNotAllowedHandler(allowedMethods(declared))) });
  }

  await app.ready();
  return app;
}

/** The manifest's path of each router path (`/users/:id` -> `/users/{id}`): the metrics' route label. */
function routeNames(endpoints: readonly CompiledEndpoint[], docs: readonly DocsRoute[], metricsPath: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const { path } of [...endpoints, ...docs]) names.set(toRoutePath(path).url, path);
  // Fastify would refuse the second route with its own words; these say which setting to change.
  if (names.has(metricsPath)) throw new Error(`server { metrics = "${metricsPath}" }: an endpoint is declared on that path; serve the metrics on another`);
  names.set(metricsPath, metricsPath);
  return names;
}

/** The manifest's path of each router path, for the server spans' `http.route`. */
function routeTemplates(endpoints: readonly CompiledEndpoint[], docs: readonly DocsRoute[]): Map<string, string> {
  return new Map([...endpoints, ...docs].map(({ path }) => [toRoutePath(path).url, path]));
}

/** A probe's path must not be an endpoint's GET: Fastify would refuse the second route in its own words. */
function checkHealthPaths(health: HealthOptions, endpoints: readonly CompiledEndpoint[]): void {
  for (const [name, path] of [
    ['live', health.livePath],
    ['ready', health.readyPath],
  ] as const) {
    if (path === undefined) continue;
    if (endpoints.some((e) => e.method.toUpperCase() === 'GET' && pathShape(e.path) === pathShape(path))) {
      throw new Error(`server { health { ${name} = "${path}" } }: an endpoint is declared on that path; choose another for the probe`);
    }
  }
}

/** One route per file of a documentation site. */
interface DocsRoute {
  readonly method: string;
  readonly path: string;
  readonly file: StaticFile;
  readonly guard?: DocsSite['guard'];
  readonly cors?: DocsSite['cors'];
  readonly compressor?: DocsSite['compressor'];
}

function docsRoutes(site: DocsSite): DocsRoute[] {
  return [...site.files].map(([sub, file]) => ({
    method: site.method,
    path: sub === '' ? site.path : `${site.path.replace(/\/$/, '')}/${sub}`,
    file,
    ...(site.guard ? { guard: site.guard } : {}),
    ...(site.cors ? { cors: site.cors } : {}),
    ...(site.compressor ? { compressor: site.compressor } : {}),
  }));
}
