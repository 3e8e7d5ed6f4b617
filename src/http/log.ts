/**
 * One JSON log line per request (DECISIONS.md §7), in pino's format, written when the response is
 * finished (Fastify's own two lines per request are off); a failed request's line has the full error.
 *
 * A pino call per line costs a third of a request, so lines go to a batching `LineSink` and the plain
 * success line is formatted by hand in pino's layout (bench/health README "The request log line").
 * Credentials never reach a line: no request header, API-key query values `[REDACTED]`. With
 * `access_log = false` or a level above `info` the plain success line is skipped before it is built.
 * `--log-format=pretty` (log-pretty.ts) prettifies the very same lines.
 */
import type { FastifyRequest } from 'fastify';
import cluster from 'node:cluster';
import { pino, type Logger } from 'pino';
import { prettyTarget } from './log-pretty.js';

export type { Logger };

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LoggerOptions {
  /** Where lines go; stdout when absent. Tests pass a capture stream (then nothing is batched). */
  readonly stream?: { write(text: string): unknown };
  /** pino's level names, `silent` included; default `info`. */
  readonly level?: string;
  /** `json` (the default: one JSON object a line) or `pretty` (human-readable, for a terminal). */
  readonly format?: LogFormat;
}

/**
 * Batches lines into few writes; bounded in size and in delay. Lines are copied into bytes as they
 * come, not appended to a string, which would live on as cons strings flattened at flush time
 * (bench/health README "The request log line").
 */
export class LineSink {
  /** Allocated on first use; replaced after each flush, since the target may keep the chunk it got. */
  private bytes: Buffer | undefined;
  private used = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly target: { write(chunk: string | Uint8Array): unknown },
    private readonly maxBytes: number,
    private readonly maxDelayMs: number,
  ) {}

  write(line: string): boolean {
    if (this.maxBytes === 0) {
      this.target.write(line);
      return true;
    }
    // Room for twice the threshold, so a line of any usual size fits after the last one below it.
    let bytes = (this.bytes ??= Buffer.allocUnsafe(this.maxBytes * 2));
    // A UTF-16 code unit takes at most 3 UTF-8 bytes: flush first if the line might not fit.
    if (this.used + line.length * 3 > bytes.length) {
      this.flush();
      bytes = this.bytes ??= Buffer.allocUnsafe(this.maxBytes * 2);
      if (line.length * 3 > bytes.length) {
        // A line bigger than the whole buffer (a long error) goes out on its own, still in order.
        this.target.write(line);
        return true;
      }
    }
    this.used += bytes.write(line, this.used);
    if (this.used >= this.maxBytes) this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), this.maxDelayMs);
      // A pending log line must not keep a stopping process alive; the shutdown flushes it.
      this.timer.unref();
    }
    return true;
  }

  flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.used === 0 || this.bytes === undefined) return;
    const chunk = this.bytes.subarray(0, this.used);
    this.bytes = undefined;
    this.used = 0;
    this.target.write(chunk);
  }
}

const SINKS = new WeakMap<Logger, LineSink>();

/** Bytes a write to a pipe may carry without being interleaved with another process's (Linux). */
const PIPE_BUF = 4096;

export function createLogger(options: LoggerOptions = {}): Logger {
  const out = options.stream ?? process.stdout;
  const target = options.format === 'pretty' ? prettyTarget(out, { colorize: options.stream === undefined && process.stdout.isTTY }) : out;
  // The workers of `svc serve --workers N` share the primary's stdout: a write of up to PIPE_BUF
  // (4 KiB) to a pipe is atomic, a longer one may be cut by another worker's. So a worker's batches
  // stay within 4 KiB (a buffer of twice the threshold is the most one write can hold), and its lines
  // say which process wrote them.
  const worker = cluster.isWorker;
  const sink = options.stream ? new LineSink(target, 0, 0) : new LineSink(target, worker ? PIPE_BUF / 2 : 16 * 1024, 100);
  const logger = pino({ level: options.level ?? 'info', base: worker ? { pid: process.pid } : null }, sink);
  SINKS.set(logger, sink);
  return logger;
}

export function flushLogger(log: Logger): void {
  try {
    SINKS.get(log)?.flush();
  } catch {
    // A destination that cannot take more (closed stdout) must not turn a clean exit into a crash.
  }
}

/** What the adapter remembers about a request until its log line is written. */
export interface RequestNote {
  /** The failing step, for 500/503/504 answers. */
  step?: string;
  error?: unknown;
  /** Why the run ended early (`timeout`, `client closed`, `client too slow`; the server's own cuts, `shutdown` and `reload`: shutdown-cut.ts). */
  cancelled?: string;
  /** Makes the line a warning, with this as its `reason` (a stream's client cut off: which bound it passed). */
  warning?: string;
  /** A streamed response, logged when the stream ends. */
  stream?: StreamNote;
  /** A request the endpoint's guards refused (401, 403, 503). */
  auth?: AuthNote;
  /** With tracing on (tracing.ts): the request's trace and server span, as `trace_id` and `span_id`. */
  trace?: { readonly traceId: string; readonly spanId: string };
}

export interface AuthNote {
  /** The endpoint's guards. */
  readonly guards: readonly string[];
  /** The guard whose refusal was answered, and why (never the credential). */
  readonly guard: string;
  readonly refused: string;
  /** A credential was sent (a wrong one), rather than none. */
  readonly presented: boolean;
  /** The client's address. */
  readonly client: string;
}

export interface StreamNote {
  readonly format: string;
  readonly items: number;
  readonly bytes: number;
  /** `complete`, `source failed`, `source lost`, `client closed`, `client too slow`, `server shutting down`. */
  readonly ended: string;
}

