/**
 * `server { tls { cert_file = "tls/cert.pem", key_file = "tls/key.pem" } }`: the certificate chain and
 * private key svc serves HTTPS with (src/http/tls-server.ts). Both are files the manifest reads, with
 * the rules of every other one (files.ts: inside the manifest directory, symlinks resolved, regular
 * files of at most 16 MiB), and read again at each reload, which is how a renewed certificate is
 * picked up. A pair Node cannot load (not PEM, a key that is not the certificate's) is a boot error
 * here rather than a failed handshake for every client later.
 */
import { createRequire } from 'node:module';
import type * as Tls from 'node:tls';
import type { Block } from '../hcl/index.js';
import { decodeBody, type BodySchema } from './body.js';
import { resolveFile, type FileAccess } from './files.js';
import type { DecodeScope } from './scope.js';
import type { TlsModel } from './types.js';
import { readString } from './values.js';

// Required, not imported: Node.js's ES module face of node:tls (20 and 22 at least) reads every
// export at the first import, `rootCertificates` included, which then keeps its 118 to 146
// certificates (219 kB on Node.js 20) as strings in every process.
const { createSecureContext } = createRequire(import.meta.url)('node:tls') as typeof Tls;

const TLS_BODY: BodySchema = { attributes: { cert_file: { required: true }, key_file: { required: true } }, blocks: {} };

export function decodeServerTls(block: Block, scope: DecodeScope, files: FileAccess): TlsModel | undefined {
  const s = scope.enter(block);
  const { attrs } = decodeBody(block.body, TLS_BODY, s, block);
  const certAttr = attrs.get('cert_file');
  const keyAttr = attrs.get('key_file');
  const certName = readString(certAttr, s);
  const keyName = readString(keyAttr, s);
  if (certAttr === undefined || keyAttr === undefined || certName === undefined || keyName === undefined) return undefined;
  const cert = resolveFile(certAttr, certName, files.rootDir, files, s);
  const key = resolveFile(keyAttr, keyName, files.rootDir, files, s);
  if (cert === undefined || key === undefined) return undefined;
  if (cert.text !== undefined && key.text !== undefined) {
    try {
      createSecureContext({ cert: cert.text, key: key.text });
    } catch (error) {
      s.error('Invalid TLS certificate or key', block.range, {
        detail: `"${certName}" and "${keyName}" cannot serve TLS: ${(error as Error).message}. Both are PEM files: the certificate chain (server first) and its unencrypted private key.`,
      });
      return undefined;
    }
  }
  return {
    certFile: cert.path,
    keyFile: key.path,
    ...(cert.text !== undefined ? { cert: cert.text } : {}),
    ...(key.text !== undefined ? { key: key.text } : {}),
  };
}
