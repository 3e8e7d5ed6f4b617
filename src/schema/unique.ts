/**
 * `unique_items` for lists whose elements are objects, lists or `any`, in linear time: ajv compares
 * every pair of such items (30,000 small objects, a 350 KB body, cost 24 s of CPU). Each element is
 * reduced to canonical JSON (keys sorted, as JSON Schema's equality) and looked up in a set; bodies
 * are bounded in depth (json-body.ts), so the recursion is.
 */
export const UNIQUE_ITEMS_KEYWORD = 'svcUniqueItems';

export function allDistinct(items: readonly unknown[]): boolean {
  if (items.length < 2) return true;
  const seen = new Set<string>();
  for (const item of items) {
    const key = canonical(item);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + canonical(value[i]);
    return out + ']';
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) out += (i > 0 ? ',' : '') + JSON.stringify(keys[i]) + ':' + canonical(record[keys[i]!]);
  return out + '}';
}
