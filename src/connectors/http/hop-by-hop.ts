/**
 * Hop-by-hop header fields (RFC 9110 §7.6.1): they describe one connection, not the message, so a
 * gateway never passes them on, in either direction. The fixed list is RFC 9110's plus the
 * `Keep-Alive`, `Proxy-*` and `Trailer(s)` fields of earlier RFCs that servers still send; any other
 * field named in `Connection` is hop-by-hop for that one message.
 */

const HOP_BY_HOP: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'te', 'trailer', 'trailers', 'transfer-encoding', 'upgrade']);

/** Header values as Node and undici hand them over: one string, or a list for repeated fields. */
export type HeaderValue = string | readonly string[];

/** `name` must be lower-case. */
function isHopByHop(name: string, named: ReadonlySet<string> | undefined): boolean {
  return HOP_BY_HOP.has(name) || name.startsWith('proxy-') || named?.has(name) === true;
}

/** The field names a `Connection` header lists (`Connection: close, X-Foo` -> {close, x-foo}). */
function connectionTokens(value: HeaderValue | undefined): ReadonlySet<string> | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : value.join(',');
  const tokens = new Set<string>();
  for (const token of text.split(',')) {
    const name = token.trim().toLowerCase();
    if (name !== '') tokens.add(name);
  }
  return tokens.size > 0 ? tokens : undefined;
}

/**
 * A copy of `headers` with lower-cased names and without hop-by-hop fields; `drop` names further
 * fields to leave out (lower-case). Undefined values are skipped.
 */
export function endToEnd(headers: Readonly<Record<string, HeaderValue | undefined>>, drop?: ReadonlySet<string>): Record<string, HeaderValue> {
  let connection: HeaderValue | undefined;
  for (const name in headers) if (name.toLowerCase() === 'connection') connection = headers[name];
  const named = connectionTokens(connection);
  const out: Record<string, HeaderValue> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (isHopByHop(lower, named) || drop?.has(lower)) continue;
    const previous = out[lower];
    // Two spellings of one field (`Accept` and `accept` in a manifest map) are one repeated field.
    out[lower] = previous === undefined ? value : [...toList(previous), ...toList(value)];
  }
  return out;
}

function toList(value: HeaderValue): readonly string[] {
  return typeof value === 'string' ? [value] : value;
}
