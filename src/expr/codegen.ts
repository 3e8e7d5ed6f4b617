/**
 * Generated evaluators for the two hottest shapes: traversals with literal steps
 * (`ctx.request.query.limit`) and constructors with static keys (`{ id = ..., name = ... }`).
 *
 * Closures from one function literal share its inline caches, which go megamorphic over a manifest's
 * hundreds of names; each generated function has its own (a 3-step traversal ~40 ns as a closure,
 * ~9 ns generated, measured in a loop). Safety: the only manifest text emitted is property names and
 * indexes, as JSON.stringify'd string or integer literals (any string is one literal since ES2019;
 * test/expr/safety.test.ts); helpers are passed in as parameters, never looked up by name.
 */
import type { Range } from '../diag/index.js';
import type { Traverser } from '../hcl/index.js';
import type { Evaluator } from './scope.js';
import { getAttr, index } from './traversal.js';

/**
 * Factories by generated source text. The same path (`ctx.request.body.name`) appears in many
 * expressions; compiling its text once saves boot time, and closures from one factory read the same
 * property names, so sharing its inline caches costs nothing.
 */
const factories = new Map<string, (...helpers: unknown[]) => Evaluator>();

function factory(params: readonly string[], body: string): (...helpers: unknown[]) => Evaluator {
  const key = params.join(',') + '\n' + body;
  let f = factories.get(key);
  if (!f) {
    f = new Function(...params, body) as (...helpers: unknown[]) => Evaluator;
    factories.set(key, f);
  }
  return f;
}

export type TraversalSource = { kind: 'root'; name: string } | { kind: 'slot'; slot: number } | { kind: 'fn'; fn: Evaluator };

/** Names that plain objects inherit: reading them needs an own-property check. */
const inherited = (name: string): boolean => name in Object.prototype;

export function genTraversal(source: TraversalSource, steps: readonly Traverser[]): Evaluator {
  const q = JSON.stringify;
  const ranges: Range[] = steps.map((s) => s.range);
  const lines: string[] = ['let c;'];
  switch (source.kind) {
    case 'root':
      lines.push(`let x = v[${q(source.name)}];`);
      break;
    case 'slot':
      lines.push(`let x = f[${source.slot | 0}];`);
      break;
    case 'fn':
      lines.push('let x = src(v, f, budget);');
      break;
  }
  steps.forEach((s, i) => {
    if (s.kind === 'Attr') {
      // The fast path reads a property directly only from a plain object: constructor Object (JSON,
      // driver rows), whose only inherited names are Object.prototype's, or none (null-prototype, as
      // parsed query strings). Anything else (lists, Dates, Buffers, class instances, an own
      // "constructor" key) takes getAttr's own-key rule. (Object.getPrototypeOf costs ~4x the step.)
      const read = inherited(s.name) ? `(Object.hasOwn(x, ${q(s.name)}) ? x[${q(s.name)}] : undefined)` : `x[${q(s.name)}]`;
      lines.push(
        `x = typeof x === 'object' && x !== null && ((c = x.constructor) === O || c === undefined) ? ${read} : getAttr(x, ${q(s.name)}, ranges[${i}]);`,
      );
    } else if (typeof s.key === 'number' && Number.isInteger(s.key) && s.key >= 0) {
      lines.push(`x = Array.isArray(x) ? x[${s.key}] : index(x, ${s.key}, ranges[${i}]);`);
    } else {
      lines.push(`x = index(x, ${q(s.key)}, ranges[${i}]);`);
    }
  });
  lines.push("return x === undefined || typeof x === 'function' ? null : x;");
  const src = source.kind === 'fn' ? source.fn : undefined;
  const make = factory(['getAttr', 'index', 'ranges', 'src', 'O'], `return function traversal(v, f, budget) {\n  ${lines.join('\n  ')}\n};`);
  return make(getAttr, index, ranges, src, Object);
}

/** `{ "k0": e0(v, f, budget), ... }` for static keys (never "__proto__", which a literal would treat as the prototype). */
export function genObject(keys: readonly string[], values: readonly Evaluator[]): Evaluator {
  const q = JSON.stringify;
  const props = keys.map((k, i) => `${q(k)}: e[${i}](v, f, budget)`).join(', ');
  return factory(['e'], `return function object(v, f, budget) {\n  return { ${props} };\n};`)(values);
}

/** `[ e0(v, f, budget), ... ]`. */
export function genTuple(items: readonly Evaluator[]): Evaluator {
  const elems = items.map((_, i) => `e[${i}](v, f, budget)`).join(', ');
  return factory(['e'], `return function tuple(v, f, budget) {\n  return [ ${elems} ];\n};`)(items);
}
