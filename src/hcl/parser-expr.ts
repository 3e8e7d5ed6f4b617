/**
 * Expressions: a port of hclsyntax parser.go's expression half (ternary, binary precedence
 * levels, unary, traversals, splats, index, function calls, tuples, objects, for-expressions),
 * producing the nodes of ast.ts. Error messages and ranges follow hclsyntax.
 */
import { rangeBetween, type Range } from '../diag/index.js';
import type { BinaryOperator, Expression, Literal, ObjectItem, RelativeTraversal, ScopeTraversal, SplatItem, Template, Traverser } from './ast.js';
import { nfc } from './chars.js';
import type { ParserState } from './parser-state.js';
import { parseTemplateInner } from './parser-template.js';
import { span, T, type Token, type TokenType } from './tokens.js';

/**
 * Binary operators by token type: precedence level (0 = `||`, loosest, to 5 = `* / %`) and operator.
 * Lookup tables rather than maps: this is consulted after every operand.
 */
const LEVEL = new Int8Array(64).fill(-1);
const OP: BinaryOperator[] = [];
const setOp = (t: TokenType, level: number, op: BinaryOperator): void => {
  LEVEL[t] = level;
  OP[t] = op;
};
setOp(T.Or, 0, '||');
setOp(T.And, 1, '&&');
setOp(T.EqualOp, 2, '==');
setOp(T.NotEqual, 2, '!=');
setOp(T.GreaterThan, 3, '>');
setOp(T.GreaterThanEq, 3, '>=');
setOp(T.LessThan, 3, '<');
setOp(T.LessThanEq, 3, '<=');
setOp(T.Plus, 4, '+');
setOp(T.Minus, 4, '-');
setOp(T.Star, 5, '*');
setOp(T.Slash, 5, '/');
setOp(T.Percent, 5, '%');

/** The placeholder left where an expression could not be parsed. */
export function invalidExpr(range: Range): Literal {
  return { kind: 'Literal', value: null, invalid: true, range };
}

function isKeyword(p: ParserState, tok: Token, word: string): boolean {
  return tok.type === T.Ident && tok.end - tok.start === word.length && p.src.startsWith(word, tok.start);
}

export function parseExpression(p: ParserState): Expression {
  if (!p.enter(p.nextRange())) return invalidExpr(p.nextRange());
  try {
    return parseTernary(p);
  } finally {
    p.leave();
  }
}

function parseTernary(p: ParserState): Expression {
  const startTok = p.peek();
  let mark = p.mark();
  const cond = parseBinary(p, 0);
  if (p.recovery && p.errorsSince(mark)) return cond;

  if (p.peek().type !== T.Question) return cond;
  p.read();

  mark = p.mark();
  const then = parseExpression(p);
  if (p.recovery && p.errorsSince(mark)) return cond;

  const colon = p.peek();
  if (colon.type !== T.Colon) {
    p.error(
      'Missing false expression in conditional',
      'The conditional operator (...?...:...) requires a false expression, delimited by a colon.',
      colon.range,
      span(startTok, colon),
    );
    return cond;
  }
  p.read();

  mark = p.mark();
  const otherwise = parseExpression(p);
  if (p.recovery && p.errorsSince(mark)) return cond;

  return {
    kind: 'Conditional',
    cond,
    then,
    else: otherwise,
    range: { filename: p.filename, start: startTok.startPos, end: otherwise.range.end },
  };
}

/**
 * Binary operators by precedence climbing: operators of level >= minLevel are taken here, each
 * right operand only takes tighter ones, so same-level operators associate to the left
 * (a+b+c => (a+b)+c). Equivalent to hclsyntax's one-recursion-per-level parseBinaryOps.
 */
function parseBinary(p: ParserState, minLevel: number): Expression {
  let mark = p.mark();
  let lhs = parseExpressionWithTraversals(p);
  if (p.recovery && p.errorsSince(mark)) return lhs;
  // Each operator in a chain nests the tree one level deeper ((a+b)+c): count it as nesting.
  let levels = 0;
  try {
    for (;;) {
      const op = p.peek();
      const level = LEVEL[op.type]!;
      if (level < minLevel) return lhs; // also when not an operator (-1)
      if (!p.enter(op.range)) return lhs;
      levels++;
      p.read();
      mark = p.mark();
      const rhs = parseBinary(p, level + 1);
      if (p.recovery && p.errorsSince(mark)) return lhs;
      lhs = { kind: 'BinaryOp', op: OP[op.type]!, left: lhs, right: rhs, range: rangeBetween(lhs.range, rhs.range) };
    }
  } finally {
    p.leave(levels);
  }
}

