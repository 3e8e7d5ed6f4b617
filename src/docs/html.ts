/** Text into HTML, and data into an inline `<script>`. */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Safe in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/**
 * JSON to place inside `<script>`: `<` is written `\u003c`, so no `</script>` or `<!--` in a string
 * can end the element, and U+2028/U+2029 are escaped for older parsers. It parses to the same value.
 */
export function jsonForScript(value: unknown): string {
  return scriptSafeJson(JSON.stringify(value));
}

/** JSON text made safe for `<script>` the same way (`<` occurs in JSON only inside strings). */
export function scriptSafeJson(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
