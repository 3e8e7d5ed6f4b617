/**
 * `problem(status, title[, detail])` or `problem({status, title, detail, type, ...extensions})`:
 * a problem-details body (RFC 9457), marked so the HTTP layer sends it as application/problem+json
 * and fills `instance` with the request path. Impure: each call builds a fresh object, since the
 * HTTP layer completes it per request.
 */
import { markProblem, problem as buildProblem, type Problem } from '../../problem/index.js';
import { FunctionArgError } from '../errors.js';
import { isObject, setKey, typeName } from '../values.js';
import { int, str } from './args.js';
import { defineFunction } from './types.js';

function checkStatus(status: number, argIndex: number): number {
  if (status < 100 || status > 599) throw new FunctionArgError(argIndex, `status must be an HTTP status code (100-599), not ${status}`);
  return status;
}

export const problem = defineFunction({
  name: 'problem',
  params: ['status'],
  optional: ['title', 'detail'],
  pure: false,
  impl: (args) => {
    const first = args[0];
    if (isObject(first)) {
      if (args.length > 1) throw new FunctionArgError(1, 'no further arguments are expected after an object');
      const status = checkStatus(int([first.status], 0), 0);
      const out: Problem = buildProblem(status);
      for (const [k, v] of Object.entries(first)) {
        if (v === null || v === undefined) continue;
        if ((k === 'title' || k === 'detail' || k === 'type' || k === 'instance') && typeof v !== 'string') {
          throw new FunctionArgError(0, `attribute "${k}" must be a string, not ${typeName(v)}`);
        }
        if (k === 'status') continue;
        setKey(out, k, v); // a "__proto__" extension stays a key, it must not replace the prototype
      }
      out.status = status;
      return markProblem(out);
    }
    const status = checkStatus(int(args, 0), 0);
    const title = args.length > 1 && args[1] !== null ? str(args, 1) : undefined;
    const detail = args.length > 2 && args[2] !== null ? str(args, 2) : undefined;
    return markProblem(buildProblem(status, title, detail));
  },
});
