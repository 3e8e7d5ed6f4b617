import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flagString, flagStrings, parseArgs, UsageError } from '../../src/cli/args.js';
import { bindAddress, SERVE_FLAGS } from '../../src/cli/serve.js';

const FLAGS = [
  { name: 'config', short: 'c', value: true },
  { name: 'port', value: true },
  { name: 'watch', value: false },
] as const;

test('flags in every accepted spelling', () => {
  for (const argv of [['-c', 'dir'], ['-cdir'], ['-c=dir'], ['--config', 'dir'], ['--config=dir']]) {
    assert.deepEqual(parseArgs(argv, FLAGS).flags, { config: 'dir' }, argv.join(' '));
  }
  assert.deepEqual(parseArgs(['--watch', 'x', '--', '--port'], FLAGS), { flags: { watch: true }, values: {}, positionals: ['x', '--port'] });
});

test('a flag given twice: the last value wins, every value is kept in order', () => {
  const parsed = parseArgs(['--config', 'a=1', '-c', 'b=2'], FLAGS);
  assert.equal(flagString(parsed, 'config'), 'b=2');
  assert.deepEqual(flagStrings(parsed, 'config'), ['a=1', 'b=2']);
  assert.deepEqual(flagStrings(parsed, 'port'), []);
});

test('unknown flags, missing values and values on switches are usage errors', () => {
  assert.throws(
    () => parseArgs(['--prot', '80'], FLAGS),
    (e: unknown) => e instanceof UsageError && /unknown flag --prot/.test(e.message),
  );
  assert.throws(() => parseArgs(['-x'], FLAGS), /unknown flag -x/);
  assert.throws(() => parseArgs(['--port'], FLAGS), /--port needs a value/);
  assert.throws(() => parseArgs(['-c', '--port', '1'], FLAGS), /-c needs a value/);
  assert.throws(() => parseArgs(['--watch=yes'], FLAGS), /takes no value/);
});

test('bind address: flag, then SVC_* then plain env, then the server block', () => {
  const server = { host: '127.0.0.1', port: 8080 };
  const args = (...argv: string[]) => parseArgs(argv, SERVE_FLAGS);
  assert.deepEqual(bindAddress(args(), {}, server), { host: '127.0.0.1', port: 8080 });
  assert.deepEqual(bindAddress(args(), { PORT: '9000', HOST: '0.0.0.0' }, server), { host: '0.0.0.0', port: 9000 });
  assert.deepEqual(bindAddress(args(), { PORT: '9000', SVC_PORT: '9100', HOST: 'a', SVC_HOST: 'b' }, server), { host: 'b', port: 9100 });
  assert.deepEqual(bindAddress(args('--port', '0', '--host', '::1'), { SVC_PORT: '9100', SVC_HOST: 'b' }, server), { host: '::1', port: 0 });
  assert.throws(() => bindAddress(args('--port', '99999'), {}, server), /not a port number/);
  assert.throws(() => bindAddress(args(), { PORT: 'http' }, server), /PORT: "http" is not a port number/);
});
