/**
 * Reading the files a manifest is made of: regular files only, never more than a bound. A path may
 * lead to `/dev/zero`, a FIFO or a growing file, which would take all memory or block boot, so a file
 * is opened without blocking, checked on the open descriptor (what was opened is what is read), and
 * read up to the bound plus one byte whatever size it claims (`/proc` files claim 0).
 */
import { constants, openSync, closeSync, fstatSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/** The bound of a manifest file, template or Starlark program: far above any real one. */
export const MAX_MANIFEST_FILE_BYTES = 16 * 1024 * 1024;

/**
 * The bytes, or why not: `too-large` over the bound, `not-regular` for a directory, device, FIFO or
 * socket, `io` for anything the system refused (ENOENT, EACCES...). `problem` completes "<path> …"
 * for the last two kinds, and is the error code alone for `io`.
 */
export type FileRead =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly kind: 'too-large' | 'not-regular' | 'io'; readonly problem: string };

// O_NONBLOCK does not exist on Windows, where opening a FIFO does not block either.
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const CHUNK = 64 * 1024;

/** What `stats` is, when it is not a regular file; undefined when it is one. */
function notRegular(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  const kind = stats.isDirectory()
    ? 'a directory'
    : stats.isCharacterDevice()
      ? 'a character device'
      : stats.isBlockDevice()
        ? 'a block device'
        : stats.isFIFO()
          ? 'a named pipe'
          : stats.isSocket()
            ? 'a socket'
            : 'not a file';
  return `is ${kind}, not a regular file`;
}

function tooLarge(limit: number): string {
  return `is larger than ${formatBytes(limit)}, the most svc reads of one file`;
}

/** `16 MiB`, `512 KiB`, `100 bytes`. */
function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

function errnoProblem(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code ?? err.message ?? String(e);
}

/** Reads a regular file of at most `limit` bytes (synchronously: the manifest decoder is synchronous). */
export function readRegularFileSync(path: string, limit = MAX_MANIFEST_FILE_BYTES): FileRead {
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (e) {
    return { ok: false, kind: 'io', problem: errnoProblem(e) };
  }
  try {
    const kind = notRegular(fstatSync(fd));
    if (kind !== undefined) return { ok: false, kind: 'not-regular', problem: kind };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, limit + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > limit) return { ok: false, kind: 'too-large', problem: tooLarge(limit) };
    }
    return { ok: true, bytes: Buffer.concat(chunks, total) };
  } catch (e) {
    return { ok: false, kind: 'io', problem: errnoProblem(e) };
  } finally {
    closeSync(fd);
  }
}

/** Reads a regular file of at most `limit` bytes. */
export async function readRegularFile(path: string, limit = MAX_MANIFEST_FILE_BYTES): Promise<FileRead> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, FLAGS);
  } catch (e) {
    return { ok: false, kind: 'io', problem: errnoProblem(e) };
  }
  try {
    const kind = notRegular(await handle.stat());
    if (kind !== undefined) return { ok: false, kind: 'not-regular', problem: kind };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, limit + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > limit) return { ok: false, kind: 'too-large', problem: tooLarge(limit) };
    }
    return { ok: true, bytes: Buffer.concat(chunks, total) };
  } catch (e) {
    return { ok: false, kind: 'io', problem: errnoProblem(e) };
  } finally {
    await handle.close();
  }
}
