/**
 * Boot shared by `serve`, `graph` and `check`: load and check the manifest, compile every endpoint, and
 * on any error print every diagnostic at once (HCL-style text, or JSON with `--diagnostics=json`;
 * `check` prints its own report from `loadService`).
 */
import { isAbsolute, resolve } from 'node:path';
import { diagnosticToJSON, renderDiagnostics, type Diagnostic } from '../diag/index.js';
import { createConnectors, type ConnectorSet } from '../connectors/index.js';
import type { ServiceModel } from '../model/index.js';
import { compileService, loadServiceModel, type CompileServiceOptions, type ServiceCompilation, type StepSpec } from '../steps/index.js';
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
  readonly model: ServiceModel<StepSpec>;
  readonly service: ServiceCompilation;
  /** One handle per declared connection, none open: only `serve` opens them (openAll). */
  readonly connectors: ConnectorSet;
}

/** A manifest loaded and compiled as `svc serve` compiles it (no I/O), with every diagnostic of both. */
export interface LoadedService {
  /** Present when nothing is an error. */
  readonly booted?: Booted;
  /** The model's diagnostics, then the compilation's (the latter only when the model built). */
  readonly diagnostics: readonly Diagnostic[];
  readonly sources: ReadonlyMap<string, string>;
}

/** Shared by `serve`, `graph` and `check`, so `check` refuses exactly what `serve` would. */
export async function loadService(dir: string, options: CompileServiceOptions = {}): Promise<LoadedService> {
  const loaded = await loadServiceModel(dir, options.steps);
  const { model, sources } = loaded;
  if (!model || loaded.diagnostics.some((d) => d.severity === 'error')) return { diagnostics: loaded.diagnostics, sources };
  // Created without I/O, so `check` and `graph` build exactly what `serve` builds and open nothing.
  const connectors = createConnectors(model);
  const service = compileService(model, { ...options, connectors });
  const diagnostics = [...loaded.diagnostics, ...service.diagnostics];
  return diagnostics.some((d) => d.severity === 'error') ? { diagnostics, sources } : { booted: { model, service, connectors }, diagnostics, sources };
}

/** The booted service, or undefined after printing why it cannot boot. Warnings are printed either way. */
export async function boot(
  dir: string,
  io: CliIO,
  format: DiagnosticsFormat,
  command: string,
  options: CompileServiceOptions = {},
): Promise<Booted | undefined> {
  const { booted, diagnostics, sources } = await loadService(dir, options);
  if (diagnostics.length > 0) printDiagnostics(io, diagnostics, sources, format, command);
  return booted;
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
