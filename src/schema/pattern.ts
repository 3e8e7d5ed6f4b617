/**
 * A boot-time warning for `pattern`s that may backtrack catastrophically.
 *
 * Patterns run on JavaScript's backtracking engine (through ajv), once per request value. A pattern
 * such as `^(a+)+$` takes time exponential in the input length on a near-miss (`aaaa…a!`), so the
 * manifest's author would let any client burn a CPU core per request. A linear-time engine would need
 * a native dependency; instead this module flags the usual shape of such patterns so the author sees
 * it in `svc check`. It is a heuristic, neither sound nor complete: a warning is not an error, and a
 * pattern without a warning is not proven safe.
 *
 * The shape: a group repeated more than once (`*`, `+`, `{n,}`, `{n,m}` with m >= 2, lazy or not)
 * whose body can match the same text in several ways, approximated as a body that holds
 * - a repeated part itself (`(a+)+`, `(a*)*`, `(\w+\s?)*`, `((ab)+c)*`), or
 * - an alternation (`(a|aa)+`, `((a|b)c)*`).
 * Two common unambiguous forms are not flagged, to keep the warning meaningful:
 * - the body starts with a plain literal character that no repeated atom in it can match: that
 *   character separates the repetitions, so each one starts at a known place (`(-[a-z0-9]+)*` in a
 *   slug pattern, `(\.[a-z]+)+`);
 * - the body is an alternation of branches without any repetition, each starting with a different plain
 *   literal character (`(foo|bar)+`).
 * Lookarounds are skipped (they do not repeat), and so is anything the parser below does not follow.
 */

interface Quant {
  readonly min: number;
  readonly max: number;
}

type Node =
  | { readonly kind: 'atom'; readonly text: string; quant?: Quant }
  | { readonly kind: 'group'; readonly alts: Node[][]; readonly look: boolean; quant?: Quant };

/** True when `pattern` (a valid `u`-mode regular expression) has a repeated group that may backtrack. */
export function mayBacktrackCatastrophically(pattern: string): boolean {
  let tree: Node[][];
  try {
    tree = new Parser(pattern).alternatives(false);
  } catch {
    return false; // a syntax this parser does not follow; the pattern itself was already found valid
  }
  return tree.some((seq) => seq.some(risky));
}

function risky(node: Node): boolean {
  if (node.kind === 'atom') return false;
  if (!node.look && repeats(node.quant) && ambiguous(node)) return true;
  return node.alts.some((seq) => seq.some(risky));
}

function repeats(q: Quant | undefined): boolean {
  return q !== undefined && q.max >= 2;
}

/** The body of a repeated group may match one text in several ways (see the module comment). */
function ambiguous(group: Extract<Node, { kind: 'group' }>): boolean {
  const inner = group.alts.flat();
  const innerRepeat = inner.some(hasRepeat);
  const innerAlt = group.alts.length > 1 || inner.some(hasAlternation);
  if (!innerRepeat && !innerAlt) return false;
  if (group.alts.length === 1 && !inner.some(hasAlternation)) {
    const sep = leadingLiteral(group.alts[0]!);
    if (sep !== undefined && repeatedAtoms(group.alts[0]!).every((a) => a !== undefined && !matchesChar(a, sep))) return false;
  }
  if (!innerRepeat && !inner.some(hasAlternation)) {
    const firsts = group.alts.map(leadingLiteral);
    if (firsts.every((c) => c !== undefined) && new Set(firsts).size === firsts.length) return false;
  }
  return true;
}

function hasRepeat(node: Node): boolean {
  if (repeats(node.quant)) return true;
  return node.kind === 'group' && node.alts.some((seq) => seq.some(hasRepeat));
}

function hasAlternation(node: Node): boolean {
  return node.kind === 'group' && !node.look && (node.alts.length > 1 || node.alts.some((seq) => seq.some(hasAlternation)));
}

/**
 * The atoms repeated inside a sequence, at any depth; `undefined` stands for a repeated group (not
 * analysed: it counts as matching anything).
 */
function repeatedAtoms(seq: readonly Node[]): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  for (const node of seq) {
    if (node.kind === 'atom') {
      if (repeats(node.quant)) out.push(node.text);
    } else if (repeats(node.quant)) out.push(undefined);
    else if (!node.look) for (const s of node.alts) out.push(...repeatedAtoms(s));
  }
  return out;
}

