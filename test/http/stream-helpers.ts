/** Real-socket helpers for streamed responses: Fastify's inject cannot show pacing, heartbeats or aborts. */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { StreamEnd } from '../../graph/index.js';
import { createEncoding, type EncodingOptions } from '../../src/stream/index.js';
import type { StreamResult } from '../../src/steps/index.js';

export async function listenLocal(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address !== 'object') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

export interface Received {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** The response ended with its terminating chunk; false when the connection was cut. */
  readonly complete: boolean;
}

/** GETs a URL and reads the whole body (or what arrived before the connection was cut). */
export function fetchAll(url: string, headers: Record<string, string> = {}): Promise<Received> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      const done = (complete: boolean) => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), complete });
      res.on('end', () => done(true));
      res.on('aborted', () => done(false));
      res.on('error', () => done(false));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a streamed GET and hands back the response to read at one's own pace. */
export function open(url: string, headers: Record<string, string> = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, resolve);
    req.on('error', reject);
    req.end();
  });
}

/** Reads from a response until `text` has arrived; answers everything read so far. */
export function readUntil(res: IncomingMessage, text: string, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    const timer = setTimeout(() => {
      res.off('data', onData);
      reject(new Error(`timed out waiting for ${JSON.stringify(text)}; got ${JSON.stringify(got)}`));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      // Only the new text and the tail before it can complete the marker: no rescan of all that came.
      const from = Math.max(0, got.length - text.length);
      got += chunk.toString('utf8');
      if (got.indexOf(text, from) >= 0) {
        clearTimeout(timer);
        res.off('data', onData);
        res.pause();
        resolve(got);
      }
    };
    res.on('data', onData);
    res.resume();
  });
}

export interface Disposal {
  readonly end: StreamEnd;
  readonly error?: unknown;
}

/** A stream result as a `stream` step would make it, recording its disposals. */
export function streamResult(
  source: StreamResult['source'],
  options: Partial<EncodingOptions> & { live?: boolean; category?: string; headers?: Record<string, string> } = {},
): { result: StreamResult; disposals: Disposal[] } {
  const disposals: Disposal[] = [];
  const { live = false, category = 'internal', headers, ...encoding } = options;
  const format = encoding.format ?? 'ndjson';
  const contentType = encoding.contentType ?? (format === 'sse' ? 'text/event-stream' : format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson');
  const result: StreamResult = {
    kind: 'stream',
    step: 'feed',
    source,
    live,
    encoding: createEncoding({ ...encoding, format, contentType }),
    headers,
    categoryOf: () => category,
    dispose: (end, error) => void disposals.push(error === undefined ? { end } : { end, error }),
  };
  return { result, disposals };
}

export async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * A live source as SourceTraits.live describes it: pulls wait until `fail` is called or the consumer
 * returns, which settles a waiting pull with `done`.
 */
export function silentLiveSource(): { source: AsyncIterable<unknown> & { live: true }; fail: (error: unknown) => void } {
  let waiting: { resolve: (r: IteratorResult<unknown>) => void; reject: (e: unknown) => void } | undefined;
  const source = {
    live: true as const,
    [Symbol.asyncIterator]: () => ({
      next: () => new Promise<IteratorResult<unknown>>((resolve, reject) => (waiting = { resolve, reject })),
      return: async () => {
        waiting?.resolve({ done: true, value: undefined });
        return { done: true as const, value: undefined };
      },
    }),
  };
  return { source, fail: (error) => waiting?.reject(error) };
}