function parseExpressionWithTraversals(p: ParserState): Expression {
  return parseTraversals(p, parseTerm(p));
}

/** Extends a traversal with one more step, or starts a relative traversal on another expression. */
function addStep(expr: Expression, step: Traverser, rng: Range): Expression {
  if (expr.kind === 'ScopeTraversal') {
    const t: ScopeTraversal = { ...expr, steps: [...expr.steps, step], range: rangeBetween(expr.range, rng) };
    return t;
  }
  if (expr.kind === 'RelativeTraversal') {
    const t: RelativeTraversal = { ...expr, steps: [...expr.steps, step], range: rangeBetween(expr.range, rng) };
    return t;
  }
  return { kind: 'RelativeTraversal', source: expr, steps: [step], range: rangeBetween(expr.range, rng) };
}

/** `.0` (legacy index) as a traverser, or an error for `.0.1` (which scans as the number 0.1). */
function legacyIndex(p: ParserState, dot: Token, num: Token, splat: boolean): Traverser {
  const text = p.text(num);
  const rng = span(dot, num);
  const dotIdx = text.indexOf('.');
  if (dotIdx >= 0) {
    const [first, second] = [text.slice(0, dotIdx), text.slice(dotIdx + 1)];
    p.error(
      'Invalid legacy index syntax',
      splat
        ? `When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax with a full splat expression [*] instead, like [${first}][${second}].`
        : `When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [${first}][${second}].`,
      num.range,
    );
    return { kind: 'Index', key: 0, range: rng };
  }
  return { kind: 'Index', key: numberValue(p, num), range: rng };
}

function parseTraversals(p: ParserState, from: Expression): Expression {
  // Every step counts as one level of nesting: a step after a call, a splat or a dynamic index wraps
  // the tree one level deeper, and steps added to a traversal, although kept in one flat list, are
  // applied one inside the other (`x[0][0]` indexes the result of `x[0]`). Without this, `[0]` twenty
  // thousand times passed the nesting bound and took every later stage minutes (issue 15).
  let levels = 0;
  const wrap = (at: Range): boolean => {
    if (!p.enter(at)) return false;
    levels++;
    return true;
  };
  try {
    return traversalSteps(p, from, wrap);
  } finally {
    p.leave(levels);
  }
}

