// One writer per database (db/lock.ts): a real second Node process holds the lock, a stale or empty lock file is
// taken over, a failed start leaves none, release removes only our own lock, and the lock follows the file (symlinks,
// hard links), not the name typed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDatabaseLock, acquireDatabaseLockSync, DAMAGED_LOCK_GRACE_MS, DatabaseLockedError, isHolderAlive, lockPathFor, readLockHolder } from './lock.ts';
import { tempDir, type TempDir } from './testing/temp-db.ts';

let dir: TempDir;
let children: ChildProcess[] = [];
beforeEach(() => {
  dir = tempDir('gmw-lock-');
  children = [];
});
afterEach(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  dir.remove();
});

/**
 * A second process that takes the lock the way db/lock.ts does (same file, same `wx` flag, same content) and
 * holds it until told to exit on stdin, releasing it on exit. Plain Node, so it needs no TypeScript loader.
 */
function holdInOtherProcess(databasePath: string, kind: 'web' | 'cli' | 'desktop'): Promise<ChildProcess> {
  const script = `
    const fs = require('node:fs'), os = require('node:os');
    const path = ${JSON.stringify(lockPathFor(databasePath))};
    const fd = fs.openSync(path, 'wx');
    fs.writeSync(fd, JSON.stringify({ pid: process.pid, kind: ${JSON.stringify(kind)}, startedAt: new Date().toISOString(), hostname: os.hostname() }) + '\\n');
    fs.closeSync(fd);
    process.on('exit', () => { try { fs.unlinkSync(path); } catch {} });
    process.stdout.write('locked\\n');
    process.stdin.on('data', () => process.exit(0));
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the lock holder exited early (${code})`)));
  });
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));

describe('one writer per database', () => {
  it('refuses a database another live process holds, naming its kind and pid', async () => {
    const db = dir.file();
    const other = await holdInOtherProcess(db, 'web');
    let refusal: unknown;
    try {
      acquireDatabaseLockSync(db, 'cli');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DatabaseLockedError);
    expect((refusal as Error).message).toBe(`Another GM Workstation (web mode, pid ${other.pid}) is using this database; close it first.`);
    // The refusal changed nothing: the other process still holds its own lock.
    expect(readLockHolder(lockPathFor(db))?.pid).toBe(other.pid);
    await expect(acquireDatabaseLock(db, 'web', { waitSeconds: 0 })).rejects.toThrow(/desktop app|web mode, pid/);
  });

  it('waits for the other process to close, saying so once, then takes the lock', async () => {
    const db = dir.file();
    const other = await holdInOtherProcess(db, 'desktop');
    const messages: string[] = [];
    const waiting = acquireDatabaseLock(db, 'cli', { waitSeconds: 10, pollMs: 20, onWait: (m) => messages.push(m) });
    setTimeout(() => other.stdin!.write('bye\n'), 150);
    const lock = await waiting;
    expect(messages).toEqual([`Another GM Workstation (desktop app, pid ${other.pid}) is using this database; waiting up to 10 seconds for it to close.`]);
    expect(readLockHolder(lock.path)).toMatchObject({ pid: process.pid, kind: 'cli' });
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
  });

  it('gives up after the wait with the same sentence', async () => {
    const db = dir.file();
    const other = await holdInOtherProcess(db, 'cli');
    await expect(acquireDatabaseLock(db, 'web', { waitSeconds: 0.2, pollMs: 20 })).rejects.toThrow(`Another GM Workstation (command line, pid ${other.pid}) is using this database; close it first.`);
  });

  it('takes over a stale lock whose process is gone', async () => {
    const db = dir.file();
    const other = await holdInOtherProcess(db, 'web');
    const staleContent = readFileSync(lockPathFor(db), 'utf8');
    other.kill('SIGKILL'); // no exit handler runs: the lock file stays behind, as after a crash
    await exited(other);
    writeFileSync(lockPathFor(db), staleContent);
    expect(isHolderAlive(readLockHolder(lockPathFor(db))!)).toBe(false);
    const lock = acquireDatabaseLockSync(db, 'cli');
    expect(readLockHolder(lock.path)).toMatchObject({ pid: process.pid, kind: 'cli', hostname: hostname() });
    lock.release();
  });

  it('takes over a lock whose pid now belongs to a process started after the lock was written', () => {
    const db = dir.file();
    // Our own pid, but "taken" a day before this process started: the pid was reused (Linux reads /proc).
    writeFileSync(lockPathFor(db), JSON.stringify({ pid: process.pid, kind: 'web', startedAt: new Date(Date.now() - 86_400_000 - process.uptime() * 1000).toISOString(), hostname: hostname() }));
    if (process.platform !== 'linux') return;
    const lock = acquireDatabaseLockSync(db, 'desktop');
    expect(readLockHolder(lock.path)?.kind).toBe('desktop');
    lock.release();
  });

  it('is released by release() and on exit, and a second acquire in the same process is refused meanwhile', async () => {
    const db = dir.file();
    const lock = acquireDatabaseLockSync(db, 'web');
    expect(() => acquireDatabaseLockSync(db, 'cli')).toThrow(`Another GM Workstation (web mode, pid ${process.pid}) is using this database; close it first.`);
    lock.release();
    lock.release();
    expect(existsSync(lockPathFor(db))).toBe(false);

    // Another process that exits normally leaves no lock file behind (the exit hook released it).
    const other = await holdInOtherProcess(db, 'cli');
    other.stdin!.write('bye\n');
    await exited(other);
    expect(existsSync(lockPathFor(db))).toBe(false);
  });

  it('release() leaves alone a lock another process took after ours was removed', () => {
    const db = dir.file();
    const lock = acquireDatabaseLockSync(db, 'web');
    const theirs = JSON.stringify({ pid: 1, kind: 'desktop', startedAt: new Date().toISOString(), hostname: hostname() });
    writeFileSync(lock.path, theirs);
    lock.release();
    expect(readFileSync(lock.path, 'utf8')).toBe(theirs);
  });

  it('takes over a lock file left empty (a start that failed on a full disk), young or old', () => {
    const db = dir.file();
    // Just left: still empty on a second look after the writer had its chance.
    writeFileSync(lockPathFor(db), '');
    const lock = acquireDatabaseLockSync(db, 'cli');
    expect(readLockHolder(lock.path)).toMatchObject({ pid: process.pid, kind: 'cli' });
    lock.release();
    // Left long ago (older than the grace by its modification time), and damaged rather than empty.
    writeFileSync(lockPathFor(db), '{"pid":');
    const past = new Date(Date.now() - DAMAGED_LOCK_GRACE_MS - 60_000);
    utimesSync(lockPathFor(db), past, past);
    const again = acquireDatabaseLockSync(db, 'web');
    expect(readLockHolder(again.path)).toMatchObject({ pid: process.pid, kind: 'web' });
    again.release();
    expect(existsSync(lockPathFor(db))).toBe(false);
  });

  it('leaves no lock file when writing its record fails (a full disk: a tmpfs of one page, filled)', (context) => {
    if (process.platform !== 'linux' || process.getuid?.() !== 0) context.skip(); // mounting needs root
    const mount = join(dir.path, 'full');
    mkdirSync(mount);
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'tmpfs', mount]).status !== 0) context.skip();
    try {
      const db = join(mount, 'gm-workstation.sqlite');
      writeFileSync(join(mount, 'filler'), Buffer.alloc(4096));
      expect(() => acquireDatabaseLockSync(db, 'web')).toThrow(/ENOSPC/);
      expect(readdirSync(mount)).toEqual(['filler']);
      // Once there is room again, the next start takes the lock: nothing was left to refuse it.
      rmSync(join(mount, 'filler'));
      const lock = acquireDatabaseLockSync(db, 'web');
      expect(readLockHolder(lock.path)?.pid).toBe(process.pid);
      lock.release();
    } finally {
      spawnSync('umount', [mount]);
    }
  });
});

