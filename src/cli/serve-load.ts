/**
 * Loading the manifest for `svc serve`, at boot and at every reload: `loadService` (load, check,
 * compile, exactly what `svc check` does), plus, when `--workers` asks for more than one process, the
 * refusal of in-process stores (and the warning on rate limits counted per process) that the server
 * block's own `workers` gets from the model checks; and the directories of sqlite database files,
 * made now, each one that cannot be a diagnostic at its `url` (src/connectors/sqlite/directory-check.ts).
 * Every diagnostic is printed; warnings do not stop the boot.
 */
import { checkSqliteDirectories } from '../connectors/index.js';
import { checkProcessLocalConnections, checkProcessLocalRateLimits } from '../model/index.js';
import type { CompileServiceOptions } from '../steps/index.js';
import { loadService, printDiagnostics, type Booted, type DiagnosticsFormat } from './boot.js';
import type { CliIO } from './io.js';

/** The booted service, or undefined after printing why it cannot be served. */
export async function loadForServe(
  dir: string,
  io: CliIO,
  format: DiagnosticsFormat,
  compile: CompileServiceOptions,
  workersFlag: number | 'auto' | undefined,
): Promise<Booted | undefined> {
  const { booted, diagnostics, sources } = await loadService(dir, compile);
  const flagged = booted !== undefined && workersFlag !== undefined && workersFlag !== booted.model.server.workers;
  const refused = flagged ? checkProcessLocalConnections(booted.model.connections.values(), workersFlag, 'the command line') : [];
  const { server, endpoints, connections } = booted?.model ?? {};
  const warned = flagged ? checkProcessLocalRateLimits(server!, endpoints!, connections!, workersFlag, 'the command line') : [];
  const unusable = connections !== undefined ? await checkSqliteDirectories(connections.values()) : [];
  const all = [...diagnostics, ...refused, ...warned, ...unusable];
  if (all.length > 0) printDiagnostics(io, all, sources, format, 'serve');
  return refused.length === 0 && unusable.length === 0 ? booted : undefined;
}