function traversalSteps(p: ParserState, from: Expression, wrap: (at: Range) => boolean): Expression {
  let ret = from;
  for (;;) {
    const next = p.peek();
    if ((next.type === T.Dot || next.type === T.OBrack) && !wrap(next.range)) return ret;
    if (next.type === T.Dot) {
      const dot = p.read();
      const attrTok = p.peek();
      if (attrTok.type === T.Ident) {
        p.read();
        const rng = span(dot, attrTok);
        ret = addStep(ret, { kind: 'Attr', name: p.text(attrTok), range: rng }, rng);
      } else if (attrTok.type === T.NumberLit) {
        p.read();
        const step = legacyIndex(p, dot, attrTok, false);
        ret = addStep(ret, step, step.range);
      } else if (attrTok.type === T.Star) {
        // Attribute-only splat: `.*` followed by any number of `.name` (or legacy `.0`).
        const marker = p.read();
        const steps: Traverser[] = [];
        const firstRange = p.nextRange();
        let lastRange = marker.range;
        let broken = false;
        while (p.peek().type === T.Dot) {
          // Each step of the splat's own list counts as nesting too (see parseTraversals).
          if (!wrap(p.nextRange())) {
            broken = true;
            break;
          }
          const d = p.read();
          const t = p.peek();
          if (t.type === T.NumberLit) {
            p.read();
            steps.push(legacyIndex(p, d, t, true));
            lastRange = t.range;
            continue;
          }
          if (t.type !== T.Ident) {
            if (!p.recovery) {
              if (t.type === T.Star) {
                p.error(
                  'Nested splat expression not allowed',
                  'A splat expression (*) cannot be used inside another attribute-only splat expression.',
                  t.range,
                );
              } else {
                p.error('Invalid attribute name', 'An attribute name is required after a dot.', t.range);
              }
            }
            p.recovery = true;
            broken = true;
            break;
          }
          p.read();
          steps.push({ kind: 'Attr', name: p.text(t), range: span(d, t) });
          lastRange = t.range;
        }
        const item: SplatItem = { kind: 'SplatItem', range: span(dot, marker) };
        const each: Expression = steps.length === 0 ? item : { kind: 'RelativeTraversal', source: item, steps, range: rangeBetween(firstRange, lastRange) };
        ret = { kind: 'Splat', source: ret, each, full: false, range: rangeBetween(from.range, lastRange) };
        if (broken) continue;
      } else {
        p.error('Invalid attribute name', 'An attribute name is required after a dot.', attrTok.range);
        ret = invalidExpr(rangeBetween(from.range, dot.range));
        p.recovery = true;
      }
      continue;
    }

    if (next.type === T.OBrack) {
      const open = p.read();
      if (p.peek().type === T.Star) {
        // Full splat: `[*]` then every following traversal step applies to each element.
        p.read();
        let close = p.read();
        if (close.type !== T.CBrack && !p.recovery) {
          p.error(
            'Missing close bracket on splat index',
            'The star for a full splat operator must be immediately followed by a closing bracket ("]").',
            close.range,
          );
          close = p.recover(T.CBrack);
        }
        const item: SplatItem = { kind: 'SplatItem', range: span(open, close) };
        const each = parseTraversals(p, item);
        ret = { kind: 'Splat', source: ret, each, full: true, range: rangeBetween(from.range, each.range) };
        continue;
      }

      let close: Token;
      p.pushNewlines(false); // arbitrary newlines allowed in brackets
      const mark = p.mark();
      const key = parseExpression(p);
      if (p.recovery && p.errorsSince(mark)) {
        close = p.recover(T.CBrack);
      } else {
        close = p.read();
        if (close.type !== T.CBrack && !p.recovery) {
          p.error('Missing close bracket on index', 'The index operator must end with a closing bracket ("]").', close.range);
          close = p.recover(T.CBrack);
        }
      }
      p.popNewlines();

      const rng = span(open, close);
      const literalKey = staticKey(key);
      if (literalKey !== undefined) {
        ret = addStep(ret, { kind: 'Index', key: literalKey, range: rng }, rng);
      } else {
        ret = { kind: 'Index', collection: ret, key, range: rangeBetween(from.range, rng) };
      }
      continue;
    }

    return ret;
  }
}

/** A constant index key (`[0]`, `["a"]`) becomes a traversal step, as in hclsyntax. */
function staticKey(key: Expression): string | number | undefined {
  if (key.kind === 'Literal' && !key.invalid && typeof key.value === 'number') return key.value;
  if (key.kind === 'Template' && key.parts.length === 1 && key.parts[0]!.kind === 'TemplateLiteral') {
    return key.parts[0]!.value;
  }
  return undefined;
}

function numberValue(p: ParserState, tok: Token): number {
  const raw = p.text(tok);
  const v = Number(raw);
  if (Number.isNaN(v)) {
    p.error('Invalid number literal', 'Failed to recognize the value of this number literal.', tok.range);
    return 0;
  }
  return v;
}

