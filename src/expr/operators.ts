/**
 * Unary and binary operators with HCL semantics on JS values.
 *
 * - Arithmetic and ordering apply to numbers; numeric strings convert, as HCL converts them ("2" * 3 = 6).
 * - `==`/`!=` are deep equality across types: false on any type mismatch ("1" == 1 is false).
 * - `&&`/`||`/`!` take bools ("true"/"false" strings convert, as in HCL); && and || short-circuit.
 * - Numbers are JS doubles (HCL's are 512-bit floats): a result that is not finite (x / 0) is an
 *   error, since JSON cannot carry it.
 */
import type { Range } from '../diag/index.js';
import type { BinaryOperator } from '../hcl/index.js';
import { ExprEvalError } from './errors.js';
import type { Evaluator } from './scope.js';
import { equals, primitiveToBool, primitiveToNumber, typeName } from './values.js';

function numberOperand(x: unknown, side: string, range: Range): number {
  if (typeof x === 'number') return x;
  const n = primitiveToNumber(x);
  if (n !== undefined) return n;
  throw new ExprEvalError(
    'Invalid operand',
    x === null || x === undefined
      ? `Unsuitable value for ${side} operand: a number is required, but the value is null.`
      : `Unsuitable value for ${side} operand: a number is required, not ${typeName(x)}.`,
    range,
  );
}

function boolOperand(x: unknown, side: string, range: Range): boolean {
  if (typeof x === 'boolean') return x;
  const b = primitiveToBool(x);
  if (b !== undefined) return b;
  throw new ExprEvalError(
    'Invalid operand',
    x === null || x === undefined
      ? `Unsuitable value for ${side} operand: a bool is required, but the value is null.`
      : `Unsuitable value for ${side} operand: a bool is required, not ${typeName(x)}.`,
    range,
  );
}

function finite(n: number, op: string, range: Range): number {
  if (Number.isFinite(n)) return n;
  throw new ExprEvalError(
    'Operation failed',
    op === '/' || op === '%' ? 'Error during operation: division by zero.' : 'Error during operation: the result is too large to represent.',
    range,
  );
}

export interface OperandInfo {
  readonly fn: Evaluator;
  readonly range: Range;
}

export function binary(op: BinaryOperator, l: OperandInfo, r: OperandInfo, range: Range): Evaluator {
  const a = l.fn;
  const b = r.fn;
  const lr = l.range;
  const rr = r.range;
  switch (op) {
    case '==':
      return (v, f, budget) => equals(a(v, f, budget), b(v, f, budget));
    case '!=':
      return (v, f, budget) => !equals(a(v, f, budget), b(v, f, budget));
    case '&&':
      return (v, f, budget) => boolOperand(a(v, f, budget), 'left', lr) && boolOperand(b(v, f, budget), 'right', rr);
    case '||':
      return (v, f, budget) => boolOperand(a(v, f, budget), 'left', lr) || boolOperand(b(v, f, budget), 'right', rr);
    case '<':
      return (v, f, budget) => num(a(v, f, budget), 'left', lr) < num(b(v, f, budget), 'right', rr);
    case '<=':
      return (v, f, budget) => num(a(v, f, budget), 'left', lr) <= num(b(v, f, budget), 'right', rr);
    case '>':
      return (v, f, budget) => num(a(v, f, budget), 'left', lr) > num(b(v, f, budget), 'right', rr);
    case '>=':
      return (v, f, budget) => num(a(v, f, budget), 'left', lr) >= num(b(v, f, budget), 'right', rr);
    case '+':
      return (v, f, budget) => finite(num(a(v, f, budget), 'left', lr) + num(b(v, f, budget), 'right', rr), op, range);
    case '-':
      return (v, f, budget) => finite(num(a(v, f, budget), 'left', lr) - num(b(v, f, budget), 'right', rr), op, range);
    case '*':
      return (v, f, budget) => finite(num(a(v, f, budget), 'left', lr) * num(b(v, f, budget), 'right', rr), op, range);
    case '/':
      return (v, f, budget) => finite(num(a(v, f, budget), 'left', lr) / num(b(v, f, budget), 'right', rr), op, range);
    case '%':
      // HCL's modulo truncates toward zero (a - b * trunc(a / b)), which is JS's %.
      return (v, f, budget) => finite(num(a(v, f, budget), 'left', lr) % num(b(v, f, budget), 'right', rr), op, range);
  }
}

/** Inlined fast check before the converting slow path. */
function num(x: unknown, side: string, range: Range): number {
  return typeof x === 'number' ? x : numberOperand(x, side, range);
}

export function unary(op: '!' | '-', operand: OperandInfo): Evaluator {
  const a = operand.fn;
  const r = operand.range;
  if (op === '!') return (v, f, budget) => !boolOperand(a(v, f, budget), 'the', r);
  return (v, f, budget) => {
    const n = -num(a(v, f, budget), 'the', r);
    return n === 0 ? 0 : n; // no -0 in JSON output
  };
}

/** The operand kind an operator needs, for the boot-time check of constant operands. */
export function operandKind(op: BinaryOperator): 'number' | 'bool' | 'any' {
  switch (op) {
    case '==':
    case '!=':
      return 'any';
    case '&&':
    case '||':
      return 'bool';
    default:
      return 'number';
  }
}
