/**
 * A custom step served: its attributes evaluated per request and handed to `run` typed, its output
 * read by later steps; a value of the wrong type at run time, a `run` that throws, a time-out, each
 * a problem that shows nothing of the cause; the abort signal when the client leaves; a streaming
 * step pulled as the client reads (backpressure) and stopped when it leaves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { get, type IncomingMessage } from 'node:http';
import { createServer, defineStep, loadService, type SvcServer } from '../../src/index.js';
import { tempManifest, until } from './helpers.js';

const MANIFEST = `
server {
  shutdown_timeout = "2s"
}

endpoint "GET /greet/{name}" {
  request {
    query {
      field "times" {
        type    = string
        default = "2"
      }
    }
  }
  pipeline {
    greet "hello" {
      name  = ctx.request.path.name
      times = ctx.request.path.name == "typed" ? ctx.request.query.times : 2
    }
    respond {
      body = { text = steps.hello.text, upper = upper(steps.hello.text) }
    }
  }
}

endpoint "GET /fail" {
  pipeline {
    greet "hello" {
      name = "boom"
    }
    respond {
      body = steps.hello.text
    }
  }
}

endpoint "GET /both" {
  pipeline {
    parallel {
      greet "a" {
        name     = "boom"
        on_error = "continue"
      }
      greet "b" {
        name = "bo"
      }
    }
    respond {
      body = { a_ok = steps.a.ok, a_status = steps.a.error.status, b = steps.b.text }
    }
  }
}

endpoint "GET /wait" {
  pipeline {
    wait "w" {}
    respond {
      body = steps.w.done
    }
  }
}

endpoint "GET /slow" {
  pipeline {
    wait "w" {
      timeout = "20ms"
    }
    respond {
      body = steps.w.done
    }
  }
}

endpoint "GET /numbers" {
  pipeline {
    numbers "n" {
      count = 1000000
    }
    stream "ndjson" {
      source = steps.n.stream
    }
  }
}

endpoint "GET /few" {
  pipeline {
    numbers "n" {
      count = 3
    }
    stream "ndjson" {
      source = steps.n.stream
    }
  }
}
`;

const seen: { name: string; times: number | undefined }[] = [];
const greet = defineStep({
  name: 'greet',
  attributes: { name: { type: 'string', required: true }, times: { type: 'int' } },
  outputs: ['text'],
  run({ name, times }) {
    if (name === 'boom') throw new Error('secret internal detail');
    seen.push({ name, times });
    return Promise.resolve({ text: Array.from({ length: times ?? 1 }, () => name).join(' ') });
  },
});

const waits = { started: 0, aborted: 0 };
const wait = defineStep({
  name: 'wait',
  outputs: ['done'],
  run(_attributes, { signal }) {
    waits.started++;
    return new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => {
        waits.aborted++;
        reject(signal.reason);
      });
    });
  },
});

const numbersState: { produced: number; finished: number; signal: AbortSignal | undefined } = { produced: 0, finished: 0, signal: undefined };
const numbers = defineStep({
  name: 'numbers',
  attributes: { count: { type: 'int', required: true } },
  stream: true,
  run({ count }, { signal }) {
    numbersState.signal = signal;
    return (async function* () {
      try {
        for (let n = 0; n < count; n++) {
          numbersState.produced++;
          yield { n, pad: 'x'.repeat(1000) };
        }
      } finally {
        numbersState.finished++;
      }
    })();
  },
});

async function serve(): Promise<{ server: SvcServer; url: string; logs: string[]; close(): Promise<void> }> {
  const m = tempManifest(MANIFEST);
  const loaded = await loadService(m.dir, { steps: [greet, wait, numbers] });
  assert.equal(loaded.report, '');
  const logs: string[] = [];
  const server = await createServer(loaded.service!, { log: { level: 'info', stream: { write: (line: string) => logs.push(line) } } });
  const { url } = await server.listen({ host: '127.0.0.1', port: 0 });
  return {
    server,
    url,
    logs,
    close: async () => {
      await server.close();
      m.remove();
    },
  };
}

test('a custom step runs per request with its attributes evaluated and typed, and its output is read', async () => {
  const s = await serve();
  try {
    const response = await fetch(`${s.url}/greet/ada`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { text: 'ada ada', upper: 'ADA ADA' });
    assert.deepEqual(seen.at(-1), { name: 'ada', times: 2 });
  } finally {
    await s.close();
  }
});

test('a value of the wrong type at run time and a run that throws are 500 problems that show nothing of the cause', async () => {
  const s = await serve();
  try {
    const typed = await fetch(`${s.url}/greet/typed?times=3`);
    assert.equal(typed.status, 500);
    assert.match(typed.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const typedText = await typed.text();
    assert.doesNotMatch(typedText, /times|whole number|attribute/);
    const failed = await fetch(`${s.url}/fail`);
    assert.equal(failed.status, 500);
    assert.doesNotMatch(await failed.text(), /secret/);
    // The causes are in the log, for the operator.
    await until(() => s.logs.some((l) => l.includes('secret internal detail')), 'the thrown message logged');
    assert.ok(s.logs.some((l) => l.includes('attribute \\"times\\" must be a whole number')));
  } finally {
    await s.close();
  }
});

test('custom steps run in parallel branches, and on_error = "continue" makes a failure their output', async () => {
  const s = await serve();
  try {
    const response = await fetch(`${s.url}/both`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { a_ok: false, a_status: 500, b: 'bo' });
  } finally {
    await s.close();
  }
});

test("a custom step's timeout aborts its signal and answers 504", async () => {
  const s = await serve();
  try {
    const before = waits.aborted;
    const response = await fetch(`${s.url}/slow`);
    assert.equal(response.status, 504);
    assert.equal(waits.aborted, before + 1);
  } finally {
    await s.close();
  }
});

test("the step's signal aborts when the client leaves", async () => {
  const s = await serve();
  try {
    const started = waits.started;
    const aborted = waits.aborted;
    const request = get(`${s.url}/wait`);
    request.on('error', () => {});
    await until(() => waits.started === started + 1, 'the step started');
    request.destroy();
    await until(() => waits.aborted === aborted + 1, 'the step aborted');
  } finally {
    await s.close();
  }
});

test('a streaming step is sent in full as NDJSON', async () => {
  const s = await serve();
  try {
    const response = await fetch(`${s.url}/few`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /ndjson/);
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { n: number });
    assert.deepEqual(
      lines.map((l) => l.n),
      [0, 1, 2],
    );
  } finally {
    await s.close();
  }
});

test('a streaming step is pulled as the client reads, and stopped with its signal aborted when the client leaves', async () => {
  const s = await serve();
  try {
    numbersState.produced = 0;
    const finished = numbersState.finished;
    const response = await new Promise<IncomingMessage>((resolve, reject) => get(`${s.url}/numbers`, resolve).on('error', reject));
    assert.equal(response.statusCode, 200);
    // The client reads nothing more: production stops once the socket's buffers are full.
    response.pause();
    await until(() => numbersState.produced > 0, 'the first items');
    let last = -1;
    let steady = 0;
    await until(() => {
      steady = numbersState.produced === last ? steady + 1 : 0;
      last = numbersState.produced;
      return steady >= 40;
    }, 'production stalls');
    // A million 1 kB items were asked for; what the buffers hold is a small part of them.
    assert.ok(numbersState.produced < 100_000, `produced ${numbersState.produced}`);
    response.destroy();
    await until(() => numbersState.finished === finished + 1, 'the generator finished');
    const signal = numbersState.signal!;
    await until(() => signal.aborted, 'the signal aborted');
    assert.ok(numbersState.produced < 1_000_000);
  } finally {
    await s.close();
  }
});
