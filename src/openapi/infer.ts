/**
 * The schema of an expression's value, inferred from its syntax: what a `respond` body, a header or a
 * `catch` body will hold. Literals are themselves (`const`), `ctx.request.*` reads have the declared
 * field's schema, `ctx.timestamp_epoch` is an integer, `problem()` the Problem record, object and
 * tuple literals are built from their members, functions return what they always return. Anything
 * inference cannot tell (a Starlark result, an upstream body, dynamic data) is `{}`: the document
 * never claims more than the manifest guarantees.
 */
import type { BinaryOperator, Expression, TemplatePart, Traverser } from '../hcl/index.js';
import type { Expr, FieldSpec, RequestSpec, StepSpecBase, TypeSpec } from '../model/index.js';
import type { JsonSchema } from '../schema/index.js';
import type { Components } from './components.js';
import { functionResult } from './functions.js';
import { ANY, orNull, unionOf } from './schema-union.js';
import type { SqlColumns } from './sql-types.js';
import { outputSchema } from './step-outputs.js';
import type { SyntaxIndex } from './syntax.js';

/** What an endpoint's expressions can read. */
export interface InferScope {
  readonly method: string;
  readonly request: RequestSpec;
  /** The endpoint has guards: `ctx.auth` says which one admitted the request. */
  readonly guarded: boolean;
  /** The pipeline's steps by name, nested ones included. */
  readonly steps: ReadonlyMap<string, StepSpecBase>;
  readonly syntax: SyntaxIndex;
  readonly components: Components;
  /** The columns the database described for sql steps, when it was asked (./sql-types.ts). */
  readonly sqlColumns?: SqlColumns;
}

/** `ctx.auth`: the guard that admitted the request and who it admitted (null on a public endpoint). */
const AUTH_CONTEXT: JsonSchema = {
  type: 'object',
  properties: {
    guard: { type: 'string' },
    type: { type: 'string', enum: ['basic', 'bearer', 'api_key'] },
    principal: { type: ['string', 'null'] },
    claims: { type: 'object' },
  },
  required: ['guard', 'type', 'principal', 'claims'],
};

/** Local names (for-expression variables) and the splat element. */
type Locals = ReadonlyMap<string, JsonSchema>;

const NO_LOCALS: Locals = new Map();
const SPLAT_ITEM = '\0splat';

/** The schema of a compiled expression's value. */
export function inferExpr(expr: Expr, scope: InferScope): JsonSchema {
  const syntax = scope.syntax.at(expr.range);
  if (syntax !== undefined) return infer(syntax, scope, NO_LOCALS);
  return expr.constant ? schemaOfValue(expr.value) : ANY;
}

/** The schema of a piece of syntax (a member of an object literal). */
export function inferSyntax(e: Expression, scope: InferScope): JsonSchema {
  return infer(e, scope, NO_LOCALS);
}

/** The syntax of a compiled expression, when the source is at hand. */
export function syntaxOf(expr: Expr, scope: InferScope): Expression | undefined {
  return scope.syntax.at(expr.range);
}

function infer(e: Expression, scope: InferScope, locals: Locals): JsonSchema {
  switch (e.kind) {
    case 'Literal':
      return e.invalid ? ANY : schemaOfValue(e.value);
    case 'Template':
      return template(e.parts, e.heredoc, scope, locals);
    case 'Parenthesized':
      return infer(e.expr, scope, locals);
    case 'ScopeTraversal':
      return traversal(e.root, e.steps, scope, locals);
    case 'RelativeTraversal':
      return walkSchema(infer(e.source, scope, locals), e.steps);
    case 'Index': {
      const key = infer(e.key, scope, locals);
      return walkSchema(infer(e.collection, scope, locals), [{ kind: 'Index', key: 'const' in key ? (key.const as string | number) : '', range: e.range }]);
    }
    case 'Splat': {
      const source = infer(e.source, scope, locals);
      const item = e.full && source.type === 'array' ? ((source.items as JsonSchema | undefined) ?? ANY) : source;
      const each = infer(e.each, scope, new Map([...locals, [SPLAT_ITEM, item]]));
      return { type: 'array', items: each };
    }
    case 'SplatItem':
      return locals.get(SPLAT_ITEM) ?? ANY;
    case 'FunctionCall': {
      const args = e.args.map((a) => infer(a, scope, locals));
      return functionResult(e.name, e.expandFinal ? [] : args, scope.components.problem());
    }
    case 'Conditional':
      return unionOf([infer(e.then, scope, locals), infer(e.else, scope, locals)]);
    case 'BinaryOp':
      return binary(e.op, infer(e.left, scope, locals), infer(e.right, scope, locals));
    case 'UnaryOp': {
      if (e.op === '!') return { type: 'boolean' };
      const operand = infer(e.operand, scope, locals);
      return operand.type === 'integer' ? { type: 'integer' } : { type: 'number' };
    }
    case 'Tuple': {
      if (e.items.length === 0) return { type: 'array', maxItems: 0 };
      return { type: 'array', items: unionOf(e.items.map((i) => widen(infer(i, scope, locals)))) };
    }
    case 'ObjectCons':
      return object(e, scope, locals);
    case 'ForExpr': {
      const collection = infer(e.collection, scope, locals);
      const inner = new Map(locals);
      inner.set(e.valueVar, elementOf(collection));
      if (e.keyVar !== undefined) inner.set(e.keyVar, collection.type === 'array' ? { type: 'integer' } : { type: 'string' });
      const value = widen(infer(e.valueExpr, scope, inner));
      if (!e.isObject) return { type: 'array', items: value };
      return { type: 'object', additionalProperties: e.group ? { type: 'array', items: value } : value };
    }
  }
}

