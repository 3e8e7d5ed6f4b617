/**
 * Issue 36's contract, on examples/issue-tracker: `svc check --database` passes on PGlite and on the
 * real PostgreSQL server; `svc openapi --database` gives a document from which openapi-typescript
 * generates types where no response of any operation is, or contains, `unknown` (every JSON answer
 * names a response schema); a client written against those types compiles with the project's `tsc`,
 * reading `issue.priority` as the union it is, while a client that gets a field's type wrong does
 * not, and the `unknown` check itself fails on a document where one response is left untyped.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS from 'openapi-typescript';
import { svc } from '../cli/helpers.js';
import { closeTargets, TARGETS } from '../connectors/helpers.js';
import { ROOT as root } from '../paths.js';

const example = join(root, 'examples', 'issue-tracker');
const tsc = join(root, 'node_modules', '.bin', 'tsc');

/**
 * Fails to compile, naming the operations, when a response body of any operation (any status, any
 * media type) is `unknown` or `any`, or holds one at any depth (a member, an array's items).
 */
const NO_UNKNOWN = `
import type { operations } from './api.js';

type HasUnknown<T> = unknown extends T
  ? true
  : T extends readonly (infer Item)[]
    ? HasUnknown<Item>
    : T extends object
      ? true extends { [K in keyof T]-?: HasUnknown<T[K]> }[keyof T]
        ? true
        : false
      : false;

type Bodies<Operation> = Operation extends { responses: infer Responses }
  ? { [Status in keyof Responses]: Responses[Status] extends { content: infer Content } ? Content[keyof Content] : never }[keyof Responses]
  : never;

type Untyped = { [Id in keyof operations]: true extends HasUnknown<Bodies<operations[Id]>> ? Id : never }[keyof operations];

/** The operations whose responses hold \`unknown\`: none, or this line does not compile and names them. */
// (\`& string\` makes a union without the alias's name: tsc then prints its members.)
export const untyped: [Untyped] extends [never] ? 'none' : Untyped & string = 'none';
`;

const CLIENT = `
import type { components, paths } from './api.js';
export { untyped } from './no-unknown.js';

type Issue = components['schemas']['issue'];
type Problem = components['schemas']['Problem'];
type GetIssue = paths['/api/v1/issues/{id}']['get'];
type ListIssues = paths['/api/v1/projects/{id}/issues']['get'];
type CreateIssue = paths['/api/v1/projects/{id}/issues']['post'];
type NewIssue = CreateIssue['requestBody']['content']['application/json'];

export class Tracker {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const answer = await fetch(this.base + path, {
      method,
      headers: { authorization: 'Bearer ' + this.token, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(((await answer.json()) as Problem).title);
    return (await answer.json()) as T;
  }

  issue(id: GetIssue['parameters']['path']['id']): Promise<GetIssue['responses'][200]['content']['application/json']> {
    return this.call('GET', '/api/v1/issues/' + id);
  }

  async *issues(project: number, query: ListIssues['parameters']['query'] = {}): AsyncGenerator<Issue> {
    let cursor: number | null = query?.cursor ?? 0;
    while (cursor !== null) {
      const page: ListIssues['responses'][200]['content']['application/json'] = await this.call(
        'GET',
        '/api/v1/projects/' + project + '/issues?limit=' + (query?.limit ?? 20) + '&cursor=' + cursor,
      );
      yield* page.items;
      cursor = page.next_cursor;
    }
  }

  open(project: number, issue: NewIssue): Promise<CreateIssue['responses'][201]['content']['application/json']> {
    return this.call('POST', '/api/v1/projects/' + project + '/issues', issue);
  }
}

/** Exhaustive over the union: a priority typed string would need a return after the switch. */
export function urgency(issue: Issue): number {
  switch (issue.priority) {
    case 'low':
      return 0;
    case 'normal':
      return 1;
    case 'high':
      return 2;
    case 'urgent':
      return 3;
  }
}

export async function triage(tracker: Tracker): Promise<string[]> {
  const issue = await tracker.issue(1);
  const created = await tracker.open(issue.project_id, { title: 'Follow-up of #' + issue.id, priority: 'urgent', assignee_id: null });
  const lines: string[] = [created.title + ' ' + created.created_at.slice(0, 10)];
  for await (const other of tracker.issues(issue.project_id, { limit: 50 })) {
    const assignee: number | null = other.assignee_id;
    const description: string = other.description ?? '(none)';
    lines.push(other.status + ' ' + urgency(other) + ' ' + other.labels.join(',') + ' ' + (assignee ?? '-') + ' ' + description);
  }
  return lines;
}
`;

/** Each line from 5 on gets a type wrong: every one must be a tsc error at its line. */
const BROKEN = `
import type { components, paths } from './api.js';
type Issue = components['schemas']['issue'];
declare const issue: Issue;
export const priority: number = issue.priority;
export const blocker: Issue['priority'] = 'blocker';
export const cursor: string | null = ({} as paths['/api/v1/projects/{id}/issues']['get']['responses'][200]['content']['application/json']).next_cursor;
export const created: paths['/api/v1/projects/{id}/issues']['post']['requestBody']['content']['application/json'] = { title: 7 };
export const description: string = issue.description;
export const labels: number[] = issue.labels;
`;
const BROKEN_LINES = [5, 6, 7, 8, 9, 10];

