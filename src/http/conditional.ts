/**
 * Conditional GET (RFC 9110 §13): strong entity tags and `If-None-Match`.
 *
 * An endpoint's tag is a hash of the exact bytes of its answer as the pipeline made it (SHA-1,
 * base64url: the cheapest of Node's one-call hashes that no body will collide on by chance; a tag is a
 * validator, not a signature). A compressed answer is another representation with another tag: the
 * identity tag with `-gzip`, `-br` or `-zstd` appended, so a cache never takes one for the other
 * (§8.8.3 makes a strong tag specific to the bytes sent).
 *
 * `If-None-Match` matches by weak comparison (§13.1.2: `W/` ignored), against the identity tag or
 * any coding's: a client that revalidates with the gzip tag and now asks for brotli still learns
 * that the content did not change, which is what it asks (and the 304 carries the tag of the
 * representation it would have got).
 */
import { hash } from 'node:crypto';
import type { ContentCoding } from '../model/index.js';

/** The quoted strong tag of a body's bytes (or its text, UTF-8), before any coding. */
export function entityTag(body: string | Buffer): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

/** The tag of the representation sent: a compressed one has its coding appended inside the quotes. */
export function codedTag(tag: string, coding: ContentCoding | undefined): string {
  return coding === undefined ? tag : `${tag.slice(0, -1)}-${coding}"`;
}

const CODINGS: readonly ContentCoding[] = ['gzip', 'br', 'zstd'];

/**
 * Whether `If-None-Match` holds a tag equal to `tag` under weak comparison, or `*`. `tag` is the
 * identity tag; its coded variants match too when `coded` is set (not for files served as they are).
 */
export function noneMatch(header: string | string[] | undefined, tag: string, coded = true): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  for (const raw of value.split(',')) {
    let candidate = raw.trim();
    if (candidate === '*') return true;
    if (candidate.startsWith('W/')) candidate = candidate.slice(2);
    if (candidate === tag) return true;
    if (coded && candidate.length > tag.length) {
      for (const coding of CODINGS) if (candidate === codedTag(tag, coding)) return true;
    }
  }
  return false;
}
