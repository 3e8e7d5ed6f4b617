/**
 * A stopping worker of `svc serve --workers N` and its primary: when may the worker close its channel?
 * A connection the primary sent before reading the worker's "stopped listening" is still on its way:
 * received while the channel is open, Node's cluster hands it to another worker; lost with the
 * channel, its client waits forever. So the worker asks the primary once stopped and closes on the
 * answer: the channel keeps order and a connection sent over it holds back later messages until
 * taken, so the answer comes after every such connection. A fixed wait bounds a primary that never answers.
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
