/**
 * Boot shared by `serve` and `graph`: load and check the manifest, compile every endpoint, and on any
 * error print every diagnostic at once (HCL-style text, or JSON with `--diagnostics=json`).
 */
import { isAbsolute, resolve } from 'node:path';
import { diagnosticToJSON, renderDiagnostics, type Diagnostic } from '../diag/index.js';
import { loadManifest } from '../model/index.js';
import type { ServiceModel } from '../model/types.js';
import { compileService, type CompileServiceOptions, type ServiceCompilation } from '../steps/endpoint.js';
import { flagString, UsageError, type ParsedArgs } from './args.js';
import type { CliIO } from './io.js';

export type DiagnosticsFormat = 'text' | 'json';

export function diagnosticsFormat(args: ParsedArgs): DiagnosticsFormat {
  const value = flagString(args, 'diagnostics') ?? 'text';
  if (value !== 'text' && value !== 'json') throw new UsageError(`--diagnostics must be "text" or "json", not "${value}"`);
  return value;
}

export function configDir(args: ParsedArgs, io: CliIO): string {
  const dir = flagString(args, 'config');
  if (dir === undefined) throw new UsageError('the manifest directory is required: -c DIR');
  // Kept as given when possible: diagnostics then name files the way the user wrote the directory.
  return isAbsolute(dir) || io.cwd === process.cwd() ? dir : resolve(io.cwd, dir);
}

export interface Booted {
  readonly model: ServiceModel;
  readonly service: ServiceCompilation;
}

/** The booted service, or undefined after printing why it cannot boot. */
export async function boot(
  dir: string,
  io: CliIO,
  format: DiagnosticsFormat,
  command: string,
  options: CompileServiceOptions = {},
): Promise<Booted | undefined> {
  const loaded = await loadManifest(dir);
  const warnings = loaded.diagnostics.filter((d) => d.severity !== 'error');
  if (!loaded.model || loaded.diagnostics.some((d) => d.severity === 'error')) {
    printDiagnostics(io, loaded.diagnostics, loaded.sources, format, command);
    return undefined;
  }
  const service = compileService(loaded.model, options);
  if (service.diagnostics.length > 0) {
    printDiagnostics(io, [...warnings, ...service.diagnostics], loaded.sources, format, command);
    return undefined;
  }
  if (warnings.length > 0) printDiagnostics(io, warnings, loaded.sources, format, command);
  return { model: loaded.model, service };
}

export function printDiagnostics(
  io: CliIO,
  diagnostics: readonly Diagnostic[],
  sources: ReadonlyMap<string, string>,
  format: DiagnosticsFormat,
  command: string,
): void {
  if (format === 'json') {
    io.stderr.write(JSON.stringify({ diagnostics: diagnostics.map(diagnosticToJSON) }, null, 2) + '\n');
    return;
  }
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  io.stderr.write(renderDiagnostics(diagnostics, sources));
  if (errors > 0) io.stderr.write(`\nsvc ${command}: the manifest has ${errors} error${errors === 1 ? '' : 's'}\n`);
}
