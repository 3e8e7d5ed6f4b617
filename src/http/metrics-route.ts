/**
 * The metrics page (`server { metrics = "/metrics" }`): Prometheus text of the whole service. A single
 * process answers from its own registry; a worker of `svc serve --workers N` asks the primary, which
 * aggregates every worker's (metrics-cluster.ts). A page that cannot be had is a 503 problem.
 */
import cluster from 'node:cluster';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { askPrimaryForMetrics, joinClusterMetrics } from './metrics-cluster.js';
import type { ServiceMetrics } from './metrics.js';
import { logSent, noteOf } from './note.js';
import { sendStatusProblem } from './problems.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/** GET (and HEAD) `path` serves the page; the server's open streams are read at scrape time. */
export function installMetricsRoute(app: FastifyInstance, path: string, metrics: ServiceMetrics): void {
  const { registry } = metrics;
  const inCluster = cluster.isWorker;
  if (inCluster) joinClusterMetrics(registry);
  metrics.watchStreams(() => app.svcStreams.size);
  app.route({
    method: 'GET',
    url: path,
    handler(request: FastifyRequest, reply: FastifyReply) {
      reply.header(REQUEST_ID_HEADER, request.id);
      (inCluster ? askPrimaryForMetrics() : registry.metrics()).then(
        (text) => {
          reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(text);
          logSent(request, reply);
        },
        (error: unknown) => {
          noteOf(request).error = error;
          sendStatusProblem(request, reply, 503, 'the metrics could not be collected');
        },
      );
    },
  });
}
