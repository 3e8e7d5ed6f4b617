/**
 * `catch "<code>" { status, body, headers }` blocks, on an `sql` step or directly in a `transaction`: a
 * database error with that code answers with the declared status and body instead of a 500. A code
 * is a SQLSTATE (every engine), a MySQL error number ("1062") or a SQLite extended result code
 * ("SQLITE_CONSTRAINT_UNIQUE"); which of them an engine's error carries is its connector's mapping.
 */
import type { Block } from '../hcl/index.js';
import type { CatchSpec } from './step-types.js';
import { decodeBody, type BodySchema } from './body.js';
import type { DecodeScope } from './scope.js';
import { readExpr, readStatus } from './values.js';

const CATCH_BODY: BodySchema = { attributes: { status: { required: true }, body: {}, headers: {} } };
const SQLSTATE = /^[0-9A-Z]{5}$/;
const MYSQL_ERROR_NUMBER = /^[1-9][0-9]{2,4}$/;
const SQLITE_RESULT_CODE = /^SQLITE_[A-Z_]+$/;

export function decodeCatches(blocks: readonly Block[], scope: DecodeScope): CatchSpec[] {
  const out: CatchSpec[] = [];
  const seen = new Set<string>();
  for (const b of blocks) {
    const s = scope.enter(b);
    const code = b.labels[0]!;
    const { attrs } = decodeBody(b.body, CATCH_BODY, s, b);
    if (!SQLSTATE.test(code) && !MYSQL_ERROR_NUMBER.test(code) && !SQLITE_RESULT_CODE.test(code)) {
      s.error('Invalid error code', b.labelRanges[0], {
        detail: `A catch label is a five-character SQLSTATE code such as "23505", a MySQL error number such as "1062", or a SQLite result code such as "SQLITE_CONSTRAINT_UNIQUE"; got "${code}".`,
      });
      continue;
    }
    if (seen.has(code)) {
      s.error('Duplicate catch', b.labelRanges[0], { detail: `Code "${code}" is already caught here.` });
      continue;
    }
    seen.add(code);
    const status = readStatus(attrs.get('status'), s);
    const body = readExpr(attrs.get('body'), s);
    const headers = readExpr(attrs.get('headers'), s);
    if (status !== undefined) out.push({ code, status, ...(body ? { body } : {}), ...(headers ? { headers } : {}), range: b.range });
  }
  return out;
}

export const CATCH_RULE = { labels: ['code'], multiple: true } as const;
