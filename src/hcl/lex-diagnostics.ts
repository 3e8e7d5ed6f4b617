/**
 * Diagnostics for tokens that are never valid HCL (port of hclsyntax checkInvalidTokens): they
 * are reported once up front, with a hint at what was probably meant, so the parser need not
 * special-case them everywhere. Repeats are capped as in hclsyntax to limit noise.
 */
import type { Diagnostic } from '../diag/index.js';
import { T, type Token } from './tokens.js';

export function checkInvalidTokens(src: string, tokens: readonly Token[]): Diagnostic[] {
  const diags: Diagnostic[] = [];
  let toldBitwise = 0;
  let toldBacktick = 0;
  let toldApostrophe = 0;
  let toldSemicolon = 0;
  const err = (summary: string, detail: string, tok: Token): void => {
    diags.push({ severity: 'error', summary, detail, subject: tok.range });
  };
  for (const tok of tokens) {
    switch (tok.type) {
      case T.BitwiseAnd:
      case T.BitwiseOr:
      case T.BitwiseXor:
      case T.BitwiseNot:
        if (toldBitwise < 4) {
          const suggestion =
            tok.type === T.BitwiseAnd
              ? ' Did you mean boolean AND ("&&")?'
              : tok.type === T.BitwiseOr
                ? ' Did you mean boolean OR ("||")?'
                : tok.type === T.BitwiseNot
                  ? ' Did you mean boolean NOT ("!")?'
                  : '';
          err('Unsupported operator', `Bitwise operators are not supported.${suggestion}`, tok);
          toldBitwise++;
        }
        break;
      case T.Backtick:
        // Only every other one, so both ends of a `quoted` string give one error.
        if (toldBacktick % 2 === 0) {
          err('Invalid character', 'The "`" character is not valid. To create a multi-line string, use the "heredoc" syntax, like "<<EOT".', tok);
        }
        if (toldBacktick <= 2) toldBacktick++;
        break;
      case T.Apostrophe:
        if (toldApostrophe % 2 === 0) {
          err('Invalid character', 'Single quotes are not valid. Use double quotes (") to enclose strings.', tok);
        }
        if (toldApostrophe <= 2) toldApostrophe++;
        break;
      case T.Semicolon:
        if (toldSemicolon < 1) {
          err(
            'Invalid character',
            'The ";" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.',
            tok,
          );
          toldSemicolon++;
        }
        break;
      case T.UnterminatedComment:
        err('Unterminated comment', 'There is no "*/" closing this comment before the end of the file.', tok);
        break;
      case T.Invalid: {
        const ch = src.slice(tok.start, tok.end);
        if (ch === '\u201c' || ch === '\u201d') {
          err(
            'Invalid character',
            '"Curly quotes" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a "straight quote".',
            tok,
          );
        } else {
          err('Invalid character', 'This character is not used within the language.', tok);
        }
        break;
      }
    }
  }
  return diags;
}
