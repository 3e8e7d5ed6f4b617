// Compiled calls of the methods request-shaping scripts call in loops: s.strip(), s.lower(),
// s.upper(), l.append(x), d.get(k[, default]). A site calling through the method table shares one
// closure's call feedback with every method (megamorphic, never inlined); each closure here calls
// one implementation V8 can inline (bench/transform README "Where the quiet gap is, by `perf`"). Only the
// common case that cannot fail or charge; anything else goes to `general`, receiver already evaluated.

import { stripSpace, lowerText, upperText } from './methods/str.js';
import { Dict, type Frame, List, type Value } from './values/types.js';

type Ex = (fr: Frame) => Value;
/** The site's ordinary call, given the receiver it evaluated; it evaluates the arguments itself. */
export type GeneralCall = (fr: Frame, recv: Value) => Value;
/** `d.get` with its arguments evaluated (a key that is not a string, a case-insensitive dict). */
export type EvaluatedCall = (fr: Frame, recv: Value, args: Value[]) => Value;

/** Text methods charge by length beyond 1 KiB (attrs.ts chargeText); below it there is nothing to charge. */
const CHARGE_FREE = 1024;
/** `append` checks the element limit from this length on (methods/collections.ts). */
const LIST_CHECKED = 65536;

export function fastMethodCall(name: string, recv: Ex, args: readonly Ex[], general: GeneralCall, evaluated: EvaluatedCall): Ex | undefined {
  const n = args.length;
  if (n === 0) {
    switch (name) {
      case 'strip':
        return (fr) => {
          const r = recv(fr);
          return typeof r === 'string' && r.length <= CHARGE_FREE ? stripSpace(r) : general(fr, r);
        };
      case 'lower':
        return (fr) => {
          const r = recv(fr);
          return typeof r === 'string' && r.length <= CHARGE_FREE ? lowerText(r) : general(fr, r);
        };
      case 'upper':
        return (fr) => {
          const r = recv(fr);
          return typeof r === 'string' && r.length <= CHARGE_FREE ? upperText(r) : general(fr, r);
        };
    }
    return undefined;
  }
  const a0 = args[0]!;
  if (n === 1 && name === 'append') {
    return (fr) => {
      const r = recv(fr);
      if (!(r instanceof List) || r.frozen || r.itercount > 0 || r.elems.length >= LIST_CHECKED) return general(fr, r);
      r.elems.push(a0(fr));
      return null;
    };
  }
  if (name === 'get' && n === 1) {
    return (fr) => {
      const r = recv(fr);
      if (!(r instanceof Dict) || r.ci) return general(fr, r);
      const k = a0(fr);
      if (typeof k !== 'string') return evaluated(fr, r, [k]);
      const v = r.ht.vals.get(k);
      return v === undefined ? null : v;
    };
  }
  if (name === 'get' && n === 2) {
    const a1 = args[1]!;
    return (fr) => {
      const r = recv(fr);
      if (!(r instanceof Dict) || r.ci) return general(fr, r);
      const k = a0(fr);
      const d = a1(fr);
      if (typeof k !== 'string') return evaluated(fr, r, [k, d]);
      const v = r.ht.vals.get(k);
      return v === undefined ? d : v;
    };
  }
  return undefined;
}
