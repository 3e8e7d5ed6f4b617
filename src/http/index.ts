/** The HTTP adapter: the only importer of fastify. */
export { buildServer, type ServerOptions } from './server.js';
export { docsSites, type DocsSite } from './docs.js';
export { listen, listenFront, processSignals, shutdown, shutdownFront, type ListenOptions, type ProcessSignals, type ShutdownOptions } from './lifecycle.js';
export { createFront, type Front, type HttpApp } from './front.js';
export { transportOf } from './tls.js';
export { createLogger, flushLogger, LOG_FORMATS, type LogFormat, type Logger, type LoggerOptions } from './log.js';
export { createMetrics, type ServiceMetrics } from './metrics.js';
export { servePrimaryMetrics } from './metrics-cluster.js';
export { readinessOf, type Readiness } from './health.js';
export { mountingPlugin, type MountedApp } from './plugin.js';
