/**
 * timestamptz values (src/connectors/postgres/values.ts), on embedded PGlite and on the real server:
 * RFC 3339 text in UTC with milliseconds, whatever the session's time zone; the UTC session's text
 * rewritten, any other read through pg's Date, both giving the same text for the same instant;
 * fractions truncated to milliseconds as a Date truncates them; infinities JSON null; BC and
 * five-digit years as a Date writes them; arrays element by element.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createConnectors, type ConnectorSet, type PostgresHandle } from '../../src/connectors/index.js';
import { closeTargets, modelOf, postgresConnection, TARGETS } from '../connectors/helpers.js';

after(closeTargets);

/** Each literal (read in UTC), and the text svc must give for it. */
const CASES: readonly (readonly [string, string | null])[] = [
  ['2024-05-06 07:08:09+00', '2024-05-06T07:08:09.000Z'],
  ['2024-05-06 07:08:09.5+00', '2024-05-06T07:08:09.500Z'],
  ['2024-05-06 07:08:09.12+00', '2024-05-06T07:08:09.120Z'],
  ['2024-05-06 07:08:09.123456+00', '2024-05-06T07:08:09.123Z'],
  ['2024-05-06 07:08:09.999999+00', '2024-05-06T07:08:09.999Z'],
  ['2024-02-29 23:59:59.000001+00', '2024-02-29T23:59:59.000Z'],
  ['0050-03-01 12:00:00+00', '0050-03-01T12:00:00.000Z'],
  ['1969-12-31 23:59:59.999+00', '1969-12-31T23:59:59.999Z'],
  ['12345-01-01 00:00:00+00', '+012345-01-01T00:00:00.000Z'],
  ['0044-03-15 12:00:00+00 BC', '-000043-03-15T12:00:00.000Z'],
  ['infinity', null],
  ['-infinity', null],
];

const SELECT = `SELECT ${CASES.map(([literal], i) => `'${literal}'::timestamptz AS t${i}`).join(', ')}`;

/** The values of SELECT's one row, in the order of CASES. */
async function valuesIn(db: PostgresHandle, timeZone: string): Promise<unknown[]> {
  const session = await db.checkout();
  try {
    await session.query(`SET TimeZone = '${timeZone}'`);
    const { rows } = await session.query<Record<string, unknown>>(SELECT);
    return CASES.map((_, i) => rows[0]![`t${i}`]);
  } finally {
    await session.query('RESET TimeZone');
    session.release();
  }
}

for (const target of TARGETS) {
  describe(`timestamptz on ${target.name}`, { skip: target.skip, timeout: 60_000 }, () => {
    let set: ConnectorSet;
    let db: PostgresHandle;

    before(async () => {
      set = createConnectors(modelOf(postgresConnection(await target.fresh(), { name: 'db', pool: { max: 1 } })));
      await set.openAll();
      db = set.handle('postgres', 'db');
    });
    after(() => set.closeAll());

    for (const timeZone of ['UTC', 'Asia/Kolkata', 'America/St_Johns']) {
      test(`a session in ${timeZone}: RFC 3339 in UTC, milliseconds truncated; infinities null`, async () => {
        const got = await valuesIn(db, timeZone);
        // JSON, as a response writes the row: an infinity is a number pg makes, written as null.
        assert.deepEqual(
          JSON.parse(JSON.stringify(got)),
          CASES.map(([, expected]) => expected),
        );
        for (const [i, value] of got.entries()) {
          if (CASES[i]![1] !== null) assert.equal(typeof value, 'string', `${CASES[i]![0]} is text, not a Date`);
        }
      });
    }

    test('arrays of timestamptz are converted element by element, NULL kept', async () => {
      const { rows } = await db.query<{ list: unknown }>("SELECT ARRAY['2024-05-06 07:08:09.123456+00'::timestamptz, NULL, '2024-05-06 09:08:09+02'] AS list");
      assert.deepEqual(rows[0]!.list, ['2024-05-06T07:08:09.123Z', null, '2024-05-06T07:08:09.000Z']);
    });

    test('a cursor converts them as a plain query does', async () => {
      const plain = await db.query(SELECT);
      const cursor = await db.cursor(SELECT);
      const streamed = [];
      for await (const row of cursor) streamed.push(row);
      assert.deepEqual(streamed, plain.rows);
    });
  });
}
