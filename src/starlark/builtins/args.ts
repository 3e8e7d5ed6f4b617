// Argument unpacking for built-ins, mirroring starlark-go's UnpackArgs and
// UnpackPositionalArgs (same error texts).

import { nearest } from '../spell.js';
import { quote, typeName } from '../values/repr.js';
import { EvalErr, type Kwargs, type Value } from '../values/types.js';

/**
 * Unpack args by parameter names. A name ending in '?' is optional; '??' is
 * optional and treats an explicit None as absent. Missing optionals are undefined.
 */
export function unpack(fname: string, args: Value[], kwargs: Kwargs, names: string[]): (Value | undefined)[] {
  const n = names.length;
  const out: (Value | undefined)[] = new Array(n);
  const clean: string[] = [];
  const skipNone: boolean[] = [];
  for (const raw of names) {
    if (raw.endsWith('??')) {
      clean.push(raw.slice(0, -2));
      skipNone.push(true);
    } else if (raw.endsWith('?')) {
      clean.push(raw.slice(0, -1));
      skipNone.push(false);
    } else {
      clean.push(raw);
      skipNone.push(false);
    }
  }
  if (args.length > n) throw new EvalErr(`${fname}: got ${args.length} arguments, want at most ${n}`);
  const defined = new Array<boolean>(n).fill(false);
  for (let i = 0; i < args.length; i++) {
    defined[i] = true;
    if (skipNone[i] && args[i] === null) continue;
    out[i] = args[i];
  }
  if (kwargs) {
    for (const [k, v] of kwargs) {
      const i = clean.indexOf(k);
      if (i < 0) {
        let msg = `${fname}: unexpected keyword argument ${quote(k)}`;
        const near = nearest(k, clean);
        if (near) msg += ` (did you mean ${near}?)`;
        throw new EvalErr(msg);
      }
      if (defined[i]) throw new EvalErr(`${fname}: got multiple values for keyword argument ${quote(k)}`);
      defined[i] = true;
      if (skipNone[i] && v === null) continue;
      out[i] = v;
    }
  }
  for (let i = 0; i < n; i++) {
    if (names[i]!.endsWith('?')) break;
    if (!defined[i]) throw new EvalErr(`${fname}: missing argument for ${clean[i]}`);
  }
  return out;
}

export function positional(fname: string, args: Value[], kwargs: Kwargs, min: number, max: number): Value[] {
  if (kwargs && kwargs.length > 0) throw new EvalErr(`${fname}: unexpected keyword arguments`);
  if (args.length < min) throw new EvalErr(`${fname}: got ${args.length} arguments, want ${min < max ? 'at least ' : ''}${min}`);
  if (args.length > max) throw new EvalErr(`${fname}: got ${args.length} arguments, want ${max > min ? 'at most ' : ''}${max}`);
  return args;
}

export function paramErr(fname: string, param: string | number, msg: string): EvalErr {
  return new EvalErr(`${fname}: for parameter ${param}: ${msg}`);
}

export function wantStr(fname: string, param: string | number, v: Value): string {
  if (typeof v !== 'string') throw paramErr(fname, param, `got ${typeName(v)}, want string`);
  return v;
}

export function wantInt(fname: string, param: string | number, v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') throw paramErr(fname, param, `${v} out of range`);
  throw paramErr(fname, param, `got ${typeName(v)}, want int`);
}
