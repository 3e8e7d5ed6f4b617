/**
 * One JSON log line per request (DECISIONS.md §7), written by pino.
 *
 * Fastify's own request logging (two lines per request, a child logger per request) is off; the adapter
 * writes a single line when the response is finished, carrying the request id, method, url, status and
 * duration, and, for a failed request, the full error (which the client never sees).
 */
import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

export interface LoggerOptions {
  /** Where lines go; stdout (asynchronous, flushed at exit) when absent. Tests pass a capture stream. */
  readonly stream?: DestinationStream;
  readonly level?: string;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  if (options.stream) return pino({ level, base: null }, options.stream);
  // Asynchronous writes batch lines under load instead of one write(2) per request; `flushLogger`
  // drains them before the process exits.
  return pino({ level, base: null }, pino.destination({ dest: 1, sync: false }));
}

export function flushLogger(log: Logger): void {
  try {
    log.flush();
  } catch {
    // A destination that cannot flush (closed stdout) must not turn a clean exit into a crash.
  }
}

/** What the adapter remembers about a request until its log line is written. */
export interface RequestNote {
  /** `METHOD /manifest/path` of the matched endpoint. */
  endpoint?: string;
  /** The failing step, for 500/503/504 answers. */
  step?: string;
  error?: unknown;
  /** Why the run ended early (`timeout`, `client closed`). */
  cancelled?: string;
}

export interface RequestLine {
  readonly reqId: string;
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly ms: number;
  readonly note: RequestNote | null;
}

export function logRequest(log: Logger, line: RequestLine): void {
  const { note } = line;
  const fields: Record<string, unknown> = {
    reqId: line.reqId,
    method: line.method,
    url: line.url,
    status: line.status,
    ms: Math.round(line.ms * 1000) / 1000,
  };
  if (note === null) {
    log.info(fields, 'request');
    return;
  }
  if (note.endpoint !== undefined) fields.endpoint = note.endpoint;
  if (note.step !== undefined) fields.step = note.step;
  if (note.cancelled !== undefined) fields.cancelled = note.cancelled;
  if (note.error !== undefined) {
    fields.err = note.error instanceof Error ? note.error : { message: String(note.error) };
    log.error(fields, 'request failed');
  } else if (line.status >= 500) log.warn(fields, 'request');
  else log.info(fields, 'request');
}
