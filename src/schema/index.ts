/**
 * src/schema: field specs -> JSON Schema 2020-12 (one source for ajv and OpenAPI), request validators,
 * safe JSON bodies, and the 422/400 problem bodies of validation.
 */
export type { Coordinate, FieldSpec, ObjectTypeSpec, RequestSpec, ScalarKind, TypeSpec } from './field.js';
export { toJsonSchema, toValidatorSchema, isFieldSpec, MAX_SAFE, type JsonSchema, type JsonSchemaOptions } from './json-schema.js';
export { FORMATS, FORMAT_NAMES, isKnownFormat, checkFormat, isEmail, isUuid, isDate, isDateTime, isHostname } from './formats.js';
export { parseInteger, parseNumber, parseBoolean } from './coerce.js';
export { reasonFor, mapErrors, SAFE_INTEGER_REASON, BODY_ROOT_NAME } from './errors.js';
export { checkRequestSpec, checkObjectType, isReservedFieldName, typeName, SchemaError, type SchemaIssue } from './check.js';
export {
  compileRequestValidator,
  DEFAULT_MAX_INVALID_PARAMS,
  type ValidatorOptions,
  type RequestValidator,
  type RequestInput,
  type ValidatedRequest,
  type ValidationResult,
  type TextInput,
  type HeaderInput,
} from './validator.js';
export { parseJsonBody, isJsonContentType, DEFAULT_MAX_DEPTH, FORBIDDEN_PROPERTY_MESSAGE, type JsonBodyResult } from './json-body.js';
export { validationProblem, invalidJsonProblem, VALIDATION_TITLE, VALIDATION_DETAIL, INVALID_JSON_TITLE } from './problem.js';
