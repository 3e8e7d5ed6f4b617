/**
 * Frees a chunk's memory at once, once it has been written, instead of when the garbage collector
 * next runs.
 *
 * Why: every read from a socket is a new buffer (64 KiB on a busy connection), and its memory lives
 * outside V8's heap until the collector finds the buffer dead. V8 starts a collection for such
 * memory only after about 64 MB of it has piled up, so a proxy streaming a large upstream body
 * holds that much garbage at its peaks (bench/proxy "Streaming"). Detaching the chunk's ArrayBuffer
 * (`transfer(0)`) hands its memory back to the allocator right away, where the next read reuses it.
 *
 * Only a chunk that is the whole of its ArrayBuffer is freed: a view into a larger buffer may share
 * it with other views (a pooled Buffer, the headers of the same read). The caller guarantees that
 * nothing else holds the chunk (a source that hands over its items, graph's `handsOverItems`) and
 * that the write is over (the write's callback has run: the bytes are in the kernel).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Transfer = (this: ArrayBuffer, newLength?: number) => ArrayBuffer;

let transfer: Transfer | null | undefined;

/**
 * `ArrayBuffer.prototype.transfer`: built in from Node.js 22 (V8 11.4). On Node.js 20 it exists
 * behind a V8 flag, read when a realm is created: set then, it gives a new realm the method, whose
 * function works on this realm's buffers too. Found once, on first use, so a process that never
 * streams bytes makes no realm; null when it cannot be had (the collector then frees as before).
 */
function findTransfer(): Transfer | null {
  const own = (ArrayBuffer.prototype as { transfer?: Transfer }).transfer;
  if (typeof own === 'function') return own;
  if (!process.versions.v8.startsWith('11.')) return null;
  try {
    setFlagsFromString('--harmony-rab-gsab-transfer');
    const borrowed: unknown = runInNewContext('ArrayBuffer.prototype.transfer');
    return typeof borrowed === 'function' ? (borrowed as Transfer) : null;
  } catch {
    return null;
  }
}

/** Frees `chunk`'s memory if it is the whole of its ArrayBuffer; it reads as empty afterwards. */
export function freeBytes(chunk: Uint8Array): void {
  const buffer = chunk.buffer;
  // Empty: nothing to free, and a detached buffer (freed already) would make transfer throw.
  if (chunk.byteLength === 0 || chunk.byteOffset !== 0 || chunk.byteLength !== buffer.byteLength || !(buffer instanceof ArrayBuffer)) return;
  if (transfer === undefined) transfer = findTransfer();
  transfer?.call(buffer, 0);
}
