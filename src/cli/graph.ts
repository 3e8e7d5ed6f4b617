/**
 * `svc graph -c DIR [--endpoint "GET /path"]`: the endpoints' dataflow graphs as Graphviz DOT on stdout.
 * Nothing is served or opened: documentation endpoints (no pipeline) are left out, and guards are not
 * compiled.
 */
import { toDot } from '../../graph/index.js';
import { graphsToDraw } from '../steps/index.js';
import { flagString, parseArgs, UsageError } from './args.js';
import { boot, configDir, diagnosticsFormat } from './boot.js';
import { EXIT_FAILURE, EXIT_OK, type CliIO } from './io.js';

const FLAGS = [
  { name: 'config', short: 'c', value: true },
  { name: 'endpoint', short: 'e', value: true },
  { name: 'diagnostics', value: true },
] as const;

export async function graphCommand(argv: string[], io: CliIO): Promise<number> {
  const args = parseArgs(argv, FLAGS);
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const dir = configDir(args, io);
  const format = diagnosticsFormat(args);
  const wanted = flagString(args, 'endpoint');

  const booted = await boot(dir, io, format, 'graph', { forDrawing: true });
  if (!booted) return EXIT_FAILURE;
  let graphs = booted.service.graphs;
  if (wanted !== undefined) {
    const key = normalizeLabel(wanted);
    graphs = graphs.filter((g) => normalizeLabel(g.name) === key);
    if (graphs.length === 0) {
      const known = booted.service.graphs.map((g) => `  ${g.name}`).join('\n');
      io.stderr.write(`svc graph: no endpoint "${wanted}" in the manifest; its endpoints are:\n${known}\n`);
      return EXIT_FAILURE;
    }
  }
  io.stdout.write(toDot(graphsToDraw(graphs)));
  return EXIT_OK;
}

/** `get  /x` and `GET /x` name the same endpoint. */
function normalizeLabel(label: string): string {
  const [method = '', ...path] = label.trim().split(/\s+/);
  return `${method.toUpperCase()} ${path.join(' ')}`;
}
