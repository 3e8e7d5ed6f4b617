/**
 * Cost of one request validation for the search endpoint shape (1 header + 3 query parameters),
 * against a hand-written check of the same rules measured in the same run.
 * Not a test: run `node --import tsx test/schema/bench.ts`.
 */
import { compileRequestValidator, parseJsonBody, type RequestInput } from '../../src/schema/index.js';
import { KEY, SEARCH, USERS_POST } from './specs.js';

const headers = {
  host: 'localhost:8080',
  'user-agent': 'autocannon',
  accept: '*/*',
  'x-api-key': KEY,
  connection: 'keep-alive',
};
const search = compileRequestValidator(SEARCH);
const users = compileRequestValidator(USERS_POST);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const INT = /^-?(?:0|[1-9][0-9]*)$/;
/** What a careful hand-written Fastify handler would do for the same rules. */
function handWritten(input: RequestInput): unknown {
  const key = input.headers['x-api-key'];
  if (typeof key !== 'string' || !UUID.test(key)) return undefined;
  const q = input.query.q;
  if (typeof q !== 'string' || q.length < 2) return undefined;
  const l = input.query.limit;
  let limit = 20;
  if (l !== undefined) {
    if (typeof l !== 'string' || !INT.test(l)) return undefined;
    limit = Number(l);
    if (limit < 1 || limit > 100) return undefined;
  }
  const s = input.query.sort ?? 'desc';
  if (s !== 'asc' && s !== 'desc') return undefined;
  return { path: input.path, query: { ...input.query, q, limit, sort: s }, headers: input.headers, body: input.body };
}

function measure(label: string, fn: () => unknown, n = 2_000_000): number {
  let sink = 0;
  for (let i = 0; i < n / 10; i++) if (fn()) sink++; // warm-up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) if (fn()) sink++;
  const ns = Number(process.hrtime.bigint() - t0) / n;
  console.log(`${label.padEnd(58)} ${ns.toFixed(0).padStart(5)} ns${sink === 0 ? ' (no result!)' : ''}`);
  return ns;
}

const full: RequestInput = { path: {}, query: { q: 'hello', limit: '50', sort: 'asc' }, headers, body: undefined };
const defaults: RequestInput = { path: {}, query: { q: 'hello' }, headers, body: undefined };
const invalid: RequestInput = { path: {}, query: { q: 'h', limit: '500', sort: 'up' }, headers: { 'x-api-key': 'x' }, body: undefined };
const bodyText = '{"email":"ada@example.com","account_type":"business","username":"ada_l","age":36,"tags":["a","b"]}';

for (let round = 0; round < 2; round++) {
  console.log(`round ${round + 1}`);
  const a = measure('search, 3 query params given (compiled validator)', () => search.validate(full).ok);
  const b = measure('search, 3 query params given (hand-written)', () => handWritten(full));
  measure('search, defaults injected (compiled validator)', () => search.validate(defaults).ok);
  measure('search, 4 failures -> invalid_params (error path)', () => !search.validate(invalid).ok, 200_000);
  measure('user_create: parseJsonBody + validate', () => {
    const r = parseJsonBody(bodyText);
    return r.ok && users.validate({ path: {}, query: {}, headers: {}, body: r.value }).ok;
  });
  measure('user_create: JSON.parse alone', () => JSON.parse(bodyText));
  console.log(`  validator / hand-written: ${(a / b).toFixed(2)}x`);
}
