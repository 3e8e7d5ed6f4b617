/**
 * The answers svc itself gives before or around a pipeline (SPEC.md §7, DECISIONS.md §3), shared as
 * `components.responses` and referenced by the operations they apply to: 400 and 415 and 413 where a
 * JSON body is declared, 422 where anything is validated, 401 where guarded (403 where a guard
 * requires claims), 429 where rate limited, 500 always, and the statuses the steps' failures can
 * have, as their kinds say (400 a value a database refused, 502 an upstream that failed, 503 an
 * unreachable dependency, 504 a time-out; 503 also where a guard fetches a key set).
 */
import type { ServerModel } from '../model/index.js';
import type { JsonSchema } from '../schema/index.js';
import type { Components } from './components.js';
import type { ResponseObject } from './document-types.js';

export type StandardResponse =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'PayloadTooLarge'
  | 'UnsupportedMediaType'
  | 'ValidationFailed'
  | 'TooManyRequests'
  | 'InternalError'
  | 'BadGateway'
  | 'ServiceUnavailable'
  | 'GatewayTimeout';

export const STANDARD_STATUS: Readonly<Record<StandardResponse, number>> = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  ValidationFailed: 422,
  TooManyRequests: 429,
  InternalError: 500,
  BadGateway: 502,
  ServiceUnavailable: 503,
  GatewayTimeout: 504,
};

export class StandardResponses {
  private readonly used = new Set<StandardResponse>();

  constructor(
    private readonly server: ServerModel,
    private readonly components: Components,
  ) {}

  ref(name: StandardResponse): { $ref: string } {
    this.used.add(name);
    return { $ref: `#/components/responses/${name}` };
  }

  /** The referenced responses, in name order. */
  responses(): Record<string, ResponseObject> {
    const out: Record<string, ResponseObject> = {};
    for (const name of [...this.used].sort()) out[name] = this.build(name);
    return out;
  }

  private build(name: StandardResponse): ResponseObject {
    const problem = (description: string, schema: JsonSchema = this.components.problem()): ResponseObject => ({
      description,
      content: { 'application/problem+json': { schema } },
    });
    switch (name) {
      case 'BadRequest':
        return problem(
          'The request is malformed (urn:svc:error:bad-request): its body is not valid JSON (no step ran), or a database refused a value it supplied (the step is named in `step`).',
        );
      case 'Unauthorized':
        return {
          ...problem('Missing or wrong credentials (urn:svc:error:unauthorized).'),
          headers: { 'WWW-Authenticate': { description: 'The challenge of a basic guard.', schema: { type: 'string' } } },
        };
      case 'Forbidden':
        return problem('The token is valid but lacks a claim the guard requires (urn:svc:error:forbidden).');
      case 'PayloadTooLarge':
        return problem(`The request body is larger than ${this.server.maxBodySize} bytes (urn:svc:error:payload-too-large).`);
      case 'UnsupportedMediaType':
        return problem('A JSON body is expected and the Content-Type is another (urn:svc:error:unsupported-media-type).');
      case 'ValidationFailed':
        return problem('The request failed validation (urn:svc:error:validation-error); no step ran.', this.components.validationProblem());
      case 'TooManyRequests':
        return {
          ...problem('The client has made more requests than the rate limit allows in its window (urn:svc:error:too-many-requests); nothing ran.'),
          headers: {
            'Retry-After': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
            RateLimit: {
              description: 'The limit\'s remaining quota and reset (draft-ietf-httpapi-ratelimit-headers): `"<policy>";r=0;t=<seconds>`.',
              schema: { type: 'string' },
            },
            'RateLimit-Policy': { description: 'The limit: `"<policy>";q=<max>;w=<window seconds>`.', schema: { type: 'string' } },
          },
        };
      case 'InternalError':
        return problem('A step failed (urn:svc:error:internal); the failing step is named in `step`, the cause is in the server log.');
      case 'BadGateway':
        return problem(
          'An upstream HTTP server refused or reset the connection, or answered what cannot be accepted (urn:svc:error:bad-gateway); the step is named in `step`.',
        );
      case 'ServiceUnavailable':
        return problem('A database, cache, upstream or key set is unreachable (urn:svc:error:dependency-unavailable).');
      case 'GatewayTimeout':
        return problem(`The request or a step took longer than allowed (urn:svc:error:timeout); the request limit is ${this.server.requestTimeoutMs} ms.`);
    }
  }
}
