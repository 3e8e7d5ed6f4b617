/**
 * The parts of an OpenAPI 3.1 document that svc emits, as plain JSON values. Members are written in
 * the order the specification lists them, and the emitters build every object in that order, so the
 * document's key order is fixed and its text deterministic.
 */
import type { JsonSchema } from '../schema/index.js';

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: InfoObject;
  readonly jsonSchemaDialect?: string;
  readonly servers?: readonly ServerObject[];
  readonly paths: Record<string, PathItem>;
  readonly components?: ComponentsObject;
  readonly tags?: readonly TagObject[];
}

export interface InfoObject {
  readonly title: string;
  readonly description?: string;
  readonly contact?: { readonly name?: string; readonly url?: string; readonly email?: string };
  readonly license?: { readonly name: string; readonly identifier?: string; readonly url?: string };
  readonly version: string;
}

export interface ServerObject {
  readonly url: string;
  readonly description?: string;
}

export interface TagObject {
  readonly name: string;
  readonly description?: string;
}

/** Operations by lower-case method, in the order of the specification's Path Item Object. */
export type PathItem = Partial<Record<'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace', Operation>>;

export interface Operation {
  readonly tags?: readonly string[];
  readonly summary?: string;
  readonly description?: string;
  readonly operationId: string;
  readonly parameters?: readonly ParameterObject[];
  readonly requestBody?: RequestBodyObject;
  readonly responses: Record<string, ResponseObject | RefObject>;
  readonly security?: readonly Record<string, readonly string[]>[];
}

export interface ParameterObject {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly description?: string;
  readonly required: boolean;
  readonly schema: JsonSchema;
}

export interface RequestBodyObject {
  readonly description?: string;
  readonly content: Record<string, MediaTypeObject>;
  readonly required: boolean;
}

export interface MediaTypeObject {
  readonly schema?: JsonSchema;
}

export interface HeaderObject {
  readonly description?: string;
  readonly required?: boolean;
  readonly schema: JsonSchema;
}

export interface ResponseObject {
  readonly description: string;
  readonly headers?: Record<string, HeaderObject>;
  readonly content?: Record<string, MediaTypeObject>;
}

export interface RefObject {
  readonly $ref: string;
}

export type SecurityScheme =
  | { readonly type: 'http'; readonly description?: string; readonly scheme: 'basic' | 'bearer'; readonly bearerFormat?: string }
  | { readonly type: 'apiKey'; readonly description?: string; readonly name: string; readonly in: 'header' | 'query' };

export interface ComponentsObject {
  readonly schemas?: Record<string, JsonSchema>;
  readonly responses?: Record<string, ResponseObject>;
  readonly securitySchemes?: Record<string, SecurityScheme>;
}
