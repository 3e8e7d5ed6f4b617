// Token kinds of the Starlark scanner. The names and the quoting rule of
// tokenGoString mirror starlark-go's syntax.Token so that parse errors read the
// same ("got '*', want primary expression").

export enum T {
  ILLEGAL, EOF, NEWLINE, INDENT, OUTDENT,
  IDENT, INT, FLOAT, STRING, BYTES,
  PLUS, MINUS, STAR, SLASH, SLASHSLASH, PERCENT, AMP, PIPE, CIRCUMFLEX, LTLT, GTGT, TILDE,
  DOT, COMMA, EQ, SEMI, COLON, LPAREN, RPAREN, LBRACK, RBRACK, LBRACE, RBRACE,
  LT, GT, GE, LE, EQL, NEQ,
  PLUS_EQ, MINUS_EQ, STAR_EQ, SLASH_EQ, SLASHSLASH_EQ, PERCENT_EQ, AMP_EQ, PIPE_EQ, CIRCUMFLEX_EQ, LTLT_EQ, GTGT_EQ,
  STARSTAR,
  AND, BREAK, CONTINUE, DEF, ELIF, ELSE, FOR, IF, IN, LAMBDA, LOAD, NOT, NOT_IN, OR, PASS, RETURN, WHILE,
  AS, ASYNC, AWAIT, CLASS, DEL, EXCEPT, FINALLY, FROM, GLOBAL, IMPORT, IS, NONLOCAL, RAISE, TRY, WITH, YIELD,
}

export const tokenNames: string[] = [
  'illegal token', 'end of file', 'newline', 'indent', 'outdent',
  'identifier', 'int literal', 'float literal', 'string literal', 'bytes literal',
  '+', '-', '*', '/', '//', '%', '&', '|', '^', '<<', '>>', '~',
  '.', ',', '=', ';', ':', '(', ')', '[', ']', '{', '}',
  '<', '>', '>=', '<=', '==', '!=',
  '+=', '-=', '*=', '/=', '//=', '%=', '&=', '|=', '^=', '<<=', '>>=',
  '**',
  'and', 'break', 'continue', 'def', 'elif', 'else', 'for', 'if', 'in', 'lambda', 'load', 'not', 'not in', 'or', 'pass', 'return', 'while',
  'as', 'async', 'await', 'class', 'del', 'except', 'finally', 'from', 'global', 'import', 'is', 'nonlocal', 'raise', 'try', 'with', 'yield',
];

/** Like starlark-go's Token.GoString: punctuation is quoted. */
export function tokenGoString(t: T): string {
  if (t >= T.PLUS && t <= T.STARSTAR) return "'" + tokenNames[t] + "'";
  return tokenNames[t]!;
}

export const keywords: Map<string, T> = new Map([
  ['and', T.AND], ['break', T.BREAK], ['continue', T.CONTINUE], ['def', T.DEF], ['elif', T.ELIF],
  ['else', T.ELSE], ['for', T.FOR], ['if', T.IF], ['in', T.IN], ['lambda', T.LAMBDA], ['load', T.LOAD],
  ['not', T.NOT], ['or', T.OR], ['pass', T.PASS], ['return', T.RETURN], ['while', T.WHILE],
  ['as', T.AS], ['async', T.ASYNC], ['await', T.AWAIT], ['class', T.CLASS], ['del', T.DEL],
  ['except', T.EXCEPT], ['finally', T.FINALLY], ['from', T.FROM], ['global', T.GLOBAL],
  ['import', T.IMPORT], ['is', T.IS], ['nonlocal', T.NONLOCAL], ['raise', T.RAISE], ['try', T.TRY],
  ['with', T.WITH], ['yield', T.YIELD],
]);
