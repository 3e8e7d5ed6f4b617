/**
 * An operation's inputs (SPEC.md §4.5): path, query and header parameters with the JSON Schema of
 * their fields (the same translation the validators use, src/schema/json-schema.ts), and the JSON
 * request body, a `$ref` when it is a `schema` block.
 */
import type { FieldSpec, PipelineEndpointModel } from '../model/index.js';
import type { Components } from './components.js';
import type { ParameterObject, RequestBodyObject } from './document-types.js';

/**
 * `templateNames` are the parameter names of the document's path, in order: another endpoint of the
 * same path shape may have named them differently (`/a/{x}` and `/a/{y}`), and the document has one
 * path, so its parameters take the path's names.
 */
export function operationParameters(endpoint: PipelineEndpointModel, components: Components, templateNames: readonly string[]): ParameterObject[] {
  const { request } = endpoint;
  const out: ParameterObject[] = [];
  // Path parameters in the order of the pattern, whatever the order of their declarations.
  endpoint.pathParams.forEach((name, i) => {
    const field = request.path.find((f) => f.name === name);
    if (field === undefined) return;
    const rest = name === endpoint.catchAll ? 'Matches the rest of the path, slashes included.' : undefined;
    out.push({ ...parameter(field, 'path', components, rest), name: templateNames[i] ?? name });
  });
  for (const field of request.query) out.push(parameter(field, 'query', components));
  for (const field of request.headers) out.push(parameter(field, 'header', components));
  return out;
}

function parameter(field: FieldSpec, where: ParameterObject['in'], components: Components, note?: string): ParameterObject {
  const schema = components.field(field);
  // The field's description belongs to the parameter; the schema keeps the constraints.
  const described = schema.description as string | undefined;
  delete schema.description;
  const description = [described, note].filter((d) => d !== undefined).join(' ');
  return {
    name: field.name,
    in: where,
    ...(description !== '' ? { description } : {}),
    // A path parameter is always required: without it the path does not match.
    required: where === 'path' || field.required,
    schema,
  };
}

export function operationRequestBody(endpoint: PipelineEndpointModel, components: Components): RequestBodyObject | undefined {
  const body = endpoint.request.body;
  if (body === undefined) return undefined;
  return {
    content: { 'application/json': { schema: components.type(body) } },
    // An absent body is validated as {}: it is only refused when a field is required.
    required: body.fields.some((f) => f.required),
  };
}
