/**
 * The hand-written baseline of GET /api/v1/users/{id} (SPEC.md §4.4, examples/shop/users.hcl) as one
 * would write it directly with Fastify and `pg`: a Pool of the same size as svc's (10, its default
 * `pool.max`), the same `statement_timeout` and idle time-out as examples/shop/main.hcl, Fastify's
 * route schema for the path parameter (integer, minimum 1, coerced), a named prepared statement (the
 * fastest form `pg` offers; svc names its statements per step too), int8 as a JSON number, and a 404
 * problem body when no row comes back. No logging, or with `--log` one pino line per request
 * (bench/lib/baseline-logging.ts). It echoes `X-Request-Id` as svc does (bench/lib/baseline-request-id.ts).
 *
 * DATABASE_URL names the database (the same one svc serves; svc's migration created the table).
 * `DATABASE_URL=pglite:` instead runs PGlite in this process, in memory, with the example's migration
 * applied at start, queried through PGlite's own API (what a hand-written PGlite service would do:
 * no socket, no wire protocol). Prints `listening <port>` once bound.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fastify } from 'fastify';
import pg from 'pg';
import { announce, installRequestLog, loggerOptions } from '../lib/baseline-logging.js';
import { echoRequestId, requestIdOptions } from '../lib/baseline-request-id.js';

const QUERY = 'SELECT id, email, full_name, created_at FROM users WHERE id = $1';
const POOL_MAX = 10;

/** int8 as svc writes it: a number when it is a safe integer (ids are), the exact text otherwise. */
function int8(text: string): number | string {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

type Find = (id: number) => Promise<Record<string, unknown> | undefined>;

async function database(url: string): Promise<{ find: Find; close(): Promise<void> }> {
  if (url.startsWith('pglite:')) {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create({ parsers: { 20: int8 } });
    // bench/users/ from the sources, dist/bench/users/ compiled.
    const up = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
    const migration = join(basename(up) === 'dist' ? dirname(up) : up, 'examples/shop/migrations/001_shop.sql');
    await db.exec(readFileSync(migration, 'utf8'));
    return {
      find: async (id) => (await db.query<Record<string, unknown>>(QUERY, [id])).rows[0],
      close: () => db.close(),
    };
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_MAX,
    idleTimeoutMillis: 30_000,
    statement_timeout: 5_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20 && format !== 'binary' ? int8 : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
    },
  });
  await pool.query('SELECT 1');
  return {
    find: async (id) => (await pool.query<Record<string, unknown>>({ name: 'user_by_id', text: QUERY, values: [id] })).rows[0],
    close: () => pool.end(),
  };
}

const db = await database(process.env.DATABASE_URL ?? 'pglite:');
const app = fastify({ ...loggerOptions(), ...requestIdOptions() });
installRequestLog(app);

interface ById {
  Params: { id: number };
}

app.get<ById>(
  '/api/v1/users/:id',
  { schema: { params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] } } },
  async (request, reply) => {
    echoRequestId(request, reply);
    const row = await db.find(request.params.id);
    if (row === undefined) {
      reply
        .code(404)
        .header('content-type', 'application/problem+json')
        .send(
          JSON.stringify({
            type: 'urn:svc:error:not-found',
            title: 'User not found',
            status: 404,
            detail: `There is no user ${request.params.id}.`,
            instance: request.url,
          }),
        );
      return;
    }
    reply.send(row);
  },
);

await app.listen({ host: '127.0.0.1', port: 0 });
announce(app);
process.on('SIGTERM', () => void app.close().then(() => db.close().then(() => process.exit(0))));
