/**
 * operationIds: derived from the method and the path only, so an id never changes when another
 * endpoint is added or moved (`GET /api/v1/users/{id}` is `getApiV1UsersById`). Ids that would
 * collide (`/a-b` and `/a_b`) get a number, in declaration order.
 */
import type { EndpointModel } from '../model/index.js';

export function operationIds(endpoints: readonly EndpointModel[]): Map<EndpointModel, string> {
  const ids = new Map<EndpointModel, string>();
  const used = new Set<string>();
  for (const endpoint of endpoints) {
    const base = baseId(endpoint);
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}${n}`;
    used.add(id);
    ids.set(endpoint, id);
  }
  return ids;
}

function baseId(endpoint: EndpointModel): string {
  const parts = endpoint.segments.map((s) => (s.kind === 'literal' ? pascal(s.value) : 'By' + pascal(s.name)));
  const path = parts.join('');
  return endpoint.method.toLowerCase() + (path === '' ? 'Root' : path);
}

/** `export.ndjson` -> `ExportNdjson`, `user_id` -> `UserId`. */
function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}
