import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Observable, map } from 'rxjs';
import { exitWith, type NodeDef, type Outcome, type RunContext, type StepError, type StreamOutcome } from '../../graph/index.js';
import { graph, scope, summary, sync, testScheduler, type Scope } from './helpers.js';

/** What a release saw: undefined for a normal end, else the name of the reason's class. */
function why(reason: unknown): string {
  return reason === undefined ? 'normal' : ((reason as Error).name ?? String(reason));
}

/** A step that reads its signal, registers a release and returns `result()`. */
function tracked(name: string, log: string[], result: (ctx: RunContext) => unknown, extra: Partial<NodeDef<Scope>> = {}): NodeDef<Scope> {
  return {
    type: 'step',
    name,
    kind: 'sql',
    ...extra,
    run: (_s, ctx) => {
      ctx.signal.addEventListener('abort', () => log.push(`${name}:abort`));
      ctx.onRelease((reason) => void log.push(`${name}:release:${why(reason)}`));
      return result(ctx);
    },
  } as NodeDef<Scope>;
}

test("a timed-out step's own signal is aborted and its releases run before the container's leave (marble)", () => {
  const log: string[] = [];
  testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
    const slow = cold('------r|');
    const g = graph([
      {
        type: 'container',
        kind: 'transaction',
        name: 'tx',
        body: [tracked('first', log, () => 1), tracked('slow', log, () => slow, { timeout: 3 })],
        wrap: { leave: (_inner, ending) => void log.push(`leave:${ending.kind}`) },
      },
      { type: 'exit', run: () => 'unreached' },
    ]);
    expectObservable(g.run(scope()).pipe(map(summary))).toBe('---(x|)', {
      x: { kind: 'error', step: 'slow', stepKind: 'sql', category: 'timeout' },
    });
    expectSubscriptions(slow.subscriptions).toBe('^--!');
  });
  // The slow step ends first (its own time-out), then the rest of the body, then the rollback.
  assert.deepEqual(log, ['slow:abort', 'slow:release:StepTimeoutError', 'first:abort', 'first:release:StepTimeoutError', 'leave:error']);
});

test('the signal is aborted before the StepTimeoutError travels on, with the error as its reason', async () => {
  let signal: AbortSignal | undefined;
  let seenByLeave: boolean | undefined;
  const g = graph([
    {
      type: 'container',
      kind: 'transaction',
      body: [
        {
          type: 'step',
          name: 'hang',
          kind: 'sql',
          timeout: 5,
          run: (_s, ctx) => {
            signal = ctx.signal;
            return new Promise(() => undefined);
          },
        },
      ],
      wrap: { leave: () => void (seenByLeave = signal?.aborted) },
    },
    { type: 'exit', run: () => 'unreached' },
  ]);
  const outcome = await g.runPromise(scope());
  assert.equal(outcome.kind === 'error' && outcome.error.category, 'timeout');
  assert.equal(seenByLeave, true);
  assert.equal((signal!.reason as StepError).name, 'StepTimeoutError');
});

test('each node has its own signal: one step ending does not abort another', async () => {
  const signals: Record<string, AbortSignal> = {};
  let otherAbortedWhenIFailed: boolean | undefined;
  const g = graph([
    {
      type: 'step',
      name: 'a',
      kind: 'sql',
      run: (_s, ctx) => {
        signals['a'] = ctx.signal;
        return Promise.resolve(1);
      },
    },
    {
      type: 'step',
      name: 'b',
      kind: 'http',
      run: (_s, ctx) => {
        signals['b'] = ctx.signal;
        ctx.onRelease(() => void (otherAbortedWhenIFailed = signals['a']!.aborted));
        return Promise.reject(new Error('502'));
      },
    },
    { type: 'exit', run: () => 'unreached' },
  ]);
  const outcome = await g.runPromise(scope());
  assert.equal(outcome.kind === 'error' && outcome.error.step, 'b');
  assert.notEqual(signals['a'], signals['b']);
  assert.equal(otherAbortedWhenIFailed, false, "b's failure ended b first, a only with the run");
  assert.equal(signals['a']!.aborted, true);
});

