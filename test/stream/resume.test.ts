/**
 * A live stream resumed from the client's last id (src/steps/stream/resume.ts), through the real
 * pump and SSE encoder: the replay first, then live items past it, in order, none twice; an
 * explicit `event: gap` where the replay does not hold the client's last id; live items that arrive
 * during the replay kept and de-duplicated, pulled or pushed.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { LiveChannelSource } from '../../src/steps/live-source.js';
import { compareEventIds, readEventId } from '../../src/steps/stream/event-ids.js';
import { ResumedSource } from '../../src/steps/stream/resume.js';
import { createEncoding, Pump, type PumpResult } from '../../src/stream/index.js';

interface Event {
  readonly seq: number | string;
}

function collect(): { out: Writable; text: () => string } {
  let text = '';
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString();
      callback();
    },
  });
  return { out, text: () => text };
}

/** A resumed stream over `replay` and a fresh live source, pumped into a collecting sink. */
function resumed(replay: Iterable<Event> | AsyncIterable<Event>, lastEventId: unknown) {
  const live = new LiveChannelSource('test feed', () => {});
  const source = new ResumedSource({ live, replay, idOf: (item) => (item as Event).seq, lastEventId });
  const sink = collect();
  const pump = new Pump({
    source,
    live: true,
    encoding: createEncoding({ format: 'sse', contentType: 'text/event-stream', idOf: (item) => (item as Event).seq, resumable: true }),
    out: sink.out,
    problemOf: () => ({ type: 'about:blank', title: 'failed', status: 500 }),
    abort: () => {},
  });
  const done: Promise<PumpResult> = pump.run();
  return { live, pump, done, text: sink.text };
}

/** The ids and gap events of an SSE body, in order. */
function frames(text: string): string[] {
  return text
    .split('\n\n')
    .filter((f) => f !== '')
    .map((f) => (f.startsWith('event: gap') ? `gap ${f.slice(f.indexOf('{'))}` : f.split('\n')[0]!.replace('id: ', '')));
}

const events = (from: number, to: number): Event[] => Array.from({ length: to - from + 1 }, (_, i) => ({ seq: from + i }));

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

test('the replay from the last id is sent without that id, then live items past it; those in both are sent once', async () => {
  const stream = resumed(events(5, 9), '5');
  // Published after the live source was joined, before the replay was read: in both.
  stream.live.deliver({ seq: 8 });
  stream.live.deliver({ seq: 9 });
  stream.live.deliver({ seq: 10 });
  await settle();
  stream.live.deliver({ seq: 11 });
  await settle();
  assert.deepEqual(frames(stream.text()), ['6', '7', '8', '9', '10', '11']);
  stream.pump.stop();
  assert.equal((await stream.done).why, 'server shutting down');
});

test('live items pushed after the replay are de-duplicated until one is past it, then pass untouched', async () => {
  const stream = resumed(events(3, 6), 3);
  await settle();
  // Nothing kept: the pump now takes live items pushed. An old one and a repeated one are left out.
  stream.live.deliver({ seq: 2 });
  stream.live.deliver({ seq: 6 });
  stream.live.deliver({ seq: 7 });
  stream.live.deliver({ seq: 8 });
  await settle();
  assert.deepEqual(frames(stream.text()), ['4', '5', '6', '7', '8']);
  stream.pump.stop();
  await stream.done;
});

test('a first connection (no last id) gets the whole replay, then the live items', async () => {
  const stream = resumed(events(1, 3), undefined);
  stream.live.deliver({ seq: 3 });
  stream.live.deliver({ seq: 4 });
  await settle();
  assert.deepEqual(frames(stream.text()), ['1', '2', '3', '4']);
  stream.pump.stop();
  await stream.done;
});

test('a last id the log no longer keeps: a gap event naming it, the first id lost and where it resumes', async () => {
  const stream = resumed(events(20, 22), '10');
  await settle();
  assert.deepEqual(frames(stream.text()), ['gap {"reason":"not kept","last_event_id":"10","first_lost":"11","resumes_at":"20"}', '20', '21', '22']);
  stream.pump.stop();
  await stream.done;
});

