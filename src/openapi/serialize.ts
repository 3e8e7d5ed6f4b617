/**
 * The document as text: JSON (two-space indent, a final newline) or YAML. `svc openapi` and the
 * spec endpoints both write through here, so the served JSON is `svc openapi`'s output byte for byte.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { OpenApiDocument } from './document-types.js';

const require = createRequire(import.meta.url);

export type DocumentFormat = 'json' | 'yaml';

export function serializeDocument(document: OpenApiDocument, format: DocumentFormat): string {
  if (format === 'json') return JSON.stringify(document, null, 2) + '\n';
  // Loaded by the first YAML document (synchronously: yaml ships CommonJS too), so a service that
  // serves none never holds it (about 8 MB of resident memory).
  const { stringify } = require('yaml') as typeof Yaml;
  // No anchors or aliases (schemas shared in memory are written out each time), no folded lines.
  return stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
}
