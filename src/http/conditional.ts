/**
 * Conditional GET (RFC 9110 §13): strong entity tags and `If-None-Match`. A tag is a SHA-1 (base64url)
 * of the answer's exact bytes: the cheapest one-call hash no body collides on by chance (a validator,
 * not a signature). A compressed answer has the identity tag plus `-gzip`, `-br` or `-zstd` (§8.8.3).
 * `If-None-Match` compares weakly (§13.1.2) against the identity tag or any coding's, so a client
 * revalidating with the gzip tag and now asking for brotli still learns nothing changed.
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
