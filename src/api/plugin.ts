/**
 * `svcPlugin`: a loaded service's endpoints mounted under a prefix of an existing Fastify app
 * (`app.register(svcPlugin, { service, prefix: '/api' })`). The connections open when the plugin
 * is registered (the host app's `ready`/`listen` waits for them) and close with the host app.
 * svc's request time-out is not applied to the host's sockets: the host server's own settings are.
 */
import { closeConnections, startGeneration } from '../cli/index.js';
import { flushLogger, mountingPlugin } from '../http/index.js';
import type { Service } from './load.js';
import { served, type LogOptions } from './server.js';

export interface SvcPluginOptions {
  readonly service: Service;
  readonly log?: LogOptions;
  /** Fastify's own: where the endpoints are mounted (`/api`: the manifest's `/items` is `/api/items`). */
  readonly prefix?: string;
}

export const svcPlugin = mountingPlugin<SvcPluginOptions>(async (options) => {
  const { booted, logger } = served(options.service, options.log);
  const generation = await startGeneration(booted, { logger });
  return {
    app: generation.app,
    close: async () => {
      await generation.app.close();
      await closeConnections(generation);
      flushLogger(logger);
    },
  };
});
