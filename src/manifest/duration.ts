/**
 * Durations as the manifest writes them: a number and a unit (`ms`, `s`, `m`, `h`), combinable
 * (`1m30s`, `1h5m`, `1.5s`). Returns milliseconds, or undefined when the text is not a duration.
 */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const WHOLE = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;

export function parseDuration(text: string): number | undefined {
  const s = text.trim();
  if (!WHOLE.test(s)) return undefined;
  let total = 0;
  for (const m of s.matchAll(PART)) total += Number(m[1]) * UNIT_MS[m[2]!]!;
  return Math.round(total);
}

export const DURATION_HINT = 'write a number followed by a unit (ms, s, m, h), combinable as in "1m30s"';
