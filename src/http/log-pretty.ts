/**
 * `--log-format=pretty`: the same lines, human-readable (pino-pretty, loaded only for this format:
 * about 30 ms). Lines are made and batched exactly as for JSON and turned pretty as a batch is
 * written, so the two formats cannot say different things: `GET /users/7 200 0.41 ms (id)`, other
 * fields on the same line, an error's stack below it.
 */
import { createRequire } from 'node:module';

type Prettify = (line: object) => string;

interface PrettyOptions {
  readonly colorize: boolean;
}

const require = createRequire(import.meta.url);

/** A destination for a LineSink that writes each line it gets, prettified, to `out`. */
export function prettyTarget(out: { write(text: string): unknown }, options: PrettyOptions): { write(chunk: string | Uint8Array): boolean } {
  const { prettyFactory } = require('pino-pretty') as { prettyFactory(options: object): Prettify };
  const prettify = prettyFactory({ colorize: options.colorize, translateTime: 'SYS:HH:MM:ss.l', singleLine: true });
  return {
    write(chunk) {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8');
      let pretty = '';
      for (const line of text.split('\n')) if (line !== '') pretty += prettyLine(line, prettify);
      out.write(pretty);
      return true;
    },
  };
}

function prettyLine(line: string, prettify: Prettify): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return `${line}\n`;
  }
  return prettify(requestSummary(entry));
}

/** A request line's method, url, status and time as its message; the rest stays as fields. */
function requestSummary(entry: Record<string, unknown>): Record<string, unknown> {
  const { reqId, method, url, status, ms, msg, ...rest } = entry;
  if (typeof reqId !== 'string' || typeof status !== 'number') return entry;
  const what = msg === 'request' ? '' : ` ${String(msg)}`;
  return { ...rest, msg: `${String(method)} ${String(url)} ${status} ${String(ms)} ms (${reqId})${what}` };
}