interface RequestLine {
  readonly reqId: string;
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly ms: number;
  readonly note: RequestNote | null;
}

const INFO = 30;
/** A url JSON.stringify must see: quote, backslash, control characters, anything non-ASCII. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u007f-\uffff]/;

/**
 * Writes one request line; positional, so the common path allocates nothing but the line itself.
 * `request` is the Fastify request when there is one (metrics read its route; the line does not).
 */
export type RequestLogger = ((
  reqId: string,
  method: string,
  url: string,
  status: number,
  ms: number,
  note: RequestNote | null,
  request?: FastifyRequest,
) => void) & {
  /**
   * True when a plain line (a status below 500, no note) is never written (the access log is off):
   * the caller may skip the call, and measuring the time it would have carried.
   */
  readonly dropsPlainLines?: boolean;
};

export interface RequestLoggerOptions {
  /** Query parameters whose values are credentials (API keys): redacted in every url. */
  readonly secretQueryParams?: readonly string[];
  /** `server.access_log`: false drops the request lines logged at `info`; warnings and errors stay. */
  readonly accessLog?: boolean;
}

/**
 * The request logger of a server, fast for the plain case. The logger's level is read once, here:
 * set it before the server is built.
 */
export function requestLogger(log: Logger, options: RequestLoggerOptions = {}): RequestLogger {
  const sink = SINKS.get(log);
  const secrets = options.secretQueryParams?.length ? new Set(options.secretQueryParams) : undefined;
  if (options.accessLog === false || !log.isLevelEnabled('info')) {
    // No access log: only the lines that are warnings or errors are built at all.
    const quiet: RequestLogger = (reqId, method, rawUrl, status, ms, note) => {
      if (status < 500 && (note === null || (note.error === undefined && note.auth?.presented !== true && note.warning === undefined))) return;
      const url = secrets !== undefined && rawUrl.includes('?') ? redactQuery(rawUrl, secrets) : rawUrl;
      logRequest(log, { reqId, method, url, status, ms, note });
    };
    return Object.assign(quiet, { dropsPlainLines: true });
  }
  const fast = sink !== undefined;
  // pino's `base` ({ pid } in a worker, see createLogger) goes between `time` and the line's own fields.
  const base = cluster.isWorker && sink !== undefined ? `,"pid":${process.pid}` : '';
  return (reqId, method, rawUrl, status, ms, note) => {
    const url = secrets !== undefined && rawUrl.includes('?') ? redactQuery(rawUrl, secrets) : rawUrl;
    if ((note === null || traceOnly(note)) && status < 500 && fast) {
      // Exactly pino's layout for log.info({reqId, method, url, status, ms}, 'request') (with tracing
      // on, then trace_id and span_id: hex digits). Request ids (request-id.ts) and methods (HTTP
      // tokens) never need JSON escaping; a url only rarely does.
      const trace = note === null ? '' : `,"trace_id":"${note.trace!.traceId}","span_id":"${note.trace!.spanId}"`;
      sink.write(
        `{"level":${INFO},"time":${Date.now()}${base},"reqId":"${reqId}","method":"${method}","url":` +
          `${NEEDS_ESCAPE.test(url) ? JSON.stringify(url) : `"${url}"`},"status":${status},"ms":${round(ms)}${trace},"msg":"request"}\n`,
      );
      return;
    }
    logRequest(log, { reqId, method, url, status, ms, note });
  };
}

/** A note that only carries the trace (tracing.ts): the line is a plain one with two more fields. */
function traceOnly(note: RequestNote): boolean {
  return (
    note.trace !== undefined &&
    note.step === undefined &&
    note.error === undefined &&
    note.cancelled === undefined &&
    note.warning === undefined &&
    note.stream === undefined &&
    note.auth === undefined
  );
}

function logRequest(log: Logger, line: RequestLine): void {
  const { note } = line;
  const fields: Record<string, unknown> = {
    reqId: line.reqId,
    method: line.method,
    url: line.url,
    status: line.status,
    ms: round(line.ms),
  };
  if (note !== null) {
    if (note.step !== undefined) fields.step = note.step;
    if (note.cancelled !== undefined) fields.cancelled = note.cancelled;
    if (note.stream !== undefined) fields.stream = note.stream;
    if (note.auth !== undefined) fields.auth = note.auth;
    if (note.warning !== undefined) fields.reason = note.warning;
    if (note.trace !== undefined) {
      fields.trace_id = note.trace.traceId;
      fields.span_id = note.trace.spanId;
    }
    if (note.error !== undefined) {
      fields.err = note.error instanceof Error ? note.error : { message: String(note.error) };
      log.error(fields, 'request failed');
      return;
    }
  }
  if (line.status >= 500 || note?.auth?.presented || note?.warning !== undefined) log.warn(fields, 'request');
  else log.info(fields, 'request');
}

export const REDACTED = '[REDACTED]';

/** `url` with the values of the `secrets` query parameters replaced by `[REDACTED]`. */
export function redactQuery(url: string, secrets: ReadonlySet<string>): string {
  const q = url.indexOf('?');
  const hash = url.indexOf('#', q);
  const end = hash < 0 ? url.length : hash;
  let changed = false;
  const pairs = url
    .slice(q + 1, end)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      if (!secrets.has(decodeName(name))) return pair;
      changed = true;
      return `${name}=${REDACTED}`;
    });
  return changed ? `${url.slice(0, q + 1)}${pairs.join('&')}${url.slice(end)}` : url;
}

/** A query parameter name as the query parser reads it (`+` is a space; bad escapes stay as sent). */
function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
