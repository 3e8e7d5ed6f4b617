/**
 * Boot benchmark (`npm run bench:boot`): a generated 100-endpoint manifest (request declarations,
 * a few steps each, expressions, schemas, guards, connections) in a temp dir, booted the way
 * `svc serve` boots before listening: discover + read + parse + decode + check (the load), then every
 * graph, request validator and route, up to Fastify's ready() (the whole boot).
 * Prints the median of several runs after warm-up, per endpoint and in total, against the goal of
 * 300 ms for the whole boot. Baseline measured in the same run: parsing alone (src/hcl).
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseFile } from '../../src/hcl/index.js';
import { discoverManifestFiles } from '../../src/manifest/discover.js';
import { loadServiceModel } from '../../src/steps/index.js';
import { buildServer, createLogger } from '../../src/http/index.js';
import { compileService } from '../../src/steps/index.js';

const ENDPOINTS = 100;
const WARMUP = 5;
const RUNS = 21;
const GOAL_MS = 300;

function schemas(): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out += `schema "item${i}" {
  field "name" {
    type       = string
    required   = true
    min_length = 2
    max_length = 80
  }
  field "email" {
    type   = string
    format = "email"
  }
  field "quantity" {
    type    = int
    default = 1
    min     = 1
    max     = 1000
  }
  field "tags" {
    type         = list(string)
    max_items    = 10
    unique_items = true
  }
  field "kind" {
    type = string
    enum = ["a", "b", "c"]
  }
}
`;
  }
  return out;
}

const DECLARATIONS = `server {
  port            = env("PORT", 8080)
  max_body_size   = "1MiB"
  request_timeout = "30s"
  auth            = [auth.partners]
}
openapi {
  title   = "Bench API"
  version = "1.0.0"
}
auth "partners" {
  type   = "api_key"
  header = "x-api-key"
  keys   = { acme = "k1" }
}
auth "admin" {
  type     = "basic"
  username = "admin"
  password = env("ADMIN_PASSWORD", "secret")
}
connection "postgres" "main" {
  url = "pglite:"
}
connection "redis" "cache" {
  url = "memory:"
}
`;

/** Four shapes in rotation, in both dialects: read with cache, create in a transaction, search, fan-out. */
function endpoint(i: number): string {
  const s = i % 10;
  switch (i % 4) {
    case 0:
      return `endpoint "GET /r${i}/items/{id}" {
  description = "Read item ${i}"
  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
    headers {
      field "x-trace" {
        type = string
      }
    }
  }
  pipeline {
    redis "cached" {
      connection = connection.redis.cache
      command    = "GET"
      key        = "item:${i}:\${ctx.request.path.id}"
    }
    respond {
      condition = steps.cached.value != null
      headers   = { "X-Cache" = "HIT" }
      body      = steps.cached.value
    }
    sql "item" {
      connection = connection.postgres.main
      query      = "SELECT * FROM items WHERE id = @id AND shard = @shard"
      args       = { id = ctx.request.path.id, shard = ${i} }
    }
    respond {
      condition = steps.item.rows_affected == 0
      status    = 404
      body      = problem(404, "Item not found")
    }
    respond {
      headers = { "X-Cache" = "MISS", "X-Trace" = coalesce(ctx.request.headers.x-trace, "none") }
      body    = merge(steps.item.row, { shard = ${i} })
    }
  }
}
`;
    case 1:
      return `endpoint "POST /r${i}/items" {
  auth = [auth.admin]
  request {
    body = schema.item${s}
  }
  pipeline {
    transaction "create" {
      connection = connection.postgres.main
      sql "insert" {
        query = "INSERT INTO items (name, email, quantity) VALUES (@name, @email, @quantity) RETURNING *"
        args  = { name = trim_space(ctx.request.body.name), email = lower(ctx.request.body.email), quantity = ctx.request.body.quantity }
      }
      sql "audit" {
        query = "INSERT INTO audit (item_id, at) VALUES (@id, @at)"
        args  = { id = steps.insert.row.id, at = ctx.timestamp_epoch }
      }
      catch "23505" {
        status = 409
        body   = problem(409, "Item exists")
      }
    }
    respond {
      status = 201
      body   = { item = steps.insert.row, tags = [for t in coalesce(ctx.request.body.tags, []) : upper(t)] }
    }
  }
}
`;
    case 2:
      return `route "GET /r${i}/search" {
  summary = "Search ${i}"
  tag     = "search"
  request {
    query "q" {
      type       = string
      required   = true
      min_length = 2
    }
    query "limit" {
      type    = integer
      default = 20
      min     = 1
      max     = 100
    }
    query "sort" {
      type    = string
      default = "desc"
      enum    = ["asc", "desc"]
    }
  }
  sql "hits" {
    connection = "main"
    query      = "SELECT * FROM items WHERE name ILIKE @q ORDER BY id LIMIT @limit"
    args       = { q = "%\${ctx.request.query.q}%", limit = ctx.request.query.limit }
  }
  respond {
    body = {
      query = ctx.request.query.q
      sort  = ctx.request.query.sort
      count = length(steps.hits.rows)
      hits  = steps.hits.rows
    }
  }
}
`;
    default:
      return `endpoint "GET /r${i}/accounts/{id}/overview" {
  pipeline {
    parallel {
      sql "account" {
        connection = connection.postgres.main
        query      = "SELECT * FROM accounts WHERE id = @id"
        args       = { id = ctx.request.path.id }
      }
      sql "invoices" {
        connection = connection.postgres.main
        query      = "SELECT * FROM invoices WHERE account_id = @id LIMIT 5"
        args       = { id = ctx.request.path.id }
      }
      http "profile" {
        url     = "https://profiles.example.com/\${ctx.request.path.id}"
        timeout = "2s"
      }
    }
    starlark "score" {
      source = <<-PY
        def execute(ctx):
            return len(ctx["request"]["path"]["id"]) * ${i}
      PY
    }
    respond {
      condition = steps.account.rows_affected == 0
      status    = 404
      body      = problem(404, "Account not found")
    }
    respond {
      body = {
        account  = steps.account.row
        invoices = steps.invoices.rows
        profile  = steps.profile.body
        score    = steps.score.result
      }
    }
  }
}
`;
  }
}

