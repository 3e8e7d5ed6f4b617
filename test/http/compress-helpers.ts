/** Reading compressed answers over a real socket: the raw bytes, decoded by the coding the head names. */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import * as zlib from 'node:zlib';

export interface RawReceived {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  /** The bytes as they arrived. */
  readonly raw: Buffer;
  /** Decoded by the answer's Content-Encoding (none: as they arrived), as UTF-8 text. */
  readonly text: string;
}

export function decode(raw: Buffer, coding: string | undefined): Buffer {
  // A HEAD or 304 answer names the coding of a body it does not carry.
  if (coding === undefined || raw.length === 0) return raw;
  if (coding === 'gzip') return zlib.gunzipSync(raw);
  if (coding === 'br') return zlib.brotliDecompressSync(raw);
  if (coding === 'zstd') return (zlib as unknown as { zstdDecompressSync(b: Buffer): Buffer }).zstdDecompressSync(raw);
  throw new Error(`unexpected Content-Encoding ${coding}`);
}

/** A request with these headers; the whole answer, read and decoded. */
export function fetchRaw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawReceived> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        try {
          const coding = res.headers['content-encoding'];
          resolve({ status: res.statusCode!, headers: res.headers, raw, text: decode(raw, coding).toString('utf8') });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Codings this Node can decode and svc can write: zstd only where Node has it. */
export const CODINGS: readonly string[] =
  typeof (zlib as { createZstdCompress?: unknown }).createZstdCompress === 'function' ? ['gzip', 'br', 'zstd'] : ['gzip', 'br'];
