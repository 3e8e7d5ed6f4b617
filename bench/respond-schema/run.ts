/**
 * What a declared response schema costs (issue 36): `respond { schema = schema.user, body = ... }`
 * against the same respond without `schema`, on a row shaped like an sql step's (seven columns, five
 * declared, a password hash among the others) and on a list of 100 of them.
 *
 * Two levels, both in this process, each pair measured in alternating rounds (median of the rounds):
 * - step: the compiled endpoint's `run` (the respond step: evaluate the body, mask it, write its JSON),
 *   which is where the schema's cost lies;
 * - request: the same endpoints served by svc's Fastify app through `inject` (routing, the request
 *   context, the reply), to put that cost beside a whole request.
 *
 * The mask is compiled once at boot (src/steps/respond/node.ts): nothing here is compiled per run.
 * Bounded: each round lasts `--ms` milliseconds (default 200) per variant.
 *
 *     node --import tsx bench/respond-schema/run.ts [--rounds 5] [--ms 200]
 */
import { parseArgs } from 'node:util';
import { Writable } from 'node:stream';
import { buildServer, createLogger } from '../../src/http/index.js';
import { buildServiceModel, compileService, type CompiledEndpoint, type RequestContext } from '../../src/steps/index.js';
import { compileMask } from '../../src/schema/index.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, ms: { type: 'string', default: '200' } } });
const rounds = Number(values.rounds);
const roundMs = Number(values.ms);

const MANIFEST = `
schema "row" {
  field "x" {
    type = any
  }
}
schema "user" {
  field "id" {
    type     = int
    required = true
  }
  field "email" {
    type     = string
    required = true
  }
  field "full_name" {
    type = string
  }
  field "created_at" {
    type = string
  }
  field "role" {
    type = string
  }
}
endpoint "POST /plain" {
  request {
    body = schema.row
  }
  pipeline {
    respond {
      body = ctx.request.body.x
    }
  }
}
endpoint "POST /declared" {
  request {
    body = schema.row
  }
  pipeline {
    respond {
      schema = schema.user
      body   = ctx.request.body.x
    }
  }
}
endpoint "POST /plain-list" {
  request {
    body = schema.row
  }
  pipeline {
    respond {
      body = ctx.request.body.x
    }
  }
}
endpoint "POST /declared-list" {
  request {
    body = schema.row
  }
  pipeline {
    respond {
      schema = list(schema.user)
      body   = ctx.request.body.x
    }
  }
}
`;

const row = (id: number) => ({
  id,
  email: `user${id}@example.com`,
  full_name: 'Ada Lovelace',
  created_at: '2024-01-15T09:30:00.000Z',
  updated_at: '2024-02-01T10:00:00.000Z',
  password_hash: '$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA',
  role: 'admin',
});
const ROW = row(1);
const ROWS = Array.from({ length: 100 }, (_, i) => row(i + 1));

const built = buildServiceModel([{ filename: 'bench.hcl', source: MANIFEST }]);
if (!built.model) throw new Error(built.diagnostics.map((d) => d.summary).join('; '));
const service = compileService(built.model);
if (service.diagnostics.length > 0) throw new Error(service.diagnostics.map((d) => d.summary).join('; '));
const byPath = new Map(service.endpoints.map((e) => [e.path, e] as const));
const endpoint = (path: string): CompiledEndpoint => byPath.get(path)!;

function ctxOf(body: unknown): RequestContext {
  return { request: { method: 'POST', path: {}, query: {}, headers: {}, body: { x: body } }, timestamp_epoch: 1_700_000_000, request_id: 'r-1' };
}

/** Microseconds per call of `fn`, called in batches of 100 for `roundMs`. */
function usPerRun(fn: () => unknown): number {
  let n = 0;
  const start = performance.now();
  const end = start + roundMs;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 100; i++) fn();
    n += 100;
    now = performance.now();
  }
  return ((now - start) * 1000) / n;
}

