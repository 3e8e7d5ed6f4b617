/**
 * What `server { tls }` and `server { h2c }` change for the listening side (docs/tls.md):
 * which server is built (h2-server.ts), the scheme of the address svc prints, and the
 * certificate a reload renews.
 */
import type { Server } from 'node:http';
import type { Http2SecureServer } from 'node:http2';
import type { TlsFiles } from './h2-server.js';

export type { TlsFiles } from './h2-server.js';

/** The manifest's side of it: `server.tls` (the PEM text read at boot) and `server.h2c`. */
interface TransportModel {
  readonly tls?: { readonly cert?: string; readonly key?: string };
  readonly h2c?: boolean;
}

/** The node-server.ts options of a manifest's `server` block. */
export function transportOf(server: TransportModel): { tls?: TlsFiles; h2c?: boolean } {
  const tls = server.tls;
  if (tls?.cert !== undefined && tls.key !== undefined) return { tls: { cert: tls.cert, key: tls.key } };
  return server.h2c === true ? { h2c: true } : {};
}

/**
 * Swaps the certificate of a listening TLS server (`setSecureContext`): the handshakes from now on
 * use it; open connections, HTTP/2 sessions and their streams go on with the one they agreed on.
 */
export function renewCertificate(server: Server, tls: TlsFiles): boolean {
  (server as unknown as Http2SecureServer).setSecureContext({ cert: tls.cert, key: tls.key });
  return true;
}

/** `https` with TLS, `http` otherwise (h2c included). */
export function schemeOf(server: Server): 'https' | 'http' {
  return typeof (server as unknown as Partial<Http2SecureServer>).setSecureContext === 'function' ? 'https' : 'http';
}
