/**
 * A stopping worker of `svc serve --workers N` and its primary: when may the worker close its channel?
 *
 * The primary accepts connections and sends each to a worker over the channel. A worker that stops
 * listening tells the primary so, but a connection the primary sent before it read that is still on
 * its way: received while the channel is open, Node's cluster hands it back and another worker takes
 * it; lost with the channel, its client would wait forever. The worker used to keep the channel open
 * for a fixed 500 ms after its shutdown, which every stop paid, idle or not.
 *
 * Instead the worker asks the primary once it has stopped, and closes the channel on the answer: the
 * channel keeps order both ways, and a connection sent over it holds back the messages after it until
 * the worker has taken it, so the answer arrives after every connection sent before the primary read
 * the worker's "stopped listening". One round trip, a millisecond or two; the fixed wait remains only
 * as the bound of a primary that does not answer.
 */
import cluster from 'node:cluster';

const QUESTION = 'svc:anything-in-flight?';
const ANSWER = 'svc:nothing-in-flight';

/** The longest a worker waits for the primary's answer before closing its channel anyway. */
const ANSWER_TIMEOUT_MS = 500;

/** In the primary: answers each worker's question (installed once, before the first fork). */
export function answerWorkerQuestions(): void {
  cluster.on('message', (worker, message: unknown) => {
    if (message !== QUESTION) return;
    try {
      worker.send(ANSWER);
    } catch {
      // The worker is gone already: nobody is left to answer.
    }
  });
}

/** In a worker that has stopped listening: resolves once nothing the primary sent can still arrive. */
export function nothingInFlight(): Promise<void> {
  if (typeof process.send !== 'function' || !process.connected) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      process.off('message', onMessage);
      process.off('disconnect', done);
      resolve();
    };
    const onMessage = (message: unknown): void => {
      if (message === ANSWER) done();
    };
    const timer = setTimeout(done, ANSWER_TIMEOUT_MS);
    process.on('message', onMessage);
    process.once('disconnect', done);
    process.send!(QUESTION, undefined, undefined, (error: Error | null) => {
      if (error) done();
    });
  });
}
