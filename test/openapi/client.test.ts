/**
 * A client generator accepts the document: openapi-typescript turns the validation example's document
 * into TypeScript types, and a client written against them type-checks with the project's `tsc`,
 * while a call that breaks the contract (an enum value the endpoint refuses, a missing required
 * header, a field of the wrong type) does not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS from 'openapi-typescript';
import { compileOpenApi, serializeDocument } from '../../src/openapi/index.js';
import { loadServiceModel } from '../../src/steps/index.js';
import { ROOT as root } from '../paths.js';

const tsc = join(root, 'node_modules', '.bin', 'tsc');

const CLIENT = `
import type { components, paths } from './api.js';

type Search = paths['/api/v1/search']['get'];
type SearchResult = Search['responses'][200]['content']['application/json'];
type Invalid = components['schemas']['ValidationProblem'];
type NewUser = components['schemas']['user_create'];

declare function send(method: string, path: string, init: { query?: object; headers?: object; body?: object }): Promise<{ status: number; body: unknown }>;

export async function search(q: string, apiKey: string): Promise<SearchResult | Invalid> {
  const query: Search['parameters']['query'] = { q, limit: 20, sort: 'asc' };
  const headers: Search['parameters']['header'] = { 'x-api-key': apiKey };
  const answer = await send('GET', '/api/v1/search', { query, headers });
  return answer.status === 200 ? (answer.body as SearchResult) : (answer.body as Invalid);
}

export async function createUser(user: NewUser): Promise<NewUser> {
  const answer = await send('POST', '/api/v1/users', { body: user });
  return answer.body as paths['/api/v1/users']['post']['responses'][201]['content']['application/json'];
}

export const sample: SearchResult = { query: 'ab', limit: 1, sort: 'desc' };
export const user: NewUser = { email: 'a@example.org', account_type: 'business', username: 'abc', tags: ['x'] };
export const account = (id: number): paths['/accounts/{id}']['post']['parameters']['path'] => ({ id });
export const updated: paths['/accounts/{id}']['post']['responses'][200]['content']['application/json'] = { updated: true, id: 7 };
`;

const BROKEN = `
import type { components, paths } from './api.js';

type Search = paths['/api/v1/search']['get'];
export const sort: Search['parameters']['query'] = { q: 'ab', sort: 'sideways' };
export const headers: Search['parameters']['header'] = {};
export const user: components['schemas']['user_create'] = { email: 'a@example.org', account_type: 'person', username: 'abc' };
export const id: paths['/accounts/{id}']['post']['parameters']['path'] = { id: '7' };
export const updated: paths['/accounts/{id}']['post']['responses'][200]['content']['application/json'] = { updated: false, id: 7 };
`;

async function typecheck(dir: string, file: string): Promise<string> {
  try {
    await promisify(execFile)(
      tsc,
      [
        '--noEmit',
        '--strict',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--types',
        'node',
        '--typeRoots',
        join(root, 'node_modules', '@types'),
        join(dir, file),
      ],
      {
        cwd: dir,
      },
    );
    return '';
  } catch (error) {
    return (error as { stdout?: string }).stdout ?? String(error);
  }
}

test('openapi-typescript generates a client that type-checks; a call that breaks the contract does not', async () => {
  const loaded = await loadServiceModel(join(root, 'examples', 'validation'));
  const document = JSON.parse(serializeDocument(compileOpenApi(loaded.model!), 'json')) as Parameters<typeof openapiTS>[0];
  const types = await openapiTS(document);
  const dir = mkdtempSync(join(tmpdir(), 'svc-openapi-client-'));
  try {
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(dir, 'api.ts'), types);
    writeFileSync(join(dir, 'client.ts'), CLIENT);
    writeFileSync(join(dir, 'broken.ts'), BROKEN);
    assert.equal(await typecheck(dir, 'client.ts'), '');
    const errors = await typecheck(dir, 'broken.ts');
    // One error per broken line: the enum value, the missing header, the enum of the schema, the
    // path parameter's type, the literal `updated = true` of the response.
    for (const line of [5, 6, 7, 8, 9])
      assert.match(errors, new RegExp(`broken\\.ts\\(${line},`), `line ${line} of broken.ts should not type-check:\n${errors}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
