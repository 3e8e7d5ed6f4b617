/**
 * The service of the LISTEN/NOTIFY tests (listen.test.ts, listen-outage.test.ts): endpoints that
 * listen (sse, ndjson, a computed channel) and endpoints that notify (plainly, in a transaction that
 * rolls back), served as `svc serve` builds them with the connectors' warnings captured, and probes.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { createConnectors, type ConnectorLogger, type ConnectorSet, type PostgresHandle } from '../../src/connectors/index.js';
import { buildServer, createLogger } from '../../src/http/index.js';
import { buildServiceModel, compileService } from '../../src/steps/index.js';
import { LogCapture } from '../http/helpers.js';
import { listenLocal, readUntil } from '../http/stream-helpers.js';

export const MANIFEST = `
connection "postgres" "db" {
  url = "{{DB}}"
}

endpoint "GET /events" {
  pipeline {
    sql "feed" {
      connection = connection.postgres.db
      listen     = "orders"
    }
    stream "sse" {
      source = steps.feed.stream
      id     = item.seq
    }
  }
}

endpoint "GET /events.ndjson" {
  pipeline {
    sql "feed" {
      connection = connection.postgres.db
      listen     = "orders"
    }
    stream "ndjson" {
      source = steps.feed.stream
    }
  }
}

endpoint "GET /rooms/{room}" {
  request {
    path {
      field "room" {
        type = string
      }
    }
  }
  pipeline {
    sql "feed" {
      connection = connection.postgres.db
      listen     = "room_\${ctx.request.path.room}"
    }
    stream "sse" {
      source = steps.feed.stream
    }
  }
}

endpoint "POST /orders" {
  request {
    body {
      field "seq" {
        type     = int
        required = true
      }
    }
  }
  pipeline {
    sql "notify" {
      connection = connection.postgres.db
      query      = "SELECT pg_notify('orders', @payload)"
      args = {
        payload = json_encode({ seq = ctx.request.body.seq })
      }
    }
    respond {
      status = 202
      body   = { sent = true }
    }
  }
}

endpoint "POST /orders/rolled-back" {
  request {
    body {
      field "seq" {
        type     = int
        required = true
      }
    }
  }
  pipeline {
    transaction "t" {
      connection = connection.postgres.db
      sql "notify" {
        query = "SELECT pg_notify('orders', @payload)"
        args = {
          payload = json_encode({ seq = ctx.request.body.seq })
        }
      }
      sql "fail" {
        query = "SELECT 1 / (@zero::int) AS never"
        args = {
          zero = 0
        }
      }
    }
    respond {
      status = 202
      body   = { sent = true }
    }
  }
}

# A query cut short by its time-out: its pool client is destroyed, and the next one starts afresh.
endpoint "GET /slow" {
  pipeline {
    sql "slow" {
      connection = connection.postgres.db
      query      = "SELECT pg_sleep(0.2) AS slept"
      timeout    = "20ms"
    }
    respond {
      body = steps.slow.row
    }
  }
}

endpoint "POST /rooms/{room}/say" {
  request {
    path {
      field "room" {
        type = string
      }
    }
    body {
      field "text" {
        type     = string
        required = true
      }
    }
  }
  pipeline {
    sql "notify" {
      connection = connection.postgres.db
      query      = "SELECT pg_notify('room_' || @room, @text)"
      args = {
        room = ctx.request.path.room
        text = ctx.request.body.text
      }
    }
    respond {
      status = 202
      body   = { sent = true }
    }
  }
}
`;

export interface Served {
  readonly url: string;
  readonly db: PostgresHandle;
  readonly log: LogCapture;
  readonly warnings: { fields: Record<string, unknown>; message: string }[];
  close(): Promise<void>;
}

/** The service as `svc serve` builds it, the connectors' warnings captured, listening on loopback. */
export async function serve(dbUrl: string): Promise<Served> {
  const built = buildServiceModel([{ filename: 'api.hcl', source: MANIFEST.replaceAll('{{DB}}', dbUrl) }], { dir: '.' });
  assert.deepEqual(
    built.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.summary}: ${d.detail}`),
    [],
  );
  const connectors: ConnectorSet = createConnectors(built.model!);
  const service = compileService(built.model!, { connectors });
  assert.deepEqual(
    service.diagnostics.map((d) => d.summary),
    [],
  );
  const warnings: Served['warnings'] = [];
  const logger: ConnectorLogger = {
    info: () => {},
    warn: (fields, message) => void warnings.push({ fields: fields as Record<string, unknown>, message }),
  };
  await connectors.openAll({ logger });
  const log = new LogCapture();
  const app = await buildServer({ endpoints: service.endpoints, bodyLimit: 1024 * 1024, requestTimeoutMs: 30_000, logger: createLogger({ stream: log }) });
  const url = await listenLocal(app);
  return {
    url,
    db: connectors.handle('postgres', 'db'),
    log,
    warnings,
    async close() {
      await app.close();
      await connectors.closeAll();
    },
  };
}

export async function post(url: string, body: unknown): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
}

/** The backends of the listening connection (application_name svc-listen) on the test's database. */
export async function listenerPids(db: PostgresHandle): Promise<number[]> {
  const { rows } = await db.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'svc-listen'");
  return rows.map((r) => r.pid);
}

/**
 * Notifies `seq` until every client has it: the step answered once its LISTEN was done, so the
 * first notification already arrives; the poll only spares the test an assumption about the order
 * in which the clients' requests were served.
 */
export async function deliveredTo(s: Served, clients: readonly IncomingMessage[], marker: string, seq: number): Promise<string[]> {
  assert.equal(await post(`${s.url}/orders`, { seq }), 202);
  return Promise.all(clients.map((c) => readUntil(c, marker, 10_000)));
}

/** Reads a response to its end from now on; `ended` says how: its last chunk came, or it was cut. */
export function rest(res: IncomingMessage): { text: () => string; ended: Promise<'end' | 'cut'> } {
  let text = '';
  res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const ended = new Promise<'end' | 'cut'>((resolve) => {
    res.on('end', () => resolve('end'));
    res.on('aborted', () => resolve('cut'));
    res.on('error', () => resolve('cut'));
  });
  res.resume();
  return { text: () => text, ended };
}
