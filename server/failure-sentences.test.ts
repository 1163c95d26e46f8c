// A read-only database and a full disk, made real: a 2 MB tmpfs filled to the last byte, a read-only mount, and the
// built gmw run as `nobody` against a file it may read but not write (as root, permissions would not stop a write).
// Where mounting is impossible (not root), those tests say so and skip; the codes' wording is checked on its own.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DatabaseLockedError } from '../db/lock.ts';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';
import { openApp } from './app.ts';
import { diskFullSentence, isGmSentence, readOnlySentence, sentenceFor } from './failure-sentences.ts';

const root = join(import.meta.dirname, '..');
const gmwBin = join(root, 'dist', 'cli', 'gmw.cjs');
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

let dir: TempDir;
const mounts: string[] = [];

function tryMount(args: string[]): boolean {
  return spawnSync('mount', args, { stdio: 'ignore' }).status === 0;
}

/** A small tmpfs at `at`, or false where this machine cannot mount one. */
function smallDisk(at: string, size = '2m'): boolean {
  mkdirSync(at, { recursive: true });
  if (!tryMount(['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', at])) return false;
  mounts.push(at);
  return true;
}

/** Writes zeros into `path` until the disk says ENOSPC. */
function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(4096);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

const canMount = (() => {
  const probe = tempDir('gmw-mount-probe-');
  try {
    const ok = tryMount(['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe.path]);
    if (ok) spawnSync('umount', [probe.path]);
    return ok;
  } finally {
    probe.remove();
  }
})();
if (!canMount) console.warn('[failure-sentences.test] mount is not possible here (not root?): the full-disk and read-only mount tests are skipped; the wording of the codes is still checked.');

beforeAll(() => {
  dir = tempDir('gmw-fail-');
  // The real processes below run the built gmw.
  if (canMount) execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--node-only', '--quiet'], { cwd: root, stdio: 'inherit' });
}, 120_000);
afterAll(() => {
  // Unmount even when a test failed, newest first; then the folder can go.
  for (const at of mounts.reverse()) spawnSync('umount', ['-l', at]);
  dir.remove();
});

describe('which errors carry a sentence', () => {
  it('says SQLite’s and Node’s read-only and full-disk codes as what is wrong and what to do', () => {
    const db = join(dir.path, 'codes', 'campaign.sqlite');
    for (const code of ['SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED', 'SQLITE_READONLY_CANTINIT', 'EROFS', 'EACCES', 'EPERM']) {
      expect(sentenceFor(Object.assign(new Error('x'), { code }), db)).toBe(readOnlySentence(db));
    }
    for (const code of ['SQLITE_FULL', 'ENOSPC']) expect(sentenceFor(Object.assign(new Error('x'), { code }), db)).toBe(diskFullSentence(db));
    expect(readOnlySentence(db)).toBe(`The campaign database is read-only (${db}): nothing was changed. Give GM Workstation write access to the file and its folder, or open a copy with --db.`);
    expect(diskFullSentence(db)).toMatch(/^The disk holding the campaign database \(.*\) is full: nothing was changed\. Free some space and try again; your campaign is safe up to the last saved action\.$/);
    // A disk I/O error on a disk with room and a folder that can be written is not guessed at.
    mkdirSync(join(dir.path, 'codes'), { recursive: true });
    expect(sentenceFor(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }), db)).toBeNull();
    expect(sentenceFor(new Error('no such table: campaigns'), db)).toBeNull();
  });

  it('takes an app refusal’s message as it is, by its gmSentence marker', () => {
    const locked = new DatabaseLockedError({ pid: 4242, kind: 'web', startedAt: '', hostname: '' }, '/x.lock');
    expect(isGmSentence(locked)).toBe(true);
    expect(sentenceFor(locked, '/x')).toBe(locked.message);
    class NotOursError extends Error {
      override name = 'NotOursError';
      readonly gmSentence = true;
    }
    expect(sentenceFor(new NotOursError('That file is not a GM Workstation database.'), '/x')).toBe('That file is not a GM Workstation database.');
    expect(isGmSentence(new Error('plain'))).toBe(false);
  });
});

describe.skipIf(!canMount)('a full disk (a 2 MB tmpfs filled to ENOSPC)', () => {
  it('answers a write with the full-disk sentence, changes nothing, and writes again once space is freed', async () => {
    const disk = join(dir.path, 'full');
    expect(smallDisk(disk)).toBe(true);
    const databasePath = join(disk, 'campaign.sqlite');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const app = openApp({ databasePath, transport: 'web', version: 'test' });
    try {
      const first = await app.dispatch('campaigns:create', { name: 'Before the disk filled', rulesetId: 'enigma' });
      expect(first).toHaveProperty('result');
      fillDisk(join(disk, 'filler'));

      // The WAL grows a page or so a write: within a few writes one needs a page the disk no longer has.
      let refusal: { message: string; kind: string } | null = null;
      const saved: string[] = ['Before the disk filled'];
      for (let i = 0; i < 40 && !refusal; i += 1) {
        const reply = await app.dispatch('campaigns:create', { name: `Campaign ${i} ${'x'.repeat(60)}`, rulesetId: 'enigma' });
        if ('error' in reply) refusal = reply.error;
        else saved.push(`Campaign ${i} ${'x'.repeat(60)}`);
      }
      expect(refusal).toEqual({ message: diskFullSentence(databasePath), kind: 'internal' });
      // The log has one line with SQLite's code, not a stack.
      expect(logged.mock.calls.map((call) => call.join(' ')).join('\n')).toMatch(/campaigns:create failed: SQLITE_(FULL|IOERR)/);
      expect(logged.mock.calls.map((call) => call.join(' ')).join('\n')).not.toMatch(/\n\s+at /);

      // Nothing was changed: exactly the campaigns whose writes were acknowledged.
      const listed = await app.dispatch('campaigns:list', {});
      expect('result' in listed && (listed.result as { name: string }[]).map((c) => c.name).sort()).toEqual([...saved].sort());

      rmSync(join(disk, 'filler'));
      const after = await app.dispatch('campaigns:create', { name: 'After space was freed', rulesetId: 'enigma' });
      expect(after).toHaveProperty('result');
    } finally {
      app.close();
      logged.mockRestore();
    }
  });
});