/** The schema of a value known at boot. */
export function schemaOfValue(value: unknown): JsonSchema {
  if (value === null || value === undefined) return { type: 'null' };
  if (typeof value === 'string') return { type: 'string', const: value };
  if (typeof value === 'boolean') return { type: 'boolean', const: value };
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number', const: value };
  if (typeof value === 'bigint') return { type: 'integer' };
  if (Array.isArray(value)) {
    if (value.length === 0) return { type: 'array', maxItems: 0 };
    return { type: 'array', items: unionOf(value.map((v) => widen(schemaOfValue(v)))) };
  }
  if (typeof value === 'object') {
    const properties: JsonSchema = {};
    for (const [k, v] of Object.entries(value)) properties[k] = schemaOfValue(v);
    return { type: 'object', properties, required: Object.keys(properties) };
  }
  return ANY;
}

/** A literal member of a list keeps its type, not its value: `[1, 2]` is a list of integers. */
function widen(s: JsonSchema): JsonSchema {
  if ('const' in s && typeof s.type === 'string') return { type: s.type };
  if (Array.isArray(s.enum) && typeof s.type === 'string' && Object.keys(s).length === 2) return { type: s.type };
  return s;
}

function template(parts: readonly TemplatePart[], heredoc: boolean, scope: InferScope, locals: Locals): JsonSchema {
  // `"${x}"` is x itself, unconverted (hclsyntax's TemplateWrapExpr).
  if (!heredoc && parts.length === 1 && parts[0]!.kind === 'TemplateInterp') return infer(parts[0]!.expr, scope, locals);
  if (parts.every((p) => p.kind === 'TemplateLiteral')) return { type: 'string', const: parts.map((p) => p.value).join('') };
  return { type: 'string' };
}

function binary(op: BinaryOperator, left: JsonSchema, right: JsonSchema): JsonSchema {
  switch (op) {
    case '+':
    case '-':
    case '*':
    case '%':
      return left.type === 'integer' && right.type === 'integer' ? { type: 'integer' } : { type: 'number' };
    case '/':
      return { type: 'number' };
    default:
      return { type: 'boolean' };
  }
}

function object(e: Extract<Expression, { kind: 'ObjectCons' }>, scope: InferScope, locals: Locals): JsonSchema {
  const properties: JsonSchema = {};
  // A member whose name is computed at run time is not listed; objects admit more members anyway.
  for (const item of e.items) {
    const key = staticKey(item.key);
    if (key !== undefined) properties[key] = infer(item.value, scope, locals);
  }
  const schema: JsonSchema = { type: 'object', properties };
  // Every member of an object literal is sent (a null value as null), so each is required.
  if (Object.keys(properties).length > 0) schema.required = Object.keys(properties);
  return schema;
}

/** The key of an object literal member when it is written as a name or a constant string. */
function staticKey(key: Expression): string | undefined {
  if (key.kind === 'Literal' && !key.invalid && key.value !== null) return String(key.value);
  if (key.kind === 'Template' && key.parts.every((p) => p.kind === 'TemplateLiteral')) return key.parts.map((p) => p.value).join('');
  if (key.kind === 'Parenthesized') return staticKey(key.expr);
  return undefined;
}

function elementOf(collection: JsonSchema): JsonSchema {
  if (collection.type === 'array') return (collection.items as JsonSchema | undefined) ?? ANY;
  if (collection.type === 'object' && typeof collection.additionalProperties === 'object') return collection.additionalProperties as JsonSchema;
  return ANY;
}

// ------------------------------------------------------------------ names: ctx, steps, locals

