/**
 * The catalogue of diagnostic codes: one stable code per kind of manifest problem, as fastify has
 * `FST_ERR_*`. Tools and users key on the code (`--diagnostics=json`, fixture annotations,
 * docs/diagnostics.md); the summary is what people read, and may be reworded.
 *
 * Scheme: `SVC_<AREA>_<WHAT>`, upper snake case. AREA says which kind of mistake it is, not which
 * source file reports it (reporting code moves; the code must not): see AREAS below. Rules:
 * - a code never changes meaning, and is never renamed once released;
 * - a code that is no longer produced is removed from the catalogue, never reused for another problem;
 * - rewording a summary means editing its entry's `summary` here; the code stays.
 *
 * Reporters pass only a summary; `codeOf` looks its code up here (an explicit `Diagnostic.code` wins).
 * A step kind's own codes are in its folder (src/steps/<kind>/codes.ts, set through `codeIn`); this
 * list keeps the shared ones. A summary built at run time is a pattern: `{name}` one word, `{name...}`
 * any text, `{a|b|c}` one of the words; exact summaries are tried first, then patterns in catalogue
 * order. test/diag/codes.test.ts holds the catalogue to the source (every reported summary catalogued,
 * every entry still produced) and regenerates docs/diagnostics.md (`SVC_UPDATE_DOCS=1 node --import
 * tsx --test test/diag/codes.test.ts`).
 */
import type { Diagnostic } from './diagnostic.js';

export interface DiagnosticCode {
  /** `SVC_<AREA>_<WHAT>`. */
  readonly code: string;
  /** The summary the diagnostic is reported with, or its pattern (see above). */
  readonly summary: string;
  /** One sentence for users: what the problem is (the diagnostic's own detail says where and why). */
  readonly description: string;
}

/** The areas, in catalogue order, with the one-line meaning docs/diagnostics.md gives each. */
export const DIAGNOSTIC_AREAS: Readonly<Record<string, string>> = {
  LOAD: 'Finding and reading manifest files and the files they reference.',
  HCL: 'HCL syntax: the file cannot be parsed.',
  EXPR: 'Expressions: unknown names, wrong operand types, failures found while folding constants.',
  MANIFEST: 'Block structure and argument values common to every block.',
  ENDPOINT: 'Endpoint and route blocks: labels, methods, paths, the two dialects.',
  REQUEST: 'Request blocks: body, path, query and header declarations.',
  SCHEMA: 'Schemas, fields and type specifications.',
  REF: 'References between declarations, and reads of the request.',
  FLOW: 'Pipelines: step names, order and reachability, whether a response is always sent.',
  STEP: 'Rules of individual step kinds (sql, starlark, respond, parallel, transaction, stream).',
  AUTH: 'Guards (auth blocks).',
  LIMIT: 'Rate limits (rate_limit blocks and arguments).',
  CORS: 'Cross-origin access (cors blocks and arguments).',
  COMPRESSION: 'Compression of answers (the compression block and argument).',
  CACHE: 'Conditional requests and caching (etag, cache_control).',
  CONNECTION: 'Connection blocks.',
  DOCS: 'Documentation endpoints and OpenAPI metadata.',
  COMPAT: 'Manifests written for the Go project ju4n97/hclapi: its spellings, read with their svc meaning, and what svc cannot provide.',
};

