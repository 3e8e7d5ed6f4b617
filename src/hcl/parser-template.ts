/**
 * Templates (quoted strings, heredocs, bare templates): port of hclsyntax parser_template.go.
 *
 * Two passes, as in hclsyntax: first the token stream becomes a flat list of literals,
 * interpolations and directive markers, with strip markers (`~`) applied to the neighbouring
 * literals; flush-heredoc indentation is removed and adjacent literals melded; then the flat
 * list is folded into the nested if/for structure of ast.ts.
 */
import { rangeBetween, type Range, didYouMean } from '../diag/index.js';
import type { Expression, TemplatePart } from './ast.js';
import { nfc, trimLeftSpace, trimRightSpace } from './chars.js';
import { decodeLiteral } from './escapes.js';
import { flushHeredoc, type FlatLiteral } from './heredoc.js';
import { invalidExpr, parseExpression } from './parser-expr.js';
import type { ParserState } from './parser-state.js';
import { span, T, type Token, type TokenType } from './tokens.js';

interface FlatInterp {
  readonly k: 'interp';
  readonly expr: Expression;
  readonly range: Range;
}
interface FlatIf {
  readonly k: 'if';
  readonly cond: Expression;
  readonly range: Range;
}
interface FlatFor {
  readonly k: 'for';
  readonly keyVar: string | undefined;
  readonly valueVar: string;
  readonly collection: Expression;
  readonly range: Range;
}
interface FlatEndCtl {
  readonly k: 'endctl';
  readonly which: 'else' | 'endif' | 'endfor';
  readonly range: Range;
}
interface FlatEnd {
  readonly k: 'end';
  readonly range: Range;
}
type Flat = FlatLiteral | FlatInterp | FlatIf | FlatFor | FlatEndCtl | FlatEnd;

export interface TemplateResult {
  readonly parts: TemplatePart[];
  /** The span from the first token after the opener to the closer. */
  readonly range: Range;
}

/**
 * Parses template content up to the token `end` (CQuote, CHeredoc or EOF for a bare template).
 * `open` is the opening token, used to point "unterminated" errors at where the string began.
 */
export function parseTemplateInner(p: ParserState, end: TokenType, flush: boolean, open?: Token): TemplateResult {
  const { parts, range } = parseTemplateParts(p, end, open);
  if (flush) flushHeredoc(parts);
  meld(parts);
  const b = new TreeBuilder(p, parts);
  return { parts: b.root(), range };
}

function isKeyword(p: ParserState, tok: Token, word: string): boolean {
  return tok.type === T.Ident && tok.end - tok.start === word.length && p.src.startsWith(word, tok.start);
}

