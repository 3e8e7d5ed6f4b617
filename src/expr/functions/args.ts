/**
 * Argument conversions with HCL's rules: a string parameter accepts numbers and bools (converted),
 * a number parameter accepts numeric strings; null is refused unless the function says otherwise.
 */
import { FunctionArgError, FunctionError } from '../errors.js';
import { isObject, primitiveToNumber, primitiveToString, typeName } from '../values.js';

function refuse(i: number, v: unknown, wanted: string): never {
  if (v === null || v === undefined) throw new FunctionArgError(i, 'argument must not be null');
  throw new FunctionArgError(i, `${wanted} required, not ${typeName(v)}`);
}

export function str(args: readonly unknown[], i: number): string {
  const v = args[i];
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && !(v instanceof Date)) refuse(i, v, 'string');
  const s = primitiveToString(v);
  return s !== undefined ? s : refuse(i, v, 'string');
}

export function num(args: readonly unknown[], i: number): number {
  const v = args[i];
  if (typeof v === 'number') return v;
  const n = primitiveToNumber(v);
  return n !== undefined ? n : refuse(i, v, 'number');
}

export function int(args: readonly unknown[], i: number): number {
  const n = num(args, i);
  if (!Number.isInteger(n)) throw new FunctionArgError(i, 'a whole number is required');
  return n;
}

export function list(args: readonly unknown[], i: number): readonly unknown[] {
  const v = args[i];
  return Array.isArray(v) ? v : refuse(i, v, 'list');
}

export function obj(args: readonly unknown[], i: number): Readonly<Record<string, unknown>> {
  const v = args[i];
  return isObject(v) ? v : refuse(i, v, 'object');
}

/** Elements of a list converted to strings (join, ...). */
export function stringList(args: readonly unknown[], i: number): string[] {
  return list(args, i).map((e, j) => {
    const s = typeof e === 'object' && e !== null && !(e instanceof Date) ? undefined : primitiveToString(e);
    if (s === undefined) {
      throw new FunctionArgError(i, e === null || e === undefined ? `element ${j} is null` : `element ${j}: string required, not ${typeName(e)}`);
    }
    return s;
  });
}

/** The smallest or greatest of at least one number argument (min, max). */
export function extremum(args: readonly unknown[], pick: (a: number, b: number) => number): number {
  if (args.length === 0) throw new FunctionError('must pass at least one number');
  let r = num(args, 0);
  for (let i = 1; i < args.length; i++) r = pick(r, num(args, i));
  return r;
}
