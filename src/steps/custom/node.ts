/**
 * A custom step as a graph step: per request its attributes are evaluated (and their types checked:
 * an expression that is not a constant is known only now), then the embedder's `run` gets them and
 * the step's signal. Its result is the step's output: an object's members (`steps.<label>.<member>`),
 * or with `stream: true` an iterable as the `stream` member, which a `stream` step pulls one item at
 * a time as the client reads (backpressure); the step's life, and so its signal, lasts as long as
 * that stream is being sent.
 */
import { isPulledSource, type StepNodeDef } from '../../../graph/index.js';
import type { EndpointScope } from '../contract.js';
import type { NodeCompiler } from '../definition.js';
import type { CustomStep, StepAttributeType } from './define.js';
import type { CustomStepSpec } from './spec.js';

/** A custom step's value or result is not what its definition says (a 500: the manifest's or the program's fault). */
export class CustomStepError extends Error {
  override readonly name = 'CustomStepError';
}

export function compileCustom(step: CustomStep): NodeCompiler<CustomStepSpec> {
  return (spec, env) => {
    const node: StepNodeDef<EndpointScope> = {
      type: 'step',
      kind: step.name,
      id: env.idOf(spec),
      name: spec.name,
      // svc graph: the attributes given (their names; values may hold secrets), and whether it streams.
      label: [spec.attributes.map((a) => a.name).join(', '), step.stream ? '(stream)' : ''].filter((l) => l !== '').join(' '),
      reads: env.readsOf(spec.attributes.map((a) => a.expr)),
      meta: spec,
      ...(spec.timeoutMs !== undefined ? { timeout: spec.timeoutMs } : {}),
      run(scope, ctx) {
        const attributes: Record<string, unknown> = {};
        for (const name of Object.keys(step.attributes)) attributes[name] = undefined;
        for (const { name, expr } of spec.attributes) {
          const type = step.attributes[name]!.type ?? 'any';
          const value = asNumber(expr.evaluate(scope), type);
          // null is "not given", as for built-in steps' optional values.
          if (value !== null && value !== undefined && !hasType(value, type)) {
            throw new CustomStepError(`${step.name} "${spec.name}": attribute "${name}" must be ${TYPE_NAME[type]}, got ${describe(value)}`);
          }
          attributes[name] = value ?? undefined;
        }
        return Promise.resolve(step.run(attributes, { signal: ctx.signal, step: spec.name })).then((result) => outputOf(step, spec, result));
      },
    };
    return node;
  };
}

function outputOf(step: CustomStep, spec: CustomStepSpec, result: unknown): unknown {
  if (step.stream) {
    if (!isPulledSource(result) || typeof result === 'string') {
      throw new CustomStepError(`${step.name} "${spec.name}": run must return an (async) iterable for a streaming step, got ${describe(result)}`);
    }
    return { stream: result };
  }
  if (result === null || typeof result !== 'object' || Array.isArray(result)) {
    throw new CustomStepError(`${step.name} "${spec.name}": run must return an object (its members are the step's outputs), got ${describe(result)}`);
  }
  return result;
}

/**
 * A whole number beyond 2^53 (an int8 column, a big JSON number) is a BigInt in svc: a `number` or
 * `int` attribute gets it as a number when that is exact, else it stays a BigInt and is refused.
 */
export function asNumber(value: unknown, type: StepAttributeType): unknown {
  if (typeof value !== 'bigint' || (type !== 'number' && type !== 'int')) return value;
  return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value;
}

const TYPE_NAME: Record<StepAttributeType, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  bool: 'a bool',
  list: 'a list',
  map: 'an object',
  any: 'any value',
};

function hasType(value: unknown, type: StepAttributeType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'int':
      return typeof value === 'number' && Number.isInteger(value);
    case 'bool':
      return typeof value === 'boolean';
    case 'list':
      return Array.isArray(value);
    case 'map':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'any':
      return true;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'bigint') return 'a whole number beyond 2^53';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
