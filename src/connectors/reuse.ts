/**
 * Which open connection a reload may keep (`svc serve --watch`, SIGHUP): one whose settings are all
 * unchanged. Anything that changes how the resource is opened (URL, pool, time-outs, prepared
 * statements, the migrations directory, the declaring file's directory that relative `pglite:` paths
 * resolve against) means a new resource; the old one is closed once the requests using it are done.
 */
import type { ConnectionModel } from '../model/index.js';

/** True when a resource opened for `before` serves `after` exactly as a fresh one would. */
export function sameSettings(before: ConnectionModel, after: ConnectionModel): boolean {
  return settingsOf(before) === settingsOf(after);
}

/** Every field but where it was written, keys sorted at every level, as JSON. */
function settingsOf(connection: ConnectionModel): string {
  const { range: _range, ...settings } = connection as ConnectionModel & Record<string, unknown>;
  delete (settings as Record<string, unknown>).urlRange;
  return JSON.stringify(settings, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}
