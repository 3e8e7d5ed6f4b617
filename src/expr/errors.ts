/**
 * Evaluation errors. A request-time failure of an expression is an `ExprEvalError` value carrying the
 * (sub)expression's range and an HCL-style summary/detail pair, so the HTTP layer can log it with a
 * position and the boot step can turn the same error into a `Diagnostic` when constant folding hits it.
 */
import type { Diagnostic, Range } from '../diag/index.js';

export class ExprEvalError extends Error {
  constructor(
    readonly summary: string,
    readonly detail: string,
    readonly range: Range,
  ) {
    super(`${summary}: ${detail}`);
    this.name = 'ExprEvalError';
  }

  toDiagnostic(context?: Range): Diagnostic {
    return {
      severity: 'error',
      summary: this.summary,
      detail: this.detail,
      subject: this.range,
      ...(context ? { context } : {}),
    };
  }
}

/**
 * Thrown by a function implementation for a bad argument; the call site turns it into an `ExprEvalError`
 * pointing at that argument ("Invalid function argument"), as HCL does.
 */
export class FunctionArgError extends Error {
  constructor(
    readonly argIndex: number,
    message: string,
  ) {
    super(message);
    this.name = 'FunctionArgError';
  }
}

/** Thrown by a function implementation for a failure not tied to one argument ("Error in function call"). */
export class FunctionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FunctionError';
  }
}
