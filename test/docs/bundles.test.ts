/**
 * The renderers' bundles (src/docs/bundles.ts) and their fetcher (scripts/fetch-doc-renderers.ts):
 * the build installed every pinned file; each patch that turns off an outbound request matches the
 * pinned file exactly as often as declared and is gone from what is served; a fresh fetch into an
 * empty directory (npm pack from the registry, integrity checked, only the listed files) gives the
 * same bytes, and a second run changes nothing; the tar reader handles the long-name forms.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { BUNDLES, bundleDir, vendorDir } from '../../src/docs/index.js';
import { bundleAssets } from '../../src/docs/vendor.js';
import { untar } from '../../scripts/fetch-doc-renderers.js';
import { ROOT as root } from '../paths.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => statSync(join(dir, p)).isFile())
    .sort();
}

test('every pinned file is installed, stamped with the pin it came from', () => {
  for (const [renderer, bundle] of Object.entries(BUNDLES)) {
    const dir = bundleDir(bundle);
    assert.equal(readFileSync(join(dir, '.integrity'), 'utf8'), bundle.integrity, renderer);
    assert.deepEqual(filesUnder(dir), ['.integrity', ...bundle.files.map((f) => f.path), ...bundle.notices].sort(), renderer);
    assert.match(bundle.integrity, /^sha512-[A-Za-z0-9+/]{86}==$/);
    assert.match(bundle.version, /^\d+\.\d+\.\d+$/, `${renderer}: an exact version`);
  }
});

test('each patch matches the pinned file as often as declared, and what is served no longer holds it', () => {
  let patches = 0;
  for (const [renderer, bundle] of Object.entries(BUNDLES)) {
    for (const patch of bundle.patches) {
      patches++;
      const original = readFileSync(join(bundleDir(bundle), patch.path), 'utf8');
      assert.equal(original.split(patch.from).length - 1, patch.count, `${renderer}: ${patch.from}`);
      const served = bundleAssets(renderer as keyof typeof BUNDLES).find((a) => patch.path.endsWith(a.name))!;
      assert.equal(served.body().toString('utf8').split(patch.from).length - 1, 0, `${renderer}: ${patch.from} is served`);
      assert.equal(served.body().toString('utf8').split(patch.to).length - 1 >= patch.count, true);
    }
  }
  assert.equal(patches, 1, "Redoc's CDN logo");
});

test('assets are hashed at once and read when served; a file changed on disk since is refused, not served under the old name', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-vendor-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const bundle = BUNDLES.swagger;
  const copy = join(dir, `${bundle.package}@${bundle.version}`);
  for (const file of bundle.files) {
    mkdirSync(dirname(join(copy, file.path)), { recursive: true });
    writeFileSync(join(copy, file.path), readFileSync(join(bundleDir(bundle), file.path)));
  }
  const css = bundleAssets('swagger', dir).find((a) => a.name === 'swagger-ui.css')!;
  const bytes = readFileSync(join(copy, 'swagger-ui.css'));
  assert.equal(css.sha256, createHash('sha256').update(bytes).digest('hex'));
  assert.ok(css.body().equals(bytes));
  writeFileSync(join(copy, 'swagger-ui.css'), Buffer.concat([bytes, Buffer.from('\n/* changed */\n')]));
  assert.throws(() => css.body(), /swagger-ui\.css changed on disk since svc started; reload svc/);
});

test('a fresh fetch into an empty directory gives the installed bytes; a second run fetches nothing', { timeout: 120_000 }, (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-vendor-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const run = () =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/fetch-doc-renderers.ts'], {
      cwd: root,
      env: { ...process.env, SVC_VENDOR_DIR: dir },
      encoding: 'utf8',
    });
  const first = run();
  assert.equal(first.status, 0, first.stderr);
  for (const renderer of Object.keys(BUNDLES)) assert.match(first.stderr, new RegExp(`fetch-doc-renderers: ${renderer}: .+@\\d+\\.\\d+\\.\\d+ in \\d+ ms`));
  assert.deepEqual(filesUnder(dir), filesUnder(vendorDir()));
  for (const file of filesUnder(dir)) assert.ok(readFileSync(join(dir, file)).equals(readFileSync(join(vendorDir(), file))), file);
  const second = run();
  assert.equal(second.status, 0, second.stderr);
  assert.equal(second.stderr, '');
  // A bundle whose stamp does not match its pin is fetched again.
  const swagger = bundleDir(BUNDLES.swagger, dir);
  writeFileSync(join(swagger, '.integrity'), 'sha512-stale');
  writeFileSync(join(swagger, 'swagger-ui.css'), 'tampered');
  const third = run();
  assert.equal(third.status, 0, third.stderr);
  assert.match(third.stderr, /^fetch-doc-renderers: swagger: swagger-ui-dist@5\.35\.0 in \d+ ms\n$/);
  assert.ok(readFileSync(join(swagger, 'swagger-ui.css')).equals(readFileSync(join(bundleDir(BUNDLES.swagger), 'swagger-ui.css'))));
  assert.deepEqual(
    readdirSync(dir).filter((n) => n.includes('partial')),
    [],
  );
});

test('the tar reader: plain names, a prefix, GNU long names and pax paths', { skip: spawnSync('tar', ['--version']).status === 0 ? false : 'no tar' }, (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-untar-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const long = `package/${'deep/'.repeat(25)}file.js`;
  mkdirSync(join(dir, 'src', dirname(long)), { recursive: true });
  writeFileSync(join(dir, 'src', long), 'long');
  mkdirSync(join(dir, 'src', 'package'), { recursive: true });
  writeFileSync(join(dir, 'src', 'package', 'a.txt'), 'a'.repeat(1000));
  writeFileSync(join(dir, 'src', 'package', 'empty'), '');
  for (const format of ['gnu', 'pax', 'ustar']) {
    const archive = execFileSync('tar', ['-c', `--format=${format}`, '-C', join(dir, 'src'), 'package']);
    if (format === 'ustar') {
      // ustar keeps names of up to 255 bytes in prefix + name; the long one is 133.
      assert.ok(long.length > 100 && long.length < 255);
    }
    const files = untar(archive);
    assert.equal(files.get(long)?.toString(), 'long', format);
    assert.equal(files.get('package/a.txt')?.toString(), 'a'.repeat(1000), format);
    assert.equal(files.get('package/empty')?.length, 0, format);
    assert.deepEqual([...files.keys()].sort(), [long, 'package/a.txt', 'package/empty'].sort(), format);
  }
  assert.equal(relative(root, vendorDir()), join('vendor', 'docs'));
});
