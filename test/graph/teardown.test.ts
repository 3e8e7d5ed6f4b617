import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Observable } from 'rxjs';
import type { NodeDef, Outcome } from '../../graph/index.js';
import { graph, scope, type Scope } from './helpers.js';

/** A tiny deterministic PRNG so a failure can be replayed from its seed. */
function prng(seed: number): () => number {
  let s = Math.imul(seed, 2654435761) >>> 0; // spread small seeds over the whole range
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  next();
  next();
  return next;
}

/**
 * Random pipelines of containers, parallel groups and steps that resolve, fail or hang after random
 * delays, cancelled at a random moment. Invariants: every container that entered is left exactly
 * once; every step's signal is aborted once the run is over; nothing throws out of band.
 */
test('teardown invariants hold for random pipelines and random cancellation times', async () => {
  for (let seed = 1; seed <= 150; seed++) {
    const random = prng(seed);
    const entered = new Map<string, number>();
    const left = new Map<string, number>();
    const signals: AbortSignal[] = [];
    let counter = 0;

    const leaf = (): NodeDef<Scope> => {
      const name = `s${++counter}`;
      const delay = Math.floor(random() * 4);
      const mode = random();
      const asPromise = random() < 0.5;
      return {
        type: 'step',
        name,
        kind: 'io',
        run: (_s, ctx) => {
          signals.push(ctx.signal);
          if (mode < 0.05) throw new Error(`${name} sync failure`);
          if (asPromise) {
            return new Promise((resolve, reject) => {
              const timer = setTimeout(() => (mode < 0.12 ? reject(new Error('late failure')) : resolve(name)), delay);
              ctx.signal.addEventListener('abort', () => clearTimeout(timer));
            });
          }
          return new Observable((subscriber) => {
            const timer = setTimeout(() => {
              if (mode < 0.12) subscriber.error(new Error('late failure'));
              else {
                subscriber.next(name);
                subscriber.complete();
              }
            }, delay);
            return () => clearTimeout(timer);
          });
        },
      };
    };
    const node = (depth: number): NodeDef<Scope> => {
      const r = random();
      if (depth < 2 && r < 0.3) {
        const name = `tx${++counter}`;
        return {
          type: 'container',
          kind: 'transaction',
          name,
          body: [node(depth + 1), node(depth + 1)],
          wrap: {
            enter: (outer) => {
              entered.set(name, (entered.get(name) ?? 0) + 1);
              return random() < 0.5 ? outer : Promise.resolve(outer);
            },
            leave: (_inner, ending) => {
              left.set(name, (left.get(name) ?? 0) + 1);
              return ending.kind === 'done' && random() < 0.5 ? Promise.resolve('committed') : undefined;
            },
          },
        };
      }
      if (depth < 2 && r < 0.5) return { type: 'parallel', branches: [node(depth + 1), [node(depth + 1), node(depth + 1)]] };
      return leaf();
    };
    const g = graph([node(0), node(0), { type: 'exit', run: () => 'ok' }]);

    const cancelAfter = random() < 0.5 ? Math.floor(random() * 6) : undefined;
    const outcome = await new Promise<Outcome | 'cancelled'>((resolve) => {
      const subscription = g.run(scope()).subscribe((o) => resolve(o));
      if (cancelAfter !== undefined) {
        setTimeout(() => {
          subscription.unsubscribe();
          resolve('cancelled');
        }, cancelAfter);
      }
    });
    // Let late promises (enter, leave, steps) settle.
    await new Promise((r) => setTimeout(r, 10));

    for (const [name, n] of entered) {
      assert.equal(n, 1, `seed ${seed}: ${name} entered ${n} times`);
      assert.equal(left.get(name), 1, `seed ${seed}: ${name} entered but left ${left.get(name) ?? 0} times (outcome ${JSON.stringify(outcome)})`);
    }
    for (const name of left.keys()) assert.ok(entered.has(name), `seed ${seed}: ${name} left without entering`);
    assert.ok(
      signals.every((s) => s.aborted),
      `seed ${seed}: a step signal outlived the run`,
    );
  }
});
