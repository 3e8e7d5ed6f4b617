/**
 * Compression of answers (docs/compression.md), compiled at boot from a `compression { ... }` block.
 * A body is compressed in one synchronous call (compress-reply.ts), a stream through a zlib stream
 * flushed after each write (compress-stream.ts). Not @fastify/compress: an `onSend` hook never sees
 * svc's streams, and a stream costs more CPU than one call at API body sizes (bench/compress).
 */
import * as zlib from 'node:zlib';
import type { CompressionModel, ContentCoding } from '../model/index.js';
import { EncodingChooser } from './compress-negotiate.js';

/** Media types worth compressing: text, JSON and its relatives, XML, CSV, ndjson, JavaScript, SVG. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:[\w.+-]*\+)?(?:json|xml|x-ndjson|ndjson|javascript|ecmascript|csv|yaml|x-yaml)\b|image\/svg\+xml)/i;

export function compressible(contentType: string): boolean {
  return COMPRESSIBLE.test(contentType);
}

/** zstd's functions where Node has them (22.15+); declared here, since Node 20's types lack them. */
interface ZstdZlib {
  zstdCompressSync(buffer: Buffer, options: object): Buffer;
  createZstdCompress(options: object): zlib.Gzip;
  constants: { ZSTD_c_compressionLevel: number; ZSTD_e_flush: number };
}

export class Compressor {
  readonly minSize: number;
  private readonly chooser: EncodingChooser;
  private readonly gzip: zlib.ZlibOptions;
  private readonly brotli: zlib.BrotliOptions;
  private readonly zstd: object;

  constructor(model: CompressionModel) {
    this.minSize = model.minSize;
    this.chooser = new EncodingChooser(model.encodings);
    this.gzip = { level: model.gzipLevel };
    this.brotli = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: model.brotliQuality } };
    const zstdConstants = (zlib as unknown as ZstdZlib).constants;
    this.zstd = zstdConstants.ZSTD_c_compressionLevel === undefined ? {} : { params: { [zstdConstants.ZSTD_c_compressionLevel]: model.zstdLevel } };
  }

  /** The coding the request accepts, or undefined for identity (compress-negotiate.ts). */
  choose(acceptEncoding: string | string[] | undefined): ContentCoding | undefined {
    return this.chooser.choose(Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding);
  }

  /** The whole body at once: an API answer is at most a few MiB (MAX_RESPONSE_CHARS bounds it). */
  compressSync(body: Buffer, coding: ContentCoding): Buffer {
    if (coding === 'gzip') return zlib.gzipSync(body, this.gzip);
    if (coding === 'br') return zlib.brotliCompressSync(body, this.brotli);
    return (zlib as unknown as ZstdZlib).zstdCompressSync(body, this.zstd);
  }

  /** A compressing stream for a streamed body, with the flush that makes its output decodable so far. */
  stream(coding: ContentCoding): { readonly stream: zlib.Gzip | zlib.BrotliCompress; readonly flushKind: number } {
    if (coding === 'gzip') return { stream: zlib.createGzip(this.gzip), flushKind: zlib.constants.Z_SYNC_FLUSH };
    if (coding === 'br') return { stream: zlib.createBrotliCompress(this.brotli), flushKind: zlib.constants.BROTLI_OPERATION_FLUSH };
    const zstd = zlib as unknown as ZstdZlib;
    return { stream: zstd.createZstdCompress(this.zstd), flushKind: zstd.constants.ZSTD_e_flush };
  }
}
