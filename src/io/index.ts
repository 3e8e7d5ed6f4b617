/**
 * Socket-level I/O scheduling shared by svc's server (src/http) and its clients (src/connectors):
 * standalone, Node's `net` only.
 */
export { holdWritesToTurnEnd } from './turn-end-writes.js';
