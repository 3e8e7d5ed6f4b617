/**
 * URL templates (issue 35): `"http://upstream/items/${ctx.request.path.id}?q=${ctx.request.query.q}"`.
 *
 * An interpolated value must stay the one path segment or query value it is put in (`../admin`,
 * `x&admin=1` would address another resource). The compiler (compile.ts, `compileUrl`) follows the
 * literal text at boot with a UrlPosition and wraps each per-request value in its part's encoding:
 * `encodeURIComponent` for path, query and fragment; nothing before the path (no encoding makes request
 * data a safe host: the http step warns). `.`/`..` segments cannot be encoded and are refused per
 * request by the http step; `unencoded(x)` and `url_encode(x)` are not encoded again (docs/http-step.md
 * "URLs built from data").
 */
import type { Range } from '../diag/index.js';
import type { Reference } from './references.js';
import type { Evaluator } from './scope.js';

/** Where in a URL a piece of a template lands, in the order they come. */
export type UrlPlace = 'authority' | 'path' | 'query' | 'fragment';

const ORDER: Readonly<Record<UrlPlace, number>> = { authority: 0, path: 1, query: 2, fragment: 3 };

/** How an interpolation's value is written into the URL. */
export type UrlEncoding =
  /** `encodeURIComponent`: one path segment, one query value. */
  | 'component'
  /** As it is: in the scheme, host or port, where nothing can be encoded. */
  | 'none'
  /** As it is, because the author said so: `unencoded(x)`, or `url_encode(x)` already encoded. */
  | 'author';

/** One interpolation of a URL template that is computed per request. */
export interface UrlSite {
  readonly place: UrlPlace;
  readonly encoding: UrlEncoding;
  readonly range: Range;
  /** What it reads (ctx.request... is request data). */
  readonly references: readonly Reference[];
}

/** A URL expression as the compiler saw it; the http step checks and reports from it. */
export interface UrlShape {
  /** Interpolations of the URL's templates computed per request, in source order. */
  readonly sites: UrlSite[];
  /**
   * Expressions that compute a whole URL, not a template svc can encode part by part
   * (`url = ctx.request.query.target`, `url = format(...)`): nothing of their value is encoded.
   */
  readonly computed: { readonly range: Range; readonly references: readonly Reference[] }[];
  /** Literal path segments `.` or `..` (the author's text, or a constant folded into it). */
  readonly dotSegments: Range[];
}

export function emptyUrlShape(): UrlShape {
  return { sites: [], computed: [], dotSegments: [] };
}

/**
 * The position in a URL while its template's literal text is read, left to right. Before the path:
 * a `/` that is not part of the scheme's `://` starts the path (also after an interpolation that
 * gives the origin, `"${base}/items"`), `?` the query, `#` the fragment.
 */
export class UrlPosition {
  place: UrlPlace = 'authority';
  /** The current path segment's literal text so far, while it has only literal text. */
  private segment: string | undefined;
  private segmentStart: Range | undefined;
  /** The last two characters read before the path, to tell the slashes of `://` from the path's. */
  private tail = '';

  constructor(private readonly shape: UrlShape) {}

  clone(): UrlPosition {
    const copy = new UrlPosition(this.shape);
    copy.place = this.place;
    copy.segment = this.segment;
    copy.segmentStart = this.segmentStart;
    copy.tail = this.tail;
    return copy;
  }

  /**
   * After a directive that may end in `a` or in `b`: the later part of the two (values after it are
   * encoded, unless both leave the URL before its path).
   */
  becomeEither(a: UrlPosition, b: UrlPosition): void {
    const later = ORDER[b.place] > ORDER[a.place] ? b : a;
    this.place = later.place;
    this.tail = later.tail;
    this.segmentStart = later.segmentStart;
    // A segment whose text depends on the branch is not known at boot: no dot segment to report.
    this.segment = a.segment === b.segment ? a.segment : undefined;
  }

  /** Literal text of the template (or a constant folded into it), at `range`. */
  text(s: string, range: Range): void {
    for (let i = 0; i < s.length; i++) {
      const c = s[i]!;
      if (this.place === 'authority') {
        const schemeSlash = c === '/' && (this.tail.endsWith(':') || this.tail === ':/');
        this.tail = (this.tail + c).slice(-2);
        if (c === '/' && !schemeSlash) this.enterPath(range);
        else if (c === '?') this.place = 'query';
        else if (c === '#') this.place = 'fragment';
        continue;
      }
      if (this.place === 'path') {
        if (c === '/' || c === '\\') {
          this.endSegment();
          this.segment = '';
          this.segmentStart = range;
        } else if (c === '?' || c === '#') {
          this.endSegment();
          this.place = c === '?' ? 'query' : 'fragment';
        } else if (this.segment !== undefined) this.segment += c;
        continue;
      }
      if (this.place === 'query' && c === '#') this.place = 'fragment';
    }
  }

  /** A value computed per request at this position: recorded; its segment is no longer literal. */
  value(site: UrlSite): void {
    this.shape.sites.push(site);
    this.segment = undefined;
  }

  /** The template's end. */
  end(): void {
    if (this.place === 'path') this.endSegment();
  }

  private enterPath(range: Range): void {
    this.place = 'path';
    this.segment = '';
    this.segmentStart = range;
  }

  private endSegment(): void {
    if ((this.segment === '.' || this.segment === '..') && this.segmentStart !== undefined) this.shape.dotSegments.push(this.segmentStart);
    this.segment = undefined;
  }
}

/** A UTF-16 surrogate without its pair. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** What encodeURIComponent leaves as it is: most values (ids, slugs, numbers) are only this. */
const UNESCAPED = /^[\w.!~*'()-]*$/;

/** `encodeURIComponent` that never throws: a lone surrogate (possible in JSON text) becomes U+FFFD. */
export function encodeUrlComponent(s: string): string {
  // The same result, several times cheaper than encodeURIComponent on a short id (about 100 ns).
  if (UNESCAPED.test(s)) return s;
  try {
    return encodeURIComponent(s);
  } catch {
    // URIError: the only one encodeURIComponent throws is for a lone surrogate.
    return encodeURIComponent(s.replace(LONE_SURROGATE, '\uFFFD'));
  }
}

/** An interpolation's evaluator, its string value encoded for `encoding`. */
export function encodedPart(part: Evaluator, encoding: UrlEncoding): Evaluator {
  if (encoding !== 'component') return part;
  return (v, f, budget) => encodeUrlComponent(part(v, f, budget) as string);
}
