/**
 * A response body read into memory, bounded: past `maxBytes` the body is destroyed at once (which
 * makes undici destroy the connection: it cannot be reused with the rest of the body unread), so a
 * 1 GB answer costs at most `maxBytes` plus one chunk, never a read to the end.
 */
import type { Readable } from 'node:stream';

/** Answered when the limit is passed; nothing more is read. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(
    readonly limit: number,
    /** How the excess was seen: announced by Content-Length, or counted while reading. */
    readonly declared: number | undefined,
  ) {
    super(
      declared === undefined
        ? `the response body exceeds the limit of ${formatBytes(limit)}; it was not read further`
        : `the response body of ${formatBytes(declared)} (Content-Length) exceeds the limit of ${formatBytes(limit)}; it was not read`,
    );
  }
}

/** Reads `body` whole, or rejects with BodyTooLargeError (body destroyed) once it passes `maxBytes`. */
export async function readBounded(body: Readable, maxBytes: number, contentLength: number | undefined): Promise<Buffer> {
  if (contentLength !== undefined && contentLength > maxBytes) {
    body.destroy();
    throw new BodyTooLargeError(maxBytes, contentLength);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      body.destroy();
      throw new BodyTooLargeError(maxBytes, undefined);
    }
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

/** `10 MiB`, `512 KiB`, `300 B`: limits are powers of two more often than not. */
function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} B`;
}