async function typecheck(dir: string, file: string): Promise<string> {
  try {
    await promisify(execFile)(
      tsc,
      [
        '--noEmit',
        '--noErrorTruncation',
        '--strict',
        '--target',
        'es2022',
        '--lib',
        'es2022,dom',
        '--module',
        'nodenext',
        '--types',
        'node',
        '--typeRoots',
        join(root, 'node_modules', '@types'),
        join(dir, file),
      ],
      { cwd: dir },
    );
    return '';
  } catch (error) {
    return (error as { stdout?: string }).stdout ?? String(error);
  }
}

/** The parts of the document the control edits. */
interface Document {
  readonly paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  readonly components: { schemas: Record<string, { properties: Record<string, { items?: unknown }> }> };
}

/** A directory holding the types generated from `document` and the no-unknown check beside them. */
async function generated(document: Document): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tracker-client-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'api.ts'), await openapiTS(document as unknown as Parameters<typeof openapiTS>[0]));
  writeFileSync(join(dir, 'no-unknown.ts'), NO_UNKNOWN);
  return dir;
}

const dirs: string[] = [];
after(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await closeTargets();
});

const documents = new Map<string, string>();

for (const target of TARGETS) {
  describe(`svc check and svc openapi --database on ${target.name}`, { skip: target.skip }, () => {
    let database = '';
    before(async () => {
      database = target.name === 'pglite' ? 'pglite:' : await target.fresh();
    });

    test('svc check --database: the migration applied and every query of the example prepared by the database', async () => {
      const checked = await svc(['check', '-c', example, '--database', database]);
      assert.equal(checked.code, 0, checked.stderr + checked.stdout);
      assert.match(checked.stdout, /^ok: 24 endpoints \(2 of them documentation\), 8 schemas, 2 guards, 2 connections, 32 queries checked on the database\n$/);
    });

    test('svc openapi --database: the document', async () => {
      const ran = await svc(['openapi', '-c', example, '--database', database]);
      assert.equal(ran.code, 0, ran.stderr);
      documents.set(target.name, ran.stdout);
    });
  });
}

describe('the TypeScript client', () => {
  let document: Document;
  let dir = '';

  before(async () => {
    // The document typed from PGlite; with the real server too, the same bytes.
    const typed = documents.get('pglite');
    assert.ok(typed, 'svc openapi --database pglite: ran');
    for (const [name, text] of documents) assert.equal(text, typed, `the document typed from ${name} is the one typed from pglite`);
    document = JSON.parse(typed) as Document;
    dir = await generated(document);
  });

  test('every response is typed without the database too: each JSON answer names its schema', async () => {
    const plain = await svc(['openapi', '-c', example]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout, documents.get('pglite'));
  });

  test('no response type of any operation is or holds unknown, and a client compiles against the types', async () => {
    writeFileSync(join(dir, 'client.ts'), CLIENT);
    assert.equal(await typecheck(dir, 'client.ts'), '');
  });

  test('a client that gets a field type wrong does not compile', async () => {
    writeFileSync(join(dir, 'broken.ts'), BROKEN);
    const errors = await typecheck(dir, 'broken.ts');
    for (const line of BROKEN_LINES) assert.match(errors, new RegExp(`broken\\.ts\\(${line},`), `line ${line} of broken.ts should not type-check:\n${errors}`);
  });

  test('the unknown check fails, naming the operations, on a response left untyped and on an unknown deep inside one', async () => {
    const untyped = structuredClone(document);
    untyped.paths['/api/v1/issues/{id}']!.get!.responses['200']!.content!['application/json']!.schema = {};
    // The items of issue.labels: inside every issue, so inside a page's items and a move's issue too.
    const deep = structuredClone(document);
    deep.components.schemas.issue!.properties.labels!.items = {};
    const [top, nested] = await Promise.all([untyped, deep].map(async (d) => typecheck(await generated(d), 'no-unknown.ts')));
    assert.match(top!, /no-unknown\.ts\(\d+,\d+\): error TS2322: Type '"none"' is not assignable to type '"getApiV1IssuesById"'\./, top);
    const named = /Type '"none"' is not assignable to type '([^']+)'/.exec(nested!)?.[1];
    assert.ok(named, nested);
    assert.deepEqual(
      named
        .split(' | ')
        .map((n) => n.replaceAll('"', ''))
        .sort(),
      [
        'getApiV1IssuesById',
        'getApiV1ProjectsByIdIssues',
        'patchApiV1IssuesById',
        'postApiV1IssuesByIdMove',
        'postApiV1ProjectsByIdIssues',
        'putApiV1IssuesByIdLabelsByLabel',
      ],
      nested,
    );
  });
});
