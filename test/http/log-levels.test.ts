/**
 * Log levels and the access log: `server { log_level, access_log }` and `LOG_LEVEL`, as `svc serve`
 * wires them (src/cli/log-settings.ts); and the pretty format, which prettifies the same lines.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger, flushLogger } from '../../src/http/index.js';
import { requestLogger } from '../../src/http/log.js';
import { LogCapture } from './helpers.js';
import { serveWithTelemetry } from './metrics-helpers.js';

/** Answers: 200, 404 (unmatched), 500 (a failing step), 401 without and with a wrong key. */
function manifest(server: string): string {
  return `
server {
${server}
}
auth "keys" {
  type = "api_key"
  keys = { alice = "k-alice" }
}
endpoint "GET /ok" {
  pipeline {
    respond {
      body = "fine"
    }
  }
}
endpoint "GET /boom" {
  pipeline {
    respond {
      body = 1 / length(ctx.request.query)
    }
  }
}
endpoint "GET /guarded" {
  auth = [auth.keys]
  pipeline {
    respond {
      body = ctx.auth.principal
    }
  }
}
`;
}

/** The requests of the manifest above, and the statuses of the lines logged for them. */
async function loggedStatuses(server: string, env: Record<string, string> = {}): Promise<{ statuses: number[]; levels: number[] }> {
  const s = await serveWithTelemetry(manifest(server), { env });
  try {
    const answered = [];
    for (const url of ['/ok', '/nowhere', '/boom', '/guarded']) answered.push((await s.app.inject({ method: 'GET', url })).statusCode);
    answered.push((await s.app.inject({ method: 'GET', url: '/guarded', headers: { 'x-api-key': 'wrong' } })).statusCode);
    assert.deepEqual(answered, [200, 404, 500, 401, 401]);
    const lines = s.log.requests();
    return { statuses: lines.map((l) => l.status as number), levels: lines.map((l) => l.level as number) };
  } finally {
    await s.close();
  }
}

test('by default every request has its line, at info, warn (a wrong credential) or error (a failure)', async () => {
  const { statuses, levels } = await loggedStatuses('');
  assert.deepEqual(statuses, [200, 404, 500, 401, 401]);
  assert.deepEqual(levels, [30, 30, 50, 30, 40]);
});

test('access_log = false drops the lines at info, keeps warnings and errors', async () => {
  const { statuses, levels } = await loggedStatuses('access_log = false');
  assert.deepEqual(statuses, [500, 401]);
  assert.deepEqual(levels, [50, 40]);
});

test('log_level in the server block: warn keeps warnings and errors, error only errors, silent nothing', async () => {
  assert.deepEqual((await loggedStatuses('log_level = "warn"')).statuses, [500, 401]);
  assert.deepEqual((await loggedStatuses('log_level = "error"')).statuses, [500]);
  assert.deepEqual((await loggedStatuses('log_level = "silent"')).statuses, []);
  assert.deepEqual((await loggedStatuses('log_level = "debug"')).statuses, [200, 404, 500, 401, 401]);
});

test('LOG_LEVEL wins over the server block', async () => {
  assert.deepEqual((await loggedStatuses('log_level = "error"', { LOG_LEVEL: 'info' })).statuses, [200, 404, 500, 401, 401]);
  assert.deepEqual((await loggedStatuses('log_level = "debug"', { LOG_LEVEL: 'error' })).statuses, [500]);
});

test('a logger whose level is above info skips the success line before building anything', () => {
  const log = new LogCapture();
  const logger = createLogger({ stream: log, level: 'warn' });
  const line = requestLogger(logger);
  // The success line is dropped (the level is read once, when the request logger is made).
  line('r-1', 'GET', '/x', 200, 1, null);
  line('r-2', 'GET', '/x', 503, 1, null);
  assert.deepEqual(
    log.requests().map((l) => [l.reqId, l.level]),
    [['r-2', 40]],
  );
  // It says so, and the adapter then skips the call for a plain line, and the time it would carry.
  assert.equal(line.dropsPlainLines, true);
  assert.equal(requestLogger(createLogger({ stream: log })).dropsPlainLines, undefined);
});

test('--log-format=pretty: the same lines, one readable line per request, fields after, errors with their stack', () => {
  let out = '';
  const logger = createLogger({ stream: { write: (text: string) => (out += text) }, format: 'pretty' });
  const line = requestLogger(logger, { secretQueryParams: ['api_key'] });
  line('abc-1', 'GET', '/users/7?api_key=secret', 200, 0.4125, null);
  line('abc-2', 'POST', '/users', 500, 3, { step: 'insert', error: new Error('boom') });
  logger.info({ url: 'http://127.0.0.1:8080', endpoints: 3 }, 'listening');
  flushLogger(logger);
  const lines = out.split('\n');
  assert.match(lines[0]!, /^\[\d\d:\d\d:\d\d\.\d\d\d\] INFO: GET \/users\/7\?api_key=\[REDACTED\] 200 0\.413 ms \(abc-1\)$/);
  assert.match(lines[1]!, /^\[[\d:.]+\] ERROR: POST \/users 500 3 ms \(abc-2\) request failed \{"step":"insert"\}$/);
  assert.ok(out.includes('Error: boom'), out);
  assert.ok(!out.includes('secret'));
  assert.match(out, /INFO: listening \{"url":"http:\/\/127\.0\.0\.1:8080","endpoints":3\}/);
  // No JSON line is left: every line went through the prettifier.
  assert.ok(!out.split('\n').some((l) => l.startsWith('{')), out);
});
