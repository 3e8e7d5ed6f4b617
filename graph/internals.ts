/**
 * The RxJS internals svc relies on: deep imports of `rxjs/internal/...` instead of the `rxjs` index
 * (issue 34). The engine (graph/) and the step wrappers of src/steps (run.ts, observe.ts, trace.ts)
 * import these modules; this list is what they rely on, for the guard test.
 *
 * What: RxJS's package `exports` map publishes `./internal/*` (so the paths resolve under Node's
 * resolution and TypeScript's), but their layout is not API: a minor release may move or merge them.
 * Relied upon: each path below resolves, and each named export is the very object the public
 * `rxjs` index exports (the same class, so an Observable made by code importing `rxjs` is one here
 * too, and `instanceof` and `isObservable` agree across both). `types` is imported for types only.
 *
 * Why not the index: on Node.js it is RxJS's CommonJS build of every operator, 224 modules against
 * these 29, 45 to 140 ms and 3 to 5 MiB more at boot (bench/users README "Internals kept").
 *
 * Verified: rxjs 7.8.2 on Node.js 20.20, 22.23, 24.22, 26.12. Guarded by
 * test/portability/internals.test.ts.
 */
export const RXJS_INTERNAL_MODULES: Readonly<Record<string, readonly string[]>> = {
  'rxjs/internal/Observable': ['Observable'],
  'rxjs/internal/Subscription': ['Subscription'],
  'rxjs/internal/Subscriber': ['Subscriber'],
  'rxjs/internal/types': [],
  'rxjs/internal/util/isObservable': ['isObservable'],
  'rxjs/internal/operators/tap': ['tap'],
  'rxjs/internal/scheduler/async': ['asyncScheduler'],
};
