/**
 * The SPEC.md §4.4 request shapes, written directly as the FieldSpec values the manifest decoder
 * produces, plus small builders for one-off fields.
 */
import type { FieldSpec, ObjectTypeSpec, RequestSpec, TypeSpec } from '../../src/schema/field.js';

export const STRING: TypeSpec = { kind: 'string' };
export const INTEGER: TypeSpec = { kind: 'integer' };
export const NUMBER: TypeSpec = { kind: 'number' };
export const BOOLEAN: TypeSpec = { kind: 'boolean' };
export const ANY: TypeSpec = { kind: 'any' };
export const list = (items: TypeSpec): TypeSpec => ({ kind: 'list', items });
export const map = (values: TypeSpec): TypeSpec => ({ kind: 'map', values });
export const object = (fields: FieldSpec[], name?: string): ObjectTypeSpec =>
  name === undefined ? { kind: 'object', fields } : { kind: 'object', fields, name };

type Attrs = Partial<Omit<FieldSpec, 'name' | 'type' | 'hasDefault'>>;

/** A field; passing `default` (even `null`) sets `hasDefault`, as the decoder does. */
export function field(name: string, type: TypeSpec, attrs: Attrs = {}): FieldSpec {
  return { required: false, ...attrs, name, type, hasDefault: 'default' in attrs };
}

export const request = (parts: Partial<RequestSpec>): RequestSpec => ({ path: [], query: [], headers: [], ...parts });

/** GET /api/v1/search */
export const SEARCH: RequestSpec = request({
  headers: [field('x-api-key', STRING, { required: true, format: 'uuid' })],
  query: [
    field('q', STRING, { required: true, minLength: 2 }),
    field('limit', INTEGER, { default: 20, min: 1, max: 100 }),
    field('sort', STRING, { default: 'desc', enum: ['asc', 'desc'] }),
  ],
});

/** schema "user_create" */
export const USER_CREATE: ObjectTypeSpec = object(
  [
    field('email', STRING, { required: true, format: 'email' }),
    field('account_type', STRING, { required: true, enum: ['individual', 'business'] }),
    field('username', STRING, { required: true, minLength: 3, maxLength: 30, pattern: '^[a-zA-Z0-9_-]+$' }),
    field('age', INTEGER, { min: 18, max: 120 }),
    field('role', STRING, { default: 'member' }),
    field('tags', list(STRING), { minItems: 1, maxItems: 10, uniqueItems: true }),
  ],
  'user_create',
);

/** POST /api/v1/users */
export const USERS_POST: RequestSpec = request({ body: USER_CREATE });

/** POST /accounts/{id} (route dialect, header declared in capitals on purpose) */
export const ACCOUNTS: RequestSpec = request({
  path: [field('id', INTEGER, { required: true })],
  headers: [field('X-API-Key', STRING, { required: true, format: 'uuid' })],
  query: [field('channel', STRING, { default: 'web', enum: ['web', 'mobile'] })],
  body: object([field('name', STRING, { required: true, minLength: 2 })]),
});

/** POST /api/v1/transform */
export const TRANSFORM: RequestSpec = request({
  body: object([field('prefix', STRING, { default: 'item' }), field('tags', list(STRING), { default: [] })]),
});

export const KEY = '9b2f3c4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
