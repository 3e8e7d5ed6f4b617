/** Builders for guard tests: credentials, signed tokens, a JWKS server on loopback, guards alone. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { compileEndpointGuard, type EndpointGuard, type GuardOptions } from '../../src/auth/index.js';
import { buildServiceModel } from '../../src/steps/index.js';

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

/** A 32-byte HMAC secret, as HS256 wants. */
export const SECRET = 'an-hs256-secret-of-at-least-32-bytes!';

export async function hsToken(payload: JWTPayload, options: { secret?: string; alg?: string; iat?: number } = {}): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .setIssuedAt(options.iat ?? now())
    .sign(new TextEncoder().encode(options.secret ?? SECRET));
}

export function now(): number {
  return Math.floor(Date.now() / 1000);
}

/** An unsigned token (`alg: none`), built by hand: jose refuses to make one for verification. */
export function unsignedToken(payload: JWTPayload): string {
  const part = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(payload)}.`;
}

export interface SigningKey {
  readonly kid: string;
  readonly alg: string;
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
}

export async function signingKey(kid: string, alg: 'RS256' | 'ES256' | 'EdDSA' = 'RS256'): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, jwk };
}

export async function signWith(key: SigningKey, payload: JWTPayload, header: { kid?: string } = {}): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: key.alg, kid: header.kid ?? key.kid })
    .setIssuedAt()
    .sign(key.privateKey);
}

/** A key-set host on loopback: serves `keys` (changeable), counts its hits, can be made to fail. */
export class JwksServer {
  keys: JWK[] = [];
  hits = 0;
  /** Status to answer instead of the set (500: the host is failing). */
  failWith: number | undefined;
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((_req, res) => {
      this.hits++;
      if (this.failWith !== undefined) {
        res.writeHead(this.failWith).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/jwk-set+json' }).end(JSON.stringify({ keys: this.keys }));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/.well-known/jwks.json`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/**
 * The guard of an endpoint listing `names`, compiled from manifest text declaring the guards (the
 * way compile.ts does it), for tests of the check alone.
 */
export function guardOf(source: string, names: string[], options: GuardOptions = {}): EndpointGuard {
  const built = buildServiceModel([{ filename: 'guards.hcl', source }]);
  const errors = built.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0 || !built.model) throw new Error(errors.map((d) => `${d.summary}: ${d.detail ?? ''}`).join('\n'));
  return compileEndpointGuard(names, built.model, options)!;
}

export function request(headers: Record<string, string | string[]> = {}, query: Record<string, unknown> = {}) {
  return { headers, query };
}
