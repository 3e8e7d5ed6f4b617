/**
 * `svc openapi -c DIR [-o FILE] [--format=json|yaml]`: the OpenAPI 3.1 document compiled from the
 * manifest (SPEC.md §1.6), JSON on standard output unless told otherwise. The manifest is loaded and
 * compiled as `svc graph` compiles it, so every manifest that can be drawn can be documented, and a
 * bad one exits 1 with its diagnostics. The text is the one a spec endpoint serves, byte for byte.
 */
import { writeFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { compileOpenApi, serializeDocument, type DocumentFormat, type SqlColumns } from '../openapi/index.js';
import { flagString, flagStrings, parseArgs, UsageError } from './args.js';
import { boot, configDir, diagnosticsFormat, printDiagnostics } from './boot.js';
import { checkQueriesOnDatabases, databaseTargets } from './query-check.js';
import { EXIT_FAILURE, EXIT_OK, type CliIO } from './io.js';

const FLAGS = [
  { name: 'config', short: 'c', value: true },
  { name: 'output', short: 'o', value: true },
  { name: 'format', value: true },
  { name: 'diagnostics', value: true },
  { name: 'database', value: true },
] as const;

export async function openapiCommand(argv: string[], io: CliIO): Promise<number> {
  const args = parseArgs(argv, FLAGS);
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const dir = configDir(args, io);
  const diagnostics = diagnosticsFormat(args);
  const format = documentFormat(flagString(args, 'format'));
  const output = flagString(args, 'output');
  if (output === '') throw new UsageError('-o needs a file name');

  // Compiled as for drawing: nothing is served, so guards need no key set to be documented.
  const booted = await boot(dir, io, diagnostics, 'openapi', { forDrawing: true });
  if (!booted) return EXIT_FAILURE;
  // With --database, the rows are typed from the columns the database describes (./query-check.ts).
  const databases = flagStrings(args, 'database');
  let sqlColumns: SqlColumns | undefined;
  if (databases.length > 0) {
    const checked = await checkQueriesOnDatabases(booted.model, databaseTargets(databases, booted.model));
    if (checked.diagnostics.length > 0) printDiagnostics(io, checked.diagnostics, booted.model.sources, diagnostics, 'openapi');
    if (checked.diagnostics.some((d) => d.severity === 'error')) return EXIT_FAILURE;
    sqlColumns = checked.columns;
  }
  const text = serializeDocument(compileOpenApi(booted.model, sqlColumns ? { sqlColumns } : {}), format);
  if (output === undefined) {
    io.stdout.write(text);
    return EXIT_OK;
  }
  const path = isAbsolute(output) ? output : resolve(io.cwd, output);
  try {
    await writeFile(path, text);
  } catch (error) {
    io.stderr.write(`svc openapi: cannot write ${output}: ${(error as Error).message}\n`);
    return EXIT_FAILURE;
  }
  return EXIT_OK;
}

function documentFormat(value: string | undefined): DocumentFormat {
  if (value === undefined || value === 'json') return 'json';
  if (value === 'yaml' || value === 'yml') return 'yaml';
  throw new UsageError(`--format must be "json" or "yaml", not "${value}"`);
}
