/**
 * End to end: the built `svc` binary serving a copy of examples/issue-tracker as a process, walked
 * through with real HTTP requests: every endpoint answers with the shape its response schema
 * declares, and the refusals are problems of the right status (401 without a token, 404 for what does
 * not exist, 422 for a bad body, 409 from a `catch` of a unique violation and from a move to the same
 * status). Once on the example's own default (`pglite:.data` next to the manifest copy) and once on
 * the real PostgreSQL server of SVC_TEST_POSTGRES_URL (a fresh database, given as DATABASE_URL); the
 * cache is the example's `memory:` store in both. The webhook goes to a receiver of the test's own,
 * which checks its signature.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { closeTargets, TARGETS } from '../connectors/helpers.js';
import { ensureBuilt } from './build.js';
import { client, kill, readUntil, serve, stop, type Client, type Served } from './live-helpers.js';
import { ROOT } from '../paths.js';

const example = join(ROOT, 'examples/issue-tracker');
const TOKEN = 'e2e-team-token';
const EXPORT_KEY = 'e2e-export-key';
const SECRET = 'e2e-webhook-secret';

interface Delivery {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A webhook receiver: keeps every request it gets and answers 204. */
async function receiver(): Promise<{ url: string; deliveries: Delivery[]; close(): Promise<void> }> {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/issues`, deliveries, close: () => new Promise((ok) => server.close(() => ok())) };
}

/** Polls `found` until it gives a value, up to `tries` times 20 ms apart (bounded by what happened, not by a clock). */
async function eventually<T>(found: () => T | undefined, what: string, tries = 500): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = found();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never happened: ${what}`);
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The members of an issue, exactly those the schema declares, in its order. */
const ISSUE_KEYS = ['id', 'project_id', 'title', 'description', 'status', 'priority', 'assignee_id', 'labels', 'created_at', 'updated_at'];

const realServer = TARGETS.find((t) => t.name === 'postgres')!;
const ENGINES = [
  { name: 'pglite (the example as shipped: pglite:.data)', skip: false as const, env: async (): Promise<Record<string, string>> => ({}) },
  { name: 'postgres (DATABASE_URL)', skip: realServer.skip, env: async (): Promise<Record<string, string>> => ({ DATABASE_URL: await realServer.fresh() }) },
];

before(() => ensureBuilt());

after(() => closeTargets());

