/**
 * Server-sent events (SPEC.md §4.3, DECISIONS.md §6; framing per the WHATWG HTML "server-sent events"
 * section): `id:` and `event:` lines when set, the item's `data:` lines, a blank line.
 */
import type { Problem } from '../problem/index.js';
import { jsonText } from './json-text.js';
import { type EncodingOptions, type StreamEncoder, type StreamEncoding, StreamGap, StreamItemError } from './types.js';

/** A field value with one of these would end its line early (CR, LF) or be ignored by the client (NUL in `id`). */
const FIELD_BREAKER = /[\r\n\0]/;
/** The three line ends the event-stream grammar accepts. */
const LINE_END = /\r\n|\r|\n/g;

const HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });

const HEARTBEAT = ': heartbeat\n\n';
const SHUTDOWN = ': server shutting down\n\n';
/**
 * A live source lost its upstream: messages may have been missed. The stream ends after it, so the
 * browser's EventSource reconnects (after `retry`) and subscribes afresh; a client that listens for
 * `gap` can first run its recovery (reload what it shows). An explicit event rather than a silent end,
 * so that it is told apart from a shutdown.
 */
const LOST = 'event: gap\ndata: {"reason":"subscription lost"}\n\n';
/**
 * The same for a stream that resumes (`replay`): the client reconnects with its last id and is sent
 * what it missed, so nothing was lost for it. A comment, so it runs no recovery.
 */
const LOST_RESUMABLE = ': the live source was lost; reconnect to resume\n\n';

export function sseEncoding(options: EncodingOptions): StreamEncoding {
  const { event, eventOf, retryMs, heartbeatMs, idOf, mask, resumable } = options;
  if (event !== undefined && FIELD_BREAKER.test(event)) throw new RangeError('sse: the event name must not contain CR, LF or NUL');
  if (retryMs !== undefined && !(Number.isFinite(retryMs) && retryMs >= 0)) {
    throw new RangeError(`sse: retry must be a non-negative number of ms, got ${retryMs}`);
  }
  // The client parses `retry:` as ASCII digits only: a fraction would make it ignore the line.
  const start = retryMs !== undefined ? `retry: ${Math.round(retryMs)}\n\n` : '';
  // An empty event name is the default type ("message"): no line needed.
  const eventLine = event ? `event: ${event}\n` : '';
  // Fan-out: a published message reaches every client of the channel as the very same value, one
  // client after the other (src/steps/live-feed.ts), and a frame depends on the item alone. So the
  // last frame is kept: a publish to N clients is framed once, not N times.
  let lastItem: unknown;
  let lastFrame: string | undefined;
  const encoder: StreamEncoder = {
    start: () => start,
    item(value) {
      if (lastFrame !== undefined && value === lastItem) return lastFrame;
      if (value instanceof StreamGap) return `event: gap\ndata: ${JSON.stringify(value.detail)}\n\n`;
      // The id is taken from the item as the source gave it: the mask may drop the field it names.
      const idLine = idOf ? idField(idOf(value)) : '';
      const sent = mask ? mask(value) : value;
      const frame = idLine + (eventOf ? eventField(eventOf(value)) : eventLine) + dataLines(sent);
      lastItem = value;
      lastFrame = frame;
      return frame;
    },
    error: (problem: Problem) => `event: error\ndata: ${jsonText(problem, 'sse')}\n\n`,
    heartbeat: () => HEARTBEAT,
    shutdown: () => SHUTDOWN,
    lost: () => (resumable ? LOST_RESUMABLE : LOST),
  };
  return {
    format: 'sse',
    contentType: options.contentType,
    headers: HEADERS,
    // A zero interval would be a busy loop, not a heartbeat: it means none.
    heartbeatMs: heartbeatMs !== undefined && heartbeatMs > 0 ? heartbeatMs : undefined,
    flushEvery: 1,
    // No per-response state: every response shares the one encoder.
    open: () => encoder,
  };
}

/** An item's own event name: none for null or '' (the default type, "message"), a string or number as text. */
function eventField(name: unknown): string {
  if (name === null || name === undefined || name === '') return '';
  if (typeof name !== 'string' && typeof name !== 'number') throw new StreamItemError(`sse: an event name must be a string, got ${typeof name}`);
  const text = String(name);
  if (FIELD_BREAKER.test(text)) throw new StreamItemError('sse: an event name must not contain CR, LF or NUL');
  return `event: ${text}\n`;
}

function idField(id: unknown): string {
  if (id === null || id === undefined) return '';
  // A number's text never holds a line end.
  if (typeof id === 'number') return 'id: ' + id + '\n';
  const text = typeof id === 'string' ? id : typeof id === 'object' ? jsonText(id, 'sse') : String(id);
  if (FIELD_BREAKER.test(text)) throw new StreamItemError('sse: an event id must not contain CR, LF or NUL');
  return `id: ${text}\n`;
}

/**
 * A string is sent as its text (what the browser's `e.data` then holds), one `data:` line per line;
 * any other value as its JSON text, which never holds a raw line end. With the blank line that ends
 * the event.
 */
function dataLines(value: unknown): string {
  const text = typeof value === 'string' ? value.replace(LINE_END, '\ndata: ') : jsonText(value, 'sse');
  return 'data: ' + text + '\n\n';
}
