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
