/**
 * Which of a server's connections a graceful shutdown may close, and when (lifecycle.ts): idle ones
 * (a request answered, none under way) at once; silent ones (accepted, no request yet) only after a
 * grace period, since their request may be on its way (`--workers` hands connections over until the
 * primary stops listening). Not Node's `closeIdleConnections()`: from Node.js 26 (nodejs/node#63470)
 * it closes silent connections at once, and `http.Server.close()` calls it.
 *
 * HTTP/2 sessions (h2-server.ts) get a GOAWAY (`closeSessions`) and their responses are followed one
 * by one (`streamArrived`) for a reload's retirement.
 */
import type { Server, ServerResponse } from 'node:http';
import type { Http2ServerResponse, Http2Session } from 'node:http2';
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
  /** An HTTP/2 request arrived: its response is followed until it closes (one listener, HTTP/2 only). */
  streamArrived(res: Http2ServerResponse): void;
  /** Sends every HTTP/2 session a GOAWAY: its open streams finish, then it closes (a shutdown). */
  closeSessions(): void;
  /** Closes every connection and session at once. */
  closeAll(): void;
}

/** The response a socket is writing (Node's own field, which `closeIdleConnections()` reads too). */
export type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

/** Closed connections are forgotten once the tracked ones reach twice the last count kept (and at least this many). */
const PRUNE_MIN = 64;

/**
 * No listener is added to a connection (Node's response already adds and removes one on its socket's
 * `close` per request; one more cost about 0.5 %, bench/health README "Where the quiet gap is, by
 * `perf`"). Closed sockets are skipped by every query and pruned in passing, when a query runs or the
 * set has doubled since the last pruning: at most about as many closed as open, accepting amortized O(1).
 */
export function trackConnections(server: Server, accepted: 'connection' | 'secureConnection' = 'connection'): ConnectionStates {
  const open = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  const streams = new Set<Http2ServerResponse>();
  /** Silent connections, with when each was accepted. */
  const silent = new Map<Socket, number>();
  let pruneAt = PRUNE_MIN;
  const prune = (): void => {
    for (const socket of open) {
      if (socket.closed) {
        open.delete(socket);
        silent.delete(socket);
      }
    }
    pruneAt = Math.max(PRUNE_MIN, 2 * open.size);
  };
  server.on(accepted, (socket: Socket & { alpnProtocol?: string | false }) => {
    // A TLS connection that chose HTTP/2 is a session, followed below.
    if (socket.alpnProtocol === 'h2') return;
    open.add(socket);
    silent.set(socket, performance.now());
    if (open.size >= pruneAt) prune();
  });
  function forgetStream(this: Http2ServerResponse): void {
    streams.delete(this);
  }
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  return {
    idle() {
      prune();
      // `_httpMessage` is set while a response is assigned to the socket and cleared once it has been
      // written out ('finish'): an ended response still being flushed is not idle.
      return [...open].filter((socket) => !silent.has(socket) && (socket as HttpSocket)._httpMessage == null);
    },
    silent(forMs) {
      prune();
      const before = performance.now() - forMs;
      return [...silent].filter(([, acceptedAt]) => acceptedAt <= before).map(([socket]) => socket);
    },
    writing() {
      prune();
      const responses: ServerResponse[] = [];
      for (const socket of open) {
        const res = (socket as HttpSocket)._httpMessage;
        if (res != null) responses.push(res);
      }
      for (const res of streams) responses.push(res as unknown as ServerResponse);
      return responses;
    },
    requestArrived(socket) {
      // Under load every connection has spoken: nothing to look up.
      if (silent.size > 0) silent.delete(socket);
    },
    streamArrived(res) {
      streams.add(res);
      // One listener function for every stream, and `on`: `once` wraps each in two objects more.
      res.on('close', forgetStream);
    },
    closeSessions() {
      for (const session of sessions) if (!session.closed) session.close();
    },
    closeAll() {
      for (const session of sessions) session.destroy();
      for (const socket of open) socket.destroy();
    },
  };
}
