/**
 * `svc docs [--host H] [--port P]`: serves svc's manual (docs/ of the installed package) as HTML
 * pages on a local port until SIGINT or SIGTERM (./manual-server.ts).
 *
 * Exit codes: 0 stopped by a signal; 1 the port could not be bound or the manual is missing; 2 a
 * usage error.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package/index.js';
import { flagString, parseArgs, parsePort, UsageError, type FlagSpec } from './args.js';
import { EXIT_FAILURE, EXIT_OK, type CliIO } from './io.js';
import { startManualServer } from './manual-server.js';

const FLAGS: readonly FlagSpec[] = [
  { name: 'host', value: true },
  { name: 'port', value: true },
];

/** Not `svc serve`'s 8080, so the manual can be read beside the API it describes. */
const DEFAULT_PORT = 8090;

export async function docsCommand(args: string[], io: CliIO): Promise<number> {
  const parsed = parseArgs(args, FLAGS);
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument "${parsed.positionals[0]}"`);
  const host = flagString(parsed, 'host') ?? '127.0.0.1';
  const portFlag = flagString(parsed, 'port');
  const port = portFlag === undefined ? DEFAULT_PORT : parsePort(portFlag, '--port');
  const root = packageRoot();
  if (!existsSync(join(root, 'docs', 'README.md'))) {
    io.stderr.write(`svc docs: the manual is not in this installation (${join(root, 'docs')} has no README.md)\n`);
    return EXIT_FAILURE;
  }
  let server: Awaited<ReturnType<typeof startManualServer>>;
  try {
    server = await startManualServer({ root, host, port, onError: (message) => io.stderr.write(`svc docs: ${message}\n`) });
  } catch (error) {
    io.stderr.write(`svc docs: cannot listen on ${host}:${port}: ${(error as Error).message}\n`);
    return EXIT_FAILURE;
  }
  io.stdout.write(`svc docs: the manual at ${server.url}/ (Ctrl-C stops)\n`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    const stop = (name: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(name);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  io.stdout.write(`svc docs: stopped (${signal})\n`);
  return EXIT_OK;
}
