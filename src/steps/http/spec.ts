/** `http "<name>" { url, method = "GET", headers = {}, body, timeout = "10s", stream = false, read_timeout = "60s", retry { attempts, backoff } }` */
import type { Expr, StepSpecBase } from '../../manifest/index.js';
import type { RetrySpec } from './retry.js';

export interface HttpStepSpec extends StepSpecBase {
  readonly kind: 'http';
  readonly name: string;
  /** Compiled as a URL: values computed per request are encoded for their part (./url-template.ts). */
  readonly url: Expr;
  /** A value computed per request lands in the URL's path: a `.` or `..` segment is refused per request. */
  readonly pathFromValues: boolean;
  /** Static, upper-cased; default GET. */
  readonly method: string;
  readonly headers?: Expr;
  readonly body?: Expr;
  /** Default 10 000. */
  readonly timeoutMs: number;
  readonly stream: boolean;
  /**
   * With `stream = true`: the longest wait for the next piece of the upstream body once the reader
   * asked for it (nginx's proxy_read_timeout); past it the stream fails. Default 60 000.
   */
  readonly readTimeoutMs: number;
  /** `retry { attempts, backoff }` (./retry.ts); `timeoutMs` then bounds each attempt. */
  readonly retry?: RetrySpec;
}

/** nginx's `proxy_read_timeout` default. */
export const DEFAULT_READ_TIMEOUT_MS = 60_000;
