/**
 * Attribute access and indexing on dynamic data (DECISIONS.md §2: missing keys evaluate to null).
 * `x.name` without `name`, or on null, is null (`ctx.request.body.address.city` with no address), and
 * so is `list[i]` out of range (`steps.find.rows[0]` with no row); a non-integer index, attribute
 * access on a primitive or list, and indexing a primitive are errors: mistakes, not missing data.
 */
import type { Range } from '../diag/index.js';
import { ExprEvalError } from './errors.js';
import { isObject, primitiveToNumber, primitiveToString, typeName } from './values.js';

export function getAttr(x: unknown, name: string, range: Range): unknown {
  if (x === null || x === undefined) return null;
  if (typeof x === 'object') {
    if (Array.isArray(x)) {
      throw new ExprEvalError(
        'Unsupported attribute',
        `Can't access attributes on a list of values. Did you mean to access attribute "${name}" for a specific element of the list, or across all elements of the list (with a splat, [*].${name})?`,
        range,
      );
    }
    if (!Object.hasOwn(x, name)) return null;
    const y = (x as Record<string, unknown>)[name];
    return y === undefined ? null : y;
  }
  if (typeof x === 'function') return null;
  throw new ExprEvalError('Unsupported attribute', `Can't access attributes on a primitive-typed value (${typeName(x)}).`, range);
}

export function index(coll: unknown, key: unknown, range: Range, keyRange: Range = range): unknown {
  if (coll === null || coll === undefined) return null;
  if (key === null || key === undefined) {
    throw new ExprEvalError('Invalid index', "Can't use a null value as an indexing key.", keyRange);
  }
  if (Array.isArray(coll)) {
    const i = primitiveToNumber(key);
    if (i === undefined || typeof key === 'boolean') {
      throw new ExprEvalError(
        'Invalid index',
        `The given key does not identify an element in this collection value: a number is required, not ${typeName(key)}.`,
        keyRange,
      );
    }
    if (!Number.isInteger(i)) {
      throw new ExprEvalError('Invalid index', 'The given key does not identify an element in this collection value: an integer is required.', keyRange);
    }
    const y = coll[i];
    return y === undefined ? null : y;
  }
  if (isObject(coll)) {
    const k = primitiveToString(key);
    if (k === undefined) {
      throw new ExprEvalError(
        'Invalid index',
        `The given key does not identify an element in this collection value: a string is required, not ${typeName(key)}.`,
        keyRange,
      );
    }
    if (!Object.hasOwn(coll, k)) return null;
    const y = coll[k];
    return y === undefined ? null : y;
  }
  throw new ExprEvalError('Invalid index', `This value does not have any indices (it is a ${typeName(coll)}).`, range);
}