/** Microseconds per request, 16 in flight at a time, for `roundMs`. */
async function usPerRequest(fn: () => unknown): Promise<number> {
  let n = 0;
  const start = performance.now();
  const end = start + roundMs;
  let now = start;
  while (now < end) {
    await Promise.all(Array.from({ length: 16 }, fn));
    n += 16;
    now = performance.now();
  }
  return ((now - start) * 1000) / n;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function pair(name: string, plain: () => unknown, declared: () => unknown, measure: (fn: () => unknown) => number | Promise<number>): Promise<void> {
  const p: number[] = [];
  const d: number[] = [];
  for (let r = 0; r < rounds; r++) {
    // Alternating which goes first, so neither always runs on the warmer machine.
    if (r % 2 === 0) {
      p.push(await measure(plain));
      d.push(await measure(declared));
    } else {
      d.push(await measure(declared));
      p.push(await measure(plain));
    }
  }
  const ratio = median(d.map((x, i) => x / p[i]!));
  console.log(
    `${name.padEnd(34)} without ${median(p).toFixed(2).padStart(8)} us   with schema ${median(d).toFixed(2).padStart(8)} us   ratio ${ratio.toFixed(3)}`,
  );
}

// The answers first: the schema keeps the declared fields only.
const sample = endpoint('/declared').run(ctxOf(ROW)) as { json?: string };
if (sample.json !== '{"id":1,"email":"user1@example.com","full_name":"Ada Lovelace","created_at":"2024-01-15T09:30:00.000Z","role":"admin"}') {
  throw new Error(`unexpected answer ${sample.json}`);
}

console.log(`Node.js ${process.version}; ${rounds} alternating rounds of ${roundMs} ms per variant; medians\n`);
const one = { plain: ctxOf(ROW), declared: ctxOf(ROW) };
const list = { plain: ctxOf(ROWS), declared: ctxOf(ROWS) };
// Warm-up of every path before measuring.
for (let i = 0; i < 20_000; i++) {
  endpoint('/plain').run(one.plain);
  endpoint('/declared').run(one.declared);
  if (i % 20 === 0) {
    endpoint('/plain-list').run(list.plain);
    endpoint('/declared-list').run(list.declared);
  }
}
await pair(
  'step, one row (7 columns, 5 kept)',
  () => endpoint('/plain').run(one.plain),
  () => endpoint('/declared').run(one.declared),
  usPerRun,
);
await pair(
  'step, 100 rows',
  () => endpoint('/plain-list').run(list.plain),
  () => endpoint('/declared-list').run(list.declared),
  usPerRun,
);

// The mask alone (what the schema adds before the JSON is written, which it then shortens).
const maskOnly = compileMask({ kind: 'list', items: built.model.schemas.get('user')! }, { requireFields: true });
const maskUs: number[] = [];
for (let r = 0; r < rounds; r++) maskUs.push(usPerRun(() => maskOnly(ROWS)));
console.log(
  `${'the mask alone, 100 rows'.padEnd(34)} ${median(maskUs).toFixed(2).padStart(8)} us (${((median(maskUs) * 1000) / ROWS.length).toFixed(0)} ns a row)`,
);

const silent = new Writable({ write: (_c, _e, done) => done() });
const app = await buildServer({ endpoints: service.endpoints, bodyLimit: 1 << 20, requestTimeoutMs: 30_000, logger: createLogger({ stream: silent }) });
const payloadOne = JSON.stringify({ x: ROW });
const payloadList = JSON.stringify({ x: ROWS });
const inject = (url: string, payload: string) => () => app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
for (let i = 0; i < 2000; i++) await Promise.all([inject('/plain', payloadOne)(), inject('/declared', payloadOne)()]);
await pair('request (inject), one row', inject('/plain', payloadOne), inject('/declared', payloadOne), usPerRequest);
await pair('request (inject), 100 rows', inject('/plain-list', payloadList), inject('/declared-list', payloadList), usPerRequest);
await app.close();
