/**
 * References to declared things, decoded structurally (never evaluated): guards
 * (`auth.<name>` or `"<name>"`) and connections (`connection.<kind>.<name>` in the endpoint
 * dialect, `"<name>"` in the route dialect). Unknown names get a did-you-mean.
 */
import type { Attribute, Expression } from '../hcl/index.js';
import { type Range, didYouMean } from '../diag/index.js';
import { CONNECTION_KIND_NAMES, type ConnectionKind } from './connection-kind.js';
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
 * The connection a step uses, of one kind or of a family of kinds (the SQL engines: `SQL_KINDS`).
 * `attr` absent: the only connection of the kinds, if there is exactly one (a convenience for small
 * manifests); otherwise the attribute is required.
 */
export function readConnection(
  attr: Attribute | undefined,
  accepted: ConnectionKind | readonly ConnectionKind[],
  scope: DecodeScope,
  table: ConnectionTable,
  stepRange: Range,
): ConnectionRef | undefined {
  const kinds: readonly ConnectionKind[] = typeof accepted === 'string' ? [accepted] : accepted;
  const wanted = kindsPhrase(kinds);
  if (!attr) {
    const declared = kinds.flatMap((kind) => table.namesOf(kind).map((name) => ({ kind, name })));
    if (declared.length === 1) return { ...declared[0]!, range: stepRange };
    scope.error('Missing required argument', stepRange, {
      detail:
        declared.length === 0
          ? `The argument "connection" is required, and no ${wanted} connection is declared (connection "${kinds[0]}" "<name>" { url = ... }).`
          : `The argument "connection" is required: ${declared.length} ${wanted} connections are declared (${declared.map((d) => d.name).join(', ')}).`,
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
    const kind = kinds.find((c) => c === k.name);
    if (kind === undefined) {
      const known = (CONNECTION_KIND_NAMES as readonly string[]).includes(k.name);
      scope.error('Wrong connection kind', range, {
        detail: `This step needs a ${wanted} connection; connection.${k.name}.${n.name} is ${known ? `a ${k.name} connection` : 'not a known kind'}.`,
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
  const declaredKinds = table.kindsOf(name);
  if (declaredKinds.length > 1) {
    const kind = declaredKinds.find((k) => kinds.includes(k)) ?? kinds[0]!;
    scope.error('Ambiguous connection name', range, {
      detail: `"${name}" names both a ${declaredKinds.join(' and a ')} connection; write connection.${kind}.${name}, or rename one of them.`,
    });
    return undefined;
  }
  if (declaredKinds.length === 1 && !kinds.includes(declaredKinds[0]!)) {
    scope.error('Wrong connection kind', range, { detail: `This step needs a ${wanted} connection; "${name}" is a ${declaredKinds[0]} connection.` });
    return undefined;
  }
  if (declaredKinds.length === 1) return { kind: declaredKinds[0]!, name, range };
  // Undeclared: a suggestion among every accepted kind's names.
  const candidates = kinds.flatMap((k) => table.namesOf(k));
  const suggestion = didYouMean(name, candidates);
  scope.error('Reference to undeclared connection', range, {
    detail: kinds.length === 1 ? `No connection "${kinds[0]}" "${name}" is declared.` : `No ${wanted} connection "${name}" is declared.`,
    ...(suggestion ? { suggestion } : {}),
  });
  return undefined;
}

/** `postgres`, or `SQL (postgres, sqlite or mysql)` for a family. */
function kindsPhrase(kinds: readonly ConnectionKind[]): string {
  if (kinds.length === 1) return kinds[0]!;
  return `SQL (${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)})`;
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