test('releases run exactly once: success, error, time-out, teardown, early exit', async () => {
  const run = async (nodes: NodeDef<Scope>[], cancel = false): Promise<Outcome | undefined> => {
    const g = graph(nodes);
    if (!cancel) return g.runPromise(scope());
    g.run(scope()).subscribe().unsubscribe();
    return undefined;
  };
  const cases: [string, (log: string[]) => NodeDef<Scope>[], string[], boolean?][] = [
    ['success', (log) => [tracked('s', log, () => Promise.resolve(1)), { type: 'exit', run: () => 'ok' }], ['s:abort', 's:release:normal']],
    ['error', (log) => [tracked('s', log, () => Promise.reject(new Error('x'))), { type: 'exit', run: () => 1 }], ['s:abort', 's:release:StepError']],
    [
      'sync error',
      (log) => [
        tracked('s', log, () => {
          throw new Error('x');
        }),
        { type: 'exit', run: () => 1 },
      ],
      ['s:abort', 's:release:StepError'],
    ],
    [
      'time-out',
      (log) => [tracked('s', log, () => new Promise(() => undefined), { timeout: 2 }), { type: 'exit', run: () => 1 }],
      ['s:abort', 's:release:StepTimeoutError'],
    ],
    [
      'teardown',
      (log) => [tracked('s', log, () => new Observable(() => undefined)), { type: 'exit', run: () => 1 }],
      ['s:abort', 's:release:AbortError'],
      true,
    ],
    ['exit after it', (log) => [tracked('s', log, () => 1), { type: 'exit', run: () => 'early' }], ['s:abort', 's:release:normal']],
    ['exitWith', (log) => [tracked('s', log, () => exitWith('caught')), { type: 'exit', run: () => 1 }], ['s:abort', 's:release:normal']],
  ];
  for (const [name, nodes, expected, cancel] of cases) {
    const log: string[] = [];
    await run(nodes(log), cancel);
    await new Promise((r) => setTimeout(r, 5)); // late settlements must not release twice
    assert.deepEqual(log, expected, name);
  }
});

test('a failing parallel branch ends first; the other branch is torn down, once', async () => {
  const log: string[] = [];
  const g = graph([
    {
      type: 'parallel',
      branches: [tracked('slow', log, () => new Promise(() => undefined)), tracked('bad', log, () => Promise.reject(new Error('x')))],
    },
    { type: 'exit', run: () => 'unreached' },
  ]);
  const outcome = await g.runPromise(scope());
  assert.equal(outcome.kind === 'error' && outcome.error.step, 'bad');
  assert.deepEqual(
    log.filter((l) => l.includes('release')),
    ['bad:release:StepError', 'slow:release:AbortError'],
  );
});

test("a stream's feeding step is released when the stream is disposed, not before", () => {
  const log: string[] = [];
  const g = graph([
    tracked('rows', log, () => ({ rows: [1] })),
    { type: 'sink', reads: ['rows'], run: (s) => ({ source: (s.steps['rows'] as { rows: number[] }).rows }) },
  ]);
  const outcome = sync(g.start(scope())) as StreamOutcome;
  assert.equal(outcome.kind, 'stream');
  assert.deepEqual(log, []);
  outcome.dispose('cancel');
  assert.deepEqual(log, ['rows:abort', 'rows:release:AbortError']);
});

test('a release registered after the node ended runs at once; a signal read then is already aborted', async () => {
  let late: RunContext | undefined;
  const g = graph([
    {
      type: 'step',
      name: 'a',
      kind: 'sql',
      run: (_s, ctx) => {
        late = ctx;
        return 1;
      },
    },
    { type: 'exit', run: () => 'done' },
  ]);
  sync(g.start(scope()));
  const reasons: unknown[] = [];
  late!.onRelease((reason) => void reasons.push(reason));
  assert.deepEqual(reasons, [undefined]);
  assert.equal(late!.signal.aborted, true);
});

test('a throwing or rejecting release reaches onTeardownError, never the run; the other releases still run', async () => {
  const reported: string[] = [];
  const released: string[] = [];
  const g = graph(
    [
      {
        type: 'step',
        name: 'cursor',
        kind: 'sql',
        run: (_s, ctx) => {
          ctx.onRelease(() => void released.push('first'));
          ctx.onRelease(() => Promise.reject(Object.assign(new Error('close failed'), { code: 'ECONNRESET' })));
          ctx.onRelease(() => {
            throw new Error('release threw');
          });
          return Promise.resolve('rows');
        },
      },
      { type: 'exit', reads: ['cursor'], run: (s) => s.steps['cursor'] },
    ],
    {
      classify: (cause) => ((cause as { code?: string }).code === 'ECONNRESET' ? 'dependency-unavailable' : undefined),
      onTeardownError: (error) => {
        reported.push(`${error.step} ${error.category}: ${(error.cause as Error).message}`);
        throw new Error('the logger itself failed'); // must not escape either
      },
    },
  );
  assert.deepEqual(await g.runPromise(scope()), { kind: 'exit', step: 'respond#1', payload: 'rows' });
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(released, ['first']);
  assert.deepEqual(reported, ['cursor internal: release threw', 'cursor dependency-unavailable: close failed']);
});

test("a container's own signal stays live while leave commits, and ends when leave has settled", async () => {
  let signal: AbortSignal | undefined;
  let liveDuringCommit: boolean | undefined;
  const released: unknown[] = [];
  const g = graph([
    {
      type: 'container',
      kind: 'transaction',
      name: 'tx',
      body: [{ type: 'step', name: 'a', kind: 'sql', run: () => Promise.resolve(1) }],
      wrap: {
        enter: (outer, ctx) => {
          signal = ctx.signal;
          ctx.onRelease((reason) => void released.push(reason));
          return Promise.resolve(outer);
        },
        leave: async (_inner, _ending, ctx) => {
          await Promise.resolve();
          liveDuringCommit = !ctx.signal.aborted;
          return 'committed';
        },
      },
    },
    { type: 'exit', reads: ['tx'], run: (s) => s.steps['tx'] },
  ]);
  assert.deepEqual(await g.runPromise(scope()), { kind: 'exit', step: 'respond#1', payload: 'committed' });
  assert.equal(liveDuringCommit, true);
  assert.equal(signal?.aborted, true);
  assert.deepEqual(released, [undefined]);
});

