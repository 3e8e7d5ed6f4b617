/**
 * Two endpoints collide when they have the same method and the same path shape: parameter names do
 * not matter (`GET /u/{a}` and `GET /u/{b}` would match the same requests).
 */
import { where, type DecodedEndpoint } from '../../manifest/index.js';

export function checkDuplicateRoutes(endpoints: readonly DecodedEndpoint[]): void {
  const seen = new Map<string, DecodedEndpoint>();
  for (const e of endpoints) {
    const previous = seen.get(e.label.shape);
    if (previous) {
      const m = e.model;
      const same = previous.model.id === m.id ? `"${m.id}" is` : `"${m.id}" has the same method and path shape as "${previous.model.id}", which is`;
      e.scope.error('Duplicate route', m.labelRange, {
        path: m.blockPath,
        detail: `${same} already declared at ${where(previous.model.labelRange)}.`,
      });
      continue;
    }
    seen.set(e.label.shape, e);
  }
}

/**
 * `server { metrics = "/metrics" }` serves its page on that path, beside the endpoints: an endpoint
 * on the same path (whatever its method: the path's 405 answer would claim GET too) is refused here,
 * where `svc check` sees it, rather than when the server is built.
 */
export function checkMetricsPath(endpoints: readonly DecodedEndpoint[], metricsPath: string | undefined): void {
  if (metricsPath === undefined) return;
  for (const e of endpoints) {
    const { shape } = e.label;
    if (shape.slice(shape.indexOf(' ') + 1) !== metricsPath) continue;
    const m = e.model;
    e.scope.error('Route taken by the metrics page', m.labelRange, {
      path: m.blockPath,
      detail: `The server block serves Prometheus metrics on "${metricsPath}" (\`metrics\`); "${m.id}" cannot use that path. Choose another path for one of them.`,
    });
  }
}
