/**
 * `svc serve -c DIR [--host H] [--port P]`: boot, listen, serve until SIGTERM/SIGINT, exit 0 after a
 * graceful shutdown. Host and port: flag, else SVC_HOST/HOST and SVC_PORT/PORT, else the server block.
 */
import type { StepError } from '../../graph/index.js';
import { buildServer, createLogger, docsSites, flushLogger, listen, shutdownOnSignals } from '../http/index.js';
import { flagString, parseArgs, parsePort, UsageError, type ParsedArgs } from './args.js';
import { boot, configDir, diagnosticsFormat } from './boot.js';
import { EXIT_FAILURE, type CliIO } from './io.js';

export const SERVE_FLAGS = [
  { name: 'config', short: 'c', value: true },
  { name: 'host', value: true },
  { name: 'port', short: 'p', value: true },
  { name: 'diagnostics', value: true },
] as const;

export async function serveCommand(argv: string[], io: CliIO): Promise<number> {
  const args = parseArgs(argv, SERVE_FLAGS);
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const dir = configDir(args, io);
  const format = diagnosticsFormat(args);
  // Checked before booting, so a bad --port is reported without loading anything.
  bindAddress(args, io.env, { host: '127.0.0.1', port: 8080 });

  const logger = createLogger();
  // A step's release or a transaction's rollback that fails after its request was answered (or
  // abandoned) has nobody to fail: the engine hands it here, and it must never pass unseen.
  const onTeardownError = (error: StepError): void =>
    logger.error({ err: error, step: error.step, kind: error.kind, category: error.category }, 'teardown failed');
  const booted = await boot(dir, io, format, 'serve', { onTeardownError });
  if (!booted) return EXIT_FAILURE;
  const { server } = booted.model;
  const bind = bindAddress(args, io.env, server);

  const app = await buildServer({
    endpoints: booted.service.endpoints,
    // The OpenAPI document is compiled here, once, when a documentation endpoint serves it.
    docs: docsSites(booted.service.docs, booted.model),
    bodyLimit: server.maxBodySize,
    requestTimeoutMs: server.requestTimeoutMs,
    logger,
  });
  // Every connection is opened and answering before the first request can arrive; one that cannot
  // be reached stops the boot (after a bounded retry) instead of failing requests later.
  const { connectors } = booted;
  try {
    await connectors.openAll({ logger });
  } catch (error) {
    io.stderr.write(`svc serve: ${(error as Error).message}\n`);
    await app.close();
    flushLogger(logger);
    return EXIT_FAILURE;
  }
  let address: { url: string };
  try {
    address = await listen(app, bind);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const where = `${bind.host}:${bind.port}`;
    io.stderr.write(
      `svc serve: cannot listen on ${where}: ${code === 'EADDRINUSE' ? 'the address is already in use' : code === 'EACCES' ? 'permission denied' : (error as Error).message}\n`,
    );
    await app.close();
    await connectors.closeAll();
    return EXIT_FAILURE;
  }
  logger.info({ url: address.url, endpoints: booted.service.endpoints.length }, 'listening');
  io.stderr.write(`svc serve: listening on ${address.url} (${booted.service.endpoints.length} endpoints)\n`);
  // Log lines are batched: a crash must neither lose the last ones nor die without saying why.
  const crash = (error: unknown): void => {
    logger.fatal({ err: error }, 'crashed');
    flushLogger(logger);
    process.exit(EXIT_FAILURE);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  const code = await shutdownOnSignals(app, { shutdownTimeoutMs: server.shutdownTimeoutMs, logger });
  // After the HTTP server has drained: no request can still hold a pooled client.
  await connectors.closeAll();
  process.off('uncaughtException', crash);
  process.off('unhandledRejection', crash);
  flushLogger(logger);
  return code;
}

/** Flag, else SVC_HOST/HOST and SVC_PORT/PORT (the more specific first), else the server block. */
export function bindAddress(
  args: ParsedArgs,
  env: Readonly<Record<string, string | undefined>>,
  server: { readonly host: string; readonly port: number },
): { host: string; port: number } {
  const host = flagString(args, 'host') ?? nonEmpty(env.SVC_HOST) ?? nonEmpty(env.HOST) ?? server.host;
  const portFlag = flagString(args, 'port');
  let port = server.port;
  if (portFlag !== undefined) port = parsePort(portFlag, '--port');
  else if (nonEmpty(env.SVC_PORT) !== undefined) port = parsePort(env.SVC_PORT!, 'SVC_PORT');
  else if (nonEmpty(env.PORT) !== undefined) port = parsePort(env.PORT!, 'PORT');
  return { host, port };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
