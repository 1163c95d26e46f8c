// Web mode's server compiled with V8's code cache (scripts/web-server.mjs), in real processes on a copy of the built
// server in a temporary folder: the cache a start keeps once the page has called is what the next start compiles
// from; a cache that is damaged, foreign, refused by V8 or cannot be written costs a compile, never the start; and a
// rebuilt server never runs with the cache of the build before it.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';
import { startWebMode, type WebProcess } from '../db/testing/web-process.ts';

const root = join(import.meta.dirname, '..');
const loader = pathToFileURL(join(root, 'scripts', 'web-server.mjs')).href;

let dir: TempDir;
let bundle: string;
let cache: string;
const running: WebProcess[] = [];

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--node-only', '--quiet'], { cwd: root, stdio: 'inherit' });
}, 120_000);
beforeEach(() => {
  dir = tempDir('gmw-code-cache-');
  mkdirSync(join(dir.path, 'server'));
  symlinkSync(join(root, 'node_modules'), join(dir.path, 'node_modules')); // better-sqlite3, required as in dist/
  for (const file of ['web.cjs', 'dice-notation.cjs']) copyFileSync(join(root, 'dist', 'server', file), join(dir.path, 'server', file));
  bundle = join(dir.path, 'server', 'web.cjs');
  cache = `${bundle}.v8cache`;
});
async function stopAll(): Promise<void> {
  for (const web of running.splice(0)) {
    web.child.kill('SIGTERM');
    await web.ended;
  }
}
afterEach(async () => {
  await stopAll();
  dir.remove();
}, 30_000);

/** How a fresh Node process (no flags) compiles `file`: 'used', 'rejected' or 'none'. */
function codeCacheOf(file = bundle, nodeFlags: string[] = []): string {
  const script = `const { loadWebServer } = await import(${JSON.stringify(loader)}); console.log(loadWebServer(${JSON.stringify(file)}).codeCache);`;
  const run = spawnSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim();
}

/** Keeps the code compiled by loading `file` alone (no call served), as a process with `nodeFlags` compiles it. */
function keepAfterLoading(file: string, nodeFlags: string[] = []): void {
  const script = `const { loadWebServer } = await import(${JSON.stringify(loader)}); loadWebServer(${JSON.stringify(file)}).keepCompiled();`;
  execFileSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], { stdio: 'pipe', timeout: 30_000 });
}

/** The cache file's identity, to tell a rewritten file from the one before. */
const written = (file: string) => (existsSync(file) && statSync(file).isFile() ? `${statSync(file).ino}:${statSync(file).mtimeMs}` : null);

async function until(condition: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !condition(); await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (Date.now() > deadline) throw new Error(`no ${what} within 30 s`);
  }
}

/** Web mode on the copy, the page's first calls made, until it has written a cache other than the one before. */
async function serveFirstCalls(): Promise<{ version: string }> {
  const before = written(cache);
  const web = await startWebMode(dir.file('gm.sqlite'), bundle);
  running.push(web);
  const info = await web.call<{ version: string }>('app:info');
  await web.call('campaigns:list');
  await until(() => written(cache) !== before, `new ${cache}`);
  return info;
}

describe("web mode's code cache", () => {
  it('is kept by a start once the page has called, holds the handlers it ran, and is what the next start compiles from', async () => {
    expect(codeCacheOf()).toBe('none');
    await serveFirstCalls();
    expect(codeCacheOf()).toBe('used');
    // A cache made before any call holds the server's start alone; the one kept after the calls holds more.
    copyFileSync(bundle, join(dir.path, 'server', 'loaded.cjs'));
    keepAfterLoading(join(dir.path, 'server', 'loaded.cjs'));
    expect(statSync(cache).size).toBeGreaterThan(statSync(join(dir.path, 'server', 'loaded.cjs.v8cache')).size);
  }, 60_000);

  it('is passed over when damaged, cut short, foreign or not one at all: the start serves and writes a good one', async () => {
    copyFileSync(bundle, join(dir.path, 'server', 'other.cjs'));
    writeFileSync(join(dir.path, 'server', 'other.cjs'), '\n// another build\n', { flag: 'a' });
    keepAfterLoading(join(dir.path, 'server', 'other.cjs'));
    keepAfterLoading(bundle);
    const good = readFileSync(cache);
    const damaged = Buffer.from(good);
    damaged[damaged.length - 1000]! ^= 0xff; // one byte of V8's data
    const cases: Record<string, Buffer> = {
      'damaged': damaged,
      'cut short': good.subarray(0, Math.floor(good.length / 2)),
      "another build's": readFileSync(join(dir.path, 'server', 'other.cjs.v8cache')),
      'not a cache': Buffer.from('PK\x03\x04 not what we wrote'),
    };
    for (const [name, bytes] of Object.entries(cases)) {
      writeFileSync(cache, bytes);
      expect(codeCacheOf(), name).toBe('none');
      await serveFirstCalls();
      expect(codeCacheOf(), name).toBe('used');
      await stopAll();
    }
  }, 120_000);

  it('refused by V8 (made under other flags) is replaced by the next start', async () => {
    keepAfterLoading(bundle, ['--no-opt']);
    expect(codeCacheOf()).toBe('rejected');
    await serveFirstCalls();
    expect(codeCacheOf()).toBe('used');
  }, 60_000);

  it('of a build is never used by the next build, even one of the same length', async () => {
    await serveFirstCalls();
    await stopAll();
    // The next build: the same server but for its version, which the build stamps in (V8 checks only the length).
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const next = version.replace(/\d/g, '9');
    const source = readFileSync(bundle, 'utf8');
    expect(source, 'the version stamped in the built server').toContain(JSON.stringify(version));
    writeFileSync(bundle, source.replaceAll(JSON.stringify(version), JSON.stringify(next)));
    expect(readFileSync(bundle).length).toBe(Buffer.byteLength(source));
    expect(codeCacheOf()).toBe('none');
    const info = await serveFirstCalls();
    expect(info.version).toBe(next);
    expect(codeCacheOf()).toBe('used');
  }, 60_000);

  it('left half-written by a start killed while writing it is removed by the next that writes one', async () => {
    // A process that has ended: its id is no longer running.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const left = `${cache}.${gone}.partial`;
    writeFileSync(left, 'GM Workstation code cache 1\n{"bundle":');
    // One of a start still writing (this process runs) is left alone.
    const writing = `${cache}.${process.pid}.partial`;
    writeFileSync(writing, 'GM Workstation code cache 1\n');
    await serveFirstCalls();
    expect(existsSync(left)).toBe(false);
    expect(existsSync(writing)).toBe(true);
    expect(codeCacheOf()).toBe('used');
  }, 60_000);

  it('that cannot be written costs nothing: the start serves, and a keep leaves no file behind', async () => {
    mkdirSync(cache); // the cache's name taken by a folder: nothing can be read or written there
    keepAfterLoading(bundle);
    expect(statSync(cache).isDirectory()).toBe(true);
    expect(readdirSync(join(dir.path, 'server')).sort()).toEqual(['dice-notation.cjs', 'web.cjs', 'web.cjs.v8cache']);
    expect(codeCacheOf()).toBe('none');
    const web = await startWebMode(dir.file('gm.sqlite'), bundle);
    running.push(web);
    expect(await web.call('campaigns:list')).toEqual([]);
  }, 60_000);
});
