/**
 * The structural language: bodies, attributes, blocks and one-line blocks (port of the
 * body half of hclsyntax parser.go). Duplicate attributes are reported here ("Attribute
 * redefined", which hclsyntax reports while building its attribute map); the duplicate is dropped.
 */
import { rangeBetween, type Range } from '../diag/index.js';
import type { Attribute, Block, Body } from './ast.js';
import { decodeLiteral } from './escapes.js';
import { parseExpression } from './parser-expr.js';
import type { ParserState } from './parser-state.js';
import { span, T, type Token, type TokenType } from './tokens.js';

const UNCLOSED_BLOCK_DETAIL =
  'There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.';

export function parseBody(p: ParserState, end: TokenType): Body {
  const items: (Attribute | Block)[] = [];
  const seen = new Map<string, Attribute>();
  const startRange = p.prevRange();
  let endRange: Range;

  for (;;) {
    const next = p.peek();
    if (next.type === end) {
      endRange = next.range;
      p.read();
      break;
    }
    if (next.type === T.Newline) {
      p.read();
      continue;
    }
    // Each body item starts on a fresh line: earlier recovery no longer hides errors here
    // (hclsyntax keeps its recovery flag for the rest of the file, reporting only the first problem).
    p.recovery = false;
    if (next.type === T.Ident) {
      const item = parseBodyItem(p);
      if (!item) continue;
      if (item.kind === 'Attribute') {
        const existing = seen.get(item.name);
        if (existing) {
          const at = existing.nameRange;
          p.error(
            'Attribute redefined',
            `The argument ${JSON.stringify(item.name)} was already set at ${at.filename}:${at.start.line},${at.start.column}-${at.end.column}. Each argument may be set only once.`,
            item.nameRange,
          );
          continue;
        }
        seen.set(item.name, item);
      }
      items.push(item);
      continue;
    }

    if (next.type === T.EOF) {
      // Only reachable for a block body (a file body ends at EOF).
      if (!p.recovery) p.error('Unclosed configuration block', UNCLOSED_BLOCK_DETAIL, startRange);
      endRange = p.prevRange();
      break;
    }
    const bad = p.read();
    if (!p.recovery) {
      if (bad.type === T.OQuote) {
        p.error('Invalid argument name', 'Argument names must not be quoted.', bad.range);
      } else {
        p.error('Argument or block definition required', 'An argument or block definition is required here.', bad.range);
      }
    }
    // hclsyntax abandons the rest of the body here; we skip to the end of the line instead, so one
    // stray token does not hide every later error in the file.
    skipRestOfLine(p, end, OPENERS.has(bad.type) ? 1 : 0);
  }

  return { kind: 'Body', items, range: rangeBetween(startRange, endRange) };
}

/**
 * Recovery inside a body: skips to the next newline outside brackets, but stops before the body's
 * own closing token so the enclosing block still closes where it should.
 */
const OPENERS: ReadonlySet<TokenType> = new Set([T.OBrace, T.OBrack, T.OParen, T.OHeredoc, T.TemplateInterp, T.TemplateControl]);

function skipRestOfLine(p: ParserState, end: TokenType, depth: number): void {
  p.recovery = true;
  for (;;) {
    const t = p.peek();
    if (t.type === T.EOF) return;
    if (depth === 0 && t.type === end) return;
    p.read();
    switch (t.type) {
      case T.Newline:
        if (depth === 0) return;
        break;
      case T.OBrace:
      case T.OBrack:
      case T.OParen:
      case T.OHeredoc:
      case T.TemplateInterp:
      case T.TemplateControl:
        depth++;
        break;
      case T.CBrace:
      case T.CBrack:
      case T.CParen:
      case T.CHeredoc:
      case T.TemplateSeqEnd:
        if (depth > 0) depth--;
        break;
    }
  }
}

function parseBodyItem(p: ParserState): Attribute | Block | undefined {
  const ident = p.read();
  const next = p.peek();
  if (next.type === T.Equal) return finishAttribute(p, ident, false);
  if (next.type === T.OQuote || next.type === T.OBrace || next.type === T.Ident) return finishBlock(p, ident);
  p.recoverAfterBodyItem();
  p.error(
    'Argument or block definition required',
    'An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value.',
    ident.range,
  );
  return undefined;
}