test('integer ids: a replay that starts right after the last id (that one trimmed) is no gap', async () => {
  const stream = resumed(events(11, 12), '10');
  await settle();
  assert.deepEqual(frames(stream.text()), ['11', '12']);
  stream.pump.stop();
  await stream.done;
});

test('an empty replay for a last id: the log lost it, the gap says so without a resume point', async () => {
  const stream = resumed([], '41');
  stream.live.deliver({ seq: 42 });
  await settle();
  assert.deepEqual(frames(stream.text()), ['gap {"reason":"not kept","last_event_id":"41","first_lost":"42"}', '42']);
  stream.pump.stop();
  await stream.done;
});

test('a log that started again (ids from 1 after a restart): after the gap its live items are not taken for old ones', async () => {
  const stream = resumed(events(1, 3), '41');
  stream.live.deliver({ seq: 3 });
  stream.live.deliver({ seq: 4 });
  await settle();
  assert.deepEqual(frames(stream.text()), ['gap {"reason":"not kept","last_event_id":"41","first_lost":"42"}', '4']);
  stream.pump.stop();
  await stream.done;
});

test('Redis entry ids: compared by time then sequence; a gap names the next possible id', async () => {
  const replay = [{ seq: '1700000000000-0' }, { seq: '1700000000000-1' }, { seq: '1700000000005-0' }];
  const kept = resumed(replay, '1700000000000-0');
  await settle();
  assert.deepEqual(frames(kept.text()), ['1700000000000-1', '1700000000005-0']);
  kept.pump.stop();
  await kept.done;

  const trimmed = resumed(replay, '1699999999999-7');
  await settle();
  assert.deepEqual(
    frames(trimmed.text())[0],
    'gap {"reason":"not kept","last_event_id":"1699999999999-7","first_lost":"1699999999999-8","resumes_at":"1700000000000-0"}',
  );
  trimmed.pump.stop();
  await trimmed.done;
});

test('a replay that starts before the last id (no WHERE): what the client has is left out', async () => {
  const stream = resumed(events(1, 6), 4);
  await settle();
  assert.deepEqual(frames(stream.text()), ['5', '6']);
  stream.pump.stop();
  await stream.done;
});

test('a slow (asynchronous) replay: live items published meanwhile wait, and none is lost or doubled', async () => {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  async function* slow(): AsyncGenerator<Event> {
    for (const e of events(101, 150)) {
      if (e.seq === 120) await gate;
      yield e;
    }
  }
  const stream = resumed(slow(), 100);
  await settle();
  for (const e of events(140, 200)) stream.live.deliver(e);
  release();
  await settle();
  for (const e of events(201, 205)) stream.live.deliver(e);
  await settle();
  assert.deepEqual(
    frames(stream.text()),
    events(101, 205).map((e) => String(e.seq)),
  );
  stream.pump.stop();
  await stream.done;
});

test('a lost live source ends a resumable stream with a comment, not a gap (the reconnect resumes)', async () => {
  const stream = resumed(events(1, 2), undefined);
  await settle();
  stream.live.lose('the connection dropped');
  const result = await stream.done;
  assert.equal(result.why, 'source lost');
  assert.ok(stream.text().endsWith(': the live source was lost; reconnect to resume\n\n'), stream.text());
  assert.ok(!stream.text().includes('event: gap'));
});

test('event ids: integers by value at any size, entry ids by parts, the rest as text', () => {
  const order = (a: unknown, b: unknown) => compareEventIds(readEventId(a)!, readEventId(b)!);
  assert.ok(order(9, '10') < 0);
  assert.ok(order('18446744073709551616', '18446744073709551615') > 0);
  assert.ok(order('99-1', '100-0') < 0);
  assert.ok(order('5-10', '5-9') > 0);
  assert.ok(order('01HZX', '01HZY') < 0);
  assert.equal(order('7', 7), 0);
  assert.equal(readEventId(null), undefined);
});