function generate(dir: string): void {
  writeFileSync(join(dir, 'service.hcl'), DECLARATIONS);
  writeFileSync(join(dir, 'schemas.hcl'), schemas());
  mkdirSync(join(dir, 'api'));
  // Ten files of ten endpoints, as a real manifest would be split.
  for (let f = 0; f < ENDPOINTS / 10; f++) {
    let text = '';
    for (let i = f * 10; i < f * 10 + 10; i++) text += endpoint(i) + '\n';
    writeFileSync(join(dir, 'api', `part${String(f).padStart(2, '0')}.hcl`), text);
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-boot-'));
  try {
    generate(dir);
    const first = await loadServiceModel(dir);
    const errors = first.diagnostics.filter((d) => d.severity === 'error');
    if (!first.model || errors.length > 0) {
      console.error('generated manifest does not check:', first.diagnostics.slice(0, 5));
      process.exitCode = 1;
      return;
    }
    const lines = [...first.sources.values()].reduce((n, s) => n + s.split('\n').length, 0);

    const boot: number[] = [];
    const whole: number[] = [];
    const parse: number[] = [];
    // Lines of the request log would go nowhere here: the server is built, never listened on.
    const logger = createLogger({ stream: { write: () => true } });
    const files = (await discoverManifestFiles(dir)).map((rel) => ({ name: rel, text: readFileSync(join(dir, rel), 'utf8') }));
    for (let r = 0; r < WARMUP + RUNS; r++) {
      let t = performance.now();
      const { model } = await loadServiceModel(dir);
      const bootMs = performance.now() - t;
      if (!model) throw new Error('model expected');
      // The rest of `svc serve`'s boot: every graph (the generated manifest uses step kinds this version
      // cannot run yet, so they are compiled in drawing mode, everything else exactly as served), then
      // the Fastify server with every endpoint's request validator, up to ready().
      t = performance.now();
      const service = compileService(model, { forDrawing: true });
      if (service.endpoints.length !== model.endpoints.length) throw new Error('every endpoint should compile');
      const app = await buildServer({
        endpoints: service.endpoints,
        bodyLimit: model.server.maxBodySize,
        requestTimeoutMs: model.server.requestTimeoutMs,
        logger,
      });
      await app.ready();
      const wholeMs = bootMs + (performance.now() - t);
      await app.close();
      t = performance.now();
      for (const f of files) parseFile(f.text, f.name);
      const parseMs = performance.now() - t;
      if (r >= WARMUP) {
        boot.push(bootMs);
        whole.push(wholeMs);
        parse.push(parseMs);
      }
    }
    const total = median(boot);
    const p = median(parse);
    console.log(`boot bench: ${first.model.endpoints.length} endpoints, ${files.length} files, ${lines} lines, median of ${RUNS} runs after ${WARMUP} warm-up`);
    console.log(`  parse only (baseline)                ${p.toFixed(2)} ms`);
    console.log(`  load: discover+read+parse+decode+check ${total.toFixed(2)} ms total, ${(total / ENDPOINTS).toFixed(3)} ms per endpoint`);
    console.log(`  min ${Math.min(...boot).toFixed(2)} ms, max ${Math.max(...boot).toFixed(2)} ms; decode+check / parse = ${((total - p) / p).toFixed(2)}x`);
    const all = median(whole);
    console.log(`  whole boot: load + graphs + validators + routes, to ready() ${all.toFixed(2)} ms total, ${(all / ENDPOINTS).toFixed(3)} ms per endpoint`);
    console.log(`  goal: whole boot under ${GOAL_MS} ms -> ${all < GOAL_MS ? 'met' : 'NOT met'} (${((all / GOAL_MS) * 100).toFixed(0)}% of budget)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
