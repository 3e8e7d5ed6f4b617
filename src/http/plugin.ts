/**
 * A built svc app mounted in a Fastify application of the embedder's: a plugin (registered without
 * fastify-plugin's skip-override, so that `register(plugin, { prefix })` scopes it) whose routes take
 * every method under the prefix and hand the raw request, prefix stripped, to svc's app through
 * `app.routing`, as svc's own front server does (front.ts). The hand-over happens in onRequest,
 * before the host app would parse the body: svc reads it itself, with its own limits and validation.
 * Everything svc answers (404 and 405 under the prefix included) is svc's; the rest is the host's.
 */
import type { FastifyInstance, FastifyPluginAsync, onRequestHookHandler } from 'fastify';

export interface MountedApp {
  readonly app: FastifyInstance;
  /** Called when the host application closes: svc's app, then its connections. */
  close(): Promise<void>;
}

export function mountingPlugin<O extends object>(start: (options: O) => Promise<MountedApp>): FastifyPluginAsync<O> {
  return async (instance, options) => {
    const mounted = await start(options);
    const prefix = instance.prefix;
    const forward: onRequestHookHandler = (request, reply) => {
      reply.hijack();
      const raw = request.raw;
      raw.url = withoutPrefix(raw.url ?? '/', prefix);
      mounted.app.routing(raw, reply.raw);
    };
    const unreachable = (): void => {
      // The onRequest hook has hijacked the reply: the handler never runs.
    };
    instance.all('/', { onRequest: forward }, unreachable);
    instance.all('/*', { onRequest: forward }, unreachable);
    instance.addHook('onClose', async () => {
      await mounted.close();
    });
  };
}

/** `/api/items?x=1` under `/api` is `/items?x=1`; the prefix itself is `/`. */
function withoutPrefix(url: string, prefix: string): string {
  if (prefix === '' || !url.startsWith(prefix)) return url;
  const rest = url.slice(prefix.length);
  return rest === '' || rest.startsWith('?') ? `/${rest}` : rest;
}
