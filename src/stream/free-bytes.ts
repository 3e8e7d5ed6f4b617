/**
 * Frees a buffer's memory at once, once what it held has been written, instead of when the garbage
 * collector next runs: V8 collects such off-heap memory only after tens of MB have piled up, which a
 * proxy streaming a large body holds at its peaks (bench/proxy README "Streaming"). Detaching the
 * ArrayBuffer (`transfer(0)`) hands it back to the allocator for the next read.
 *
 * The caller guarantees nothing else reads the buffer (graph's `handsOverItems`, every write done).
 * Buffer's shared pool is never freed: marked untransferable from Node.js 22, on 20 recognised by its
 * `Buffer.poolSize` length.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as workerThreads from 'node:worker_threads';
// On Node.js 20 a V8 internal (a flag set at run time): what is relied on and where it was verified.
import { TRANSFER_FLAG, TRANSFER_FLAG_V8_MAJOR } from './internals.js';

const isMarkedAsUntransferable = (workerThreads as { isMarkedAsUntransferable?: (value: object) => boolean }).isMarkedAsUntransferable;

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
  if (!process.versions.v8.startsWith(TRANSFER_FLAG_V8_MAJOR)) return null;
  try {
    setFlagsFromString(TRANSFER_FLAG);
    const borrowed: unknown = runInNewContext('ArrayBuffer.prototype.transfer');
    return typeof borrowed === 'function' ? (borrowed as Transfer) : null;
  } catch {
    return null;
  }
}

/** Whether `buffer` is one of Buffer's pools (or marked untransferable by its owner). */
function isPool(buffer: ArrayBuffer): boolean {
  return isMarkedAsUntransferable !== undefined ? isMarkedAsUntransferable(buffer) : buffer.byteLength <= Buffer.poolSize;
}

/** Frees `buffer`'s memory; every view of it reads as empty afterwards. */
export function freeBuffer(buffer: ArrayBufferLike): void {
  // Shared, empty or already freed (transfer would throw), or a pool.
  if (!(buffer instanceof ArrayBuffer) || buffer.byteLength === 0 || isPool(buffer)) return;
  if (transfer === undefined) transfer = findTransfer();
  try {
    transfer?.call(buffer, 0);
  } catch {
    // Not detachable (WebAssembly memory, a buffer its owner pinned): left to the collector.
  }
}
