/**
 * Which of a server's connections a graceful shutdown may close, and when (lifecycle.ts).
 *
 * - **Idle**: kept alive between requests (at least one answered, none under way, the last response
 *   written out): closed at once, as Node's `closeIdleConnections()` would.
 * - **Silent**: accepted, but no request has arrived on it yet. It may be a browser's speculative
 *   socket or a client pool's spare that never sends one, or a connection whose request is on its
 *   way: with `svc serve --workers`, the primary hands a worker connections up to the moment it stops
 *   listening. So a silent connection is closed only once it has been silent for a grace period.
 *
 * Node's own `closeIdleConnections()` cannot be used for this: from Node.js 26 (nodejs/node#63470)
 * it closes silent connections too, at once, and `http.Server.close()` calls it, so a request already
 * sent to the server would be reset instead of answered.
 */
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's own server's connections, for `shutdown` (lifecycle.ts). */
    svcConnections: ConnectionStates;
  }
}

export interface ConnectionStates {
  /** Connections between requests: at least one answered, none under way. */
  idle(): Socket[];
  /** Connections that have sent no request yet, accepted at least `forMs` ago. */
  silent(forMs: number): Socket[];
  /** The responses being written, one per busy connection (front.ts retires an app with them). */
  writing(): ServerResponse[];
  /**
   * A request arrived on `socket`: it is no longer silent. Called by the server's request handler
   * (node-server.ts) rather than from a second `request` listener, which would make every request's
   * event copy the listener list.
   */
  requestArrived(socket: Socket): void;
}

/** The response a socket is writing (Node's own field, which `closeIdleConnections()` reads too). */
export type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

export function trackConnections(server: Server): ConnectionStates {
  const open = new Set<Socket>();
  /** Silent connections, with when each was accepted. */
  const silent = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    silent.set(socket, performance.now());
    socket.once('close', () => {
      open.delete(socket);
      silent.delete(socket);
    });
  });
  return {
    idle() {
      // `_httpMessage` is set while a response is assigned to the socket and cleared once it has been
      // written out ('finish'): an ended response still being flushed is not idle.
      return [...open].filter((socket) => !silent.has(socket) && (socket as HttpSocket)._httpMessage == null);
    },
    silent(forMs) {
      const before = performance.now() - forMs;
      return [...silent].filter(([, acceptedAt]) => acceptedAt <= before).map(([socket]) => socket);
    },
    writing() {
      const responses: ServerResponse[] = [];
      for (const socket of open) {
        const res = (socket as HttpSocket)._httpMessage;
        if (res != null) responses.push(res);
      }
      return responses;
    },
    requestArrived(socket) {
      silent.delete(socket);
    },
  };
}
