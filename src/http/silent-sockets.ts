/**
 * Connections that have not sent a request yet. Node's `closeIdleConnections()` closes a keep-alive
 * connection between requests, but not one that never sent any (a browser's speculative socket, a
 * client pool's spare), so a graceful shutdown would wait the whole `shutdown_timeout` for them.
 * The server tracks them here and the shutdown closes them (lifecycle.ts).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

declare module 'fastify' {
  interface FastifyInstance {
    svcSilentSockets: ReadonlySet<Socket>;
  }
}

export function trackSilentSockets(server: Server): ReadonlySet<Socket> {
  const silent = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    silent.add(socket);
    socket.once('close', () => silent.delete(socket));
  });
  server.on('request', (request) => silent.delete(request.socket));
  return silent;
}