function traversal(root: string, steps: readonly Traverser[], scope: InferScope, locals: Locals): JsonSchema {
  const local = locals.get(root);
  if (local !== undefined) return walkSchema(local, steps);
  if (root === 'steps') return stepRead(steps, scope);
  if (root !== 'ctx') return ANY;
  const [first, ...rest] = steps;
  if (first?.kind !== 'Attr') return ANY;
  switch (first.name) {
    case 'timestamp_epoch':
      return walkSchema({ type: 'integer', description: 'Seconds since the Unix epoch.' }, rest);
    case 'request_id':
      return walkSchema({ type: 'string' }, rest);
    case 'request':
      return requestRead(rest, scope);
    case 'auth':
      // A public endpoint has no guard that admitted anyone.
      return scope.guarded ? walkSchema(AUTH_CONTEXT, rest) : { type: 'null' };
    default:
      return ANY;
  }
}

function stepRead(path: readonly Traverser[], scope: InferScope): JsonSchema {
  const [name, output, ...rest] = path;
  if (name?.kind !== 'Attr' || output?.kind !== 'Attr') return ANY;
  const step = scope.steps.get(name.name);
  return step === undefined ? ANY : walkSchema(outputSchema(step, output.name, scope.sqlColumns), rest);
}

function requestRead(path: readonly Traverser[], scope: InferScope): JsonSchema {
  const [coordinate, ...rest] = path;
  if (coordinate?.kind !== 'Attr') return ANY;
  const { request, components } = scope;
  switch (coordinate.name) {
    case 'method':
      return rest.length === 0 ? { type: 'string', const: scope.method } : ANY;
    case 'path':
      return fieldsRead(request.path, rest, components, false);
    case 'query':
      return fieldsRead(request.query, rest, components, false);
    case 'headers':
      return fieldsRead(request.headers, rest, components, true);
    case 'body': {
      const body = request.body;
      if (body === undefined) return ANY;
      return rest.length === 0 ? components.type(body) : typeRead(body, rest, components);
    }
    default:
      return ANY;
  }
}

/** A read of `ctx.request.path|query|headers` (the whole object or one field). */
function fieldsRead(fields: readonly FieldSpec[], path: readonly Traverser[], components: Components, headers: boolean): JsonSchema {
  if (path.length === 0) {
    const properties: JsonSchema = {};
    for (const f of fields) properties[f.name] = valueOfField(f, components);
    const schema: JsonSchema = { type: 'object', properties };
    const required = fields.filter(present).map((f) => f.name);
    if (required.length > 0) schema.required = required;
    // Every header the client sent is there, declared or not.
    if (headers) schema.additionalProperties = { type: 'string' };
    return schema;
  }
  const [first, ...rest] = path;
  const name = first!.kind === 'Attr' ? first!.name : String(first!.key);
  const field = fields.find((f) => f.name === (headers ? name.toLowerCase() : name));
  if (field === undefined) return headers && rest.length === 0 ? { type: ['string', 'null'] } : ANY;
  return rest.length === 0 ? valueOfField(field, components) : typeRead(field.type, rest, components);
}

/** The value a validated field holds: its schema, or null too when it may be absent. */
function valueOfField(field: FieldSpec, components: Components): JsonSchema {
  const schema = components.field(field);
  // A default is part of the request schema, not of what the response echoes.
  delete schema.default;
  return present(field) ? schema : orNull(schema);
}

function present(field: FieldSpec): boolean {
  return field.required || field.hasDefault;
}

/** A read into a declared type: object fields by name, list items by index, map values by key. */
function typeRead(type: TypeSpec, path: readonly Traverser[], components: Components): JsonSchema {
  let current: TypeSpec = type;
  let field: FieldSpec | undefined;
  for (const step of path) {
    field = undefined;
    if (current.kind === 'object') {
      const name = step.kind === 'Attr' ? step.name : String(step.key);
      field = current.fields.find((f) => f.name === name);
      if (field === undefined) return ANY;
      current = field.type;
    } else if (current.kind === 'list' && step.kind === 'Index') {
      current = current.items;
    } else if (current.kind === 'map') {
      current = current.values;
    } else {
      return ANY;
    }
  }
  return field !== undefined ? valueOfField(field, components) : components.type(current);
}

/** Follows attribute and index steps through a schema built by inference (no `$ref`s to resolve). */
function walkSchema(schema: JsonSchema, path: readonly Traverser[]): JsonSchema {
  let current = schema;
  for (const step of path) {
    const key = step.kind === 'Attr' ? step.name : step.key;
    const properties = current.properties as Record<string, JsonSchema> | undefined;
    if (typeof key === 'string' && properties !== undefined && Object.hasOwn(properties, key)) current = properties[key]!;
    else if (typeof key === 'number' && current.type === 'array' && current.items !== undefined) current = current.items as JsonSchema;
    else if (typeof current.additionalProperties === 'object') current = current.additionalProperties as JsonSchema;
    else return ANY;
  }
  return current;
}
