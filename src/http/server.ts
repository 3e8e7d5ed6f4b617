/**
 * Builds the Fastify instance of a compiled service. Everything is decided here, at boot: routes,
 * 405 routes with their `Allow`, validators, error mapping. Requests only run.
 */
import { fastify, type FastifyInstance } from 'fastify';
import type { CompiledEndpoint } from '../steps/index.js';
import { installRawBodyParser } from './body.js';
import { clientErrorHandler, errorHandler, frameworkErrorHandler, notFoundHandler } from './errors.js';
import { guardHook } from './guard.js';
import { makeHandler } from './handler.js';
import { requestLogger, type Logger } from './log.js';
import { allowedMethods, methodNotAllowedHandler, notAllowedMethods } from './methods.js';
import { pathShape, toRoutePath } from './paths.js';
import { arrive } from './note.js';
import { OpenStreams } from './stream-reply.js';
import { trackSilentSockets } from './silent-sockets.js';
import { compileValidator, declaresJsonBody } from './validation.js';

export interface ServerOptions {
  readonly endpoints: readonly CompiledEndpoint[];
  /** `server.max_body_size` in bytes. */
  readonly bodyLimit: number;
  /** `server.request_timeout` in milliseconds. */
  readonly requestTimeoutMs: number;
  readonly logger: Logger;
}

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { logger } = options;
  const app = fastify({
    // Logging is ours: one line per request, see log.ts.
    logger: false,
    genReqId: arrive,
    requestIdHeader: false,
    bodyLimit: options.bodyLimit,
    // Receiving the request (headers and body) is bounded too, so a slow upload cannot hold a
    // connection forever; Node answers 408, written as a problem by clientErrorHandler.
    requestTimeout: options.requestTimeoutMs,
    // Fastify's 503-while-closing body is not a problem record; in-flight and late requests are
    // served instead, bounded by the shutdown time-out (lifecycle.ts).
    return503OnClosing: false,
    routerOptions: { maxParamLength: 2048 },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });

  app.decorateRequest('svcNote', null);
  app.decorateRequest('svcAuth', null);
  installRawBodyParser(app);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);

  // API keys sent in a query string are blanked out of every line's url, whatever the path.
  const secretQueryParams = [...new Set(options.endpoints.flatMap((e) => e.guard?.secretQueryParams ?? []))];
  app.decorate('svcLogLine', requestLogger(logger, { secretQueryParams }));
  app.decorate('svcStreams', new OpenStreams());
  app.decorate('svcSilentSockets', trackSilentSockets(app.server));

  // Endpoints grouped by path shape (parameter names aside: `/a/{x}` and `/a/{y}` are one path to the
  // router), so each path's 405 route knows all its methods.
  const byShape = new Map<string, CompiledEndpoint[]>();
  for (const endpoint of options.endpoints) {
    const shape = pathShape(endpoint.path);
    byShape.set(shape, [...(byShape.get(shape) ?? []), endpoint]);
  }

  for (const endpoints of byShape.values()) {
    // An endpoint declared for HEAD takes the place of the HEAD route Fastify derives from GET.
    const explicitHead = endpoints.some((e) => e.method.toUpperCase() === 'HEAD');
    for (const endpoint of endpoints) {
      const { url, catchAll } = toRoutePath(endpoint.path);
      app.route({
        method: endpoint.method.toUpperCase(),
        url,
        ...(explicitHead ? { exposeHeadRoute: false } : {}),
        // Only a guarded endpoint has a hook: it runs before the body is read (guard.ts).
        ...(endpoint.guard ? { onRequest: guardHook(endpoint.guard) } : {}),
        handler: makeHandler({
          endpoint,
          validate: compileValidator(endpoint.request),
          jsonBody: declaresJsonBody(endpoint.request),
          requestTimeoutMs: options.requestTimeoutMs,
          ...(catchAll !== undefined ? { catchAll } : {}),
        }),
      });
    }
    const declared = endpoints.map((e) => e.method);
    const others = notAllowedMethods(declared);
    const { url } = toRoutePath(endpoints[0]!.path);
    if (others.length > 0) app.route({ method: others, url, handler: methodNotAllowedHandler(allowedMethods(declared)) });
  }

  await app.ready();
  return app;
}
