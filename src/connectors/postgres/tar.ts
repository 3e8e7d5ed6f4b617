/**
 * Reads the tar archives PGlite writes (`dumpDataDir`): POSIX ustar, regular files and directories
 * only. Just enough to lay an empty data directory out on disk (template.ts); anything else in an
 * archive (links, devices, a name that would leave the target directory) is refused, not skipped,
 * so a damaged template is never half used.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';

const BLOCK = 512;

interface Entry {
  readonly name: string;
  readonly type: 'file' | 'directory';
  readonly mode: number;
  readonly body: Uint8Array;
}

/** The archive's entries, in order; throws on anything but files and directories. */
export function* tarEntries(archive: Uint8Array): Generator<Entry> {
  let offset = 0;
  while (offset + BLOCK <= archive.length) {
    const header = archive.subarray(offset, offset + BLOCK);
    // Two zero blocks end the archive; one is enough to stop reading.
    if (header.every((b) => b === 0)) return;
    const name = joinName(text(header, 345, 155), text(header, 0, 100));
    const size = octal(header, 124, 12);
    const mode = octal(header, 100, 8);
    const flag = String.fromCharCode(header[156]!);
    const bodyStart = offset + BLOCK;
    if (bodyStart + size > archive.length) throw new Error(`tar: ${name} runs past the end of the archive`);
    if (flag === '0' || flag === '\0') yield { name, type: 'file', mode, body: archive.subarray(bodyStart, bodyStart + size) };
    else if (flag === '5') yield { name, type: 'directory', mode, body: new Uint8Array(0) };
    else throw new Error(`tar: ${name} is of type '${flag}', not a file or directory`);
    offset = bodyStart + Math.ceil(size / BLOCK) * BLOCK;
  }
}

/**
 * Writes every entry of `archive` under `dir` (created if missing). Synchronously: it runs at boot,
 * before the server listens, and a thousand small files written one await at a time took four times
 * as long.
 */
export function extractTar(archive: Uint8Array, dir: string): void {
  const made = new Set<string>();
  const makeDir = (path: string) => {
    if (made.has(path)) return;
    mkdirSync(path, { recursive: true, mode: 0o700 });
    made.add(path);
  };
  makeDir(dir);
  for (const entry of tarEntries(archive)) {
    const path = inside(dir, entry.name);
    if (entry.type === 'directory') makeDir(path);
    else {
      makeDir(dirname(path));
      // PostgreSQL refuses a data directory readable by others: owner-only, whatever was archived.
      writeFileSync(path, entry.body, { mode: entry.mode & 0o700 || 0o600 });
    }
  }
}

/** `name` under `dir`; a name that would leave it (absolute, `..`) is an error. */
function inside(dir: string, name: string): string {
  const relative = normalize(name.replace(/^\/+/, ''));
  if (relative === '..' || relative.startsWith(`..${sep}`) || relative.includes(`${sep}..${sep}`)) throw new Error(`tar: ${name} leaves the target directory`);
  return join(dir, relative);
}

function joinName(prefix: string, name: string): string {
  return prefix === '' ? name : `${prefix}/${name}`;
}

function text(block: Uint8Array, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return Buffer.from(end < 0 ? field : field.subarray(0, end)).toString('utf8');
}

function octal(block: Uint8Array, start: number, length: number): number {
  const digits = text(block, start, length).trim();
  if (digits === '') return 0;
  if (!/^[0-7]+$/.test(digits)) throw new Error(`tar: a header field holds "${digits}", not an octal number`);
  return Number.parseInt(digits, 8);
}
