// "Did you mean" suggestions: a port of starlark-go's internal/spell.

function fold(s: string): string {
  return s.replace(/_/g, '').toLowerCase();
}

function levenshtein(x: string, y: string, max: number): number {
  if (x.length > y.length) [x, y] = [y, x];
  for (let i = 0; i < x.length; i++) {
    if (x[i] !== y[i]) {
      x = x.slice(i);
      y = y.slice(i);
      break;
    }
  }
  if (x === '') return y.length;
  const d = Math.abs(x.length - y.length);
  if (d > max) return d;
  const row: number[] = [];
  for (let i = 0; i <= y.length; i++) row.push(i);
  for (let i = 1; i <= x.length; i++) {
    row[0] = i;
    let best = i;
    let prev = i - 1;
    for (let j = 1; j <= y.length; j++) {
      const a = prev + (x[i - 1] !== y[j - 1] ? 1 : 0);
      const b = 1 + row[j - 1]!;
      const c = 1 + row[j]!;
      const k = Math.min(a, b, c);
      prev = row[j]!;
      row[j] = k;
      best = Math.min(best, k);
    }
    if (best > max) return best;
  }
  return row[y.length]!;
}

/** The candidate nearest to x (up to 50% typos), or ''. */
export function nearest(x: string, candidates: Iterable<string>): string {
  x = fold(x);
  let best = '';
  let bestD = Math.floor((x.length + 1) / 2);
  for (const c of candidates) {
    const d = levenshtein(x, fold(c), bestD);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}