function parseTemplateParts(p: ParserState, end: TokenType, open: Token | undefined): { parts: Flat[]; range: Range } {
  const parts: Flat[] = [];
  const startRange = p.nextRange();
  let ltrimNext = false;
  let nextCanTrimPrev = false;
  let endRange: Range;

  for (;;) {
    const next = p.read();
    if (next.type === end) {
      endRange = next.range;
      break;
    }
    const ltrim = ltrimNext;
    ltrimNext = false;
    const canTrimPrev = nextCanTrimPrev;
    nextCanTrimPrev = false;

    if (next.type === T.StringLit || next.type === T.QuotedLit) {
      let value = decodeLiteral(p.src, next.start, next.end, next.range.start, p.filename, next.type === T.QuotedLit, p.diags);
      if (ltrim) value = trimLeftSpace(value);
      parts.push({ k: 'lit', value, range: next.range });
      nextCanTrimPrev = true;
      continue;
    }

    if (next.type === T.TemplateInterp || next.type === T.TemplateControl) {
      // `${~` / `%{~` strips trailing whitespace from the literal before it.
      if (canTrimPrev && next.end - next.start === 3 && parts.length > 0) {
        const prev = parts[parts.length - 1]!;
        if (prev.k === 'lit') prev.value = trimRightSpace(prev.value);
      }
      p.pushNewlines(false);
      if (next.type === T.TemplateInterp) {
        const expr = parseExpression(p);
        const close = p.peek();
        if (close.type !== T.TemplateSeqEnd) {
          if (!p.recovery) {
            if (close.type === T.EOF) {
              p.error(
                'Unclosed template interpolation sequence',
                'There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.',
                next.range,
              );
            } else if (close.type === T.Colon) {
              p.error(
                'Extra characters after interpolation expression',
                'Template interpolation doesn\'t expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with "$${" instead of just "${".',
                close.range,
                rangeBetween(startRange, close.range),
              );
            } else if ((close.type === T.CQuote || close.type === T.OQuote || close.type === T.QuotedNewline) && end === T.CQuote) {
              // An errant quote inside the sequence: the sequence is probably missing its `}`.
              p.error(
                'Unclosed template interpolation sequence',
                'There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.',
                next.range,
              );
            } else {
              p.error(
                'Extra characters after interpolation expression',
                'Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with "$${" instead of just "${".',
                close.range,
                rangeBetween(startRange, close.range),
              );
            }
          }
          p.recover(T.TemplateSeqEnd);
        } else {
          p.read();
          if (close.end - close.start === 2) ltrimNext = true; // `~}`
        }
        p.popNewlines();
        parts.push({ k: 'interp', expr, range: span(next, close) });
        continue;
      }

      // A directive: %{ if cond }, %{ else }, %{ endif }, %{ for k, v in coll }, %{ endfor }.
      const kw = p.peek();
      if (kw.type !== T.Ident) {
        if (!p.recovery) {
          p.error(
            'Invalid template directive',
            'A template directive keyword ("if", "for", etc) is expected at the beginning of a %{ sequence.',
            kw.range,
            span(next, kw),
          );
        }
        p.recover(T.TemplateSeqEnd);
        p.popNewlines();
        continue;
      }
      p.read();
      const word = p.text(kw);
      let ok = true;
      switch (word) {
        case 'if': {
          const cond = parseExpression(p);
          parts.push({ k: 'if', cond, range: rangeBetween(next.range, p.nextRange()) });
          break;
        }
        case 'else':
        case 'endif':
        case 'endfor':
          parts.push({ k: 'endctl', which: word, range: rangeBetween(next.range, p.nextRange()) });
          break;
        case 'for': {
          const forFail = (detail: string): void => {
            if (!p.recovery) p.error("Invalid 'for' directive", detail, p.peek().range);
            p.recover(T.TemplateSeqEnd);
            p.popNewlines();
            ok = false;
          };
          if (p.peek().type !== T.Ident) {
            forFail("For directive requires variable name after 'for'.");
            break;
          }
          let keyVar: string | undefined;
          let valueVar = p.text(p.read());
          if (p.peek().type === T.Comma) {
            keyVar = valueVar;
            p.read();
            if (p.peek().type !== T.Ident) {
              forFail('For directive requires value variable name after comma.');
              break;
            }
            valueVar = p.text(p.read());
          }
          if (!isKeyword(p, p.peek(), 'in')) {
            forFail("For directive requires 'in' keyword after names.");
            break;
          }
          p.read();
          const collection = parseExpression(p);
          parts.push({ k: 'for', keyVar, valueVar, collection, range: rangeBetween(next.range, p.nextRange()) });
          break;
        }
        default: {
          if (!p.recovery) {
            // The suggestion renders as `Did you mean "endif"?` after the detail, as in hclsyntax.
            const suggestion = didYouMean(word, ['if', 'for', 'else', 'endif', 'endfor']);
            p.diags.push({
              severity: 'error',
              summary: 'Invalid template control keyword',
              detail: `${JSON.stringify(word)} is not a valid template control keyword.`,
              subject: kw.range,
              context: span(next, kw),
              ...(suggestion !== undefined ? { suggestion } : {}),
            });
          }
          p.recover(T.TemplateSeqEnd);
          p.popNewlines();
          ok = false;
        }
      }
      if (!ok) continue;

      const close = p.peek();
      if (close.type !== T.TemplateSeqEnd) {
        if (!p.recovery) {
          p.error(
            `Extra characters in ${word} marker`,
            'Expected a closing brace to end the sequence, but found extra characters.',
            close.range,
            rangeBetween(startRange, close.range),
          );
        }
        p.recover(T.TemplateSeqEnd);
      } else {
        p.read();
        if (close.end - close.start === 2) ltrimNext = true;
      }
      p.popNewlines();
      continue;
    }

    // Anything else: the template is not terminated.
    if (next.type === T.QuotedNewline) {
      // Our scanner ends a quoted string at a line break; stop here without skipping anything.
      p.error(
        'Unterminated template string',
        'No closing marker was found for the string. A quoted string cannot span lines: use the \\n escape, or a heredoc (<<EOT) for multi-line text.',
        next.range,
        open ? span(open, next) : undefined,
      );
      endRange = next.range;
      break;
    }
    if (!p.recovery) {
      if (next.type === T.EOF && open && open.type === T.OHeredoc) {
        // The end of the file may be far below: point at where the heredoc began.
        p.error('Unterminated template string', 'No closing marker was found for the string.', open.range, span(open, next));
      } else {
        p.error('Unterminated template string', 'No closing marker was found for the string.', next.range, rangeBetween(startRange, next.range));
      }
    }
    const final = next.type === T.EOF ? next : p.recover(end);
    endRange = final.range;
    break;
  }

  if (parts.length === 0) {
    // "" is one empty literal, placed just after the opening quote.
    parts.push({
      k: 'lit',
      value: '',
      range: { filename: startRange.filename, start: startRange.start, end: startRange.start },
    });
  }
  parts.push({ k: 'end', range: endRange });
  return { parts, range: rangeBetween(startRange, endRange) };
}

