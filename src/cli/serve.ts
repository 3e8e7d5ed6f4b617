/**
 * `svc serve -c DIR [--host H] [--port P]`: boot, listen, serve until SIGTERM/SIGINT, exit 0 after a
 * graceful shutdown. Host and port: flag, else SVC_HOST/HOST and SVC_PORT/PORT, else the server block.
 */
import { buildServer, createLogger, flushLogger, listen, shutdownOnSignals } from '../http/index.js';
import { flagString, parseArgs, parsePort, UsageError } from './args.js';
import { boot, configDir, diagnosticsFormat } from './boot.js';
import { EXIT_FAILURE, type CliIO } from './io.js';

const FLAGS = [
  { name: 'config', short: 'c', value: true },
  { name: 'host', value: true },
  { name: 'port', short: 'p', value: true },
  { name: 'diagnostics', value: true },
] as const;

export async function serveCommand(argv: string[], io: CliIO): Promise<number> {
  const args = parseArgs(argv, FLAGS);
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const dir = configDir(args, io);
  const format = diagnosticsFormat(args);
  const hostOverride = flagString(args, 'host') ?? nonEmpty(io.env.SVC_HOST) ?? nonEmpty(io.env.HOST);
  const portFlag = flagString(args, 'port');
  const portOverride =
    portFlag !== undefined
      ? parsePort(portFlag, '--port')
      : nonEmpty(io.env.SVC_PORT) !== undefined
        ? parsePort(io.env.SVC_PORT!, 'SVC_PORT')
        : nonEmpty(io.env.PORT) !== undefined
          ? parsePort(io.env.PORT!, 'PORT')
          : undefined;

  const booted = await boot(dir, io, format, 'serve');
  if (!booted) return EXIT_FAILURE;
  const { server } = booted.model;

  const logger = createLogger();
  const app = await buildServer({
    endpoints: booted.service.endpoints,
    bodyLimit: server.maxBodySize,
    requestTimeoutMs: server.requestTimeoutMs,
    logger,
  });
  let address: { url: string };
  try {
    address = await listen(app, { host: hostOverride ?? server.host, port: portOverride ?? server.port });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const where = `${hostOverride ?? server.host}:${portOverride ?? server.port}`;
    io.stderr.write(
      `svc serve: cannot listen on ${where}: ${code === 'EADDRINUSE' ? 'the address is already in use' : code === 'EACCES' ? 'permission denied' : (error as Error).message}\n`,
    );
    await app.close();
    return EXIT_FAILURE;
  }
  logger.info({ url: address.url, endpoints: booted.service.endpoints.length }, 'listening');
  io.stderr.write(`svc serve: listening on ${address.url} (${booted.service.endpoints.length} endpoints)\n`);
  const code = await shutdownOnSignals(app, { shutdownTimeoutMs: server.shutdownTimeoutMs, logger });
  flushLogger(logger);
  return code;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
