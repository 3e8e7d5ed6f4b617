/**
 * The baselines' logging switch. Plain (the default): no logging at all, the strictest comparison.
 * With `--log`: one pino JSON line per request, written by an onResponse hook, which is how a
 * hand-written Fastify service logs its requests; svc writes exactly one such line per request too,
 * so this is the same-work comparison. Lines go to stdout like svc's, which the runner discards.
 */
import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';

export const logging = process.argv.includes('--log');

export function loggerOptions(): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  // Fastify's own request logging writes two lines per request; one line, as svc writes, via the hook.
  return logging ? { logger: { level: 'info' }, logController: new LogController({ disableRequestLogging: true }) } : { logger: false };
}

export function installRequestLog(app: FastifyInstance): void {
  if (!logging) return;
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info({ method: request.method, url: request.url, status: reply.statusCode, ms: reply.elapsedTime }, 'request');
    done();
  });
}

/** Printed once bound: the runner reads the port from it (stdout also carries the log lines). */
export function announce(app: FastifyInstance): void {
  const address = app.server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
}
