/**
 * Responses the server itself cut (at shutdown past `shutdown_timeout` or on a second signal, at a
 * reload past it), logged as such (503 or the status sent, `cancelled: "shutdown"` or `"reload"`)
 * rather than as a client that left (499), which is all `close` would tell. A WeakSet, not a field:
 * written only at shutdown, so nothing is added to every request's response.
 */
import type { Server, ServerResponse } from 'node:http';
import type { ConnectionStates } from './connection-states.js';

/** Why the server cut a response: the `cancelled` of its log line. */
export type CutReason = 'shutdown' | 'reload';

const cut = new WeakMap<ServerResponse, CutReason>();

/** Closes the connection writing `res`, marked as the server's doing. */
export function cutResponse(res: ServerResponse, reason: CutReason): void {
  cut.set(res, reason);
  res.destroy();
}

/** Closes every connection of `server` at shutdown, the responses they are writing marked as cut by the server. */
export function cutEveryConnection(server: Server, connections: ConnectionStates): void {
  for (const res of connections.writing()) if (!cut.has(res)) cut.set(res, 'shutdown');
  server.closeAllConnections();
}

/** Why the server cut `res`, or undefined when it was not the server (its client left). */
export function cutReason(res: ServerResponse): CutReason | undefined {
  return cut.get(res);
}
