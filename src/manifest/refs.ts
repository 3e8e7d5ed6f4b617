/**
 * References to declared things, decoded structurally (never evaluated): guards
 * (`auth.<name>` or `"<name>"`) and connections (`connection.<kind>.<name>` in the endpoint
 * dialect, `"<name>"` in the route dialect). Unknown names get a did-you-mean.
 */
import type { Attribute, Expression } from '../hcl/index.js';
import { type Range, didYouMean } from '../diag/index.js';
import type { ConnectionKind } from './connection-kind.js';
import type { ConnectionRef } from './step-types.js';
import type { DecodeScope } from './scope.js';

export interface GuardNames {
  has(name: string): boolean;
  keys(): Iterable<string>;
}

/** `auth = [auth.a, auth.b]` (or `["a", "b"]`) -> guard names; `[]` is an explicit public endpoint. */
export function readGuardList(attr: Attribute, scope: DecodeScope, guards: GuardNames): string[] | undefined {
  if (attr.expr.kind !== 'Tuple') {
    scope.error('Incorrect attribute value type', attr.expr.range, {
      detail: `Inappropriate value for attribute "auth": a list of guards such as [auth.admin] is required; [] makes the endpoint public.`,
    });
    return undefined;
  }
  const names: string[] = [];
  for (const item of attr.expr.items) {
    const name = guardName(item);
    if (name === undefined) {
      scope.error('Invalid guard reference', item.range, { detail: 'A guard is referenced as auth.<name>.' });
      continue;
    }
    if (!guards.has(name)) {
      const suggestion = didYouMean(name, guards.keys());
      scope.error('Reference to undeclared guard', item.range, {
        detail: `No auth "${name}" block is declared.`,
        ...(suggestion ? { suggestion: `auth.${suggestion}` } : {}),
      });
      continue;
    }
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

function guardName(e: Expression): string | undefined {
  if (e.kind === 'ScopeTraversal' && e.root === 'auth' && e.steps.length === 1 && e.steps[0]!.kind === 'Attr') return e.steps[0]!.name;
  return literalString(e);
}

export function literalString(e: Expression): string | undefined {
  if (e.kind === 'Template' && e.parts.length === 1 && e.parts[0]!.kind === 'TemplateLiteral') return e.parts[0]!.value;
  if (e.kind === 'Literal' && typeof e.value === 'string') return e.value;
  return undefined;
}

export interface ConnectionTable {
  /** Kinds that declare a connection with this name. */
  kindsOf(name: string): readonly ConnectionKind[];
  /** Every declared name of a kind. */
  namesOf(kind: ConnectionKind): readonly string[];
}

/**
 * The connection a step uses. `attr` absent: the only connection of the kind, if there is exactly
 * one (a convenience for small manifests); otherwise the attribute is required.
 */
export function readConnection(
  attr: Attribute | undefined,
  kind: ConnectionKind,
  scope: DecodeScope,
  table: ConnectionTable,
  stepRange: Range,
): ConnectionRef | undefined {
  if (!attr) {
    const names = table.namesOf(kind);
    if (names.length === 1) return { kind, name: names[0]!, range: stepRange };
    scope.error('Missing required argument', stepRange, {
      detail:
        names.length === 0
          ? `The argument "connection" is required, and no ${kind} connection is declared (connection "${kind}" "<name>" { url = ... }).`
          : `The argument "connection" is required: ${names.length} ${kind} connections are declared (${names.join(', ')}).`,
    });
    return undefined;
  }
  const e = attr.expr;
  const range = e.range;
  if (e.kind === 'ScopeTraversal' && e.root === 'connection') {
    const [k, n] = e.steps;
    if (e.steps.length !== 2 || k?.kind !== 'Attr' || n?.kind !== 'Attr') {
      scope.error('Invalid connection reference', range, { detail: 'A connection is referenced as connection.<kind>.<name> or "<name>".' });
      return undefined;
    }
    if (k.name !== kind) {
      scope.error('Wrong connection kind', range, {
        detail: `This step needs a ${kind} connection; connection.${k.name}.${n.name} is ${k.name === 'postgres' || k.name === 'redis' ? `a ${k.name} connection` : 'not a known kind'}.`,
      });
      return undefined;
    }
    return checkDeclared(n.name, kind, range, scope, table, true);
  }
  const name = literalString(e);
  if (name === undefined) {
    scope.error('Invalid connection reference', range, { detail: 'A connection is referenced as connection.<kind>.<name> or "<name>".' });
    return undefined;
  }
  const kinds = table.kindsOf(name);
  if (kinds.length > 1) {
    scope.error('Ambiguous connection name', range, {
      detail: `"${name}" names both a ${kinds.join(' and a ')} connection; write connection.${kind}.${name}, or rename one of them.`,
    });
    return undefined;
  }
  if (kinds.length === 1 && kinds[0] !== kind) {
    scope.error('Wrong connection kind', range, { detail: `This step needs a ${kind} connection; "${name}" is a ${kinds[0]} connection.` });
    return undefined;
  }
  return checkDeclared(name, kind, range, scope, table, false);
}

function checkDeclared(
  name: string,
  kind: ConnectionKind,
  range: Range,
  scope: DecodeScope,
  table: ConnectionTable,
  qualified: boolean,
): ConnectionRef | undefined {
  if (table.namesOf(kind).includes(name)) return { kind, name, range };
  const suggestion = didYouMean(name, table.namesOf(kind));
  scope.error('Reference to undeclared connection', range, {
    detail: `No connection "${kind}" "${name}" is declared.`,
    ...(suggestion ? { suggestion: qualified ? `connection.${kind}.${suggestion}` : suggestion } : {}),
  });
  return undefined;
}
