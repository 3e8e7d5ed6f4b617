/**
 * How answers are represented on the wire (docs/compression.md, docs/conditional-requests.md):
 * `server { compression { ... } }` and an endpoint's `compression = false`, `etag`, and
 * `cache_control` (checked against RFC 9111's grammar here). src/http/compress.ts and
 * src/http/conditional.ts apply what this decides, per request.
 */
import * as zlib from 'node:zlib';
import type { Attribute, Block } from '../hcl/index.js';
import { decodeBody, type BodySchema } from './body.js';
import type { DecodeScope } from './scope.js';
import type { CompressionModel, ContentCoding, RepresentationModel, ServerModel } from './types.js';
import { readBool, readInt, readSize, readStatic, readString, typeError } from './values.js';

const COMPRESSION_BODY: BodySchema = {
  attributes: { enabled: {}, encodings: {}, min_size: {}, gzip_level: {}, brotli_quality: {}, zstd_level: {} },
};

/** Whether the running Node can write zstd (22.15+, 24; Node 20 cannot). */
export const ZSTD_AVAILABLE = typeof (zlib as { createZstdCompress?: unknown }).createZstdCompress === 'function';

const CODINGS: readonly ContentCoding[] = ['zstd', 'br', 'gzip'];

/**
 * zstd first where Node has it (fast and small), then brotli, then gzip; 1 KiB, below which a body
 * usually fits one packet anyway; zlib's default gzip level; brotli quality 4, which compresses about
 * as well as gzip 6 at a similar cost (brotli's own default, 11, is meant for files compressed once);
 * zstd's default level.
 */
export const COMPRESSION_DEFAULTS = {
  encodings: ZSTD_AVAILABLE ? CODINGS : CODINGS.filter((c) => c !== 'zstd'),
  minSize: 1024,
  gzipLevel: 6,
  brotliQuality: 4,
  zstdLevel: 3,
} as const;

/** The server's block; undefined when it turns compression off (`enabled = false`) or is malformed. */
export function decodeServerCompression(block: Block, scope: DecodeScope): CompressionModel | undefined {
  const s = scope.enter(block);
  const { attrs } = decodeBody(block.body, COMPRESSION_BODY, s, block);
  const enabled = readBool(attrs.get('enabled'), s) ?? true;
  const encodings = readEncodings(attrs.get('encodings'), s);
  const model: CompressionModel = {
    encodings: encodings ?? COMPRESSION_DEFAULTS.encodings,
    minSize: readSize(attrs.get('min_size'), s) ?? COMPRESSION_DEFAULTS.minSize,
    gzipLevel: readInt(attrs.get('gzip_level'), s, { min: 1, max: 9 }) ?? COMPRESSION_DEFAULTS.gzipLevel,
    brotliQuality: readInt(attrs.get('brotli_quality'), s, { min: 0, max: 11 }) ?? COMPRESSION_DEFAULTS.brotliQuality,
    zstdLevel: readInt(attrs.get('zstd_level'), s, { min: 1, max: 22 }) ?? COMPRESSION_DEFAULTS.zstdLevel,
  };
  return enabled && model.encodings.length > 0 ? model : undefined;
}

/** A list of `gzip`, `br`, `zstd`, in preference order; zstd is left out, with a warning, where Node lacks it. */
function readEncodings(attr: Attribute | undefined, s: DecodeScope): ContentCoding[] | undefined {
  if (attr === undefined) return undefined;
  const v = readStatic(attr, s);
  if (!v.ok) return undefined;
  if (!Array.isArray(v.value) || !v.value.every((x) => typeof x === 'string')) return void typeError(attr, s, 'a list of strings');
  const encodings: ContentCoding[] = [];
  for (const raw of v.value as string[]) {
    const name = raw.toLowerCase();
    if (!(CODINGS as readonly string[]).includes(name)) {
      s.error('Unknown compression encoding', attr.expr.range, { detail: `"${raw}" is not an encoding svc writes; use "gzip", "br" or "zstd".` });
    } else if (name === 'zstd' && !ZSTD_AVAILABLE) {
      s.warning('Compression encoding unavailable', attr.expr.range, {
        detail: `This Node.js (${process.version}) has no zstd (Node 22.15 and later do); answers use the other encodings listed.`,
      });
    } else if (!encodings.includes(name as ContentCoding)) encodings.push(name as ContentCoding);
  }
  return encodings;
}

