/**
 * A byte stream's chunks one by one, as they were pushed, read only as fast as they are asked for.
 *
 * Not `for await (const chunk of readable)`: its `read()` joins every chunk waiting in the stream's
 * buffer into a new Buffer. For an upstream body sent in chunked coding, undici pushes two pieces of
 * each socket read (the end of one chunk, the start of the next), so each read was copied once more,
 * and the socket's own buffers were left to the garbage collector: the streaming proxy's memory
 * then grew by tens of MB (bench/proxy "Streaming"). Taken one by one, each piece is a view of the
 * socket's read, which the writer frees once written (src/stream/free-bytes.ts).
 *
 * Flowing mode, paused after each chunk: at most one chunk waits here, the rest stays in the stream,
 * whose full buffer pauses the socket.
 *
 * `idle` bounds each wait for a chunk the reader asked for and none had arrived (a read time-out, as
 * nginx's proxy_read_timeout): past `ms`, the stream is destroyed with `error()`, which ends the
 * iteration with it. Only those waits count: while the reader is busy elsewhere (a slow client), the
 * upstream is not waited on and the clock does not run.
 */
import { finished, type Readable } from 'node:stream';

export interface IdleBound {
  readonly ms: number;
  readonly error: () => Error;
}

export async function* chunksOf(readable: Readable, idle?: IdleBound): AsyncGenerator<Buffer> {
  const waiting: Buffer[] = [];
  let over = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const onData = (chunk: Buffer): void => {
    waiting.push(chunk);
    readable.pause();
    wake?.();
  };
  // The end, a failure, or a close before the end (ERR_STREAM_PREMATURE_CLOSE).
  const stopWatching = finished(readable, (error) => {
    over = true;
    failure = error ?? undefined;
    wake?.();
  });
  readable.on('data', onData);
  try {
    for (;;) {
      const chunk = waiting.shift();
      if (chunk !== undefined) {
        yield chunk;
        continue;
      }
      if (failure !== undefined) throw failure;
      if (over) return;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (idle !== undefined) timer = setTimeout(() => readable.destroy(idle.error()), idle.ms);
        readable.resume();
      });
      clearTimeout(timer);
      wake = undefined;
    }
  } finally {
    readable.off('data', onData);
    stopWatching();
  }
}
