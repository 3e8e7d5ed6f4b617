/**
 * Fastify's route-schema compilers, replaced by ones that refuse. svc validates requests with its
 * own precompiled validators (validation.ts, src/schema) and writes its answers itself, so no route
 * is given a `schema`. Without this option Fastify loads its defaults, @fastify/ajv-compiler and
 * @fastify/fast-json-stringify-compiler, with a second Ajv (draft-07 and JTD), the JTD compilers,
 * ajv-formats and fast-json-stringify's builder, when the app is constructed: about 90 modules that
 * no request uses (bench/users README, "Cold start and footprint"). A route given a schema by
 * mistake fails at boot with this message instead of silently bringing them back.
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
