/**
 * Type expressions, decoded from the syntax tree without evaluating it: `string` and `schema.user`
 * parse as traversals, `list(string)` as a function call. Both dialects' names are accepted
 * everywhere (DECISIONS.md §1): int = integer, float = number, bool = boolean. A bare name that is
 * not a type name is a schema name (route dialect `body = UserCreate`); a quoted name is accepted too.
 */
import type { Expression } from '../hcl/index.js';
import { type Range, didYouMean } from '../diag/index.js';
import type { ObjectTypeSpec, ScalarKind, TypeSpec } from '../schema/index.js';
import type { DecodeScope } from './scope.js';

const SCALARS: Readonly<Record<string, ScalarKind>> = {
  string: 'string',
  int: 'integer',
  integer: 'integer',
  float: 'number',
  number: 'number',
  bool: 'boolean',
  boolean: 'boolean',
  any: 'any',
};

/** Looks up `schema "<name>"` blocks; reports unknown names and cycles itself. */
export interface SchemaResolver {
  resolve(name: string, range: Range, scope: DecodeScope): ObjectTypeSpec | undefined;
  names(): readonly string[];
}

const TYPE_HINT = 'A type is written string, integer, number, boolean, any, list(<type>), map(<type>) or schema.<name>.';

export function decodeType(expr: Expression, scope: DecodeScope, schemas: SchemaResolver): TypeSpec | undefined {
  switch (expr.kind) {
    case 'Parenthesized':
      return decodeType(expr.expr, scope, schemas);
    case 'ScopeTraversal': {
      if (expr.steps.length === 0) return named(expr.root, expr.range, scope, schemas);
      const step = expr.steps[0]!;
      if (expr.root === 'schema' && expr.steps.length === 1 && step.kind === 'Attr') {
        return schemas.resolve(step.name, expr.range, scope);
      }
      break;
    }
    case 'FunctionCall': {
      if (expr.name === 'list' || expr.name === 'map') {
        if (expr.args.length !== 1 || expr.expandFinal) {
          scope.error('Invalid type specification', expr.range, { detail: `${expr.name}() takes exactly one element type.` });
          return undefined;
        }
        const inner = decodeType(expr.args[0]!, scope, schemas);
        if (!inner) return undefined;
        return expr.name === 'list' ? { kind: 'list', items: inner } : { kind: 'map', values: inner };
      }
      const suggestion = didYouMean(expr.name, ['list', 'map']);
      scope.error('Invalid type specification', expr.nameRange, {
        detail: `"${expr.name}" is not a type constructor. ${TYPE_HINT}`,
        ...(suggestion ? { suggestion } : {}),
      });
      return undefined;
    }
    case 'Template': {
      const only = expr.parts.length === 1 ? expr.parts[0]! : undefined;
      if (only?.kind === 'TemplateLiteral') {
        const text = only.value.trim();
        const m = /^schema\.([A-Za-z_][\w-]*)$/.exec(text);
        if (m) return schemas.resolve(m[1]!, expr.range, scope);
        if (/^[A-Za-z_][\w-]*$/.test(text)) return named(text, expr.range, scope, schemas);
      }
      break;
    }
    default:
      break;
  }
  scope.error('Invalid type specification', expr.range, { detail: TYPE_HINT });
  return undefined;
}

function named(name: string, range: Range, scope: DecodeScope, schemas: SchemaResolver): TypeSpec | undefined {
  const scalar = SCALARS[name];
  if (scalar) return { kind: scalar };
  if (schemas.names().includes(name)) return schemas.resolve(name, range, scope);
  const suggestion = didYouMean(name, [...Object.keys(SCALARS), ...schemas.names()]);
  scope.error('Unknown type', range, {
    detail: `"${name}" is neither a type name nor a declared schema. ${TYPE_HINT}`,
    ...(suggestion ? { suggestion } : {}),
  });
  return undefined;
}
