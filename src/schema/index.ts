/**
 * src/schema: field specs -> JSON Schema 2020-12 (one source for ajv and OpenAPI), request validators,
 * safe JSON bodies, and the 422/400 problem bodies of validation.
 */
export type { Coordinate, FieldSpec, ObjectTypeSpec, RequestSpec, ScalarKind, TypeSpec } from './field.js';
export { toJsonSchema, toValidatorSchema, type JsonSchema, type JsonSchemaOptions } from './json-schema.js';
export { FORMAT_NAMES, isKnownFormat, checkFormat } from './formats.js';
export { reasonFor } from './errors.js';
export { checkRequestSpec, checkObjectType, typeName, SchemaError, type SchemaIssue } from './check.js';
export {
  compileRequestValidator,
  type ValidatorOptions,
  type RequestValidator,
  type RequestInput,
  type ValidatedRequest,
  type ValidationResult,
  type TextInput,
  type HeaderInput,
} from './validator.js';
export { parseJsonBody, isJsonContentType, FORBIDDEN_PROPERTY_MESSAGE, type JsonBodyResult } from './json-body.js';
export { validationProblem, invalidJsonProblem } from './problem.js';
export { compileMask, MissingRequiredField, type Mask } from './mask.js';
