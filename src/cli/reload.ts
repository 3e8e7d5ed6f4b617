/**
 * Reloading a running `svc serve` (SIGHUP, `--watch`): a manifest with an error is reported and the
 * previous one kept; otherwise a new generation (unchanged connections kept) is swapped in atomically
 * (src/http/front.ts): requests in flight finish on the old graphs, whose remaining connections close
 * once they are done. Reloads never overlap: one asked for meanwhile runs once more after, so the
 * last change on disk is always the one served.
 */
import type { Front, Logger } from '../http/index.js';
import type { ServerModel } from '../model/index.js';
import type { CompileServiceOptions } from '../steps/index.js';
import type { DiagnosticsFormat } from './boot.js';
import { countEndpoints, describeEndpoints } from './endpoint-count.js';
import { closeConnections, startGeneration, type Generation } from './generation.js';
import type { CliIO } from './io.js';
import { loadForServe } from './serve-load.js';

export interface Reloader {
  /** The generation new requests go to. */
  current(): Generation;
  /** Asks for a reload; `reason` is logged (`SIGHUP`, `watch`). */
  reload(reason: string): void;
  /** Resolves once the reload under way (if any) and every retiring generation are done. */
  settle(): Promise<void>;
  /** Called after each reload: true when the new manifest is served. */
  onReloaded?: ((ok: boolean, generation: Generation) => void) | undefined;
}

export interface ReloaderOptions {
  readonly dir: string;
  readonly io: CliIO;
  readonly format: DiagnosticsFormat;
  readonly logger: Logger;
  readonly front: Front;
  readonly first: Generation;
  readonly compile: CompileServiceOptions;
  /** Whether the process has begun to shut down: every generation's readiness probe says so. */
  readonly draining?: () => boolean;
}

export function createReloader(options: ReloaderOptions): Reloader {
  const { io, logger, front } = options;
  let current = options.first;
  let running: Promise<void> | undefined;
  let again: string | undefined;
  const retiring = new Set<Promise<void>>();

  async function reloadOnce(reason: string): Promise<boolean> {
    logger.info({ reason }, 'reloading the manifest');
    const booted = await loadForServe(options.dir, io, options.format, options.compile, undefined);
    if (booted === undefined) {
      logger.error({ reason }, 'reload failed: the manifest has errors; the previous one is still served');
      io.stderr.write('svc serve: reload failed; the previous manifest is still served\n');
      return false;
    }
    warnRestartOnly(current, booted.model.server, logger);
    let next: Generation;
    try {
      next = await startGeneration(booted, { logger, previous: current, draining: options.draining });
    } catch (error) {
      logger.error({ err: error }, 'reload failed: a connection could not be opened; the previous manifest is still served');
      io.stderr.write(`svc serve: reload failed: ${(error as Error).message}\nsvc serve: the previous manifest is still served\n`);
      return false;
    }
    const previous = current;
    current = next;
    renewCertificate(front, previous.booted.model.server, booted.model.server, logger);
    const retired = front
      .swap(next.app, { drainTimeoutMs: previous.booted.model.server.shutdownTimeoutMs, logger })
      .then(() => closeConnections(previous))
      .catch((error: unknown) => logger.error({ err: error }, 'the previous manifest did not close cleanly'));
    retiring.add(retired);
    void retired.finally(() => retiring.delete(retired));
    logger.info({ reason, endpoints: countEndpoints(booted.model).total }, 'reloaded');
    io.stderr.write(`svc serve: reloaded (${describeEndpoints(booted.model).join(', ')})\n`);
    return true;
  }

  async function loop(reason: string): Promise<void> {
    let next: string | undefined = reason;
    while (next !== undefined) {
      again = undefined;
      let ok = false;
      try {
        ok = await reloadOnce(next);
      } catch (error) {
        logger.error({ err: error }, 'reload failed');
      }
      reloader.onReloaded?.(ok, current);
      next = again;
    }
    running = undefined;
  }

  const reloader: Reloader = {
    current: () => current,
    reload(reason) {
      if (running !== undefined) again = reason;
      else running = loop(reason);
    },
    async settle() {
      while (running !== undefined) await running;
      await Promise.all(retiring);
    },
  };
  return reloader;
}

/**
 * A reload reads `server.tls`'s files again: a renewed certificate serves the next handshakes, while
 * open connections keep theirs (none is dropped). Said in the log when it changed.
 */
function renewCertificate(front: Front, before: ServerModel, next: ServerModel, logger: Logger): void {
  const tls = next.tls;
  if (tls?.cert === undefined || tls.key === undefined) return;
  if (before.tls?.cert === tls.cert && before.tls.key === tls.key) return;
  if (front.renewCertificate({ cert: tls.cert, key: tls.key })) logger.info({ certFile: tls.certFile }, 'TLS certificate renewed: new connections use it');
}

/** What a reload cannot change in a running process: said once, so nobody wonders why. */
function warnRestartOnly(current: Generation, next: Generation['booted']['model']['server'], logger: Logger): void {
  const before = current.booted.model.server;
  const changed: string[] = (['host', 'port', 'requestTimeoutMs', 'workers', 'h2c'] as const).filter((k) => before[k] !== next[k]);
  // The certificate is renewed in place; serving TLS or not takes a restart.
  if ((before.tls === undefined) !== (next.tls === undefined)) changed.push('tls');
  if (changed.length > 0) {
    logger.warn({ changed }, 'these server settings take effect when svc serve restarts; the running process keeps the previous ones');
  }
}
