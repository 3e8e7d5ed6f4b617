/**
 * The RxJS internals svc relies on (issue 34): deep imports of `rxjs/internal/...` instead of the
 * `rxjs` index, by graph/ and src/steps (run.ts, observe.ts, trace.ts); this list is for the guard test.
 * Relied upon: each path resolves (RxJS's `exports` publishes `./internal/*`, but the layout is not API)
 * and each named export is the very object the index exports, so `instanceof` and `isObservable` agree
 * with code importing `rxjs`. Why: the index is 224 modules against these 29, 45 to 140 ms and 3 to 5
 * MiB more at boot (bench/users README "Internals kept"). Verified: rxjs 7.8.2 on Node.js 20.20,
 * 22.23, 24.22, 26.12; guarded by test/portability/internals.test.ts.
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
