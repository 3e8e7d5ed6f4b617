/**
 * `tls { ca_file, cert_file, key_file, reject_unauthorized }` against a MariaDB of the test's own
 * that requires TLS (--require-secure-transport), its certificate signed by a CA made here with
 * openssl: the CA file verifies it (the session is encrypted), a connection without TLS and one that
 * does not trust the CA fail the boot at once with a clear reason, `reject_unauthorized = false`
 * accepts it unverified, and an unreadable CA file fails the boot naming the file.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ConnectorOpenError, createConnectors } from '../../src/connectors/index.js';
import type { ConnectionModel } from '../../src/model/index.js';

type ConnectionTlsModel = NonNullable<ConnectionModel['tls']>;
import { cleanup, FAST_RETRY, modelOf, tempDir } from '../connectors/helpers.js';
import { NO_MYSQL, ownMariadb, type OwnMariadb } from './helpers.js';

const run = promisify(execFile);
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.splice(0)) await c().catch(() => {});
  await cleanup();
});

/** A CA, and a certificate for 127.0.0.1 it signed; and a second CA that signed nothing here. */
async function certificates(): Promise<string> {
  const dir = await tempDir('svc-mysql-tls-');
  const openssl = (...args: string[]) => run('openssl', args, { cwd: dir });
  await openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca-key.pem', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=svc test CA');
  await openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'other-key.pem', '-out', 'other.pem', '-days', '2', '-subj', '/CN=other CA');
  await openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server-key.pem', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  await writeFile(join(dir, 'san.cnf'), 'subjectAltName = IP:127.0.0.1\n');
  await openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca-key.pem',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'san.cnf',
  );
  return dir;
}

function connection(url: string, tls: ConnectionTlsModel | undefined): ConnectionModel {
  const position = { line: 1, column: 1, byte: 0 };
  return {
    kind: 'mysql',
    name: 'main',
    url,
    baseDir: '/',
    range: { filename: 'test.hcl', start: position, end: position },
    ...(tls !== undefined ? { tls } : {}),
  };
}

describe('TLS to MariaDB', { skip: NO_MYSQL, timeout: 60_000 }, () => {
  let certs: string;
  let server: OwnMariadb | undefined;
  let why: string | undefined;

  const open = async (tls: ConnectionTlsModel | undefined) => {
    const set = createConnectors(modelOf(connection(server!.url, tls)));
    cleanups.push(() => set.closeAll());
    await set.openAll({ retry: FAST_RETRY });
    return set;
  };

  test('starting a server that requires TLS', async (t) => {
    try {
      certs = await certificates();
      server = await ownMariadb([
        `--ssl-ca=${join(certs, 'ca.pem')}`,
        `--ssl-cert=${join(certs, 'server.pem')}`,
        `--ssl-key=${join(certs, 'server-key.pem')}`,
        '--require-secure-transport=ON',
      ]);
      cleanups.push(() => server!.remove());
    } catch (error) {
      why = `cannot make certificates or start a MariaDB with TLS: ${(error as Error).message}`;
      t.skip(why);
    }
  });

  test('ca_file verifies the server: the session is encrypted', async (t) => {
    if (why) return t.skip(why);
    const set = await open({ caFile: join(certs, 'ca.pem') });
    const [status] = (await set.handle('mysql', 'main').query<{ Value: string }>("SHOW SESSION STATUS LIKE 'Ssl_cipher'")).rows;
    assert.notEqual(status?.Value ?? '', '', 'a cipher is in use');
  });

  test('without tls the server refuses the connection: the boot fails at once, saying why', async (t) => {
    if (why) return t.skip(why);
    await assert.rejects(open(undefined), (error: unknown) => {
      assert.ok(error instanceof ConnectorOpenError);
      assert.equal(error.attempts, 1, error.message);
      // MySQL says "Connections using insecure transport are prohibited"; MariaDB answers "Access denied".
      assert.match(error.message, /insecure transport|Access denied/i);
      return true;
    });
  });

  test('a CA that did not sign the certificate: refused; reject_unauthorized = false accepts it unverified', async (t) => {
    if (why) return t.skip(why);
    await assert.rejects(open({ caFile: join(certs, 'other.pem') }), (error: unknown) => {
      assert.ok(error instanceof ConnectorOpenError);
      assert.match(error.message, /certificate/i);
      return true;
    });
    const set = await open({ rejectUnauthorized: false });
    assert.deepEqual((await set.handle('mysql', 'main').query('SELECT 1 AS one')).rows, [{ one: 1 }]);
  });

  test('a CA file that cannot be read fails the boot naming it', async (t) => {
    if (why) return t.skip(why);
    await assert.rejects(open({ caFile: join(certs, 'missing.pem') }), (error: unknown) => {
      assert.ok(error instanceof ConnectorOpenError);
      assert.match(error.message, /the TLS CA file .*missing\.pem cannot be read/);
      return true;
    });
  });
});