test('the synchronous fast path creates no AbortController', () => {
  const Original = globalThis.AbortController;
  let created = 0;
  globalThis.AbortController = class extends Original {
    constructor() {
      super();
      created++;
    }
  };
  try {
    const g = graph([
      { type: 'step', name: 'a', kind: 'expr', run: () => 1 },
      { type: 'parallel', branches: [{ type: 'step', name: 'b', kind: 'expr', run: () => 2 }] },
      { type: 'container', kind: 'group', body: [{ type: 'step', name: 'c', kind: 'expr', run: () => 3 }], wrap: {} },
      { type: 'exit', run: (s) => [s.steps['a'], s.steps['b'], s.steps['c']] },
    ]);
    assert.deepEqual(sync(g.start(scope())), { kind: 'exit', step: 'respond#1', payload: [1, 2, 3] });
    assert.equal(created, 0);
    // A step that reads its signal pays for its own controller only.
    const reads = graph([
      { type: 'step', name: 'a', kind: 'sql', run: (_s, ctx) => ctx.signal.aborted },
      { type: 'step', name: 'b', kind: 'expr', run: () => 2 },
      { type: 'exit', run: (s) => s.steps['a'] },
    ]);
    assert.deepEqual(sync(reads.start(scope())), { kind: 'exit', step: 'respond#1', payload: false });
    assert.equal(created, 1);
  } finally {
    globalThis.AbortController = Original;
  }
});

/** A tiny deterministic PRNG so a failure can be replayed from its seed. */
function prng(seed: number): () => number {
  let s = Math.imul(seed, 2654435761) >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Random pipelines (containers, parallel groups, steps that resolve, fail, time out or hang),
 * cancelled at a random moment. Invariants: every release runs exactly once; every release of a
 * step inside a container's body has run (and its signal is aborted) before that container's leave.
 */
test('release invariants hold for random pipelines and random cancellation times', async () => {
  for (let seed = 1; seed <= 120; seed++) {
    const random = prng(seed);
    const releases = new Map<string, number>();
    const problems: string[] = [];
    let counter = 0;
    const leaf = (owners: string[]): NodeDef<Scope> => {
      const name = `s${++counter}`;
      const delay = Math.floor(random() * 4);
      const mode = random();
      const timeout = random() < 0.2 ? 1 + Math.floor(random() * 3) : undefined;
      const enclosing = [...owners];
      return {
        type: 'step',
        name,
        kind: 'io',
        ...(timeout !== undefined ? { timeout } : {}),
        run: (_s, ctx) => {
          const signal = ctx.signal;
          releases.set(name, 0);
          ctx.onRelease(() => {
            releases.set(name, releases.get(name)! + 1);
            if (!signal.aborted) problems.push(`${name} released with a live signal`);
          });
          for (const owner of enclosing) leftBefore.get(owner)?.push(name);
          if (mode < 0.05) throw new Error('sync failure');
          return new Promise((resolve, reject) => {
            const timer = setTimeout(() => (mode < 0.12 ? reject(new Error('late failure')) : resolve(name)), mode > 0.95 ? 1000 : delay);
            signal.addEventListener('abort', () => clearTimeout(timer));
          });
        },
      };
    };
    const leftBefore = new Map<string, string[]>();
    const node = (depth: number, owners: string[]): NodeDef<Scope> => {
      const r = random();
      if (depth < 2 && r < 0.3) {
        const name = `tx${++counter}`;
        leftBefore.set(name, []);
        const inner = [...owners, name];
        return {
          type: 'container',
          kind: 'transaction',
          name,
          body: [node(depth + 1, inner), node(depth + 1, inner)],
          wrap: {
            enter: (outer) => (random() < 0.5 ? outer : Promise.resolve(outer)),
            leave: () => {
              for (const step of leftBefore.get(name)!) {
                if (releases.get(step) !== 1) problems.push(`${name} left before ${step} was released`);
              }
            },
          },
        };
      }
      if (depth < 2 && r < 0.5) return { type: 'parallel', branches: [node(depth + 1, owners), [node(depth + 1, owners), node(depth + 1, owners)]] };
      return leaf(owners);
    };
    const g = graph([node(0, []), node(0, []), { type: 'exit', run: () => 'ok' }]);
    const cancelAfter = random() < 0.5 ? Math.floor(random() * 6) : undefined;
    await new Promise<void>((resolve) => {
      const subscription = g.run(scope()).subscribe(() => resolve());
      if (cancelAfter !== undefined) {
        setTimeout(() => {
          subscription.unsubscribe();
          resolve();
        }, cancelAfter);
      }
    });
    await new Promise((r) => setTimeout(r, 10));
    for (const [name, n] of releases) if (n !== 1) problems.push(`${name} released ${n} times`);
    assert.deepEqual(problems, [], `seed ${seed}`);
  }
});