export const DIAGNOSTIC_CODES: readonly DiagnosticCode[] = [
  // ------------------------------------------------------------------ LOAD
  {
    code: 'SVC_LOAD_DIRECTORY_UNREADABLE',
    summary: 'Cannot read manifest directory',
    description: 'The directory given with -c does not exist or cannot be listed.',
  },
  { code: 'SVC_LOAD_NO_MANIFEST_FILES', summary: 'No manifest files', description: 'The manifest directory holds no *.hcl file.' },
  {
    code: 'SVC_LOAD_FILE_UNREADABLE',
    summary: 'Cannot read manifest file',
    description: 'A manifest file could not be read, or is not a regular file (a directory, device or pipe).',
  },
  { code: 'SVC_LOAD_INVALID_ENCODING', summary: 'Invalid file encoding', description: 'A manifest file is not UTF-8 text.' },
  {
    code: 'SVC_LOAD_REFERENCED_FILE_UNREADABLE',
    summary: 'Cannot read file',
    description: 'A file the manifest references (a Starlark program, a template) could not be read, or is not a regular file.',
  },
  {
    code: 'SVC_LOAD_FILE_OUTSIDE_DIRECTORY',
    summary: 'File outside the manifest directory',
    description: 'A referenced file path, or a symbolic link on its way, leads outside the manifest directory.',
  },
  {
    code: 'SVC_LOAD_TLS_INVALID',
    summary: 'Invalid TLS certificate or key',
    description: "server.tls's cert_file or key_file is not PEM Node can load, or the key does not belong to the certificate.",
  },
  {
    code: 'SVC_LOAD_FILE_TOO_LARGE',
    summary: 'File too large',
    description: 'A manifest file, or a file it references, is larger than the 16 MiB svc reads of one file.',
  },

  // ------------------------------------------------------------------ HCL
  {
    code: 'SVC_HCL_INVALID_CHARACTER',
    summary: 'Invalid character',
    description: 'A character that HCL does not use (a quote of the wrong kind, a semicolon, a backtick).',
  },
  { code: 'SVC_HCL_UNSUPPORTED_OPERATOR', summary: 'Unsupported operator', description: 'A bitwise operator; HCL has only boolean ones.' },
  { code: 'SVC_HCL_UNTERMINATED_COMMENT', summary: 'Unterminated comment', description: 'A /* comment is not closed before the end of the file.' },
  { code: 'SVC_HCL_INVALID_ESCAPE', summary: 'Invalid escape sequence', description: 'A backslash sequence in a string that HCL does not define.' },
  { code: 'SVC_HCL_INVALID_NUMBER', summary: 'Invalid number literal', description: 'A number that cannot be read as one.' },
  {
    code: 'SVC_HCL_INVALID_STRING',
    summary: 'Invalid string literal',
    description: 'A block label holds a ${ } or %{ } sequence; labels are plain strings.',
  },
  { code: 'SVC_HCL_UNTERMINATED_STRING', summary: 'Unterminated string literal', description: 'A block label (a plain string) is not closed on its line.' },
  {
    code: 'SVC_HCL_UNTERMINATED_TEMPLATE',
    summary: 'Unterminated template string',
    description: 'A quoted string value or a heredoc is not closed (a quoted string cannot span lines).',
  },
  {
    code: 'SVC_HCL_NESTING_TOO_DEEP',
    summary: 'Nesting too deep',
    description: 'Blocks, brackets, operators, directives or traversal steps nest deeper than the parser allows.',
  },
  {
    code: 'SVC_HCL_ARGUMENT_OR_BLOCK_REQUIRED',
    summary: 'Argument or block definition required',
    description: 'Something in a body that is neither an argument (name = value) nor a block.',
  },
  { code: 'SVC_HCL_ARGUMENT_REQUIRED', summary: 'Argument definition required', description: 'A one-line block holds something other than a single argument.' },
  { code: 'SVC_HCL_INVALID_ARGUMENT_NAME', summary: 'Invalid argument name', description: 'An argument name that is not an identifier.' },
  { code: 'SVC_HCL_INVALID_ATTRIBUTE_NAME', summary: 'Invalid attribute name', description: 'An attribute access (after a dot) that is not a name.' },
  {
    code: 'SVC_HCL_INVALID_BLOCK_DEFINITION',
    summary: 'Invalid block definition',
    description: 'A block header holds something other than labels before its opening brace (an equals sign, say).',
  },
  {
    code: 'SVC_HCL_INVALID_ONE_LINE_BLOCK',
    summary: 'Invalid single-argument block definition',
    description: 'A block written on one line holds more than one argument.',
  },
  { code: 'SVC_HCL_ATTRIBUTE_REDEFINED', summary: 'Attribute redefined', description: 'The same argument is set twice in one body.' },
  { code: 'SVC_HCL_UNCLOSED_BLOCK', summary: 'Unclosed configuration block', description: 'A block is not closed with } before the end of the file.' },
  {
    code: 'SVC_HCL_MISSING_NEWLINE_AFTER_ARGUMENT',
    summary: 'Missing newline after argument',
    description: 'An argument is followed by more text on its line.',
  },
  {
    code: 'SVC_HCL_UNEXPECTED_COMMA',
    summary: 'Unexpected comma after argument',
    description: 'Arguments are separated with a comma; HCL separates them with newlines.',
  },
  {
    code: 'SVC_HCL_MISSING_NEWLINE_AFTER_BLOCK',
    summary: 'Missing newline after block definition',
    description: 'A block is followed by more text on the line of its closing brace.',
  },
  { code: 'SVC_HCL_MISSING_EXPRESSION', summary: 'Missing expression', description: 'An expression is expected and none is there.' },
  { code: 'SVC_HCL_INVALID_EXPRESSION', summary: 'Invalid expression', description: 'Text that cannot start an expression.' },
  { code: 'SVC_HCL_EXTRA_CHARACTERS_AFTER_EXPRESSION', summary: 'Extra characters after expression', description: 'An expression is followed by more text.' },
  {
    code: 'SVC_HCL_MISSING_FALSE_EXPRESSION',
    summary: 'Missing false expression in conditional',
    description: 'A conditional (a ? b : c) lacks its colon and false branch.',
  },
  { code: 'SVC_HCL_UNBALANCED_PARENTHESES', summary: 'Unbalanced parentheses', description: 'A parenthesised expression is not closed.' },
  { code: 'SVC_HCL_MISSING_OPEN_PARENTHESIS', summary: 'Missing open parenthesis', description: 'A function name is not followed by its argument list.' },
  {
    code: 'SVC_HCL_MISSING_CLOSING_PARENTHESIS',
    summary: 'Missing closing parenthesis',
    description: 'A function call is not closed where its arguments end.',
  },
  { code: 'SVC_HCL_MISSING_ARGUMENT_SEPARATOR', summary: 'Missing argument separator', description: 'Function arguments are not separated by commas.' },
  {
    code: 'SVC_HCL_UNTERMINATED_FUNCTION_CALL',
    summary: 'Unterminated function call',
    description: 'A function call is not closed before the end of the file.',
  },
  { code: 'SVC_HCL_MISSING_FUNCTION_NAME', summary: 'Missing function name', description: 'A :: in a function name is not followed by a name.' },
  { code: 'SVC_HCL_UNCLOSED_INDEX', summary: 'Missing close bracket on index', description: 'An index expression ([...]) is not closed.' },
  { code: 'SVC_HCL_UNCLOSED_SPLAT_INDEX', summary: 'Missing close bracket on splat index', description: 'A splat ([*]) is not closed.' },
  { code: 'SVC_HCL_NESTED_SPLAT', summary: 'Nested splat expression not allowed', description: 'A splat inside another splat expression.' },
  { code: 'SVC_HCL_LEGACY_INDEX_SYNTAX', summary: 'Invalid legacy index syntax', description: 'Two legacy indexes chained (a.0.1); write a[0][1].' },
  { code: 'SVC_HCL_MISSING_ITEM_SEPARATOR', summary: 'Missing item separator', description: 'Tuple items are not separated by commas.' },
  {
    code: 'SVC_HCL_UNTERMINATED_TUPLE',
    summary: 'Unterminated tuple constructor expression',
    description: 'A tuple ([...]) is not closed before the end of the file.',
  },
  { code: 'SVC_HCL_MISSING_ATTRIBUTE_VALUE', summary: 'Missing attribute value', description: 'An object key is not followed by = and a value.' },
  {
    code: 'SVC_HCL_MISSING_KEY_VALUE_SEPARATOR',
    summary: 'Missing key/value separator',
    description: 'An object key is followed by something other than = or :.',
  },
  {
    code: 'SVC_HCL_MISSING_ATTRIBUTE_SEPARATOR',
    summary: 'Missing attribute separator',
    description: 'Object attributes are not separated by newlines or commas.',
  },
  {
    code: 'SVC_HCL_UNTERMINATED_OBJECT',
    summary: 'Unterminated object constructor expression',
    description: 'An object ({...}) is not closed before the end of the file.',
  },
  { code: 'SVC_HCL_INVALID_FOR_EXPRESSION', summary: "Invalid 'for' expression", description: 'A for expression ([for ...] or {for ...}) is malformed.' },
  {
    code: 'SVC_HCL_UNCLOSED_INTERPOLATION',
    summary: 'Unclosed template interpolation sequence',
    description: 'A ${ or %{ sequence in a template is not closed.',
  },
  {
    code: 'SVC_HCL_EXTRA_CHARACTERS_AFTER_INTERPOLATION',
    summary: 'Extra characters after interpolation expression',
    description: 'An interpolation holds more than one expression.',
  },
  {
    code: 'SVC_HCL_INVALID_TEMPLATE_DIRECTIVE',
    summary: 'Invalid template directive',
    description: 'A %{ sequence does not start with a directive keyword.',
  },
  {
    code: 'SVC_HCL_INVALID_TEMPLATE_KEYWORD',
    summary: 'Invalid template control keyword',
    description: 'A %{ sequence names a keyword other than if, else, endif, for or endfor.',
  },
  { code: 'SVC_HCL_INVALID_FOR_DIRECTIVE', summary: "Invalid 'for' directive", description: 'A %{ for } directive is malformed.' },
  {
    code: 'SVC_HCL_EXTRA_CHARACTERS_IN_MARKER',
    summary: 'Extra characters in {if|for|else|endif|endfor} marker',
    description: 'A template directive holds text after its keyword and expression.',
  },
  {
    code: 'SVC_HCL_UNEXPECTED_DIRECTIVE',
    summary: 'Unexpected {else|endif|endfor} directive',
    description: 'An else, endif or endfor with no matching if or for.',
  },
  { code: 'SVC_HCL_UNEXPECTED_END_OF_TEMPLATE', summary: 'Unexpected end of template', description: 'A template ends inside an if or for directive.' },

  // ------------------------------------------------------------------ EXPR
  { code: 'SVC_EXPR_UNKNOWN_VARIABLE', summary: 'Unknown variable', description: 'A name that is not in scope where the expression is evaluated.' },
  { code: 'SVC_EXPR_UNSUPPORTED_ATTRIBUTE', summary: 'Unsupported attribute', description: 'An attribute that the value (or the step output) does not have.' },
  { code: 'SVC_EXPR_INVALID_INDEX', summary: 'Invalid index', description: 'An index of the wrong type, or out of range of a known value.' },
  { code: 'SVC_EXPR_UNKNOWN_FUNCTION', summary: 'Call to unknown function', description: 'A function that does not exist.' },
  { code: 'SVC_EXPR_TOO_FEW_ARGUMENTS', summary: 'Not enough function arguments', description: 'A function is called with fewer arguments than it needs.' },
  { code: 'SVC_EXPR_TOO_MANY_ARGUMENTS', summary: 'Too many function arguments', description: 'A function is called with more arguments than it takes.' },
  { code: 'SVC_EXPR_INVALID_FUNCTION_ARGUMENT', summary: 'Invalid function argument', description: 'A function argument of the wrong type or value.' },
  { code: 'SVC_EXPR_FUNCTION_FAILED', summary: 'Error in function call', description: 'A function call failed for a reason not tied to one argument.' },
  { code: 'SVC_EXPR_INVALID_EXPANSION', summary: 'Invalid expanding argument value', description: 'The argument expanded with ... is not a list.' },
  { code: 'SVC_EXPR_INVALID_OPERAND', summary: 'Invalid operand', description: 'An operator is given a value of a type it cannot use.' },
  { code: 'SVC_EXPR_OPERATION_FAILED', summary: 'Operation failed', description: 'An operation on known values fails (division by zero, overflow).' },
  {
    code: 'SVC_EXPR_RESULT_TOO_LARGE',
    summary: 'Expression result too large',
    description:
      'A constant expression would build more text, or go through more list and object items, than one evaluation may (a template that expands to gigabytes).',
  },
  { code: 'SVC_EXPR_INVALID_CONDITION', summary: 'Invalid conditional', description: 'The condition of a ? : expression is not a bool.' },
  { code: 'SVC_EXPR_INVALID_KEY', summary: 'Invalid object key', description: 'An object key that is not a string.' },
  { code: 'SVC_EXPR_DUPLICATE_KEY', summary: 'Duplicate object key', description: 'The same key is given twice in an object.' },
  {
    code: 'SVC_EXPR_AMBIGUOUS_KEY',
    summary: 'Ambiguous attribute key',
    description: 'An object key written as a dotted name: wrap it in parentheses (a reference) or quotes (a literal).',
  },
  { code: 'SVC_EXPR_INVALID_SPLAT_ITEM', summary: 'Invalid splat item', description: 'A splat item used outside a splat expression.' },
  {
    code: 'SVC_EXPR_NOT_ITERABLE',
    summary: 'Iteration over non-iterable value',
    description: 'A for expression or directive iterates over a value that is not a collection.',
  },
  { code: 'SVC_EXPR_INVALID_FOR_CONDITION', summary: "Invalid 'for' condition", description: 'The if clause of a for expression is not a bool.' },
  {
    code: 'SVC_EXPR_INVALID_INTERPOLATION',
    summary: 'Invalid template interpolation value',
    description: 'A value interpolated into a template cannot be turned into a string.',
  },
  { code: 'SVC_EXPR_INVALID_TEMPLATE_CONDITION', summary: 'Invalid template if condition', description: 'The condition of a %{ if } directive is not a bool.' },

  // ------------------------------------------------------------------ MANIFEST
  { code: 'SVC_MANIFEST_UNSUPPORTED_ARGUMENT', summary: 'Unsupported argument', description: 'An argument that this block does not take.' },
  { code: 'SVC_MANIFEST_UNSUPPORTED_BLOCK', summary: 'Unsupported block type', description: 'A block type that is not allowed where it is written.' },
  { code: 'SVC_MANIFEST_MISSING_ARGUMENT', summary: 'Missing required argument', description: 'A required argument is not set.' },
  { code: 'SVC_MANIFEST_MISSING_BLOCK', summary: 'Missing {block} block', description: 'A required block is missing.' },
  { code: 'SVC_MANIFEST_DUPLICATE_BLOCK', summary: 'Duplicate {block} block', description: 'A block that may appear only once appears again.' },
  { code: 'SVC_MANIFEST_MISSING_LABEL', summary: 'Missing {label...} for {block}', description: 'A block has fewer labels than it needs.' },
  { code: 'SVC_MANIFEST_EXTRANEOUS_LABEL', summary: 'Extraneous label for {block}', description: 'A block has more labels than it takes.' },
  { code: 'SVC_MANIFEST_CONFLICTING_ARGUMENTS', summary: 'Conflicting arguments', description: 'Two arguments that exclude each other are both set.' },
  { code: 'SVC_MANIFEST_WRONG_TYPE', summary: 'Incorrect attribute value type', description: 'An argument value of the wrong type.' },
  {
    code: 'SVC_MANIFEST_INVALID_VALUE',
    summary: 'Invalid value',
    description: 'An argument value of the right type that is not allowed, or that fails to evaluate at boot.',
  },
  {
    code: 'SVC_MANIFEST_INVALID_DURATION',
    summary: 'Invalid duration',
    description: 'A duration that is not a number with a unit (such as "500ms" or "30s").',
  },
  { code: 'SVC_MANIFEST_INVALID_SIZE', summary: 'Invalid size', description: 'A size that is not a number with a unit (such as "1mb").' },
  { code: 'SVC_MANIFEST_INVALID_STATUS', summary: 'Invalid status code', description: 'An HTTP status code outside the range the argument allows.' },

  // ------------------------------------------------------------------ ENDPOINT
  { code: 'SVC_ENDPOINT_INVALID_LABEL', summary: 'Invalid route label', description: 'An endpoint or route label that is not "<METHOD> <path>".' },
  { code: 'SVC_ENDPOINT_INVALID_METHOD', summary: 'Invalid HTTP method', description: 'An HTTP method that is not supported.' },
  { code: 'SVC_ENDPOINT_INVALID_PATH', summary: 'Invalid path', description: 'A path that does not start with / or has an empty segment.' },
  {
    code: 'SVC_ENDPOINT_INVALID_PATH_PARAMETER',
    summary: 'Invalid path parameter',
    description: 'A {parameter} in a path that is malformed or not a whole segment.',
  },
  { code: 'SVC_ENDPOINT_DUPLICATE_PATH_PARAMETER', summary: 'Duplicate path parameter', description: 'The same {parameter} appears twice in one path.' },
  { code: 'SVC_ENDPOINT_DUPLICATE_ROUTE', summary: 'Duplicate route', description: 'Two endpoints answer the same method and path.' },
  {
    code: 'SVC_ENDPOINT_METRICS_PATH',
    summary: 'Route taken by the metrics page',
    description: 'An endpoint is declared on the path `server { metrics }` serves Prometheus metrics on.',
  },
  {
    code: 'SVC_ENDPOINT_CONFLICTING_KINDS',
    summary: 'Conflicting endpoint kinds',
    description: 'An endpoint both serves documentation (an openapi block) and runs steps.',
  },
  {
    code: 'SVC_ENDPOINT_PIPELINE_IN_ROUTE',
    summary: 'Pipeline in a route',
    description: 'A route block holds a pipeline block; a route lists its steps directly.',
  },
  {
    code: 'SVC_ENDPOINT_STEP_OUTSIDE_PIPELINE',
    summary: 'Step outside pipeline',
    description: 'An endpoint block lists a step directly; in an endpoint, steps go inside pipeline { }.',
  },
  {
    code: 'SVC_ENDPOINT_AFTER_RESPONSE_ON_DOCS',
    summary: 'Unexpected after_response block',
    description: 'An after_response block on a documentation endpoint, which runs no steps.',
  },
  { code: 'SVC_ENDPOINT_UNEXPECTED_STEP', summary: 'Unexpected {kind} step', description: 'A step kind that is not allowed where it is written.' },

  // ------------------------------------------------------------------ REQUEST
  {
    code: 'SVC_REQUEST_CONFLICTING_BODY',
    summary: 'Conflicting body declarations',
    description: 'A request declares its body more than once (a body argument and a body block).',
  },
  { code: 'SVC_REQUEST_INVALID_BODY_TYPE', summary: 'Invalid request body type', description: 'A request body declared with a type other than an object.' },
  { code: 'SVC_REQUEST_INVALID_BODY_FIELD', summary: 'Invalid body field', description: 'A body field not written as name = { type = ..., ... }.' },
  {
    code: 'SVC_REQUEST_PATH_PARAMETER_NOT_IN_PATH',
    summary: 'Path parameter not in path',
    description: 'A declared path parameter that the endpoint path does not contain.',
  },
  {
    code: 'SVC_REQUEST_OPTIONAL_PATH_PARAMETER',
    summary: 'Path parameters are always required',
    description: 'A path parameter declared optional or with a default.',
  },

  // ------------------------------------------------------------------ SCHEMA
  { code: 'SVC_SCHEMA_DUPLICATE', summary: 'Duplicate schema', description: 'Two schemas share a name.' },
  { code: 'SVC_SCHEMA_EMPTY', summary: 'Empty schema', description: 'A schema with no field.' },
  { code: 'SVC_SCHEMA_UNSATISFIABLE', summary: 'Schema can never be satisfied', description: 'A schema that requires itself, so no finite value matches it.' },
  { code: 'SVC_SCHEMA_DUPLICATE_FIELD', summary: 'Duplicate field', description: 'Two fields of one object share a name.' },
  { code: 'SVC_SCHEMA_INVALID_FIELD_ATTRIBUTE', summary: 'Invalid field attribute', description: 'Something in a field block that is not name = value.' },
  { code: 'SVC_SCHEMA_INVALID_TYPE', summary: 'Invalid type specification', description: 'A type expression that is malformed.' },
  { code: 'SVC_SCHEMA_UNKNOWN_TYPE', summary: 'Unknown type', description: 'A type name that is neither built in nor a declared schema.' },
  { code: 'SVC_SCHEMA_DUPLICATE_ENUM_VALUE', summary: 'Duplicate enum value', description: 'The same value is listed twice in an enum.' },
  {
    code: 'SVC_SCHEMA_CONSTRAINT_DOES_NOT_APPLY',
    summary: 'Constraint does not apply',
    description: "A constraint (min, pattern, format...) that the field's type does not take.",
  },
  {
    code: 'SVC_SCHEMA_DEFAULT_ON_REQUIRED',
    summary: 'Default on a required field',
    description: 'A default on a field that is required, so it is never used.',
  },
  {
    code: 'SVC_SCHEMA_INVALID_FIELD',
    summary: 'Invalid field declaration',
    description: 'A field whose constraints contradict each other or whose default does not satisfy them.',
  },
  {
    code: 'SVC_SCHEMA_QUESTIONABLE_FIELD',
    summary: 'Questionable field declaration',
    description: 'A field that is valid but probably not what was meant.',
  },

  {
    code: 'SVC_SCHEMA_FIELD_NOT_IN_QUERY',
    summary: 'Declared field not in the query',
    description:
      'A respond or stream schema declares a field that the rows of its sql step never have, as the database described them (svc check --database, check_queries): an error for a required field, a warning for an optional one.',
  },
  {
    code: 'SVC_SCHEMA_FIELD_TYPE_MISMATCH',
    summary: 'Declared field type differs from its column',
    description: 'A respond or stream schema declares a field with a type its column, as the database described it, never has.',
  },
  // ------------------------------------------------------------------ REF
  { code: 'SVC_REF_UNDECLARED_SCHEMA', summary: 'Reference to undeclared schema', description: 'A type names a schema that is not declared.' },
  { code: 'SVC_REF_UNDECLARED_GUARD', summary: 'Reference to undeclared guard', description: 'auth names a guard that is not declared.' },
  { code: 'SVC_REF_INVALID_GUARD', summary: 'Invalid guard reference', description: 'A guard reference not written as auth.<name>.' },
  { code: 'SVC_REF_UNDECLARED_CONNECTION', summary: 'Reference to undeclared connection', description: 'A step names a connection that is not declared.' },
  {
    code: 'SVC_REF_INVALID_CONNECTION',
    summary: 'Invalid connection reference',
    description: 'A connection reference not written as connection.<kind>.<name> or "<name>".',
  },
  { code: 'SVC_REF_WRONG_CONNECTION_KIND', summary: 'Wrong connection kind', description: 'A step is given a connection of a kind it cannot use.' },
  {
    code: 'SVC_REF_AMBIGUOUS_CONNECTION',
    summary: 'Ambiguous connection name',
    description: 'A connection named without its kind, when connections of two kinds share that name.',
  },
  { code: 'SVC_REF_UNDECLARED_STEP', summary: 'Reference to undeclared step', description: 'steps.<name> names no step of the endpoint.' },
  {
    code: 'SVC_REF_UNDECLARED_REQUEST_PARAMETER',
    summary: 'Undeclared {header|path parameter|query parameter}',
    description: 'ctx.request reads a header, path or query parameter that the request block does not declare.',
  },
  { code: 'SVC_REF_UNDECLARED_REQUEST_BODY', summary: 'Undeclared request body', description: 'ctx.request.body is read, but the endpoint declares no body.' },
  { code: 'SVC_REF_UNDECLARED_BODY_FIELD', summary: 'Undeclared body field', description: 'A body field is read that the body schema does not declare.' },
  {
    code: 'SVC_REF_HEADER_CASE',
    summary: 'Header names are lower-case',
    description: 'A header is read with upper-case letters; headers are read by their lower-case name.',
  },

  // ------------------------------------------------------------------ FLOW
  { code: 'SVC_FLOW_DUPLICATE_STEP_NAME', summary: 'Duplicate step name', description: 'Two steps of one endpoint share a name.' },
  { code: 'SVC_FLOW_STEP_READS_ITSELF', summary: 'Step reads its own output', description: 'A step reads steps.<its own name>.' },
  { code: 'SVC_FLOW_READ_BEFORE_RUN', summary: 'Step read before it runs', description: 'A step reads the output of a step that runs after it.' },
  {
    code: 'SVC_FLOW_PARALLEL_SIBLING_READ',
    summary: 'Step read from a parallel sibling',
    description: 'A branch of a parallel block reads another branch of the same block.',
  },
  { code: 'SVC_FLOW_UNREACHABLE_STEP', summary: 'Unreachable step', description: 'A step after an unconditional respond or stream, which never runs.' },
  {
    code: 'SVC_FLOW_NO_RESPONSE',
    summary: 'Pipeline can finish without a response',
    description: 'A pipeline that can end without a respond or stream step answering.',
  },
  { code: 'SVC_FLOW_INVALID_PIPELINE', summary: 'Invalid pipeline: {message...}', description: 'The dataflow graph compiled from a pipeline is not valid.' },

  // ------------------------------------------------------------------ STEP
  // Codes of one step kind are declared in its folder (src/steps/<kind>/codes.ts): these are shared.
  {
    code: 'SVC_STEP_ON_ERROR_IN_TRANSACTION',
    summary: 'on_error in a transaction',
    description: 'on_error = "continue" on a step inside a transaction, whose failed statement aborts the transaction for the steps after it.',
  },
  {
    code: 'SVC_STEP_INVALID_ERROR_CODE',
    summary: 'Invalid error code',
    description: 'A catch label that is neither a five-character SQLSTATE, a MySQL error number nor a SQLite result code name.',
  },
  { code: 'SVC_STEP_DUPLICATE_CATCH', summary: 'Duplicate catch', description: 'Two catch blocks of one step catch the same code.' },

  // ------------------------------------------------------------------ AUTH
  { code: 'SVC_AUTH_DUPLICATE_GUARD', summary: 'Duplicate guard', description: 'Two guards share a name.' },
  { code: 'SVC_AUTH_CONFLICTING_JWT_KEYS', summary: 'Conflicting jwt keys', description: 'A jwt guard gives both secret and jwks_url.' },
  { code: 'SVC_AUTH_EMPTY_CREDENTIAL', summary: 'Empty credential', description: 'A guard credential that is empty, so it would admit an empty one.' },
  {
    code: 'SVC_AUTH_INSECURE_JWKS_URL',
    summary: 'Key set over plain http',
    description: 'A warning: a jwt guard fetches its jwks_url over http: from a host that is not loopback, so whoever is on the path can substitute the keys.',
  },

  // ------------------------------------------------------------------ LIMIT
  {
    code: 'SVC_LIMIT_INCOMPLETE',
    summary: 'Incomplete rate limit',
    description: 'A rate_limit with max but no window (or the reverse) that no server default completes.',
  },
  {
    code: 'SVC_LIMIT_INVALID_KEY',
    summary: 'Invalid rate limit key',
    description: 'A rate limit key that reads what is not known before the body is read (the body, steps, the request id) or is constant.',
  },
  {
    code: 'SVC_LIMIT_CONFLICTING',
    summary: 'Conflicting rate limits',
    description: 'An endpoint sets rate_limit both as an argument (off) and as a block.',
  },
  {
    code: 'SVC_LIMIT_ON_DOCUMENTATION_ENDPOINT',
    summary: 'Rate limit on a documentation endpoint',
    description: 'A rate_limit block on a documentation endpoint, which is never rate limited.',
  },
  {
    code: 'SVC_LIMIT_COUNTED_PER_PROCESS',
    summary: 'Rate limit counted per worker',
    description:
      "A warning: rate limits counted in each process (no Redis `connection` in the server's rate_limit, or a `memory:` one) with more than one worker process, so a client may make `max` requests per worker.",
  },

  // ------------------------------------------------------------------ CORS
  {
    code: 'SVC_CORS_INVALID_ORIGIN',
    summary: 'Invalid CORS origin',
    description: 'An allowed origin that no browser sends: a path or trailing slash, a wildcard other than a first label "*.", not scheme://host[:port].',
  },
  {
    code: 'SVC_CORS_UNKNOWN_METHOD',
    summary: 'Unknown CORS method',
    description: 'An allowed method that svc does not route.',
  },
  {
    code: 'SVC_CORS_INVALID_HEADER',
    summary: 'Invalid CORS header name',
    description: 'An allowed or exposed header that is not a header name (a token).',
  },
  {
    code: 'SVC_CORS_MISSING_ORIGINS',
    summary: 'Missing CORS origins',
    description: 'A cors block without allowed_origins, and no server cors block to inherit them from.',
  },
  {
    code: 'SVC_CORS_CONFLICTING',
    summary: 'Conflicting CORS settings',
    description: 'An endpoint sets cors both as an argument (off) and as a block.',
  },
  {
    code: 'SVC_CORS_ANY_ORIGIN_WITH_CREDENTIALS',
    summary: 'Any origin with credentials',
    description:
      'A warning: allowed_origins holds "*" with allow_credentials = true, so svc echoes every origin and any web page can read answers sent with its visitors\' cookies.',
  },

  // ------------------------------------------------------------------ COMPRESSION
  {
    code: 'SVC_COMPRESSION_UNKNOWN_ENCODING',
    summary: 'Unknown compression encoding',
    description: 'An entry of compression.encodings that svc does not write (gzip, br and zstd are).',
  },
  {
    code: 'SVC_COMPRESSION_ENCODING_UNAVAILABLE',
    summary: 'Compression encoding unavailable',
    description: 'A warning: zstd is listed but the running Node.js has no zstd (before 22.15); the other encodings listed are used.',
  },

  // ------------------------------------------------------------------ CACHE
  {
    code: 'SVC_CACHE_INVALID_CONTROL',
    summary: 'Invalid Cache-Control',
    description: 'A cache_control that is not a list of RFC 9111 directives, or whose max-age (s-maxage, stale-*) is not a whole number of seconds.',
  },
  {
    code: 'SVC_CACHE_UNKNOWN_DIRECTIVE',
    summary: 'Unknown Cache-Control directive',
    description: 'A warning: a cache_control directive that is not a response directive of RFC 9111 (caches ignore it).',
  },
  {
    code: 'SVC_CACHE_ETAG_NOT_GET',
    summary: 'ETag on an endpoint that is not GET',
    description: 'A warning: etag = true on an endpoint of another method, which never sends an ETag.',
  },

  // ------------------------------------------------------------------ CONNECTION
  { code: 'SVC_CONNECTION_DUPLICATE', summary: 'Duplicate connection', description: 'Two connections of one kind share a name.' },
  { code: 'SVC_CONNECTION_UNKNOWN_KIND', summary: 'Unknown connection kind', description: 'A connection of a kind svc does not know.' },
  { code: 'SVC_CONNECTION_INVALID_URL', summary: 'Invalid connection URL', description: 'A connection URL that cannot be parsed or has the wrong scheme.' },
  {
    code: 'SVC_CONNECTION_SQLITE_UNAVAILABLE',
    summary: 'SQLite not available in this Node.js',
    description: 'A sqlite connection on a Node.js whose node:sqlite svc cannot run on (before 22.16 and 23.11), or where it is turned off.',
  },
  {
    code: 'SVC_CONNECTION_SQLITE_DIRECTORY',
    summary: 'SQLite database directory unusable',
    description:
      "`svc serve`: the directory of a sqlite connection's database file cannot be made (under /proc, through a regular file) or, for a file still to be made, written to.",
  },
  {
    code: 'SVC_CONNECTION_PROCESS_LOCAL_STORE',
    summary: 'In-process store with several workers',
    description: 'A `memory:` redis connection served by more than one worker process, without `shared = false`: each worker would keep its own store.',
  },
  {
    code: 'SVC_CONNECTION_PROCESS_LOCAL_DATABASE',
    summary: 'In-process database with several workers',
    description:
      'A `pglite:` or `sqlite::memory:` connection served by more than one worker process: one database per worker, or one directory opened by two processes.',
  },
  {
    code: 'SVC_CONNECTION_QUERIES_NOT_CHECKED',
    summary: 'Queries not checked on the database',
    description:
      'svc check --database (or check_queries = true) could not reach the database or apply the migrations there, so the queries on that connection were not checked.',
  },

  // ------------------------------------------------------------------ DOCS
  {
    code: 'SVC_DOCS_INVALID_ENDPOINT',
    summary: 'Invalid documentation endpoint',
    description: 'A documentation endpoint declared for a method other than GET.',
  },
  {
    code: 'SVC_DOCS_UNKNOWN_OPENAPI_BLOCK',
    summary: 'Unknown openapi block',
    description: "An endpoint's openapi block with a label other than spec, ui or template.",
  },
  { code: 'SVC_DOCS_UNEXPECTED_OPENAPI_LABEL', summary: 'Unexpected openapi label', description: 'A top-level openapi block with a label.' },
  { code: 'SVC_DOCS_CONFLICTING_SETTINGS', summary: 'Conflicting openapi settings', description: 'An openapi block combines format with ui or a template.' },
  { code: 'SVC_DOCS_CONFLICTING_TEMPLATE', summary: 'Conflicting template', description: 'A template given both inline and as a file.' },
  { code: 'SVC_DOCS_MISSING_TEMPLATE', summary: 'Missing template', description: 'openapi "template" without file or inline.' },
  {
    code: 'SVC_DOCS_RENDERER_NOT_INSTALLED',
    summary: 'Documentation renderer not installed',
    description: 'A ui renderer whose browser bundle is not in vendor/docs (npm install and npm run build fetch it).',
  },
  {
    code: 'SVC_DOCS_PAGE_PATH_PARAMETER',
    summary: 'Documentation page path ends in a parameter',
    description: 'A ui renderer page whose path ends in a parameter or holds a catch-all, so its assets cannot be named relative to it.',
  },
  {
    code: 'SVC_DOCS_UNKNOWN_TEMPLATE_VARIABLE',
    summary: 'Unknown template variable',
    description: 'A documentation template names a variable other than .Title, .Version, .Description, .SpecURL and .SpecYAMLURL.',
  },
  {
    code: 'SVC_DOCS_INVALID_TEMPLATE_ACTION',
    summary: 'Invalid template action',
    description: 'A documentation template holds a {{ ... }} that is not one variable, or one without its closing }}.',
  },
  {
    code: 'SVC_DOCS_TEMPLATE_WITHOUT_SPEC',
    summary: 'No spec endpoint for the template',
    description: 'A documentation template uses .SpecURL or .SpecYAMLURL, and the manifest declares no spec endpoint of that format.',
  },
  {
    code: 'SVC_DOCS_TEMPLATE_IGNORED',
    summary: 'Template ignored',
    description: 'A template on an endpoint that serves the ui renderer, which does not use it.',
  },
  // ------------------------------------------------------------------ COMPAT
  {
    code: 'SVC_COMPAT_STEP_OUTPUT',
    summary: 'hclapi step output',
    description: 'A step output spelled as hclapi does (steps.<sql>.result, steps.<redis>.result), read as the row, rows or value of svc.',
  },
  {
    code: 'SVC_COMPAT_DECODED_VALUE',
    summary: 'hclapi json_decode of a decoded value',
    description: 'json_decode() of a redis value svc has already decoded, read as the value itself.',
  },
  {
    code: 'SVC_COMPAT_ARGUMENT',
    summary: 'hclapi argument spelling',
    description:
      'An argument hclapi spells differently (catch abort_with_status, pool max_open_conns, max_open or size, server write_timeout), read as the svc argument.',
  },
  {
    code: 'SVC_COMPAT_ARGUMENT_IGNORED',
    summary: 'hclapi argument without an svc equivalent',
    description: 'An hclapi tuning argument svc has no setting for (pool max_idle, max_lifetime; server read_timeout, idle_timeout): accepted, without effect.',
  },
  {
    code: 'SVC_COMPAT_API_BLOCK',
    summary: 'hclapi api block',
    description: 'The api { prefix, auth } block of hclapi: the prefix is written into every endpoint path and the guards become server.auth.',
  },
  {
    code: 'SVC_COMPAT_DUPLICATE_API_BLOCK',
    summary: 'Duplicate api block',
    description: 'More than one hclapi api block across the manifest files.',
  },
  {
    code: 'SVC_COMPAT_JWT_GUARD',
    summary: 'hclapi jwt guard',
    description: 'An auth block of type "jwt", read as a bearer guard with a jwt block.',
  },
  {
    code: 'SVC_COMPAT_PROBLEM_BLOCK',
    summary: 'hclapi problem block',
    description: 'The problem { type_prefix } block of hclapi: accepted, without effect (svc problem types are its own).',
  },
  {
    code: 'SVC_COMPAT_CONNECTION',
    summary: 'hclapi connection spelling',
    description: 'An hclapi connection spelling (a cockroachdb kind, a Go driver DSN as source), read as the svc kind and URL.',
  },
  {
    code: 'SVC_COMPAT_REQUEST_ATTRIBUTE',
    summary: 'hclapi request attribute',
    description: 'request { headers = schema.x } (or query, path): the fields of a schema, read as a block of those fields.',
  },
  {
    code: 'SVC_COMPAT_INLINE_RESPONSE_SCHEMA',
    summary: 'hclapi inline response schema',
    description: 'respond { schema = { name = type, ... } }: an inline type map, read as a schema block of its own that the respond names.',
  },
  {
    code: 'SVC_COMPAT_PROBLEM_ARGUMENTS',
    summary: 'hclapi problem() arguments',
    description: 'problem(status, text[, type]) in an hclapi manifest: svc reads (status, title, detail), and that meaning is kept.',
  },
  {
    code: 'SVC_COMPAT_BLOCK_COMMA',
    summary: 'hclapi comma between arguments',
    description: 'Arguments of a block separated by commas, as the hclapi parser allows: read as one argument per line.',
  },
  {
    code: 'SVC_COMPAT_UNSUPPORTED',
    summary: 'Unsupported hclapi construct',
    description: 'An hclapi construct svc cannot provide (its go step, an SQL engine without an svc connector, a JWT header other than Authorization: Bearer).',
  },
];

