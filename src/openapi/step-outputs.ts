/**
 * The schemas of step outputs (`steps.<name>.<output>`), as far as a step's spec tells them: an sql
 * row's columns from its query, an http step's status and headers, what each redis command answers.
 * Whatever the spec cannot tell (a Starlark result, an upstream body) is `{}`.
 */
import type { StepSpecBase } from '../model/index.js';
import type { JsonSchema } from '../schema/index.js';
import { ANY } from './schema-union.js';
import { rowColumns } from './sql-columns.js';
import { describedRowSchema, type SqlColumns } from './sql-types.js';
import { declaresOutputs, isHttp, isRedis, isSql, type SqlView } from './step-views.js';

/** The schema of output `output` of `step`, `{}` when unknown. */
export function outputSchema(step: StepSpecBase, output: string, sqlColumns?: SqlColumns): JsonSchema {
  if (isSql(step)) {
    if (step.stream) return ANY;
    if (output === 'row') return rowSchema(step, sqlColumns);
    if (output === 'rows') return { type: 'array', items: rowSchema(step, sqlColumns) };
    if (output === 'rows_affected') return { type: 'integer', minimum: 0 };
  }
  if (isHttp(step)) {
    if (output === 'status') return { type: 'integer' };
    if (output === 'headers') return { type: 'object', additionalProperties: { type: 'string' } };
  }
  if (isRedis(step) && output === 'value') return redisValue(step.op);
  if (declaresOutputs(step)) return step.outputSchemas?.[output] ?? ANY;
  return ANY;
}

/**
 * One row of a query: the columns the database described, typed (./sql-types.ts), when it was asked;
 * else an object with the query's columns when they can be named from its text (their values may be
 * anything, null included), else an object. A row read through `row` is documented as the object: a
 * pipeline answers a missing row (null) with an earlier `respond`, as the examples do.
 */
export function rowSchema(step: SqlView, sqlColumns: SqlColumns | undefined): JsonSchema {
  const described = sqlColumns?.get(step);
  if (described !== undefined) return describedRowSchema(described);
  const columns = rowColumns(step.query);
  if (columns === undefined) return { type: 'object' };
  const properties: JsonSchema = {};
  for (const c of columns) properties[c] = {};
  return { type: 'object', properties, required: [...new Set(columns)] };
}

function redisValue(op: string): JsonSchema {
  switch (op) {
    case 'SET':
      return { type: 'string', const: 'OK' };
    case 'DEL':
    case 'INCR':
    case 'PUBLISH':
      return { type: 'integer' };
    case 'EXISTS':
    case 'EXPIRE':
      return { type: 'boolean' };
    default:
      return ANY;
  }
}
