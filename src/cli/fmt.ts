/**
 * `svc fmt [-c DIR] [--check] [--diff] [--fix] [--diagnostics=json] [FILE...]` (docs/cli.md
 * "Formatting manifests"): rewrites manifests in the canonical layout (src/hcl/format); `--fix` first
 * turns hclapi spellings into svc's (fmt-fix.ts). A file is rewritten only when its layout changes,
 * atomically (see `writeAtomically`); one that cannot be read or parsed is left as it is, with its
 * diagnostics. Exit 0 when all are (now) canonical, 1 when one is unreadable, unparsable or (with
 * `--check`) not canonical, 2 for a usage error.
 */
import { randomBytes } from 'node:crypto';
import { open, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { type Diagnostic, diagnosticToJSON, renderDiagnostics } from '../diag/index.js';
import { formatHcl } from '../hcl/index.js';
import { discoverManifestFiles, MAX_MANIFEST_FILE_BYTES, readRegularFile } from '../manifest/index.js';
import { flagString, parseArgs, UsageError, type FlagSpec } from './args.js';
import { unifiedDiff } from './fmt-diff.js';
import { fixSources } from './fmt-fix.js';
import { EXIT_FAILURE, EXIT_OK, type CliIO } from './io.js';

const FLAGS: readonly FlagSpec[] = [
  { name: 'config', short: 'c', value: true },
  { name: 'check', value: false },
  { name: 'diff', value: false },
  { name: 'diagnostics', value: true },
  { name: 'fix', value: false },
];

/** What standard input is called in messages. */
const STDIN = '<stdin>';

interface Options {
  readonly check: boolean;
  readonly diff: boolean;
  readonly json: boolean;
  /** With --fix: the files' new texts in svc's own spellings (fmt-fix.ts), by name. */
  readonly fixes?: ReadonlyMap<string, string>;
}

/** What became of the files: the exit code and the diagnostics are made from it. */
class Outcome {
  readonly diagnostics: Diagnostic[] = [];
  readonly sources = new Map<string, string>();
  failed = false;
}

export async function fmtCommand(args: string[], io: CliIO, stdin: () => Promise<Buffer> = readStdin): Promise<number> {
  const parsed = parseArgs(args, FLAGS);
  const format = flagString(parsed, 'diagnostics') ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--diagnostics must be "text" or "json", not "${format}"`);
  const options: Options = { check: parsed.flags.check === true, diff: parsed.flags.diff === true, json: format === 'json' };
  const dir = flagString(parsed, 'config');
  const paths = parsed.positionals;
  const outcome = new Outcome();

  if (paths.includes('-')) {
    if (paths.length > 1 || dir !== undefined) throw new UsageError('- (standard input) cannot be combined with files or -c');
    const bytes = await stdin();
    const fixes = parsed.flags.fix === true ? fixSources([{ name: STDIN, source: bytes.toString('utf8') }]) : undefined;
    if (fixes) outcome.diagnostics.push(...fixes.diagnostics);
    const fixed = fixes?.texts.get(STDIN);
    await formatStdin(fixed === undefined ? bytes : Buffer.from(fixed, 'utf8'), io, options, outcome);
  } else {
    if (dir === undefined && paths.length === 0) throw new UsageError('nothing to format: give -c DIR, FILE arguments, or - for standard input');
    const files = await filesToFormat(dir, paths, io.cwd, outcome);
    const withFixes = parsed.flags.fix === true ? { ...options, fixes: await fixesOf(files, outcome) } : options;
    for (const file of files) await formatOne(file, io, withFixes, outcome);
  }

  if (outcome.diagnostics.length > 0) {
    io.stderr.write(
      options.json
        ? JSON.stringify({ diagnostics: outcome.diagnostics.map(diagnosticToJSON) }, null, 2) + '\n'
        : renderDiagnostics(outcome.diagnostics, outcome.sources) + '\n',
    );
  }
  return outcome.failed || outcome.diagnostics.some((d) => d.severity === 'error') ? EXIT_FAILURE : EXIT_OK;
}

/** A file to format: the name it is shown by and the path it is read from. */
interface Target {
  readonly name: string;
  readonly path: string;
}

/** The files of `-c DIR` and the FILE arguments, in that order, each once. */
async function filesToFormat(dir: string | undefined, paths: readonly string[], cwd: string, outcome: Outcome): Promise<Target[]> {
  const out: Target[] = [];
  const seen = new Set<string>();
  const add = (name: string): void => {
    const path = resolve(cwd, name);
    if (!seen.has(path)) {
      seen.add(path);
      out.push({ name, path });
    }
  };
  const walk = async (d: string): Promise<void> => {
    let names: string[];
    try {
      names = await discoverManifestFiles(resolve(cwd, d));
    } catch (e) {
      const where = (e as NodeJS.ErrnoException).path ?? d;
      outcome.diagnostics.push({ severity: 'error', summary: 'Cannot read manifest directory', detail: `${where}: ${ioProblem(e)}.` });
      return;
    }
    if (names.length === 0) {
      outcome.diagnostics.push({ severity: 'error', summary: 'No manifest files', detail: `No *.hcl file was found under ${d}.` });
    }
    for (const rel of names) add(join(d, rel));
  };
  if (dir !== undefined) await walk(dir);
  for (const p of paths) {
    const isDir = await stat(resolve(cwd, p)).then(
      (s) => s.isDirectory(),
      () => false, // reported when it is read
    );
    if (isDir) await walk(p);
    else add(p);
  }
  return out;
}

async function formatOne(target: Target, io: CliIO, options: Options, outcome: Outcome): Promise<void> {
  const read = await readRegularFile(target.path);
  if (!read.ok) {
    outcome.diagnostics.push(
      read.kind === 'too-large'
        ? { severity: 'error', summary: 'File too large', detail: `${target.name} ${read.problem}.` }
        : { severity: 'error', summary: 'Cannot read manifest file', detail: `${target.name}${read.kind === 'io' ? ':' : ''} ${read.problem}.` },
    );
    return;
  }
  const fixed = options.fixes?.get(target.name);
  const formatted = formatSource(fixed === undefined ? read.bytes : Buffer.from(fixed, 'utf8'), target.name, io, outcome);
  if (formatted === undefined) return;
  // With --fix the text formatted is the fixed one; what the file holds is compared and diffed.
  if (fixed !== undefined) formatted.source = read.bytes.toString('utf8');
  if (formatted.text === formatted.source) return;
  if (!options.check) {
    try {
      await writeAtomically(target.path, formatted.text);
    } catch (e) {
      io.stderr.write(`svc fmt: cannot write ${target.name}: ${ioProblem(e)}; it was left as it is\n`);
      outcome.failed = true;
      return;
    }
  } else outcome.failed = true;
  // The name of each file rewritten (or, with --check, that would be), then what changes.
  io.stdout.write(target.name + '\n');
  if (options.diff) io.stdout.write(unifiedDiff(formatted.source, formatted.text, target.name));
}

async function formatStdin(bytes: Buffer, io: CliIO, options: Options, outcome: Outcome): Promise<void> {
  if (bytes.length > MAX_MANIFEST_FILE_BYTES) {
    outcome.diagnostics.push({ severity: 'error', summary: 'File too large', detail: `${STDIN} is larger than 16 MiB, the most svc reads of one file.` });
    return;
  }
  const formatted = formatSource(bytes, STDIN, io, outcome);
  if (formatted === undefined) return;
  const changed = formatted.text !== formatted.source;
  if (options.check || options.diff) {
    if (changed && options.check) {
      io.stdout.write(STDIN + '\n');
      outcome.failed = true;
    }
    if (options.diff) io.stdout.write(unifiedDiff(formatted.source, formatted.text, STDIN));
    return;
  }
  io.stdout.write(formatted.text);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** With --fix: every file read (an unreadable one is reported when it is formatted), fixed together. */
async function fixesOf(targets: readonly Target[], outcome: Outcome): Promise<ReadonlyMap<string, string>> {
  const files: { name: string; source: string }[] = [];
  for (const t of targets) {
    const read = await readRegularFile(t.path);
    if (!read.ok) continue;
    try {
      files.push({ name: t.name, source: UTF8.decode(read.bytes) });
    } catch {
      // Not UTF-8: reported when it is formatted.
    }
  }
  const fixes = fixSources(files);
  for (const f of files) outcome.sources.set(f.name, f.source);
  outcome.diagnostics.push(...fixes.diagnostics);
  return fixes.texts;
}

/** The text and its canonical form, or undefined after recording why there is none. */
function formatSource(bytes: Buffer, name: string, io: CliIO, outcome: Outcome): { source: string; text: string } | undefined {
  let source: string;
  try {
    // The byte order mark is kept in the text, so that a file that has one keeps it.
    source = UTF8.decode(bytes);
  } catch {
    outcome.diagnostics.push({ severity: 'error', summary: 'Invalid file encoding', detail: `${name} is not UTF-8 text; manifest files are UTF-8.` });
    return undefined;
  }
  let result: ReturnType<typeof formatHcl>;
  try {
    result = formatHcl(source, name);
  } catch (e) {
    // The formatter checks its own output: a text whose meaning it would have changed is not used.
    io.stderr.write(`svc fmt: internal error (a bug in svc, please report it): ${e instanceof Error ? e.message : String(e)}\n`);
    outcome.failed = true;
    return undefined;
  }
  if (!result.ok) {
    outcome.sources.set(name, source);
    outcome.diagnostics.push(...result.diagnostics);
    return undefined;
  }
  return { source, text: result.text };
}

/**
 * Replaces the file's content in one step: readers see the old text or the new, never a part. The
 * new file takes the old one's permissions; a symbolic link is resolved so that the file it points
 * at is replaced, not the link.
 */
async function writeAtomically(path: string, text: string): Promise<void> {
  const target = await realpath(path);
  const { mode } = await stat(target);
  const temp = join(dirname(target), `.${basename(target)}.svc-fmt-${randomBytes(6).toString('hex')}`);
  try {
    const handle = await open(temp, 'wx', mode & 0o777);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.chmod(mode & 0o7777); // the umask may have narrowed the mode given to open
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    total += (chunk as Buffer).length;
    // One byte over the bound is enough to refuse it; the rest is not read.
    if (total > MAX_MANIFEST_FILE_BYTES) break;
  }
  return Buffer.concat(chunks);
}

function ioProblem(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code ?? err.message ?? String(e);
}
