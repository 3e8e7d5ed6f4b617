/**
 * `steps.<sql>.result` and `steps.<redis>.result` (hclapi's older examples): svc names a sql step's
 * outputs `row` (the first row), `rows` (every row) and `rows_affected`, a redis step's `value`.
 * `.result.<column>` reads one row, so it becomes `.row.<column>`. A bare `.result` is what hclapi's
 * own later examples rewrote it to: `.row` for a write or a lookup by key (`INSERT ... RETURNING`,
 * `WHERE id = @id` without LIMIT), `.rows` for any other query (a list, `LIMIT 5`).
 * `json_decode(steps.<redis>.value)` of a value svc has already decoded (redis text that is JSON is
 * read back decoded) becomes the value itself.
 */
import type { Block, Expression, File, ScopeTraversal } from '../../../hcl/index.js';
import { alias, replace, type Finding } from '../finding.js';
import { blocksUnder, expressionsUnder, literalString, topBlocks } from '../walk.js';

const ROUTE_BLOCKS = new Set(['endpoint', 'route']);

export function stepOutputs(files: readonly File[]): Finding[] {
  const out: Finding[] = [];
  for (const { block } of topBlocks(files)) {
    if (!ROUTE_BLOCKS.has(block.type)) continue;
    const kinds = stepKinds(block);
    const queries = stepQueries(block);
    const path = [`${block.type} "${block.labels[0] ?? ''}"`];
    const decodedArgs = new Set<Expression>();
    for (const e of expressionsUnder(block.body)) {
      if (e.kind === 'FunctionCall' && e.name === 'json_decode' && e.args.length === 1) {
        const arg = e.args[0]!;
        const t = arg.kind === 'ScopeTraversal' ? redisValue(arg, kinds) : undefined;
        if (!t) continue;
        decodedArgs.add(arg);
        out.push(
          alias(
            'hclapi json_decode of a decoded value',
            e.range,
            `A redis step's value that is JSON text is read back already decoded in svc, so json_decode() of it is the value itself; svc's spelling is ${t}.`,
            [replace({ ...e.range, end: arg.range.start }, ''), replace({ ...e.range, start: arg.range.end }, '')],
            path,
          ),
        );
      }
      if (e.kind !== 'ScopeTraversal' || e.root !== 'steps') continue;
      const [name, output, next] = e.steps;
      if (name?.kind !== 'Attr' || output?.kind !== 'Attr' || output.name !== 'result') continue;
      const kind = kinds.get(name.name);
      if (kind === 'sql') {
        const svc = next || singleRow(queries.get(name.name)) ? 'row' : 'rows';
        out.push(
          alias(
            'hclapi step output',
            output.range,
            `sql "${name.name}" has no output "result" in svc: ${next ? 'a column of the first row is read from' : svc === 'row' ? 'the one row this query gives is' : 'the list of rows this query gives is'} steps.${name.name}.${svc} (the first row alone is .row, every row .rows, the count .rows_affected).`,
            [replace(output.range, '.' + svc)],
            path,
          ),
        );
      } else if (kind === 'redis') {
        out.push(
          alias('hclapi step output', output.range, `redis "${name.name}" reads as steps.${name.name}.value in svc.`, [replace(output.range, '.value')], path),
        );
      }
    }
  }
  return out;
}

/** The sql and redis steps an endpoint declares, by name (nested in transaction and parallel too). */
function stepKinds(endpoint: Block): Map<string, string> {
  const kinds = new Map<string, string>();
  for (const { block } of blocksUnder(endpoint.body)) {
    if ((block.type === 'sql' || block.type === 'redis') && block.labels.length === 1) kinds.set(block.labels[0]!, block.type);
  }
  return kinds;
}

/** The literal query text of each sql step, by name. */
function stepQueries(endpoint: Block): Map<string, string> {
  const out = new Map<string, string>();
  for (const { block } of blocksUnder(endpoint.body)) {
    if (block.type !== 'sql' || block.labels.length !== 1) continue;
    const q = block.body.items.find((i) => i.kind === 'Attribute' && i.name === 'query');
    const text = q?.kind === 'Attribute' ? literalString(q.expr) : undefined;
    if (text !== undefined) out.set(block.labels[0]!, text);
  }
  return out;
}

/** A write (one row back) or a lookup by key without LIMIT. */
function singleRow(query: string | undefined): boolean {
  if (query === undefined) return false;
  const q = query.trim().toUpperCase();
  if (/^(INSERT|UPDATE|DELETE)\b/.test(q)) return true;
  return /\bWHERE\s+\w+\s*=\s*@\w+\s*;?\s*$/.test(q) && !/\bLIMIT\b/.test(q);
}

/** `steps.<redis>.value` or `.result`, as svc spells it, or undefined. */
function redisValue(t: ScopeTraversal, kinds: ReadonlyMap<string, string>): string | undefined {
  const [name, output, ...rest] = t.steps;
  if (t.root !== 'steps' || name?.kind !== 'Attr' || output?.kind !== 'Attr' || rest.length > 0) return undefined;
  if (kinds.get(name.name) !== 'redis' || (output.name !== 'value' && output.name !== 'result')) return undefined;
  return `steps.${name.name}.value`;
}
