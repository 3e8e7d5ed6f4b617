/**
 * `stream "sse" { replay }` at boot: the replay's step must run after the live source's (declared
 * after it), or what is published between the two would be in neither; `svc check` says so at the
 * `replay` attribute. The boot-time rules of the attribute itself are in
 * test/model/fixtures/bad/stream-replay.hcl; the behaviour in test/stream/resume.test.ts and
 * test/postgres/resume.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildServiceModel, compileService } from '../../src/steps/index.js';

function compile(steps: string) {
  const source = `
    connection "redis" "bus" {
      url = "memory:"
    }
    endpoint "GET /feed" {
      request {
        headers {
          field "last-event-id" {
            type = string
          }
        }
      }
      pipeline {
        ${steps}
        stream "sse" {
          source = steps.live.stream
          replay = steps.missed.value
          id     = item.id
        }
      }
    }
  `;
  const built = buildServiceModel([{ filename: 'api.hcl', source }], { dir: '.' });
  assert.deepEqual(built.diagnostics, []);
  const replayLine = source.split('\n').findIndex((line) => line.includes('replay = ')) + 1;
  return { diagnostics: compileService(built.model!, { forDrawing: true }).diagnostics, replayLine };
}

const LIVE = `redis "live" {
  connection = connection.redis.bus
  command    = "XREAD"
  key        = "log"
}`;
const MISSED = `redis "missed" {
  connection = connection.redis.bus
  command    = "XRANGE"
  key        = "log"
  start      = coalesce(ctx.request.headers["last-event-id"], "+")
}`;

test('a replay whose step is declared after the live source compiles', () => {
  assert.deepEqual(compile(`${LIVE}\n${MISSED}`).diagnostics, []);
});

test('a replay whose step is declared before the live source is refused at the replay attribute', () => {
  const { diagnostics, replayLine } = compile(`${MISSED}\n${LIVE}`);
  assert.equal(diagnostics.length, 1);
  const [d] = diagnostics;
  assert.equal(d!.summary, 'Replay read before its live source');
  assert.match(d!.detail!, /step "missed", declared before the live source's step "live"/);
  assert.equal(d!.subject?.start.line, replayLine, 'the replay attribute of the stream step');
});