function parseTerm(p: ParserState): Expression {
  const start = p.peek();
  switch (start.type) {
    case T.OParen: {
      const oParen = p.read();
      p.pushNewlines(false);
      const mark = p.mark();
      const expr = parseExpression(p);
      if (p.errorsSince(mark)) {
        // Put the peeker after the closing paren so the next parser has a chance.
        p.recover(T.CParen);
        p.popNewlines();
        return expr;
      }
      const close = p.peek();
      if (close.type !== T.CParen) {
        p.error('Unbalanced parentheses', 'Expected a closing parenthesis to terminate the expression.', close.range, span(start, close));
        p.recovery = true;
      }
      const cParen = p.read();
      p.popNewlines();
      return { kind: 'Parenthesized', expr, range: span(oParen, cParen) };
    }

    case T.NumberLit: {
      p.read();
      const raw = p.text(start);
      const mark = p.mark();
      const value = numberValue(p, start);
      if (p.errorsSince(mark)) return invalidExpr(start.range);
      return { kind: 'Literal', value, raw, range: start.range };
    }

    case T.Ident: {
      p.read();
      const next = p.peek().type;
      if (next === T.OParen || next === T.DoubleColon) return finishFunctionCall(p, start);
      const name = p.text(start);
      switch (name) {
        case 'true':
          return { kind: 'Literal', value: true, range: start.range };
        case 'false':
          return { kind: 'Literal', value: false, range: start.range };
        case 'null':
          return { kind: 'Literal', value: null, range: start.range };
        default:
          return { kind: 'ScopeTraversal', root: name, rootRange: start.range, steps: [], range: start.range };
      }
    }

    case T.OQuote:
    case T.OHeredoc: {
      const open = p.read();
      const heredoc = open.type === T.OHeredoc;
      const flush = heredoc && p.src.charCodeAt(open.start + 2) === 0x2d; // <<-
      const { parts } = parseTemplateInner(p, heredoc ? T.CHeredoc : T.CQuote, flush, open);
      const closeRange = p.prevRange();
      const t: Template = { kind: 'Template', parts, heredoc, range: rangeBetween(open.range, closeRange) };
      return t;
    }

    case T.Minus:
    case T.Bang: {
      p.read();
      if (!p.enter(start.range)) return invalidExpr(start.range);
      // Only a term with its traversals: -46+5 is (-46)+5.
      let operand: Expression;
      try {
        operand = parseExpressionWithTraversals(p);
      } finally {
        p.leave();
      }
      return {
        kind: 'UnaryOp',
        op: start.type === T.Minus ? '-' : '!',
        operand,
        range: rangeBetween(start.range, operand.range),
      };
    }

    case T.OBrack:
      return parseTuple(p);

    case T.OBrace:
      return parseObject(p);

    default:
      if (!p.recovery) {
        if (start.type === T.EOF) {
          p.error('Missing expression', 'Expected the start of an expression, but found the end of the file.', start.range);
        } else {
          p.error('Invalid expression', 'Expected the start of an expression, but found an invalid expression token.', start.range);
        }
      }
      p.recovery = true;
      return invalidExpr(start.range);
  }
}

function finishFunctionCall(p: ParserState, name: Token): Expression {
  let openTok = p.read();
  let nameStr = p.text(name);
  let nameEnd = name.range.end;
  while (openTok.type === T.DoubleColon) {
    const nextName = p.read();
    if (nextName.type !== T.Ident) {
      p.error(
        'Missing function name',
        'Function scope resolution symbol :: must be followed by a function name in this scope.',
        nextName.range,
        span(name, nextName),
      );
      p.recoverOver(T.OParen);
      return invalidExpr(span(name, nextName));
    }
    // Namespaced functions are plain names with "::" in them, as in hclsyntax.
    nameStr += '::' + p.text(nextName);
    nameEnd = nextName.range.end;
    openTok = p.read();
  }
  const nameRange: Range = { filename: name.range.filename, start: name.range.start, end: nameEnd };

  if (openTok.type !== T.OParen) {
    p.error(
      'Missing open parenthesis',
      'Function selector must be followed by an open parenthesis to begin the function call.',
      openTok.range,
      span(name, openTok),
    );
    p.recoverOver(T.OParen);
    return invalidExpr(span(name, openTok));
  }

  const args: Expression[] = [];
  let expandFinal = false;
  let closeTok: Token | undefined;

  p.pushNewlines(false); // arbitrary newlines inside the parentheses
  for (;;) {
    if (p.peek().type === T.CParen) {
      closeTok = p.read();
      break;
    }
    const mark = p.mark();
    const arg = parseExpression(p);
    args.push(arg);
    if (p.recovery && p.errorsSince(mark)) {
      const t = p.recover(T.CParen);
      if (t.type === T.CParen) closeTok = t;
      break;
    }
    const sep = p.read();
    if (sep.type === T.CParen) {
      closeTok = sep;
      break;
    }
    if (sep.type === T.Ellipsis) {
      expandFinal = true;
      if (p.peek().type !== T.CParen) {
        if (!p.recovery) {
          p.error(
            'Missing closing parenthesis',
            'An expanded function argument (with ...) must be immediately followed by closing parentheses.',
            sep.range,
            span(name, sep),
          );
        }
        closeTok = p.recover(T.CParen);
      } else {
        closeTok = p.read();
      }
      break;
    }
    if (sep.type !== T.Comma) {
      if (sep.type === T.EOF) {
        p.error(
          'Unterminated function call',
          'There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.',
          span(name, openTok),
        );
      } else {
        p.error('Missing argument separator', 'A comma is required to separate each function argument from the next.', sep.range, span(name, sep));
      }
      closeTok = p.recover(T.CParen);
      break;
    }
    if (p.peek().type === T.CParen) {
      closeTok = p.read(); // trailing comma
      break;
    }
  }
  p.popNewlines();

  const endRange = closeTok && closeTok.type !== T.EOF ? closeTok.range : p.prevRange();
  return { kind: 'FunctionCall', name: nameStr, nameRange, args, expandFinal, range: rangeBetween(nameRange, endRange) };
}