for (const engine of ENGINES) {
  describe(`examples/issue-tracker on ${engine.name}`, { skip: engine.skip }, () => {
    let dir = '';
    let svc: Served | undefined;
    let hooks: Awaited<ReturnType<typeof receiver>>;
    let http: Client;
    let base = '';
    let projectId = 0;
    let issueId = 0;

    const auth = { authorization: `Bearer ${TOKEN}` };
    const get = (path: string, headers: Record<string, string> = auth) => http.fetch(`${base}${path}`, { headers });
    const send = (method: string, path: string, body?: unknown) =>
      body === undefined
        ? http.fetch(`${base}${path}`, { method, headers: auth })
        : http.fetch(`${base}${path}`, { method, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    async function problem(r: Response, status: number, title: RegExp | string): Promise<Record<string, unknown>> {
      const body = (await r.json()) as Record<string, unknown>;
      assert.equal(r.status, status, JSON.stringify(body));
      assert.match(r.headers.get('content-type')!, /^application\/problem\+json/);
      if (typeof title === 'string') assert.equal(body.title, title);
      else assert.match(body.title as string, title);
      return body;
    }

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'svc-e2e-tracker-'));
      await cp(example, dir, { recursive: true, filter: (source) => !source.split(sep).includes('.data') });
      hooks = await receiver();
      http = client();
      svc = await serve(dir, 0, {
        ...(await engine.env()),
        TRACKER_TOKEN: TOKEN,
        EXPORT_KEY,
        WEBHOOK_URL: hooks.url,
        WEBHOOK_SECRET: SECRET,
      });
      base = svc.url;
    });

    after(async () => {
      await http?.destroy();
      kill(svc);
      await hooks?.close();
      await rm(dir, { recursive: true, force: true });
    });

    test('guards: the health probe, the document and its page are public; the API needs the team token', async () => {
      const health = await get('/api/v1/health', {});
      assert.equal(health.status, 200);
      const h = (await health.json()) as { status: string; time: string };
      assert.equal(h.status, 'ok');
      assert.match(h.time, ISO);

      const document = await get('/openapi.json', {});
      assert.equal(document.status, 200);
      const paths = ((await document.json()) as { paths: Record<string, Record<string, unknown>> }).paths;
      const operations = Object.values(paths).flatMap((p) => Object.keys(p));
      assert.equal(operations.length, 22, 'the 21 endpoints of the tracker and the stand-in webhook receiver');
      const page = await get('/docs', {});
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type')!, /^text\/html/);
      assert.match(await page.text(), /openapi\.json/);

      const refused = await problem(await get('/api/v1/issues/1', {}), 401, 'Unauthorized');
      assert.equal(refused.type, 'urn:svc:error:unauthorized');
      await problem(await get('/api/v1/issues/1', { authorization: 'Bearer wrong' }), 401, 'Unauthorized');
    });

    test('users: list, create, a taken e-mail is a 409 (catch), a missing one a 404, a bad one a 422', async () => {
      const list = (await (await get('/api/v1/users')).json()) as Record<string, unknown>[];
      assert.deepEqual(
        list.map((u) => u.email),
        ['ada@example.com', 'grace@example.com'],
      );
      assert.deepEqual(Object.keys(list[0]!), ['id', 'email', 'name', 'created_at']);

      const created = await send('POST', '/api/v1/users', { email: 'Alan@Example.com', name: 'Alan Turing' });
      assert.equal(created.status, 201);
      const alan = (await created.json()) as Record<string, unknown>;
      assert.equal(alan.email, 'alan@example.com');
      assert.match(alan.created_at as string, ISO);

      const again = await problem(await send('POST', '/api/v1/users', { email: 'ALAN@example.com', name: 'A. T.' }), 409, 'Email already registered');
      assert.equal(again.detail, 'alan@example.com already has an account.');
      await problem(await get('/api/v1/users/999'), 404, 'User not found');
      const invalid = await problem(await send('POST', '/api/v1/users', { email: 'nope' }), 422, 'Unprocessable Entity');
      assert.deepEqual((invalid.invalid_params as { name: string }[]).map((p) => p.name).sort(), ['email', 'name']);
      assert.deepEqual((await (await get(`/api/v1/users/${alan.id}`)).json()) as unknown, alan);
    });

    test('projects: the key is the Starlark slug of the name, a taken key is a 409, reads go through the cache that a PATCH empties', async () => {
      const created = await send('POST', '/api/v1/projects', { name: 'Crème Brûlée Ovens!', description: 'Hot.' });
      assert.equal(created.status, 201);
      const project = (await created.json()) as Record<string, unknown>;
      assert.equal(project.key, 'crème-brûlée-ovens', 'letters beyond ASCII kept whole: codepoints(), not bytes');
      assert.deepEqual(Object.keys(project), ['id', 'key', 'name', 'description', 'created_at']);
      projectId = project.id as number;

      const taken = await problem(await send('POST', '/api/v1/projects', { name: 'crème  brûlée ovens' }), 409, 'Project key taken');
      assert.match(taken.detail as string, /crème-brûlée-ovens/);
      await problem(await send('POST', '/api/v1/projects', { name: '!!!' }), 422, 'Unprocessable Entity');

      const first = await get(`/api/v1/projects/${projectId}`);
      assert.equal(first.headers.get('x-cache'), 'MISS');
      assert.deepEqual(await first.json(), project);
      const second = await get(`/api/v1/projects/${projectId}`);
      assert.equal(second.headers.get('x-cache'), 'HIT');
      assert.deepEqual(await second.json(), project);

      // description sent as null clears it; name left out keeps it.
      const patched = await send('PATCH', `/api/v1/projects/${projectId}`, { description: null });
      assert.equal(patched.status, 200);
      assert.deepEqual(await patched.json(), { ...project, description: null });
      const reread = await get(`/api/v1/projects/${projectId}`);
      assert.equal(reread.headers.get('x-cache'), 'MISS', 'the PATCH emptied the cache');
      assert.equal(((await reread.json()) as { description: unknown }).description, null);
      const renamed = (await (await send('PATCH', `/api/v1/projects/${projectId}`, { name: 'Ovens' })).json()) as Record<string, unknown>;
      assert.deepEqual([renamed.name, renamed.key, renamed.description], ['Ovens', 'crème-brûlée-ovens', null]);

      await problem(await get('/api/v1/projects/999'), 404, 'Project not found');
      await problem(await send('PATCH', '/api/v1/projects/999', { name: 'x' }), 404, 'Project not found');
      const all = (await (await get('/api/v1/projects')).json()) as { key: string }[];
      assert.deepEqual(
        all.map((p) => p.key),
        ['analytical-engine', 'crème-brûlée-ovens'],
      );
    });

    test('issues: pages by cursor, a status filter, a 404 for a missing project', async () => {
      const first = (await (await get('/api/v1/projects/1/issues?limit=2')).json()) as { items: Record<string, unknown>[]; next_cursor: number | null };
      assert.deepEqual(
        first.items.map((i) => i.id),
        [1, 2],
      );
      assert.equal(first.next_cursor, 2);
      assert.deepEqual(Object.keys(first.items[0]!), ISSUE_KEYS);
      assert.deepEqual(first.items[0], {
        id: 1,
        project_id: 1,
        title: 'The mill overheats',
        description: 'After about 40 multiplications in a row.',
        status: 'open',
        priority: 'high',
        assignee_id: 1,
        labels: ['bug'],
        created_at: '2024-01-17T10:00:00.000Z',
        updated_at: '2024-01-17T10:00:00.000Z',
      });
      const last = (await (await get('/api/v1/projects/1/issues?limit=2&cursor=2')).json()) as { items: { id: number }[]; next_cursor: number | null };
      assert.deepEqual(
        last.items.map((i) => i.id),
        [3],
      );
      assert.equal(last.next_cursor, null);
      const closed = (await (await get('/api/v1/projects/1/issues?status=closed')).json()) as { items: { id: number }[] };
      assert.deepEqual(
        closed.items.map((i) => i.id),
        [3],
      );
      await problem(await get('/api/v1/projects/1/issues?limit=0&status=done'), 422, 'Unprocessable Entity');
      await problem(await get('/api/v1/projects/999/issues'), 404, 'Project not found');
    });

    test('issues: create (201, then a signed webhook), read, patch with null and absent fields, unknown references', async () => {
      const created = await send('POST', `/api/v1/projects/${projectId}/issues`, { title: '=1+1 oven door', priority: 'urgent', assignee_id: 2 });
      assert.equal(created.status, 201);
      const issue = (await created.json()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(issue), ISSUE_KEYS);
      assert.deepEqual(
        [issue.project_id, issue.status, issue.priority, issue.assignee_id, issue.description, issue.labels],
        [projectId, 'open', 'urgent', 2, null, []],
      );
      issueId = issue.id as number;

      const delivery = await eventually(() => hooks.deliveries[0], 'the webhook is delivered');
      assert.equal(delivery.headers['x-tracker-event'], 'issue.created');
      assert.equal(delivery.headers['content-type'], 'application/json');
      const signature = `sha256=${createHmac('sha256', SECRET).update(delivery.body).digest('hex')}`;
      assert.equal(delivery.headers['x-tracker-signature'], signature, 'signed over the exact bytes sent');
      assert.deepEqual(JSON.parse(delivery.body), { event: 'issue.created', issue });

      assert.deepEqual(await (await get(`/api/v1/issues/${issueId}`)).json(), issue);
      await problem(await get('/api/v1/issues/99999'), 404, 'Issue not found');
      await problem(await send('POST', `/api/v1/projects/${projectId}/issues`, { title: '', priority: 'whenever' }), 422, 'Unprocessable Entity');
      await problem(await send('POST', `/api/v1/projects/${projectId}/issues`, { title: 'x', assignee_id: 999 }), 422, 'Unknown project or assignee');
      await problem(await send('POST', '/api/v1/projects/999/issues', { title: 'x' }), 422, 'Unknown project or assignee');

      // Absent fields are kept, fields sent as null cleared.
      const described = (await (await send('PATCH', `/api/v1/issues/${issueId}`, { description: 'The door will not shut.' })).json()) as Record<
        string,
        unknown
      >;
      assert.deepEqual(
        [described.title, described.description, described.assignee_id, described.priority],
        ['=1+1 oven door', 'The door will not shut.', 2, 'urgent'],
      );
      const cleared = (await (await send('PATCH', `/api/v1/issues/${issueId}`, { assignee_id: null, priority: 'low' })).json()) as Record<string, unknown>;
      assert.deepEqual([cleared.description, cleared.assignee_id, cleared.priority], ['The door will not shut.', null, 'low']);
      await problem(await send('PATCH', `/api/v1/issues/${issueId}`, { assignee_id: 999 }), 422, 'Unknown assignee');
      await problem(await send('PATCH', '/api/v1/issues/99999', { title: 'x' }), 404, 'Issue not found');
    });

    test('the feed: a move (one transaction) reaches a listening client live; a reconnection with Last-Event-ID is sent what it missed', async () => {
      const feed = await http.fetch(`${base}/api/v1/projects/${projectId}/events`, { headers: auth });
      assert.equal(feed.status, 200);
      assert.match(feed.headers.get('content-type')!, /^text\/event-stream/);
      const reader = feed.body!.getReader();
      try {
        const moved = await send('POST', `/api/v1/issues/${issueId}/move`, { status: 'in_progress' });
        assert.equal(moved.status, 200);
        const { issue, event } = (await moved.json()) as { issue: Record<string, unknown>; event: Record<string, unknown> };
        assert.deepEqual(Object.keys(issue), ISSUE_KEYS);
        assert.equal(issue.status, 'in_progress');
        assert.deepEqual(Object.keys(event), ['id', 'project_id', 'issue_id', 'kind', 'from_status', 'to_status', 'created_at']);
        assert.deepEqual(
          [event.project_id, event.issue_id, event.kind, event.from_status, event.to_status],
          [projectId, issueId, 'moved', 'open', 'in_progress'],
        );

        const live = await readUntil(reader, (text) => text.includes(`id: ${event.id}\n`), 10_000);
        assert.match(live, new RegExp(`id: ${event.id}\nevent: issue\ndata: (.*)\n\n`));
        assert.deepEqual(JSON.parse(/data: (.*)\n/.exec(live.slice(live.indexOf(`id: ${event.id}`)))![1]!), event);

        const again = await problem(await send('POST', `/api/v1/issues/${issueId}/move`, { status: 'in_progress' }), 409, 'Issue already in_progress');
        assert.equal(again.detail, `Issue ${issueId} is already in_progress.`);
        await problem(await send('POST', '/api/v1/issues/99999/move', { status: 'closed' }), 404, 'Issue not found');
        await problem(await send('POST', `/api/v1/issues/${issueId}/move`, { status: 'done' }), 422, 'Unprocessable Entity');
      } finally {
        await reader.cancel();
      }

      // Both events of the project (its creation and the move), replayed from the log from the first on.
      const events = (await (
        await get(`/api/v1/projects/${projectId}/events`, { ...auth, 'last-event-id': '0' })
      ).body!.getReader()) as ReadableStreamDefaultReader<Uint8Array>;
      try {
        const replayed = await readUntil(events, (text) => (text.match(/^data: /gm) ?? []).length >= 2, 10_000);
        const items = [...replayed.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as { kind: string; issue_id: number });
        assert.deepEqual(
          items.map((i) => [i.kind, i.issue_id]),
          [
            ['created', issueId],
            ['moved', issueId],
          ],
        );
      } finally {
        await events.cancel();
      }
      await problem(await get('/api/v1/projects/999/events'), 404, 'Project not found');
    });

    test('labels and comments: create, a taken name is a 409, put on an issue, comment, unknown references', async () => {
      const created = await send('POST', '/api/v1/labels', { name: 'hardware', color: '#00ff00' });
      assert.equal(created.status, 201);
      const label = (await created.json()) as { id: number; name: string; color: string };
      assert.deepEqual(Object.keys(label), ['id', 'name', 'color']);
      await problem(await send('POST', '/api/v1/labels', { name: 'hardware', color: '#000000' }), 409, 'Label exists');
      await problem(await send('POST', '/api/v1/labels', { name: 'x', color: 'green' }), 422, 'Unprocessable Entity');
      assert.deepEqual(
        ((await (await get('/api/v1/labels')).json()) as { name: string }[]).map((l) => l.name),
        ['bug', 'docs', 'hardware'],
      );

      for (let i = 0; i < 2; i++) {
        const put = await send('PUT', `/api/v1/issues/${issueId}/labels/${label.id}`);
        assert.equal(put.status, 200, 'idempotent');
        assert.deepEqual(((await put.json()) as { labels: string[] }).labels, ['hardware']);
      }
      await problem(await send('PUT', `/api/v1/issues/${issueId}/labels/999`), 404, 'Issue or label not found');

      const comment = await send('POST', `/api/v1/issues/${issueId}/comments`, { author_id: 1, body: 'Try the other hinge.' });
      assert.equal(comment.status, 201);
      const c = (await comment.json()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(c), ['id', 'issue_id', 'author', 'body', 'created_at']);
      assert.deepEqual([c.issue_id, c.author, c.body], [issueId, 'Ada Lovelace', 'Try the other hinge.']);
      assert.deepEqual(await (await get(`/api/v1/issues/${issueId}/comments`)).json(), [c]);
      await problem(await send('POST', `/api/v1/issues/${issueId}/comments`, { author_id: 999, body: 'x' }), 422, 'Unknown author');
      await problem(await send('POST', '/api/v1/issues/99999/comments', { author_id: 1, body: 'x' }), 404, 'Issue not found');
      await problem(await get('/api/v1/issues/99999/comments'), 404, 'Issue not found');
    });

    test('the CSV export: the team token or the export key in the URL; a formula in a title is written as text', async () => {
      const csv = await get(`/api/v1/projects/${projectId}/issues.csv?api_key=${EXPORT_KEY}`, {});
      assert.equal(csv.status, 200);
      assert.match(csv.headers.get('content-type')!, /^text\/csv/);
      assert.equal(
        csv.headers.get('content-disposition'),
        `attachment; filename="issues.csv"; filename*=UTF-8''${encodeURIComponent('crème-brûlée-ovens')}-issues.csv`,
      );
      const rows = (await csv.text()).split('\r\n');
      assert.equal(rows[0], 'id,title,status,priority,assignee,created_at');
      assert.match(rows[1]!, new RegExp(`^${issueId},'=1\\+1 oven door,in_progress,low,,\\d{4}-`));
      assert.equal(rows[2], '');
      assert.equal((await get(`/api/v1/projects/${projectId}/issues.csv`)).status, 200);
      await problem(await get(`/api/v1/projects/${projectId}/issues.csv?api_key=wrong`, {}), 401, 'Unauthorized');
      await problem(await get('/api/v1/projects/999/issues.csv'), 404, 'Project not found');
    });

    test('delete: 204, then the issue is gone; SIGTERM stops the server cleanly', async () => {
      const deleted = await http.fetch(`${base}/api/v1/issues/${issueId}`, { method: 'DELETE', headers: auth });
      assert.equal(deleted.status, 204);
      await problem(await get(`/api/v1/issues/${issueId}`), 404, 'Issue not found');
      await problem(await http.fetch(`${base}/api/v1/issues/${issueId}`, { method: 'DELETE', headers: auth }), 404, 'Issue not found');
      // One issue was created: one webhook (sent again only if an attempt timed out on a loaded machine).
      assert.deepEqual([...new Set(hooks.deliveries.map((d) => (JSON.parse(d.body) as { issue: { id: number } }).issue.id))], [issueId]);

      await http.close();
      const { code, signal } = await stop(svc!);
      assert.deepEqual({ code, signal }, { code: 0, signal: null });
      const failures = svc!.lines().filter((l) => (l.level as number) >= 50);
      assert.deepEqual(failures, [], 'no error line in the log');
    });
  });
}
