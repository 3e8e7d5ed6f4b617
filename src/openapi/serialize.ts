/**
 * The document as text: JSON (two-space indent, a final newline) or YAML. `svc openapi` and the
 * spec endpoints both write through here, so the served JSON is `svc openapi`'s output byte for byte.
 */
import { stringify } from 'yaml';
import type { OpenApiDocument } from './document-types.js';

export type DocumentFormat = 'json' | 'yaml';

export function serializeDocument(document: OpenApiDocument, format: DocumentFormat): string {
  if (format === 'json') return JSON.stringify(document, null, 2) + '\n';
  // No anchors or aliases (schemas shared in memory are written out each time), no folded lines.
  return stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
}