function parseTuple(p: ParserState): Expression {
  const open = p.read();
  p.pushNewlines(false);
  try {
    if (isKeyword(p, p.peek(), 'for')) return finishForExpr(p, open);

    const items: Expression[] = [];
    let close: Token;
    for (;;) {
      if (p.peek().type === T.CBrack) {
        close = p.read();
        break;
      }
      const mark = p.mark();
      items.push(parseExpression(p));
      if (p.recovery && p.errorsSince(mark)) {
        close = p.recover(T.CBrack);
        break;
      }
      const next = p.peek();
      if (next.type === T.CBrack) {
        close = p.read();
        break;
      }
      if (next.type !== T.Comma) {
        close = constructorError(p, open, next, 'Missing item separator', 'Expected a comma to mark the beginning of the next item.');
        break;
      }
      p.read(); // comma
    }
    return { kind: 'Tuple', items, range: span(open, close) };
  } finally {
    p.popNewlines();
  }
}

function parseObject(p: ParserState): Expression {
  const open = p.read();

  // A `for` expression is not newline-sensitive; an object constructor is.
  p.pushNewlines(false);
  const isFor = isKeyword(p, p.peek(), 'for');
  p.popNewlines();
  if (isFor) return finishForExpr(p, open);

  p.pushNewlines(true);
  const items: ObjectItem[] = [];
  let close: Token;
  try {
    for (;;) {
      let next = p.peek();
      if (next.type === T.Newline) {
        p.read();
        continue;
      }
      if (next.type === T.CBrace) {
        close = p.read();
        break;
      }

      // A parenthesized key is always an expression; a bare identifier is a literal name.
      const forceNonLiteral = next.type === T.OParen;
      let mark = p.mark();
      const keyExpr = parseExpression(p);
      if (p.recovery && p.errorsSince(mark)) {
        close = p.recover(T.CBrace);
        break;
      }

      next = p.peek();
      if (next.type !== T.Equal && next.type !== T.Colon) {
        close =
          next.type === T.Newline || next.type === T.Comma
            ? constructorError(p, open, next, 'Missing attribute value', 'Expected an attribute value, introduced by an equals sign ("=").')
            : constructorError(
                p,
                open,
                next,
                'Missing key/value separator',
                next.type === T.Ident
                  ? 'Expected an equals sign ("=") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal.'
                  : 'Expected an equals sign ("=") to mark the beginning of the attribute value.',
              );
        break;
      }
      p.read(); // = or :

      mark = p.mark();
      const value = parseExpression(p);
      const { key, bareKey } = objectKey(keyExpr, forceNonLiteral);
      items.push({ key, bareKey, value, range: rangeBetween(keyExpr.range, value.range) });
      if (p.recovery && p.errorsSince(mark)) {
        close = p.recover(T.CBrace);
        break;
      }

      next = p.peek();
      if (next.type === T.CBrace) {
        close = p.read();
        break;
      }
      if (next.type !== T.Comma && next.type !== T.Newline) {
        close = constructorError(p, open, next, 'Missing attribute separator', 'Expected a newline or comma to mark the beginning of the next attribute.');
        break;
      }
      p.read(); // comma or newline
    }
  } finally {
    p.popNewlines();
  }
  return { kind: 'ObjectCons', items, range: span(open, close) };
}

/**
 * A token that cannot continue a tuple or object constructor opened by `open`: reported (unless
 * recovering) as `summary`, or as unterminated at the end of the file; the peeker skips past the
 * constructor's closing bracket, which is returned (or EOF).
 */
function constructorError(p: ParserState, open: Token, next: Token, summary: string, detail: string): Token {
  const tuple = open.type === T.OBrack;
  if (!p.recovery) {
    if (next.type === T.EOF) {
      p.error(
        tuple ? 'Unterminated tuple constructor expression' : 'Unterminated object constructor expression',
        tuple
          ? 'There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.'
          : 'There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.',
        open.range,
      );
    } else {
      p.error(summary, detail, next.range, span(open, next));
    }
  }
  return p.recover(tuple ? T.CBrack : T.CBrace);
}

