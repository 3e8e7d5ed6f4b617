/**
 * A lost Redis subscription is not silent (issue 35, item 3), on a real Redis server of the test's
 * own (the shared one serves other test files' subscribers, which a kill would reach too): the
 * subscriber connection is killed from another client (`CLIENT KILL TYPE pubsub`), so messages published until
 * ioredis is back would be missed. Every stream on the channel is told: an SSE client receives
 * `event: gap` and its response ends (EventSource then reconnects), an ndjson client sees its
 * transfer cut short; one warning names the lost subscription (not one per client), the clients'
 * request lines are not failures, and a client that reconnects subscribes afresh and receives what
 * is published next. The `memory:` store is in process and cannot lose a subscription.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { Redis } from 'ioredis';
import { buildServer, createLogger } from '../../src/http/index.js';
import { createConnectors, type ConnectorLogger } from '../../src/connectors/index.js';
import { buildServiceModel, compileService } from '../../src/steps/index.js';
import { LogCapture } from '../http/helpers.js';
import { listenLocal, open, readUntil, until } from '../http/stream-helpers.js';
import { eventually, haveRedisServer, redisServer, unique } from './helpers.js';

const skip = haveRedisServer() ? false : 'redis-server is not installed (the test command installs it)';

function manifest(url: string, channel: string): string {
  return `
    connection "redis" "bus" {
      url = "${url}"
    }
    endpoint "GET /events" {
      pipeline {
        redis "feed" {
          connection = connection.redis.bus
          command    = "SUBSCRIBE"
          channel    = "${channel}"
        }
        stream "sse" {
          source = steps.feed.stream
          id     = item.seq
        }
      }
    }
    endpoint "GET /events.ndjson" {
      pipeline {
        redis "feed" {
          connection = connection.redis.bus
          command    = "SUBSCRIBE"
          channel    = "${channel}"
        }
        stream "ndjson" {
          source = steps.feed.stream
        }
      }
    }
  `;
}

/** The service as `svc serve` builds it, with the connectors' log lines captured too. */
async function serve(source: string) {
  const built = buildServiceModel([{ filename: 'api.hcl', source }], { dir: '.' });
  assert.deepEqual(
    built.diagnostics.filter((d) => d.severity === 'error').map((d) => d.summary),
    [],
  );
  const connectors = createConnectors(built.model!);
  const service = compileService(built.model!, { connectors });
  assert.deepEqual(
    service.diagnostics.map((d) => d.summary),
    [],
  );
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const logger: ConnectorLogger = {
    info: () => {},
    warn: (fields, message) => void warnings.push({ fields: fields as Record<string, unknown>, message }),
  };
  await connectors.openAll({ logger });
  const log = new LogCapture();
  const app = await buildServer({ endpoints: service.endpoints, bodyLimit: 1024 * 1024, requestTimeoutMs: 30_000, logger: createLogger({ stream: log }) });
  return {
    app,
    connectors,
    log,
    warnings,
    async close() {
      await app.close();
      await connectors.closeAll();
    },
  };
}

/** Resolves with how the response ended: `end` (its last chunk came) or `cut` (the connection was). */
function ending(res: IncomingMessage): Promise<'end' | 'cut'> {
  return new Promise((resolve) => {
    res.on('end', () => resolve('end'));
    res.on('aborted', () => resolve('cut'));
    res.on('error', () => resolve('cut'));
  });
}

/** Reads a response to its end, from now on. */
function rest(res: IncomingMessage): { text: () => string; ended: Promise<'end' | 'cut'> } {
  let text = '';
  res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const ended = ending(res);
  res.resume();
  return { text: () => text, ended };
}

test('CLIENT KILL TYPE pubsub: every stream on the channel is told (sse: event: gap, then the end; ndjson: cut short); one warning; a reconnect receives what comes next', {
  skip,
  timeout: 60_000,
}, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-redis-lost-'));
  const redisUrl = redisServer('start', dir);
  const channel = unique('lost');
  const served = await serve(manifest(redisUrl, channel));
  const url = await listenLocal(served.app);
  const admin = new Redis(redisUrl);
  const clients: IncomingMessage[] = [];
  try {
    for (let i = 0; i < 3; i++) clients.push(await open(`${url}/events`));
    const ndjson = await open(`${url}/events.ndjson`);
    clients.push(ndjson);
    // Every client listens once a message published now reaches each of them.
    await eventually(
      () => admin.publish(channel, JSON.stringify({ seq: 1 })),
      (n) => n >= 1,
    );
    const sse = clients.slice(0, 3);
    await Promise.all(sse.map((c) => readUntil(c, 'id: 1\n')));
    await readUntil(ndjson, '{"seq":1}\n');
    const sseRest = sse.map(rest);
    const ndjsonRest = rest(ndjson);

    // svc's subscriber connection is the server's only one in subscribe mode.
    const killed = await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    assert.equal(Number(killed), 1, 'the subscriber connection was killed');

    const endings = await Promise.all(sseRest.map((r) => r.ended));
    assert.deepEqual(endings, ['end', 'end', 'end'], 'each SSE response ends, so EventSource reconnects');
    for (const r of sseRest) assert.equal(r.text(), 'event: gap\ndata: {"reason":"subscription lost"}\n\n');
    assert.equal(await ndjsonRest.ended, 'cut', 'an ndjson transfer is cut short, never a complete response');
    assert.equal(ndjsonRest.text(), '');

    const lost = served.warnings.filter((w) => w.message.startsWith('redis subscription lost'));
    assert.equal(lost.length, 1, 'one warning for the lost subscription, not one per client');
    assert.equal(lost[0]!.fields.channel, channel);
    assert.equal(lost[0]!.fields.listeners, 1, 'one listener: the fan-out of every client');
    await until(() => served.log.requests().filter((l) => l.method === 'GET').length === 4);
    for (const line of served.log.requests()) {
      assert.equal((line.stream as { ended: string }).ended, 'source lost');
      assert.equal(line.level, 30, 'not a failure of the request');
    }

    // The client reconnects: a new subscription, which hears what is published from then on.
    const again = await open(`${url}/events`);
    clients.push(again);
    await eventually(
      () => admin.publish(channel, JSON.stringify({ seq: 2 })),
      (n) => n >= 1,
      5000,
    );
    const body = await readUntil(again, 'id: 2\n');
    assert.match(body, /id: 2\ndata: \{"seq":2\}\n\n/);
    const [, subscribers] = (await admin.pubsub('NUMSUB', channel)) as [string, number];
    assert.equal(Number(subscribers), 1, 'the channel is subscribed once, by the new subscription');
  } finally {
    for (const c of clients) c.destroy();
    admin.disconnect();
    await served.close();
    redisServer('stop', dir);
  }
});
