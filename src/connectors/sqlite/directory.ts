/**
 * The directory of a sqlite database file, made when missing; when the file is missing too, SQLite
 * makes it there (and in WAL mode its `-wal` and `-shm` files beside it), so the directory must be
 * one this process can write to. (A file that exists is opened as it is: a directory that is not
 * writable then is the administrator's choice, not refused here.)
 *
 * Made one level at a time from the nearest directory that exists: Node's `mkdir(..., { recursive:
 * true })` never returns under /proc (a made-up directory there is refused with ENOENT, which the
 * recursive walk takes for a parent still to make), so each level is made by hand and the first
 * refusal is the answer, naming the directory.
 */
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describeCause } from '../errors.js';

/**
 * Makes the directory of the database file `file` when missing; answers why the file cannot be had
 * there (a sentence naming the directory at fault), or undefined.
 */
export async function makeDatabaseDirectory(file: string): Promise<string | undefined> {
  const dir = dirname(file);
  const missing: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    try {
      if ((await stat(at)).isDirectory()) break;
      return `${at} is not a directory`;
    } catch (error) {
      // ENOTDIR: a level above is a file, which the walk up finds and names.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return `${at} cannot be read: ${describeCause(error)}`;
    }
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (const at of missing.reverse()) {
    try {
      await mkdir(at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      return `the directory ${at} cannot be made: ${describeCause(error)}`;
    }
  }
  if (missing.length === 0 && (await exists(file))) return undefined;
  try {
    await access(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    return `the directory ${dir} cannot be written to, so the database file cannot be made there: ${describeCause(error)}`;
  }
  return undefined;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