function finishAttribute(p: ParserState, ident: Token, singleLine: boolean): Attribute {
  p.read(); // =
  const mark = p.mark();
  const expr = parseExpression(p);
  let endRange: Range;
  if (p.recovery && p.errorsSince(mark)) {
    // Recovery inside expressions may leave us anywhere: resynchronise at the next line.
    endRange = p.prevRange();
    p.recoverAfterBodyItem();
  } else {
    endRange = p.prevRange();
    if (!singleLine) {
      const end = p.peek();
      if (end.type !== T.Newline && end.type !== T.EOF) {
        if (!p.recovery) {
          const comma = end.type === T.Comma;
          p.error(
            comma ? 'Unexpected comma after argument' : 'Missing newline after argument',
            comma
              ? 'Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.'
              : 'An argument definition must end with a newline.',
            end.range,
            span(ident, end),
          );
        }
        endRange = p.prevRange();
        p.recoverAfterBodyItem();
      } else {
        p.read(); // newline
      }
    }
  }
  // The attribute spans name to the last token of the expression (not the newline).
  const range = rangeBetween(ident.range, endRange);
  return { kind: 'Attribute', name: p.text(ident), expr, range, nameRange: ident.range };
}

function finishBlock(p: ParserState, ident: Token): Block | undefined {
  const type = p.text(ident);
  const labels: string[] = [];
  const labelRanges: Range[] = [];
  let oBrace: Token;

  for (;;) {
    const tok = p.peek();
    if (tok.type === T.OBrace) {
      oBrace = p.read();
      break;
    }
    if (tok.type === T.OQuote) {
      const { value, range } = parseQuotedStringLiteral(p);
      labels.push(value);
      labelRanges.push(range);
      continue;
    }
    if (tok.type === T.Ident) {
      p.read();
      labels.push(p.text(tok));
      labelRanges.push(tok.range);
      continue;
    }
    const context = span(ident, tok);
    if (tok.type === T.Equal) {
      p.error(
        'Invalid block definition',
        'The equals sign "=" indicates an argument definition, and must not be used when defining a block.',
        tok.range,
        context,
      );
    } else if (tok.type === T.Newline && !p.recovery) {
      p.error(
        'Invalid block definition',
        'A block definition must have block content delimited by "{" and "}", starting on the same line as the block header.',
        tok.range,
        context,
      );
    } else if (!p.recovery) {
      p.error('Invalid block definition', 'Either a quoted string block label or an opening brace ("{") is expected here.', tok.range, context);
    }
    p.recoverAfterBodyItem();
    return {
      kind: 'Block',
      type,
      labels,
      labelRanges,
      body: { kind: 'Body', items: [], range: ident.range },
      range: ident.range,
      typeRange: ident.range,
      openBraceRange: ident.range,
      closeBraceRange: ident.range,
    };
  }

  let body: Body;
  const nextType = p.peek().type;
  if (nextType === T.Newline || nextType === T.EOF || nextType === T.CBrace) {
    if (p.enter(oBrace.range)) {
      try {
        body = parseBody(p, T.CBrace);
      } finally {
        p.leave();
      }
    } else {
      const close = p.recover(T.CBrace);
      body = { kind: 'Body', items: [], range: rangeBetween(oBrace.range, close.range) };
    }
  } else {
    // A one-line block: `a { b = 1 }`, at most one attribute, closed on the same line.
    const attr = parseSingleAttrBody(p);
    if (!attr) {
      // parseSingleAttrBody has already skipped to the end of the line (past the closing brace);
      // hclsyntax would go on to look for a brace and swallow the next line.
      const closeRange = p.prevRange();
      return {
        kind: 'Block',
        type,
        labels,
        labelRanges,
        body: { kind: 'Body', items: [], range: rangeBetween(oBrace.range, closeRange) },
        range: rangeBetween(ident.range, closeRange),
        typeRange: ident.range,
        openBraceRange: oBrace.range,
        closeBraceRange: closeRange,
      };
    }
    const after = p.peek();
    if (after.type === T.CBrace) {
      p.read();
    } else if (after.type === T.Comma) {
      p.error(
        'Invalid single-argument block definition',
        'Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.',
        after.range,
      );
      p.recover(T.CBrace);
    } else if (after.type === T.Newline) {
      p.error(
        'Invalid single-argument block definition',
        "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.",
        after.range,
      );
      p.recover(T.CBrace);
    } else {
      if (!p.recovery) {
        if (after.type === T.EOF) {
          p.error('Unclosed configuration block', UNCLOSED_BLOCK_DETAIL, oBrace.range, span(ident, oBrace));
        } else {
          p.error(
            'Invalid single-argument block definition',
            'A single-line block definition must end with a closing brace immediately after its single argument definition.',
            after.range,
          );
        }
      }
      p.recover(T.CBrace);
    }
    body = { kind: 'Body', items: [attr], range: rangeBetween(oBrace.range, p.prevRange()) };
  }
  const cBraceRange = p.prevRange();

  const eol = p.peek();
  if (eol.type === T.Newline || eol.type === T.EOF) {
    p.read();
  } else {
    if (!p.recovery) {
      p.error('Missing newline after block definition', 'A block definition must end with a newline.', eol.range, span(ident, eol));
    }
    p.recoverAfterBodyItem();
  }

  return {
    kind: 'Block',
    type,
    labels,
    labelRanges,
    body,
    range: rangeBetween(ident.range, cBraceRange),
    typeRange: ident.range,
    openBraceRange: oBrace.range,
    closeBraceRange: cBraceRange,
  };
}

