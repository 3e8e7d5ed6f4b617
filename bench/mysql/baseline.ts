/**
 * The hand-written baseline of GET /api/v1/users/{id} on MySQL/MariaDB, as one would write it with
 * Fastify and mysql2 alone: a pool of 10 connections (svc's default `pool.max`), the same
 * `statement_timeout` (MariaDB's max_statement_time, 5 s) and idle time-out (30 s) as
 * bench/mysql/manifest/main.hcl, Fastify's route schema for the path parameter (integer, minimum 1,
 * coerced), a prepared statement (mysql2's `execute`, cached per connection: what svc sends) through
 * the callback API (the faster of mysql2's two), TIMESTAMP read in UTC and written as RFC 3339 with milliseconds, and
 * the same 404 problem body. No logging, or with `--log` one pino line per request
 * (bench/lib/baseline-logging.ts). It echoes `X-Request-Id` as svc does.
 *
 * DATABASE_URL names the database (the one svc serves; svc's migration created the table). Prints
 * `listening <port>` once bound.
 */
import { fastify } from 'fastify';
import mysql from 'mysql2';
import { announce, installRequestLog, loggerOptions } from '../lib/baseline-logging.js';
import { echoRequestId, requestIdOptions } from '../lib/baseline-request-id.js';

const QUERY = 'SELECT id, email, full_name, created_at FROM users WHERE id = ?';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const pool = mysql.createPool({ uri: url, connectionLimit: 10, maxIdle: 0, idleTimeout: 30_000, timezone: 'Z', supportBigNumbers: true });
pool.on('connection', (conn) => conn.query("SET time_zone = '+00:00', SESSION max_statement_time = 5"));
/** One statement through mysql2's callback API wrapped in one promise (faster than its promise API: bench/mysql/README.md). */
function find(id: number): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve, reject) => pool.execute<mysql.RowDataPacket[]>(QUERY, [id], (error, rows) => (error ? reject(error) : resolve(rows[0]))));
}
await new Promise<void>((resolve, reject) => pool.query('SELECT 1', (error) => (error ? reject(error) : resolve())));

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
    const row = await find(request.params.id);
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
process.on('SIGTERM', () => void app.close().then(() => pool.end(() => process.exit(0))));
