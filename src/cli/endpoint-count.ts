/**
 * How many endpoints a manifest declares, said one way by `svc check` and by `svc serve` (when it
 * listens and when it reloads, with workers or without): every `endpoint` block, documentation
 * endpoints included (an OpenAPI document, a renderer page or a template), and how many of them are
 * documentation. The routes a renderer page adds for its scripts and styles are not counted: they
 * are files below the page, not endpoints of the manifest.
 */
import type { ServiceModel } from '../model/index.js';

export interface EndpointCount {
  readonly total: number;
  readonly documentation: number;
}

export function countEndpoints(model: ServiceModel): EndpointCount {
  return { total: model.endpoints.length, documentation: model.endpoints.filter((e) => e.kind === 'docs').length };
}

/**
 * The count in words: `['7 endpoints', '1 of them documentation']`, or `['1 endpoint']` when none is
 * documentation. `svc check` writes `7 endpoints (1 of them documentation)`; `svc serve`, already
 * within parentheses, `(7 endpoints, 1 of them documentation)`.
 */
export function describeEndpoints(model: ServiceModel): readonly string[] {
  const { total, documentation } = countEndpoints(model);
  return documentation === 0 ? [plural(total, 'endpoint')] : [plural(total, 'endpoint'), `${documentation} of them documentation`];
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
