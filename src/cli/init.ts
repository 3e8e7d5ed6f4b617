/**
 * `svc init [DIR] [--title T]`: writes a new project into DIR (default: the current directory), a
 * CRUD API of one table on the embedded PostgreSQL with its migration, OpenAPI document and page, a
 * test and a README (./init-files.ts). DIR may exist but must hold none of the files it writes:
 * nothing is ever overwritten. Prints what it wrote and what to run next.
 *
 * Exit codes: 0 written; 1 a file exists already or cannot be written; 2 a usage error.
 */
import { access, mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { flagString, parseArgs, UsageError, type FlagSpec } from './args.js';
import { scaffoldFiles } from './init-files.js';
import { EXIT_FAILURE, EXIT_OK, type CliIO } from './io.js';

const FLAGS: readonly FlagSpec[] = [{ name: 'title', value: true }];

export async function initCommand(args: string[], io: CliIO): Promise<number> {
  const parsed = parseArgs(args, FLAGS);
  if (parsed.positionals.length > 1) throw new UsageError('give at most one directory');
  const dir = resolve(io.cwd, parsed.positionals[0] ?? '.');
  const title = flagString(parsed, 'title') ?? titleOf(basename(dir));
  if (/[\r\n]/.test(title)) throw new UsageError('--title must be one line');
  const files = scaffoldFiles(title);

  const present: string[] = [];
  for (const file of files) if (await exists(join(dir, file.path))) present.push(file.path);
  if (present.length > 0) {
    io.stderr.write(`svc init: ${shown(io, dir)} already has ${present.join(', ')}; nothing was written (svc init never overwrites a file)\n`);
    return EXIT_FAILURE;
  }
  try {
    for (const file of files) {
      const path = join(dir, file.path);
      await mkdir(dirname(path), { recursive: true });
      // `wx`: a file that appeared since the check above is not overwritten either.
      await writeFile(path, file.text, { flag: 'wx' });
    }
  } catch (error) {
    io.stderr.write(`svc init: ${(error as Error).message}\n`);
    return EXIT_FAILURE;
  }
  const at = shown(io, dir);
  io.stdout.write(
    [
      ...files.map((f) => `  wrote ${join(at, f.path)}`),
      '',
      'Next:',
      `  npx svc serve -c ${at}          # http://127.0.0.1:8080/items, the reference page at /docs`,
      `  npx svc check -c ${at}`,
      `  cd ${at} && node --test`,
      '',
    ].join('\n'),
  );
  return EXIT_OK;
}

/** "my-shop" -> "My shop". */
function titleOf(name: string): string {
  const words = name.replace(/[-_.]+/g, ' ').trim();
  return words === '' ? 'My API' : words[0]!.toUpperCase() + words.slice(1);
}

/** The directory as the user would type it: relative below the current one, else absolute. */
function shown(io: CliIO, dir: string): string {
  const path = relative(io.cwd, dir);
  return path === '' ? '.' : path.startsWith('..') ? dir : path;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
