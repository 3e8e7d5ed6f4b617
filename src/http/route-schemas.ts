/**
 * Fastify's route-schema compilers, replaced by ones that refuse: svc validates and serializes itself
 * (validation.ts, src/schema), and Fastify's defaults would load a second Ajv, its JTD and
 * fast-json-stringify compilers, about 90 modules no request uses (bench/users README "Cold start and
 * footprint"). A route given a schema by mistake fails at boot instead of bringing them back.
 */
import type { FastifyServerOptions } from 'fastify';

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;

function refuse(): never {
  throw new Error('svc does not use Fastify route schemas: requests are validated by src/schema (src/http/validation.ts)');
}

export const NO_ROUTE_SCHEMAS: SchemaController = {
  compilersFactory: {
    buildValidator: () => refuse,
    buildSerializer: () => refuse,
  },
};
