/**
 * The hand-written baseline of examples/sqlite-crud's `GET /tasks/{id}`, `PATCH /tasks/{id}` and
 * `GET /tasks.ndjson` (bench/sqlite/export.ts), as
 * one would write them with Fastify and node:sqlite alone (the same driver svc uses): one
 * DatabaseSync in WAL mode, prepared statements made once, run synchronously in the handler; the
 * row's BOOLEAN as true/false and its JSON column parsed, as svc gives them; Fastify's route schemas
 * for the path parameter and the body; the same 404 problem body. No logging, or with `--log` one
 * pino line per request (bench/lib/baseline-logging.ts). It echoes `X-Request-Id` as svc does.
 *
 * DATABASE_URL names svc's database file (`sqlite:<path>`); the baseline uses a file of its own
 * beside it (`<path>.baseline`), created with the example's migration, so that neither server's
 * writes wait for the other's. Prints `listening <port>` once bound.
 */
import { existsSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fastify } from 'fastify';
import { announce, installRequestLog, loggerOptions } from '../lib/baseline-logging.js';
import { echoRequestId, requestIdOptions } from '../lib/baseline-request-id.js';

interface Statement {
  get(...values: unknown[]): Record<string, unknown> | undefined;
  iterate(...values: unknown[]): IterableIterator<Record<string, unknown>>;
}
interface Database {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  close(): void;
}
const { DatabaseSync } = (await import('node:sqlite' as string)) as { DatabaseSync: new (path: string) => Database };

const url = process.env.DATABASE_URL ?? '';
if (!url.startsWith('sqlite:/')) throw new Error('DATABASE_URL=sqlite:/absolute/path is required');
const path = `${url.slice('sqlite:'.length)}.baseline`;
const fresh = !existsSync(path);
const db = new DatabaseSync(path);
db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON');
if (fresh) {
  // bench/sqlite/ from the sources, dist/bench/sqlite/ compiled.
  const up = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  db.exec(readFileSync(join(basename(up) === 'dist' ? dirname(up) : up, 'examples/sqlite-crud/migrations/001_tasks.sql'), 'utf8'));
}
const byId = db.prepare('SELECT id, title, done, tags, created_at FROM tasks WHERE id = ?');
const update = db.prepare(
  'UPDATE tasks SET title = CASE WHEN ?2 THEN ?3 ELSE title END, done = CASE WHEN ?4 THEN ?5 ELSE done END WHERE id = ?1 RETURNING id, title, done, tags, created_at',
);

function task(row: Record<string, unknown>): Record<string, unknown> {
  return { id: row.id, title: row.title, done: row.done === 1, tags: JSON.parse(row.tags as string), created_at: row.created_at };
}

function notFound(id: number, instance: string): string {
  return JSON.stringify({ type: 'urn:svc:error:not-found', title: 'Task not found', status: 404, detail: `There is no task ${id}.`, instance });
}

const app = fastify({ ...loggerOptions(), ...requestIdOptions() });
installRequestLog(app);
const params = { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] };

app.get<{ Params: { id: number } }>('/tasks/:id', { schema: { params } }, async (request, reply) => {
  echoRequestId(request, reply);
  const row = byId.get(request.params.id);
  if (row === undefined) return reply.code(404).header('content-type', 'application/problem+json').send(notFound(request.params.id, request.url));
  return reply.send(task(row));
});

app.patch<{ Params: { id: number }; Body: { title?: string; done?: boolean } }>(
  '/tasks/:id',
  {
    schema: {
      params,
      body: {
        type: 'object',
        properties: { title: { type: 'string', minLength: 1, maxLength: 200 }, done: { type: 'boolean' } },
        additionalProperties: false,
      },
    },
  },
  async (request, reply) => {
    echoRequestId(request, reply);
    const body = request.body ?? {};
    const has = (key: string): number => (Object.hasOwn(body, key) ? 1 : 0);
    const done = body.done === undefined ? null : body.done ? 1 : 0;
    const row = update.get(request.params.id, has('title'), body.title ?? null, has('done'), done);
    if (row === undefined) return reply.code(404).header('content-type', 'application/problem+json').send(notFound(request.params.id, request.url));
    return reply.send(task(row));
  },
);

// The export as the Node.js documentation shows it: a statement prepared for the request (two exports
// at once must not reset each other's), its `iterate()` stepped as Readable.from is read, so
// Fastify's pipe to the socket is the backpressure.
app.get('/tasks.ndjson', async (request, reply) => {
  echoRequestId(request, reply);
  const rows = db.prepare('SELECT id, title, done, tags, created_at FROM tasks ORDER BY id').iterate();
  const lines = (function* () {
    for (const row of rows) yield `${JSON.stringify(task(row))}\n`;
  })();
  return reply.type('application/x-ndjson').send(Readable.from(lines));
});

await app.listen({ host: '127.0.0.1', port: 0 });
announce(app);
process.on('SIGTERM', () => {
  void app.close().then(() => {
    db.close();
    process.exit(0);
  });
});