/** The body of `a { b = 1 }`: exactly one attribute, no nested block. */
function parseSingleAttrBody(p: ParserState): Attribute | undefined {
  const ident = p.read();
  if (ident.type !== T.Ident) {
    p.recoverAfterBodyItem();
    p.error('Argument or block definition required', 'An argument or block definition is required here.', ident.range);
    return undefined;
  }
  const next = p.peek();
  if (next.type === T.Equal) return finishAttribute(p, ident, true);
  p.recoverAfterBodyItem();
  if (next.type === T.OQuote || next.type === T.OBrace || next.type === T.Ident) {
    p.error(
      'Argument definition required',
      `A single-line block definition can contain only a single argument. If you meant to define argument ${JSON.stringify(p.text(ident))}, use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.`,
      span(ident, next),
    );
  } else {
    p.error(
      'Argument or block definition required',
      'An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value.',
      ident.range,
    );
  }
  return undefined;
}

/** A quoted string with no interpolation (block labels). */
function parseQuotedStringLiteral(p: ParserState): { value: string; range: Range } {
  const oQuote = p.read();
  const out: string[] = [];
  let endRange: Range;
  for (;;) {
    const tok = p.read();
    if (tok.type === T.CQuote) {
      endRange = tok.range;
      break;
    }
    if (tok.type === T.QuotedLit) {
      out.push(decodeQuoted(p, tok));
      continue;
    }
    if (tok.type === T.TemplateInterp || tok.type === T.TemplateControl) {
      const which = tok.type === T.TemplateControl ? '%' : '$';
      p.error(
        'Invalid string literal',
        `Template sequences are not allowed in this string. To include a literal ${JSON.stringify(which)}, double it (as "${which}${which}") to escape it.`,
        tok.range,
        span(oQuote, tok),
      );
      out.push(which, '{ ... }');
      p.recover(T.TemplateSeqEnd);
      continue;
    }
    if (tok.type === T.EOF || tok.type === T.QuotedNewline) {
      p.recovery = true; // the rest of the line is unlikely to make sense
      p.error('Unterminated string literal', 'Unable to find the closing quote mark before the end of the line.', tok.range, span(oQuote, tok));
      endRange = tok.range;
      break;
    }
    p.error('Invalid string literal', 'This item is not valid in a string literal.', tok.range, span(oQuote, tok));
    p.recover(T.CQuote);
    endRange = tok.range;
    break;
  }
  return { value: out.join(''), range: rangeBetween(oQuote.range, endRange) };
}

function decodeQuoted(p: ParserState, tok: Token): string {
  return decodeLiteral(p.src, tok.start, tok.end, tok.range.start, p.filename, true, p.diags);
}
