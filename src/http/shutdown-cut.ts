/**
 * Responses the server itself cut: at shutdown, those still unfinished when `shutdown_timeout` ran
 * out and every one a second SIGTERM/SIGINT closes; at a reload, those of the previous app still
 * unfinished after `shutdown_timeout`. Their requests are logged for what happened (the server closed
 * them: 503, or the status already sent, with `cancelled: "shutdown"` or `"reload"`), not as a client
 * that left (499, `client closed`), which is all the `close` event alone would tell.
 *
 * A WeakSet, not a field of the response: it is written only at shutdown and read only when a
 * response closes early, so nothing is added to the response of every request.
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
