/**
 * A streamed body written through a compressor, with the response's `write`/`drain`/`end`/`close`
 * contract so backpressure runs end to end (src/stream/pump.ts). Flushed after each turn in which the
 * pump wrote (Z_SYNC_FLUSH, BROTLI_OPERATION_FLUSH, ZSTD_e_flush): an ndjson line reaches the client
 * when it is written, not when 16 KiB have gathered.
 */
import { Writable } from 'node:stream';
import type * as zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ContentCoding } from '../model/index.js';
import type { StreamResult } from '../steps/index.js';
import { type Compressor, compressible } from './compress.js';
import { varyOnEncoding } from './compress-reply.js';

type Compressing = zlib.Gzip | zlib.BrotliCompress;

type Response = NodeJS.WritableStream & { destroy(error?: Error): unknown; readonly writableFinished: boolean };

export class CompressedBody extends Writable {
  private flushPending = false;
  /** Made at the first write: a stream that fails before its head never holds a compressor. */
  private made: { readonly stream: Compressing; readonly flushKind: number } | undefined;

  constructor(
    private readonly make: () => { readonly stream: Compressing; readonly flushKind: number },
    private readonly response: Response,
  ) {
    super({ highWaterMark: 16 * 1024 });
    this.flush = this.flush.bind(this);
  }

  private get compressing(): Compressing {
    if (this.made !== undefined) return this.made.stream;
    const made = this.make();
    this.made = made;
    const response = this.response;
    made.stream.pipe(response);
    // A compressor failure (out of memory) ends the transfer cut short, as a failed csv stream does.
    made.stream.on('error', (error) => this.destroy(error));
    response.on('close', () => {
      // The client left (or the response was destroyed) before the end: the pump sees this close.
      if (!this.writableFinished) this.destroy();
    });
    return made.stream;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const compressing = this.compressing;
    if (compressing.write(chunk)) callback();
    else compressing.once('drain', () => callback());
    if (!this.flushPending) {
      this.flushPending = true;
      process.nextTick(this.flush);
    }
  }

  /** Finished once the compressor's last bytes went to the response (which `pipe` then ends). */
  override _final(callback: (error?: Error | null) => void): void {
    const compressing = this.compressing;
    compressing.once('end', () => callback());
    compressing.end();
  }

  /** Cut short (a client too slow, a failure): the response goes with it; after a complete end, nothing to do. */
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.writableFinished && this.made !== undefined) {
      this.made.stream.destroy();
      if (!this.response.writableFinished) this.response.destroy();
    }
    callback(error);
  }

  private flush(): void {
    this.flushPending = false;
    if (!this.destroyed && this.made !== undefined) this.made.stream.flush(this.made.flushKind);
  }
}

/** What a stream's head and body get from its endpoint's representation. */
export interface StreamRepresentation {
  /** The coding the body is written in; undefined: as it is. */
  readonly coding: ContentCoding | undefined;
  /** The answer could have been compressed: `Vary: Accept-Encoding`. */
  readonly vary: boolean;
  readonly cacheControl: string | undefined;
  readonly compressor: Compressor | undefined;
}

/**
 * Streams are compressed whatever their length (it is unknown): ndjson and csv always, a raw stream
 * when its media type is text-like and it has no Content-Encoding of its own. SSE never: an event
 * stream is small events with minutes between them, where a flushed compressor saves little, and
 * some proxies and EventSource polyfills mishandle a coded event stream (docs/compression.md).
 */
export function streamRepresentation(request: FastifyRequest, result: StreamResult): StreamRepresentation | undefined {
  const rep = request.svcRepresentation;
  if (rep === null) return undefined;
  const own = lowerCased(result.headers);
  const format = result.encoding.format;
  const cacheControl = own['cache-control'] === undefined && result.encoding.headers['Cache-Control'] === undefined ? rep.cacheControl : undefined;
  const compressor = rep.compressor;
  const compressed =
    compressor !== undefined &&
    format !== 'sse' &&
    own['content-encoding'] === undefined &&
    (format !== 'raw' || compressible(own['content-type'] ?? result.encoding.contentType));
  const coding = compressed ? compressor.choose(request.headers['accept-encoding']) : undefined;
  return { coding, vary: compressed, cacheControl, compressor };
}

function lowerCased(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers !== undefined) for (const name in headers) out[name.toLowerCase()] = headers[name]!;
  return out;
}

/** The head's headers of a represented stream, added to those the head already has. */
export function representStreamHead(headers: Record<string, string | number | string[]>, rep: StreamRepresentation, reply: FastifyReply): void {
  if (rep.cacheControl !== undefined) headers['cache-control'] = rep.cacheControl;
  if (rep.vary) varyOnEncoding(headers, reply);
  if (rep.coding !== undefined) {
    headers['content-encoding'] = rep.coding;
    delete headers['content-length'];
  }
}

/** Where the pump writes: the response, or a compressor in front of it. */
export function streamOut(rep: StreamRepresentation | undefined, response: Response): Writable | undefined {
  if (rep?.coding === undefined) return undefined;
  const { compressor, coding } = rep;
  return new CompressedBody(() => compressor!.stream(coding), response);
}
