/**
 * `server { health { live = "/livez", ready = "/readyz" } }`: the paths of the liveness and
 * readiness probes (src/http/health.ts). The block alone serves both at those paths; an attribute
 * names another path, and `live = false` / `ready = false` leaves that probe out. `drain_delay`:
 * how long a stopping process goes on serving, its readiness already 503, before it closes its port
 * (default 0: it closes at once), so that a balancer that polls readiness stops sending first.
 */
import type { Attribute, Block } from '../hcl/index.js';
import { decodeBody, type BodySchema } from './body.js';
import type { DecodeScope } from './scope.js';
import type { HealthModel } from './types.js';
import { invalidValue, readDuration, readStatic } from './values.js';

const HEALTH_BODY: BodySchema = { attributes: { live: {}, ready: {}, drain_delay: {} }, blocks: {} };

export const DEFAULT_LIVE_PATH = '/livez';
export const DEFAULT_READY_PATH = '/readyz';

export function decodeServerHealth(block: Block, scope: DecodeScope): HealthModel {
  const s = scope.enter(block);
  const { attrs } = decodeBody(block.body, HEALTH_BODY, s, block);
  const livePath = readProbePath(attrs.get('live'), s, 'live', DEFAULT_LIVE_PATH);
  const readyPath = readProbePath(attrs.get('ready'), s, 'ready', DEFAULT_READY_PATH);
  if (livePath !== undefined && livePath === readyPath) {
    invalidValue(
      attrs.get('ready') ?? attrs.get('live')!,
      s,
      `\`live\` and \`ready\` are two probes with two answers; give them different paths (both are "${livePath}").`,
    );
  }
  const drainDelayMs = readDuration(attrs.get('drain_delay'), s);
  return {
    ...(livePath !== undefined ? { livePath } : {}),
    ...(readyPath !== undefined ? { readyPath } : {}),
    ...(drainDelayMs !== undefined && drainDelayMs > 0 ? { drainDelayMs } : {}),
  };
}

/** An absolute path without parameters, `false` (no such probe), or the default when absent. */
function readProbePath(attr: Attribute | undefined, scope: DecodeScope, name: string, fallback: string): string | undefined {
  if (attr === undefined) return fallback;
  const value = readStatic(attr, scope);
  if (!value.ok) return undefined;
  if (value.value === false) return undefined;
  if (typeof value.value !== 'string' || !/^\/[A-Za-z0-9._~/-]*$/.test(value.value)) {
    invalidValue(attr, scope, `\`${name}\` is the path the probe is served on, such as "${fallback}", or false for none; got ${JSON.stringify(value.value)}.`);
    return undefined;
  }
  return value.value;
}