/**
 * An endpoint's representation: `compression = false` (or `true`, the server's settings or the
 * defaults), `etag`, `cache_control`. Undefined when nothing applies, so the answer is written as the
 * pipeline made it.
 */
export function decodeEndpointRepresentation(
  attrs: { readonly compression?: Attribute | undefined; readonly etag?: Attribute | undefined; readonly cacheControl?: Attribute | undefined },
  method: string | undefined,
  s: DecodeScope,
  server: ServerModel,
): RepresentationModel | undefined {
  let compression = server.compression;
  if (attrs.compression !== undefined) {
    const on = readBool(attrs.compression, s);
    if (on === false) compression = undefined;
    else if (on === true) compression ??= { ...COMPRESSION_DEFAULTS };
  }
  const ownEtag = readBool(attrs.etag, s);
  if (ownEtag === true && method !== undefined && method !== 'GET' && method !== 'HEAD') {
    s.warning('ETag on an endpoint that is not GET', attrs.etag!.expr.range, {
      detail: `ETags and If-None-Match are answered on GET and HEAD only; this ${method} endpoint never sends one.`,
    });
  }
  const etag = ownEtag ?? server.etag ?? false;
  const cacheControl = attrs.cacheControl && readCacheControl(attrs.cacheControl, s);
  if (compression === undefined && !etag && cacheControl === undefined) return undefined;
  return { ...(compression !== undefined ? { compression } : {}), etag, ...(cacheControl !== undefined ? { cacheControl } : {}) };
}

/** RFC 9111 §5.2: `directive[=token|"quoted"]`, comma-separated. */
const DIRECTIVE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:=([!#$%&'*+.^_`|~0-9A-Za-z-]+|"(?:[^"\\\r\n]|\\[^\r\n])*"))?$/;

/** The response directives of RFC 9111 §5.2.2 and RFC 8246/5861 (immutable, stale-*). */
const KNOWN = new Set([
  'max-age',
  's-maxage',
  'no-cache',
  'no-store',
  'no-transform',
  'must-revalidate',
  'proxy-revalidate',
  'must-understand',
  'private',
  'public',
  'immutable',
  'stale-while-revalidate',
  'stale-if-error',
]);
/** Directives whose argument is a number of seconds. */
const SECONDS = new Set(['max-age', 's-maxage', 'stale-while-revalidate', 'stale-if-error']);

function readCacheControl(attr: Attribute, s: DecodeScope): string | undefined {
  const value = readString(attr, s);
  if (value === undefined) return undefined;
  const directives = value.split(',').map((d) => d.trim());
  let ok = directives.length > 0;
  for (const directive of directives) {
    const m = DIRECTIVE.exec(directive);
    if (m === null) {
      invalidCacheControl(attr, s, `"${directive}" is not a directive (a name, optionally =value; directives are separated by commas).`);
      ok = false;
      continue;
    }
    const name = m[1]!.toLowerCase();
    if (SECONDS.has(name) && (m[2] === undefined || !/^\d+$/.test(m[2]))) {
      invalidCacheControl(attr, s, `${name} takes a whole number of seconds, as in "${name}=60".`);
      ok = false;
    } else if (!KNOWN.has(name)) {
      s.warning('Unknown Cache-Control directive', attr.expr.range, {
        detail: `"${name}" is not a response directive of RFC 9111; caches ignore what they do not know. Known: ${[...KNOWN].join(', ')}.`,
      });
    }
  }
  return ok ? directives.join(', ') : undefined;
}

function invalidCacheControl(attr: Attribute, s: DecodeScope, detail: string): void {
  s.error('Invalid Cache-Control', attr.expr.range, { detail });
}