/** Joins adjacent literals (after stripping and flush), as hclsyntax meldConsecutiveStringLiterals. */
function meld(parts: Flat[]): void {
  let w = 0;
  for (let r = 0; r < parts.length; r++) {
    const cur = parts[r]!;
    const prev = w > 0 ? parts[w - 1] : undefined;
    if (cur.k === 'lit' && prev && prev.k === 'lit') {
      prev.value += cur.value;
      prev.range = { filename: prev.range.filename, start: prev.range.start, end: cur.range.end };
      continue;
    }
    parts[w++] = cur;
  }
  parts.length = w;
}

/** Folds the flat list into nested TemplateIf / TemplateFor parts. */
class TreeBuilder {
  private pos = 0;

  constructor(
    private readonly p: ParserState,
    private readonly parts: readonly Flat[],
  ) {}

  private peek(): Flat {
    return this.parts[this.pos]!;
  }

  private read(): Flat {
    const t = this.parts[this.pos]!;
    if (t.k !== 'end') this.pos++;
    return t;
  }

  root(): TemplatePart[] {
    const out: TemplatePart[] = [];
    while (this.peek().k !== 'end') out.push(this.part());
    return out;
  }

  private placeholder(range: Range): TemplatePart {
    return { kind: 'TemplateInterp', expr: invalidExpr(range), range };
  }

  private part(): TemplatePart {
    const t = this.peek();
    switch (t.k) {
      case 'lit':
        this.read();
        return { kind: 'TemplateLiteral', value: nfc(t.value), range: t.range };
      case 'interp':
        this.read();
        return { kind: 'TemplateInterp', expr: t.expr, range: t.range };
      case 'if':
      case 'for': {
        if (!this.p.enter(t.range)) return this.skipDirective();
        try {
          return t.k === 'if' ? this.ifDirective() : this.forDirective();
        } finally {
          this.p.leave();
        }
      }
      case 'endctl':
        this.read();
        this.p.error(`Unexpected ${t.which} directive`, 'The control directives within this template are unbalanced.', t.range);
        return this.placeholder(t.range);
      case 'end':
        this.read();
        this.p.error('Unexpected end of template', 'The control directives within this template are unbalanced.', t.range);
        return this.placeholder(t.range);
    }
  }

  /** Skips an if/for directive with everything up to its matching end (nested too deep). */
  private skipDirective(): TemplatePart {
    const open = this.read();
    let depth = 1;
    while (depth > 0 && this.peek().k !== 'end') {
      const t = this.read();
      if (t.k === 'if' || t.k === 'for') depth++;
      else if (t.k === 'endctl' && t.which !== 'else') depth--;
    }
    return this.placeholder(open.range);
  }

  private ifDirective(): TemplatePart {
    const open = this.read() as FlatIf;
    const then: TemplatePart[] = [];
    const otherwise: TemplatePart[] = [];
    let current = then;
    for (;;) {
      const next = this.peek();
      if (next.k === 'end') {
        this.p.error('Unexpected end of template', `The if directive at ${where(open.range)} is missing its corresponding endif directive.`, next.range);
        return this.placeholder(next.range);
      }
      if (next.k === 'endctl') {
        this.read();
        if (next.which === 'else') {
          if (current === then) {
            current = otherwise;
            continue;
          }
          this.p.error('Unexpected else directive', `Already in the else clause for the if started at ${where(open.range)}.`, next.range);
        } else if (next.which === 'endif') {
          return { kind: 'TemplateIf', cond: open.cond, then, else: otherwise, range: rangeBetween(open.range, next.range) };
        } else {
          this.p.error(`Unexpected ${next.which} directive`, `Expecting an endif directive for the if started at ${where(open.range)}.`, next.range);
        }
        return this.placeholder(next.range);
      }
      current.push(this.part());
    }
  }

  private forDirective(): TemplatePart {
    const open = this.read() as FlatFor;
    const body: TemplatePart[] = [];
    for (;;) {
      const next = this.peek();
      if (next.k === 'end') {
        this.p.error('Unexpected end of template', `The for directive at ${where(open.range)} is missing its corresponding endfor directive.`, next.range);
        return this.placeholder(next.range);
      }
      if (next.k === 'endctl') {
        this.read();
        if (next.which === 'endfor') {
          return {
            kind: 'TemplateFor',
            ...(open.keyVar !== undefined ? { keyVar: open.keyVar } : {}),
            valueVar: open.valueVar,
            collection: open.collection,
            body,
            range: rangeBetween(open.range, next.range),
          };
        }
        if (next.which === 'else') {
          this.p.error('Unexpected else directive', 'An else clause is not expected for a for directive.', next.range);
        } else {
          this.p.error(
            `Unexpected ${next.which} directive`,
            `Expecting an endfor directive corresponding to the for directive at ${where(open.range)}.`,
            next.range,
          );
        }
        return this.placeholder(next.range);
      }
      body.push(this.part());
    }
  }
}

function where(r: Range): string {
  return `${r.filename}:${r.start.line},${r.start.column}-${r.end.line === r.start.line ? '' : `${r.end.line},`}${r.end.column}`;
}
