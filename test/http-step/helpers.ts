/**
 * Real upstream servers for the http step (node:http on 127.0.0.1, port 0), each recording what it
 * received and when its sockets close; and a manifest served in-process on the outbound client the
 * connector set opens, as `svc serve` does (Fastify's inject, or a real listening port for tests
 * that need a client to go away).
 */
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Diagnostic } from '../../src/diag/index.js';
import { buildServiceModel, compileService } from '../../src/steps/index.js';
import { serveManifest, type ServedService } from '../http/helpers.js';

export interface Received {
  readonly method: string;
  readonly url: string;
  /** As node:http reports them: lower-case names. */
  readonly headers: IncomingMessage['headers'];
  readonly rawHeaders: readonly string[];
  readonly body: string;
}

export interface Upstream {
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  readonly received: Received[];
  /** Emits `close` (with the socket) whenever a connection closes, and `connection` when one opens. */
  readonly events: EventEmitter;
  /** Connections still open. */
  readonly open: Set<Socket>;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** An upstream whose `handler` sees every request once its body has been read. */
export async function upstream(handler: Handler): Promise<Upstream> {
  const received: Received[] = [];
  const events = new EventEmitter();
  const open = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method!, url: req.url!, headers: req.headers, rawHeaders: req.rawHeaders, body });
      handler(req, res, body);
    });
  });
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    events.emit('connection', socket);
    socket.on('close', () => {
      open.delete(socket);
      events.emit('close', socket);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    received,
    events,
    open,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Resolves on `event`, or fails the test after `ms` (the bound the test promises, not a measurement).
 * An `error` on the way (a socket reset) is not a failure: the event is what is awaited.
 *
 * A process starved of CPU for longer than `ms` (a loaded machine) wakes with the timer due before
 * the I/O that answers it, since timers run first in each turn of the event loop. So the timer
 * gives the loop two more turns (the I/O, then the handle's close callbacks) before it fails.
 */
export function within<T extends unknown[]>(emitter: EventEmitter, event: string, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const onEvent = (...args: unknown[]): void => {
      settled = true;
      clearTimeout(timer);
      resolve(args as T);
    };
    const fail = (): void => {
      if (settled) return;
      emitter.off(event, onEvent);
      reject(new assert.AssertionError({ message: `${what}: no ${event} event within ${ms} ms` }));
    };
    const timer = setTimeout(() => setImmediate(() => setImmediate(fail)), ms);
    emitter.once(event, onEvent);
  });
}

export type Served = ServedService;

/** The diagnostics of building and compiling `manifest` (nothing is opened). */
export function bootErrors(manifest: string): Diagnostic[] {
  const built = buildServiceModel([{ filename: 'api.hcl', source: manifest }], { dir: '.' });
  const errors = built.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0 || !built.model) return errors;
  return [...compileService(built.model).diagnostics];
}

/** `{{UPSTREAM}}` in the manifest is replaced by `upstreamUrl`. */
export function serve(manifest: string, upstreamUrl: string, options: { requestTimeoutMs?: number } = {}): Promise<Served> {
  return serveManifest(manifest.replaceAll('{{UPSTREAM}}', upstreamUrl), options);
}
