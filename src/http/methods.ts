/**
 * Method bookkeeping for 405 answers: every path gets a route for the methods it does not declare,
 * so Fastify's router (not a per-request scan) tells 404 from 405, and `Allow` is computed at boot.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendStatusProblem } from './problems.js';

/**
 * The methods the router answers for every declared path: the standard methods of RFC 9110 (less
 * CONNECT, which Node hands to a separate event) and PATCH. TRACE is among them so that it gets the
 * 405 with `Allow` of any other undeclared standard method on an existing path, not a 404.
 */
export const ROUTED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'] as const;

/** Methods a path answers: the declared ones, plus HEAD where GET is declared (Fastify exposes it). */
export function allowedMethods(declared: readonly string[]): string[] {
  const allowed = new Set(declared.map((m) => m.toUpperCase()));
  if (allowed.has('GET')) allowed.add('HEAD');
  const routed: readonly string[] = ROUTED_METHODS;
  // Routed methods in their usual order first, then any other declared method.
  return [...routed.filter((m) => allowed.has(m)), ...[...allowed].filter((m) => !routed.includes(m))];
}

export function notAllowedMethods(declared: readonly string[]): string[] {
  const allowed = new Set(allowedMethods(declared));
  return ROUTED_METHODS.filter((m) => !allowed.has(m));
}

export function methodNotAllowedHandler(allow: readonly string[]): (request: FastifyRequest, reply: FastifyReply) => void {
  const header = allow.join(', ');
  return (request, reply) => {
    sendStatusProblem(request, reply, 405, `${request.method} is not allowed here; allowed: ${header}`, undefined, { allow: header });
  };
}