/**
 * hclsyntax ObjectConsKeyExpr: a lone identifier (or the keywords true/false/null, which a
 * traversal would read as names) is a literal key unless the key was parenthesized.
 */
function objectKey(expr: Expression, forceNonLiteral: boolean): { key: Expression; bareKey: boolean } {
  if (!forceNonLiteral) {
    if (expr.kind === 'ScopeTraversal' && expr.steps.length === 0) {
      // The name becomes a string value: normalized like template text (chars.ts nfc).
      return { key: { kind: 'Literal', value: nfc(expr.root), range: expr.range }, bareKey: true };
    }
    if (expr.kind === 'Literal' && !expr.invalid && expr.raw === undefined && typeof expr.value !== 'string') {
      // true / false / null written as a key
      return { key: { kind: 'Literal', value: String(expr.value), range: expr.range }, bareKey: true };
    }
  }
  return { key: expr, bareKey: false };
}

function finishForExpr(p: ParserState, open: Token): Expression {
  p.pushNewlines(false);
  try {
    p.read(); // `for`
    const isObject = open.type === T.OBrace;
    const closeType = isObject ? T.CBrace : T.CBrack;

    const fail = (detail: string): Expression => {
      if (!p.recovery) {
        const at = p.peek().range;
        p.error("Invalid 'for' expression", detail, at, rangeBetween(open.range, at));
      }
      const close = p.recover(closeType);
      return invalidExpr(span(open, close));
    };

    if (p.peek().type !== T.Ident) return fail("For expression requires variable name after 'for'.");
    let keyVar: string | undefined;
    let valueVar = p.text(p.read());
    if (p.peek().type === T.Comma) {
      keyVar = valueVar;
      p.read();
      if (p.peek().type !== T.Ident) return fail('For expression requires value variable name after comma.');
      valueVar = p.text(p.read());
    }
    if (!isKeyword(p, p.peek(), 'in')) return fail("For expression requires the 'in' keyword after its name declarations.");
    p.read();

    let mark = p.mark();
    const collection = parseExpression(p);
    if (p.recovery && p.errorsSince(mark)) {
      const close = p.recover(closeType);
      return invalidExpr(span(open, close));
    }
    if (p.peek().type !== T.Colon) return fail('For expression requires a colon after the collection expression.');
    p.read();

    mark = p.mark();
    let keyExpr: Expression | undefined;
    let valueExpr = parseExpression(p);
    if (p.peek().type === T.FatArrow) {
      p.read();
      keyExpr = valueExpr;
      valueExpr = parseExpression(p);
    }
    if (p.recovery && p.errorsSince(mark)) {
      const close = p.recover(closeType);
      return invalidExpr(span(open, close));
    }

    let group = false;
    let ellipsis: Token | undefined;
    if (p.peek().type === T.Ellipsis) {
      ellipsis = p.read();
      group = true;
    }

    let cond: Expression | undefined;
    if (isKeyword(p, p.peek(), 'if')) {
      p.read();
      mark = p.mark();
      cond = parseExpression(p);
      if (p.recovery && p.errorsSince(mark)) {
        const close = p.recover(closeType);
        return invalidExpr(span(open, close));
      }
    }

    let close: Token;
    if (p.peek().type === closeType) {
      close = p.read();
    } else {
      if (!p.recovery) {
        const at = p.peek().range;
        p.error("Invalid 'for' expression", "Extra characters after the end of the 'for' expression.", at, rangeBetween(open.range, at));
      }
      close = p.recover(closeType);
    }
    const range = span(open, close);

    if (!isObject) {
      if (keyExpr) p.error("Invalid 'for' expression", 'Key expression is not valid when building a tuple.', keyExpr.range, range);
      if (group && ellipsis) {
        p.error("Invalid 'for' expression", 'Grouping ellipsis (...) cannot be used when building a tuple.', ellipsis.range, range);
      }
    } else if (!keyExpr) {
      p.error("Invalid 'for' expression", 'Key expression is required when building an object.', valueExpr.range, range);
    }

    return {
      kind: 'ForExpr',
      ...(keyVar !== undefined ? { keyVar } : {}),
      valueVar,
      collection,
      ...(keyExpr ? { keyExpr } : {}),
      valueExpr,
      ...(cond ? { cond } : {}),
      group,
      isObject,
      range,
    };
  } finally {
    p.popNewlines();
  }
}
