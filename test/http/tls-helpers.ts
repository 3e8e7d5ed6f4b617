/** HTTP/2 clients and test certificates for the TLS tests (tls*.test.ts). */
import { execFileSync } from 'node:child_process';
import { connect, type ClientHttp2Session } from 'node:http2';
import { join } from 'node:path';

/** A self-signed P-256 certificate for 127.0.0.1 and localhost, written as PEM into `dir`. */
export function makeCertificate(dir: string, name: string): void {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
}

export function h2(url: string): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = connect(url, { rejectUnauthorized: false });
    session.once('connect', () => resolve(session));
    session.once('error', reject);
  });
}

export interface H2Answer {
  readonly status: number;
  readonly headers: Record<string, unknown>;
  readonly body: string;
}

/** One request on `session`; `body` is sent whole. */
export function h2Request(session: ClientHttp2Session, path: string, method = 'GET', body?: string, headers: Record<string, string> = {}): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': method, ':path': path, ...headers }, { endStream: body === undefined });
    let text = '';
    let head: Record<string, unknown> = {};
    stream.on('response', (h) => (head = h));
    stream.setEncoding('utf8');
    stream.on('data', (c: string) => (text += c));
    stream.on('end', () => resolve({ status: Number(head[':status']), headers: head, body: text }));
    stream.on('error', reject);
    if (body !== undefined) stream.end(body);
  });
}

/** Polls until `condition` holds (liveness bound: 20 s). */
export async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within 20 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
