/**
 * What the fuzz suite calls a defect, in one place (and tested on its own, oracle.test.ts): a stall,
 * an undocumented 5xx, internals shown to a client, an error that is not a problem document.
 */
import { CASE_MS } from './budget.js';

/** The dependency failures a client may meet (src/http/failure.ts, docs/redis.md "Failures"). */
const DOCUMENTED_5XX = new Set([502, 503, 504]);

/** A JavaScript stack frame, a source path, or the name of an engine error. */
export const INTERNALS =
  /\n\s+at [^\n]+:\d+:\d+|node_modules|file:\/\/|\/src\/[\w/-]+\.ts|\b(TypeError|ReferenceError|RangeError|SyntaxError): |Maximum call stack/;

export interface Answer {
  readonly method: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly ms: number;
}

/** What is wrong with an answer, or undefined. */
export function answerDefect(a: Answer): string | undefined {
  if (a.ms > CASE_MS) return `took ${Math.round(a.ms)} ms`;
  if (a.status >= 500 && !DOCUMENTED_5XX.has(a.status)) return `answered ${a.status}: ${a.body.slice(0, 500)}`;
  // Only error answers are searched: a 200 may serve anything (the docs site serves JavaScript bundles).
  const shown = a.status >= 400 ? INTERNALS.exec(a.body) : null;
  if (shown) return `the body shows internals (${JSON.stringify(shown[0])}): ${a.body.slice(0, 500)}`;
  // HEAD has no body to carry a problem.
  if (a.status >= 400 && a.method !== 'HEAD' && !a.contentType.startsWith('application/problem+json')) {
    return `a ${a.status} that is not a problem document (${a.contentType || 'no content-type'}): ${a.body.slice(0, 200)}`;
  }
  return undefined;
}
