/**
 * What the tracing tests share: a manifest with every traced kind of work (redis, sql, outbound
 * http, a stream), an upstream that records the headers it gets, and span lookups.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReceivedSpan } from './otlp-receiver.js';

/** `tracing` is the server block's `tracing { ... }` body, or undefined for none (the environment decides). */
export function manifest(tracing: string | undefined, extraServer = ''): string {
  return `
server {
  ${extraServer}
  ${tracing === undefined ? '' : `tracing {\n${tracing}\n}`}
}

connection "postgres" "db" {
  url = env("DATABASE_URL")
}

connection "redis" "cache" {
  url = env("REDIS_URL")
}

endpoint "GET /users/{id}" {
  request {
    path {
      field "id" {
        type = int
      }
    }
  }
  pipeline {
    redis "cached" {
      connection = connection.redis.cache
      command    = "GET"
      key        = "tracing-test:\${ctx.request.path.id}"
    }
    sql "user" {
      connection = connection.postgres.db
      query      = "SELECT @id::int AS id, 'ada' AS name"
      args       = { id = ctx.request.path.id }
    }
    http "profile" {
      url     = "\${env("UPSTREAM_URL")}/profile/\${ctx.request.path.id}"
      timeout = "5s"
    }
    respond {
      body = { user = steps.user.row, profile = steps.profile.body, cached = steps.cached.value }
    }
  }
}

endpoint "GET /broken" {
  pipeline {
    sql "missing" {
      connection = connection.postgres.db
      query      = "SELECT * FROM no_such_table_for_tracing"
    }
    respond {
      body = steps.missing.rows
    }
  }
}

endpoint "GET /numbers.ndjson" {
  pipeline {
    sql "numbers" {
      connection = connection.postgres.db
      query      = "SELECT n FROM generate_series(1, 5) AS n"
      stream     = true
    }
    stream "ndjson" {
      source = steps.numbers.stream
    }
  }
}

endpoint "GET /pair" {
  pipeline {
    transaction "pair" {
      connection = connection.postgres.db
      sql "first" {
        query = "SELECT 1 AS n"
      }
      sql "second" {
        query = "SELECT @n::int + 1 AS n"
        args  = { n = steps.first.row.n }
      }
    }
    respond {
      body = { n = steps.second.row.n }
    }
  }
}

endpoint "GET /down" {
  pipeline {
    http "gone" {
      url     = "\${env("GONE_URL")}/anything"
      timeout = "5s"
    }
    respond {
      body = steps.gone.body
    }
  }
}

endpoint "GET /ping" {
  pipeline {
    respond {
      body = { ok = true }
    }
  }
}
`;
}

export async function manifestDir(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-tracing-'));
  await writeFile(join(dir, 'main.hcl'), text);
  return dir;
}

export interface Upstream {
  readonly url: string;
  /** The headers of every request it got, in order. */
  readonly received: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** The http step's upstream: answers a small JSON profile and keeps the headers it got. */
export async function startUpstream(): Promise<Upstream> {
  const received: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    received.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bio: `profile at ${req.url}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The one span of `spans` matching, or a failure that lists what there is. */
export function only(spans: readonly ReceivedSpan[], match: (s: ReceivedSpan) => boolean, what: string): ReceivedSpan {
  const found = spans.filter(match);
  if (found.length !== 1)
    throw new Error(`expected one ${what}, found ${found.length} among: ${spans.map((s) => `${s.name} (${s.spanId} <- ${s.parentSpanId})`).join(', ')}`);
  return found[0]!;
}

/** `child` lies within `parent` in time and names it as its parent. */
export function isChildOf(child: ReceivedSpan, parent: ReceivedSpan): boolean {
  return child.traceId === parent.traceId && child.parentSpanId === parent.spanId && child.startNs >= parent.startNs && child.endNs <= parent.endNs;
}
