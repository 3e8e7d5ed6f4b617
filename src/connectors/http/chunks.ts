/**
 * A byte stream's chunks one by one, as they were pushed, read only as fast as they are asked for.
 *
 * Not `for await (const chunk of readable)`: its `read()` joins the waiting chunks into a new Buffer,
 * a copy per socket read of a chunked upstream body that made the streaming proxy's memory grow
 * (bench/proxy README "Streaming"); taken one by one, each is a view the writer frees once written
 * (src/stream/free-bytes.ts). Flowing mode, paused after each chunk: at most one waits here.
 * `idle` bounds each wait for an asked-for chunk (as nginx's proxy_read_timeout), never the time the
 * reader is busy elsewhere; past it the stream is destroyed with `error()`.
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