describe('one writer by the file, not by its name', () => {
  it('names the lock after the real path, so a symlink to the file or to its folder finds the holder', async () => {
    const db = dir.file();
    writeFileSync(db, '');
    const other = await holdInOtherProcess(db, 'web');
    symlinkSync(db, join(dir.path, 'link.sqlite'));
    symlinkSync(dir.path, join(dir.path, 'folder-link'));
    const sentence = `Another GM Workstation (web mode, pid ${other.pid}) is using this database; close it first.`;
    expect(() => acquireDatabaseLockSync(join(dir.path, 'link.sqlite'), 'cli')).toThrow(sentence);
    expect(() => acquireDatabaseLockSync(join(dir.path, 'folder-link', 'gm-workstation.sqlite'), 'cli')).toThrow(sentence);
    // A database not created yet is locked by its folder's real path and its own name.
    expect(lockPathFor(join(dir.path, 'folder-link', 'new.sqlite'))).toBe(`${realpathSync(dir.path)}/new.sqlite.lock`);
    expect(readdirSync(dir.path).filter((name) => name.endsWith('.lock'))).toEqual(['gm-workstation.sqlite.lock']);
  });

  it('refuses a hard link beside a held database with the holder\'s sentence, and records the file\'s device and inode', async () => {
    const db = dir.file();
    writeFileSync(db, '');
    const mine = acquireDatabaseLockSync(db, 'web');
    const { dev, ino } = statSync(db, { bigint: true });
    expect(readLockHolder(mine.path)).toMatchObject({ database: realpathSync(db), file: `${dev}:${ino}` });
    mine.release();

    const other = await holdInOtherProcess(db, 'desktop');
    const hardLink = join(dir.path, 'table-copy.sqlite');
    linkSync(db, hardLink);
    expect(() => acquireDatabaseLockSync(hardLink, 'cli')).toThrow(`Another GM Workstation (desktop app, pid ${other.pid}) is using this database; close it first.`);
    // The refusal leaves nothing behind: no lock beside the other name.
    expect(existsSync(`${hardLink}.lock`)).toBe(false);
    other.stdin!.write('bye\n');
    await exited(other);
    const lock = acquireDatabaseLockSync(hardLink, 'cli');
    lock.release();
  });
});
