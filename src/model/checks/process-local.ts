/**
 * Stores inside one process cannot back a service served by several (`--workers N`, `server {
 * workers }`): each worker would hold its own copy, a silent split brain. So with more than one
 * worker, a `memory:` redis connection is an error unless it says `shared = false`; `pglite:` is one
 * (a database per worker, or a directory two processes corrupt: docs/postgresql.md "PGlite's
 * limits"), and so is `sqlite::memory:`, not `sqlite:<file>` (its file locks hold across processes).
 * Rate limits kept in process memory are a warning: N times looser (docs/rate-limits.md).
 * `workers = "auto"` counts as several: a manifest must not be valid on one machine only.
 */
import type { Diagnostic } from '../../diag/index.js';
import type { ConnectionModel, EndpointModel, ServerModel } from '../../manifest/index.js';

/** The errors of `connections` served by `workers` processes; none for one worker (or none set). */
export function checkProcessLocalConnections(
  connections: Iterable<ConnectionModel>,
  workers: number | 'auto' | undefined,
  from: 'the server block' | 'the command line',
): Diagnostic[] {
  if (workers === undefined || workers === 1) return [];
  const why = reason(workers, from);
  const out: Diagnostic[] = [];
  for (const c of connections) {
    const subject = c.urlRange ?? c.range;
    const label = `connection "${c.kind}" "${c.name}"`;
    if (c.kind === 'redis' && c.url.startsWith('memory:') && c.shared !== false) {
      out.push({
        severity: 'error',
        summary: 'In-process store with several workers',
        subject,
        detail:
          `${label} is "memory:", a store inside each process, and ${why}: each would keep its own copy. ` +
          'Use a Redis server (redis://...) that every worker shares, or write `shared = false` to accept one separate store per worker.',
      });
    }
    if (c.kind === 'sqlite' && c.url === 'sqlite::memory:') {
      out.push({
        severity: 'error',
        summary: 'In-process database with several workers',
        subject,
        detail:
          `${label} is "sqlite::memory:", a database inside each process, and ${why}: each worker would have its own. ` +
          'Use a database file (sqlite:data/app.db), which every worker opens and SQLite keeps whole across processes, or one worker.',
      });
    }
    if (c.kind === 'postgres' && c.url.startsWith('pglite:')) {
      out.push({
        severity: 'error',
        summary: 'In-process database with several workers',
        subject,
        detail:
          `${label} is PGlite, a database inside one process, and ${why}: "pglite:" in memory would be one database per worker, ` +
          'and a "pglite:<dir>" opened by two processes is corrupted. Use a PostgreSQL server (postgres://...) or one worker.',
      });
    }
  }
  return out;
}

/**
 * The warning for rate limits counted per process when `workers` processes serve: one, on the server's
 * rate_limit block (else on the first limited endpoint's), or none.
 */
export function checkProcessLocalRateLimits(
  server: ServerModel,
  endpoints: readonly EndpointModel[],
  connections: ReadonlyMap<string, ConnectionModel>,
  workers: number | 'auto' | undefined,
  from: 'the server block' | 'the command line',
): Diagnostic[] {
  if (workers === undefined || workers === 1) return [];
  const limited = endpoints.find((e) => e.rateLimit !== undefined);
  if (limited === undefined) return [];
  const name = server.rateLimit?.connection;
  const store = name === undefined ? undefined : connections.get(`redis.${name}`);
  if (store !== undefined && !store.url.startsWith('memory:')) return [];
  const where =
    name === undefined ? 'in the memory of each process (the rate_limit names no `connection`)' : `in each process (connection "redis" "${name}" is "memory:")`;
  return [
    {
      severity: 'warning',
      summary: 'Rate limit counted per worker',
      subject: server.rateLimit?.range ?? limited.rateLimit!.range,
      detail:
        `Rate limits are counted ${where}, and ${reason(workers, from)}: a client may make \`max\` requests per worker in each window. ` +
        'Name a Redis connection in `server { rate_limit { connection = ... } }` to count once for all of them.',
    },
  ];
}

function reason(workers: number | 'auto', from: string): string {
  return `${from} asks for ${workers === 'auto' ? 'one worker process per core ("auto")' : `${workers} worker processes`}`;
}
