/**
 * Socket-level I/O scheduling shared by svc's server (src/http) and its clients (src/connectors):
 * standalone, Node's `net` only.
 */
export { TurnEndWrites } from './turn-end-writes.js';
