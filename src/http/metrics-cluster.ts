/**
 * Metrics of a service served by several processes (`svc serve --workers N`): the page describes the
 * whole service, whichever worker a scrape lands on. A worker asked for the page asks the primary over
 * IPC (`{ svc:metrics?, id }`); the primary (`servePrimaryMetrics`) sums every worker's registry with
 * prom-client's `clusterMetrics()` and sends the text back (`{ svc:metrics, id, text }`).
 */
import cluster, { type Worker } from 'node:cluster';
import type * as PromClient from 'prom-client';
import { promClient } from './metrics.js';

const ASK = 'svc:metrics?';
const ANSWER = 'svc:metrics';
/** prom-client's primary gives up on a silent worker after 5 s; the asking worker waits a little longer. */
const ASK_TIMEOUT_MS = 7_000;

interface Ask {
  readonly type: typeof ASK;
  readonly id: number;
}

interface Answer {
  readonly type: typeof ANSWER;
  readonly id: number;
  readonly text?: string;
  readonly error?: string;
}

let primaryServing = false;

/**
 * In the primary of a cluster: answers the workers' requests for the whole service's metrics. Call it
 * once, before forking (later calls do nothing). Costs nothing until a worker asks: prom-client is
 * loaded by the first request.
 */
export function servePrimaryMetrics(): void {
  if (primaryServing) return;
  primaryServing = true;
  let aggregator: PromClient.AggregatorRegistry<PromClient.PrometheusContentType> | undefined;
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isMessage<Ask>(message, ASK)) return;
    aggregator ??= new (promClient().AggregatorRegistry)();
    aggregator.clusterMetrics().then(
      (text) => answer(worker, { type: ANSWER, id: message.id, text }),
      (error: unknown) => answer(worker, { type: ANSWER, id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

function answer(worker: Worker, message: Answer): void {
  // The worker may have gone since it asked; nobody is left to tell.
  if (worker.isConnected()) worker.send(message, (error: Error | null) => void error);
}

let joined: { readonly pending: Map<number, (answer: Answer) => void>; next: number } | undefined;

/**
 * In a worker: `registry` is what this process contributes to the service's metrics (prom-client
 * answers the primary's collection requests with it from now on).
 */
export function joinClusterMetrics(registry: PromClient.Registry): void {
  const { AggregatorRegistry } = promClient();
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one installs prom-client's listener for the primary's collection requests.
  new AggregatorRegistry();
}

/** In a worker: the whole service's metrics page, from the primary. */
export function askPrimaryForMetrics(): Promise<string> {
  if (joined === undefined) {
    const state = { pending: new Map<number, (answer: Answer) => void>(), next: 0 };
    joined = state;
    process.on('message', (message: unknown) => {
      if (isMessage<Answer>(message, ANSWER)) state.pending.get(message.id)?.(message);
    });
  }
  const state = joined;
  const id = state.next++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle({ type: ANSWER, id, error: `the primary did not answer within ${ASK_TIMEOUT_MS} ms` }), ASK_TIMEOUT_MS);
    const settle = (answer: Answer): void => {
      clearTimeout(timer);
      state.pending.delete(id);
      if (answer.text !== undefined) resolve(answer.text);
      else reject(new Error(`cluster metrics: ${answer.error ?? 'no answer'}`));
    };
    state.pending.set(id, settle);
    const ask: Ask = { type: ASK, id };
    process.send!(ask, undefined, undefined, (error: Error | null) => {
      if (error) settle({ type: ANSWER, id, error: error.message });
    });
  });
}

function isMessage<T extends Ask | Answer>(message: unknown, type: T['type']): message is T {
  return (
    typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type && typeof (message as { id?: unknown }).id === 'number'
  );
}
