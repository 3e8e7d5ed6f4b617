/**
 * Which content coding a client accepts (RFC 9110 §12.5.3), among the ones the server offers: the
 * highest `q` wins (an unlisted coding takes `*`'s; `x-gzip` is `gzip`), ties go to the server's
 * order, and `identity` wins over lower weights unless refused. When nothing offered is acceptable,
 * or the header is garbage, the answer goes as it is: §12.1 lets an origin disregard the header
 * rather than answer 406, and bytes serve a client better than an error.
 */
import type { ContentCoding } from '../model/index.js';

/** Each offered coding's weight, from one header value; identity's under the key `identity`. */
type Weights = Map<string, number>;

/** RFC 9110 §12.4.2: `q=` 0 to 1 with up to three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** Only this much of a header is read: no client lists more codings than fit in it. */
const MAX_HEADER_CHARS = 1024;

function weightsOf(header: string): Weights {
  const weights: Weights = new Map();
  for (const entry of header.slice(0, MAX_HEADER_CHARS).split(',')) {
    const parts = entry.split(';');
    let name = parts[0]!.trim().toLowerCase();
    if (name === '') continue;
    if (name === 'x-gzip') name = 'gzip';
    let q = 1;
    let valid = true;
    for (let i = 1; i < parts.length; i++) {
      const param = parts[i]!.trim();
      const eq = param.indexOf('=');
      if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'q') continue;
      const value = param.slice(eq + 1).trim();
      if (QVALUE.test(value)) q = Number(value);
      else valid = false;
    }
    // The first mention of a coding counts; a repeated one is a client's mistake, not a new weight.
    if (valid && !weights.has(name)) weights.set(name, q);
  }
  return weights;
}

/** The coding to answer with, or undefined for identity. `offered` is in the server's order. */
export function chooseEncoding(header: string | undefined, offered: readonly ContentCoding[]): ContentCoding | undefined {
  // No header: any coding is acceptable per the RFC, but a client that says nothing may not decode one.
  if (header === undefined || header === '') return undefined;
  const weights = weightsOf(header);
  const any = weights.get('*');
  let best: ContentCoding | undefined;
  let bestQ = 0;
  for (const coding of offered) {
    const q = weights.get(coding) ?? any ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  if (best === undefined) return undefined;
  const identity = weights.get('identity') ?? (any !== undefined && any > 0 ? any : undefined);
  // Only an identity asked for with a higher weight beats the coding; an implicit one never does.
  return identity !== undefined && identity > bestQ ? undefined : best;
}

/**
 * The choice for one header value, remembered for the last value seen: browsers send the same
 * `Accept-Encoding` on every request, so a server mostly parses it once.
 */
export class EncodingChooser {
  private lastHeader: string | undefined;
  private lastChoice: ContentCoding | undefined;

  constructor(private readonly offered: readonly ContentCoding[]) {}

  choose(header: string | undefined): ContentCoding | undefined {
    if (header === undefined) return undefined;
    if (header === this.lastHeader) return this.lastChoice;
    const choice = chooseEncoding(header, this.offered);
    this.lastHeader = header;
    this.lastChoice = choice;
    return choice;
  }
}