/** The character a sequence must start with, when its first node is a plain literal matched exactly once. */
function leadingLiteral(seq: readonly Node[]): string | undefined {
  const first = seq[0];
  if (first === undefined || first.kind !== 'atom' || (first.quant !== undefined && (first.quant.min !== 1 || first.quant.max !== 1))) {
    return undefined;
  }
  const t = first.text;
  if ([...t].length === 1 && !'.^$\\[('.includes(t)) return t;
  if (t.length === 2 && t[0] === '\\' && /[^\w\s]/.test(t[1]!)) return t[1]; // `\.`, `\-`, `\/`
  return undefined;
}

/** Whether an atom (`a`, `\d`, `[a-z]`, `.`) can match `c`; unknown atoms (back-references) can. */
function matchesChar(atom: string, c: string): boolean {
  try {
    return new RegExp(`^(?:${atom})$`, 'u').test(c);
  } catch {
    return true;
  }
}

/** A small recursive-descent reader of JavaScript regular expression syntax (`u` mode), for the shape only. */
class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  alternatives(inGroup: boolean): Node[][] {
    const alts: Node[][] = [[]];
    while (this.i < this.src.length) {
      const c = this.src[this.i]!;
      if (c === ')') {
        if (!inGroup) throw new Error('unbalanced');
        return alts;
      }
      if (c === '|') {
        this.i++;
        alts.push([]);
        continue;
      }
      const node = this.atom();
      const quant = this.quantifier();
      if (quant !== undefined) node.quant = quant;
      alts[alts.length - 1]!.push(node);
    }
    if (inGroup) throw new Error('unclosed group');
    return alts;
  }

  private atom(): Node {
    const s = this.src;
    const start = this.i;
    const c = s[this.i]!;
    if (c === '(') {
      this.i++;
      let look = false;
      if (s.startsWith('?:', this.i)) this.i += 2;
      else if (s.startsWith('?=', this.i) || s.startsWith('?!', this.i)) {
        this.i += 2;
        look = true;
      } else if (s.startsWith('?<=', this.i) || s.startsWith('?<!', this.i)) {
        this.i += 3;
        look = true;
      } else if (s.startsWith('?<', this.i)) this.i = s.indexOf('>', this.i) + 1;
      const alts = this.alternatives(true);
      this.i++; // ')'
      return { kind: 'group', alts, look };
    }
    if (c === '[') {
      this.i++;
      if (s[this.i] === '^') this.i++;
      while (this.i < s.length && s[this.i] !== ']') this.i += s[this.i] === '\\' ? 2 : 1;
      this.i++;
      return { kind: 'atom', text: s.slice(start, this.i) };
    }
    if (c === '\\') {
      this.i += 2;
      // \u{...}, \p{...}, \k<name>: read to the closing bracket.
      if (s[this.i] === '{' && /[upP]/.test(s[this.i - 1]!)) this.i = s.indexOf('}', this.i) + 1;
      else if (s[this.i - 1] === 'u') this.i += 4;
      else if (s[this.i - 1] === 'x') this.i += 2;
      else if (s[this.i - 1] === 'k' && s[this.i] === '<') this.i = s.indexOf('>', this.i) + 1;
      return { kind: 'atom', text: s.slice(start, this.i) };
    }
    this.i += c.length === 1 && c.charCodeAt(0) >= 0xd800 && c.charCodeAt(0) < 0xdc00 ? 2 : 1; // a surrogate pair is one character
    return { kind: 'atom', text: s.slice(start, this.i) };
  }

  private quantifier(): Quant | undefined {
    const s = this.src;
    let q: Quant | undefined;
    const c = s[this.i];
    if (c === '*') q = { min: 0, max: Infinity };
    else if (c === '+') q = { min: 1, max: Infinity };
    else if (c === '?') q = { min: 0, max: 1 };
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(this.i));
      if (m === null) return undefined;
      this.i += m[0].length - 1;
      q = { min: Number(m[1]), max: m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]) };
    }
    if (q === undefined) return undefined;
    this.i++;
    if (s[this.i] === '?') this.i++; // lazy: backtracks the same
    return q;
  }
}
