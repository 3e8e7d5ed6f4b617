/**
 * The `svc` command: dispatches to one module per command (loaded on demand, so `svc --version` does
 * not load the server). Exit codes: 0 success, 1 the manifest or the run failed, 2 a usage error.
 * A user error is a message, never a stack trace; a stack trace means a bug in svc.
 */
// First: it must hold a nextTick record before boot's collections run (see the file).
import './tick-record.js';
import { UsageError } from './args.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, processIO, type CliIO } from './io.js';
import { commandHelp, commandUsage, overview } from './usage.js';
import { packageVersion } from './version.js';

export type Command = (args: string[], io: CliIO) => Promise<number>;

const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  serve: async () => (await import('./serve.js')).serveCommand,
  graph: async () => (await import('./graph.js')).graphCommand,
  check: async () => (await import('./check.js')).checkCommand,
  starlark: async () => (await import('./starlark.js')).starlarkCommand,
  openapi: async () => (await import('./openapi.js')).openapiCommand,
  fmt: async () => (await import('./fmt.js')).fmtCommand,
  init: async () => (await import('./init.js')).initCommand,
  docs: async () => (await import('./docs.js')).docsCommand,
};

export async function run(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const topic = first === undefined ? undefined : rest[0];
    if (topic !== undefined) {
      const help = commandHelp(topic);
      if (!help) return usageError(io, `unknown command "${topic}"`);
      io.stdout.write(commandUsage(help));
    } else io[first === undefined ? 'stderr' : 'stdout'].write(overview());
    return first === undefined ? EXIT_USAGE : EXIT_OK;
  }
  if (first === '--version' || first === '-V') {
    io.stdout.write(`svc ${packageVersion()}\n`);
    return EXIT_OK;
  }
  if (first.startsWith('-')) return usageError(io, `unknown flag ${first}`);

  const load = COMMANDS[first];
  if (!load) return usageError(io, `unknown command "${first}"`);
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(commandUsage(commandHelp(first)!));
    return EXIT_OK;
  }
  try {
    return await (await load())(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`svc ${first}: ${error.message}\n\n${commandUsage(commandHelp(first)!)}`);
      return EXIT_USAGE;
    }
    io.stderr.write(
      `svc ${first}: internal error (a bug in svc, please report it):\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return EXIT_FAILURE;
  }
}

function usageError(io: CliIO, message: string): number {
  io.stderr.write(`svc: ${message}\n\n${overview()}`);
  return EXIT_USAGE;
}