/**
 * Codes looked up by summary: exact summaries first, then patterns in list order. The central
 * catalogue is one; a step kind's own codes (its definition's `codes`) are another, consulted first
 * by the scope and compile environment that report for that kind.
 */
export class DiagnosticCatalogue {
  private readonly exact = new Map<string, string>();
  private readonly patterns: { readonly re: RegExp; readonly code: string }[] = [];

  constructor(readonly entries: readonly DiagnosticCode[]) {
    for (const entry of entries) {
      const re = summaryPattern(entry.summary);
      if (re) this.patterns.push({ re, code: entry.code });
      else this.exact.set(entry.summary, entry.code);
    }
  }

  /** The code of a summary, or undefined when no entry has it. */
  codeFor(summary: string): string | undefined {
    return this.exact.get(summary) ?? this.patterns.find((p) => p.re.test(summary))?.code;
  }
}

const CENTRAL = new DiagnosticCatalogue(DIAGNOSTIC_CODES);

/**
 * The code `entries` (a step kind's own) give a summary, matched as the central catalogue matches.
 * Built at each call: it runs only when a diagnostic is reported, for lists of a few entries.
 */
export function codeIn(entries: readonly DiagnosticCode[], summary: string): string | undefined {
  return entries.length === 0 ? undefined : new DiagnosticCatalogue(entries).codeFor(summary);
}

/**
 * The code of a diagnostic: its own `code` if the producer set one (a step kind's codes are set so,
 * where it reports), else the central catalogue's for its summary.
 */
export function codeOf(d: Pick<Diagnostic, 'code' | 'summary'>): string | undefined {
  return d.code ?? CENTRAL.codeFor(d.summary);
}

/** The regular expression of a pattern summary, or undefined for a plain one (see the placeholders above). */
export function summaryPattern(summary: string): RegExp | undefined {
  if (!summary.includes('{')) return undefined;
  const source = summary
    .split(/(\{[^}]*\})/)
    .map((part) => {
      if (!part.startsWith('{')) return escapeRegExp(part);
      const inner = part.slice(1, -1);
      if (inner.endsWith('...')) return '.+';
      if (inner.includes('|')) return `(?:${inner.split('|').map(escapeRegExp).join('|')})`;
      return '\\S+';
    })
    .join('');
  return new RegExp(`^${source}$`, 's');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