describe.skipIf(!canMount)('a read-only database', () => {
  const asNobody = (args: string[]) =>
    spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, gmwBin, ...args], {
      encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', HOME: '/nonexistent' },
    });
  const hasSetpriv = spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0;

  it.skipIf(!hasSetpriv)('answers a write with the read-only sentence and leaves the file as it was (gmw run as nobody)', () => {
    const folder = join(dir.path, 'readonly-file');
    mkdirSync(folder);
    const databasePath = join(folder, 'campaign.sqlite');
    execFileSync(process.execPath, [gmwBin, 'campaigns:create', '{"name":"Kept","rulesetId":"enigma"}', '--db', databasePath], { stdio: 'ignore' });
    chmodSync(dir.path, 0o755);
    chmodSync(folder, 0o777); // the folder may be written (SQLite's -wal and -shm), the file not
    chmodSync(databasePath, 0o444);
    const before = sha256(databasePath);

    const run = asNobody(['campaigns:create', '{"name":"Refused","rulesetId":"enigma"}', '--db', databasePath]);
    expect(run.stderr.trim()).toBe(readOnlySentence(databasePath));
    expect(run.stdout).toBe('');
    expect(run.status).toBe(1);
    expect(sha256(databasePath)).toBe(before);
    expect(asNobody(['list', '--db', databasePath]).stdout).toMatch(/Kept/);
  }, 60_000);

  it.skipIf(!hasSetpriv)('refuses to start on a folder it cannot write, with the read-only sentence and exit code 4 (gmw run as nobody)', () => {
    const folder = join(dir.path, 'readonly-folder');
    mkdirSync(folder);
    const databasePath = join(folder, 'campaign.sqlite');
    execFileSync(process.execPath, [gmwBin, 'campaigns:create', '{"name":"Kept","rulesetId":"enigma"}', '--db', databasePath], { stdio: 'ignore' });
    chmodSync(dir.path, 0o755);
    chmodSync(folder, 0o755); // root's: nobody may read, not create the lock, -wal or -shm
    const listing = readdirSync(folder).sort();
    const run = asNobody(['campaigns:create', '{"name":"Refused","rulesetId":"enigma"}', '--db', databasePath]);
    expect(run.stderr.trim()).toBe(readOnlySentence(databasePath));
    expect(run.status).toBe(4);
    expect(readdirSync(folder).sort()).toEqual(listing);
  }, 60_000);

  it('refuses to start on a read-only mount with the read-only sentence (root, through a read-only bind mount)', () => {
    const source = join(dir.path, 'bind-source');
    const view = join(dir.path, 'bind-view');
    mkdirSync(source);
    mkdirSync(view);
    const writable = join(source, 'campaign.sqlite');
    execFileSync(process.execPath, [gmwBin, 'campaigns:create', '{"name":"Kept","rulesetId":"enigma"}', '--db', writable], { stdio: 'ignore' });
    expect(tryMount(['--bind', source, view])).toBe(true);
    mounts.push(view);
    expect(tryMount(['-o', 'remount,bind,ro', view])).toBe(true);
    const databasePath = join(view, 'campaign.sqlite');
    const before = sha256(writable);
    const run = spawnSync(process.execPath, [gmwBin, 'list', '--db', databasePath], { encoding: 'utf8' });
    expect(run.stderr.trim()).toBe(readOnlySentence(databasePath));
    expect(run.status).toBe(4);
    expect(sha256(writable)).toBe(before);
    expect(existsSync(`${writable}.lock`)).toBe(false);
  }, 60_000);
});

describe.skipIf(!canMount)('a full disk at start', () => {
  it('gmw says the disk is full (exit code 4) instead of "disk I/O error"', () => {
    const disk = join(dir.path, 'full-at-start');
    expect(smallDisk(disk, '1m')).toBe(true);
    const databasePath = join(disk, 'campaign.sqlite');
    execFileSync(process.execPath, [gmwBin, 'demo', '--db', databasePath], { stdio: 'ignore' });
    fillDisk(join(disk, 'filler'));
    const run = spawnSync(process.execPath, [gmwBin, 'list', '--db', databasePath], { encoding: 'utf8' });
    expect(run.stderr.trim()).toBe(diskFullSentence(databasePath));
    expect(run.status).toBe(4);
  }, 60_000);
});
