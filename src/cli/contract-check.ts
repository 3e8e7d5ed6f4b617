/**
 * A declared response schema held to the columns its rows come from, once the database has described
 * them (`svc check --database`, `svc openapi --database`, `check_queries = true`): a `respond` whose
 * `schema` requires a field its `body = steps.<sql>.row` (or `.rows`) never has fails every request
 * with a row (the mask refuses a body without a required field), so it is an error here; an optional
 * field it never has (a misspelt column, most often) and a field whose type the column cannot have
 * (`integer` over a text column) are warnings. The same for a
 * `stream` whose items are a streamed sql step's rows. Only bodies that are a step's rows as they
 * are are checked: a body built from them (`{ user = steps.q.row }`) is not a row.
 */
import type { Diagnostic, Range } from '../diag/index.js';
import type { Expr, FieldSpec, ObjectTypeSpec, PipelineEndpointModel, ServiceModel, StepSpecBase, TypeSpec } from '../model/index.js';
import { allSteps, columnSchema, type SqlColumn, type SqlColumns } from '../openapi/index.js';

export function contractDiagnostics(model: ServiceModel, columns: SqlColumns): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const endpoint of model.endpoints) {
    if (endpoint.kind !== 'pipeline') continue;
    const steps = stepsByName(endpoint);
    for (const response of endpoint.responses ?? []) {
      const expr = response.kind === 'body' ? response.body : response.source;
      if (response.schema === undefined || expr === undefined) continue;
      const read = rowsRead(expr);
      const step = read && steps.get(read.step);
      const described = step && columns.get(step);
      if (!read || !described) continue;
      const row = read.output === 'rows' ? (response.schema.kind === 'list' ? response.schema.items : undefined) : response.schema;
      if (row?.kind !== 'object') continue;
      out.push(...fieldDiagnostics(row, described, read.step, expr.range));
    }
  }
  return out;
}

function fieldDiagnostics(row: ObjectTypeSpec, columns: readonly SqlColumn[], step: string, at: Range): Diagnostic[] {
  const out: Diagnostic[] = [];
  const schema = row.name !== undefined ? `schema.${row.name}` : 'the declared schema';
  const returned = columns.map((c) => c.name).join(', ');
  for (const field of row.fields) {
    const column = columns.find((c) => c.name === field.name);
    if (column === undefined) {
      out.push({
        severity: field.required ? 'error' : 'warning',
        summary: 'Declared field not in the query',
        detail: field.required
          ? `${schema} requires "${field.name}", which the query of sql "${step}" does not return (it returns ${returned}): every answer with a row would fail. Select the column, or make the field optional.`
          : `${schema} declares "${field.name}", which the query of sql "${step}" does not return (it returns ${returned}): the answer never has it. Select the column, or check its name.`,
        subject: at,
      });
      continue;
    }
    const mismatch = typeMismatch(field, column);
    if (mismatch !== undefined) {
      out.push({
        severity: 'warning',
        summary: 'Declared field type differs from its column',
        detail: `${schema} declares "${field.name}" as ${mismatch.declared}; the query of sql "${step}" returns it as ${mismatch.column}.`,
        subject: at,
      });
    }
  }
  return out;
}

/** JSON Schema type names a declared scalar accepts. */
const ACCEPTS: Readonly<Record<string, readonly string[]>> = {
  string: ['string'],
  integer: ['integer'],
  number: ['number', 'integer'],
  boolean: ['boolean'],
  list: ['array'],
  map: ['object'],
  object: ['object'],
};

/** The declared type and the column's, when no value of the column fits the declared type. */
function typeMismatch(field: FieldSpec, column: SqlColumn): { declared: string; column: string } | undefined {
  const accepted = ACCEPTS[kindOf(field.type)];
  if (accepted === undefined) return undefined;
  const type = columnSchema(column).type;
  const types = (Array.isArray(type) ? type : type === undefined ? [] : [type]).filter((t) => t !== 'null');
  // An untyped column (json, an unknown type) may hold anything.
  if (types.length === 0 || types.some((t) => accepted.includes(t))) return undefined;
  return { declared: kindOf(field.type), column: types.join(' or ') };
}

function kindOf(type: TypeSpec): string {
  return type.kind;
}

/** The endpoint's steps by name, nested ones (parallel branches, transaction bodies) included. */
function stepsByName(endpoint: PipelineEndpointModel): Map<string, StepSpecBase> {
  const out = new Map<string, StepSpecBase>();
  for (const step of allSteps(endpoint.steps)) {
    const name = (step as { name?: unknown }).name;
    if (typeof name === 'string') out.set(name, step);
  }
  return out;
}

/**
 * `steps.<name>.<row|rows|stream>` when that traversal is the whole expression (its one reference
 * spans it), as the body or source is written.
 */
function rowsRead(expr: Expr): { readonly step: string; readonly output: string } | undefined {
  const [ref, ...others] = expr.references;
  if (ref === undefined || others.length > 0 || ref.root !== 'steps' || ref.path.length !== 2) return undefined;
  if (ref.range.start.byte !== expr.range.start.byte || ref.range.end.byte !== expr.range.end.byte) return undefined;
  const [step, output] = ref.path;
  if (typeof step !== 'string' || (output !== 'row' && output !== 'rows' && output !== 'stream')) return undefined;
  return { step, output };
}
