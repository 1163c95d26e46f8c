// Backups through the online backup API: verified copies, the retention rule, and a restore that backs up first.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backupDir, backupsToKeep, listBackups, restoringPath, type BackupInfo } from '../db/backup.ts';
import { isGoodDatabaseFile } from '../db/read-only.ts';
import { copyBegun, fillWithPages, rowsOf } from './testing/backup-pages.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok } = t;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('backups', () => {
  it('makes a verified copy of the open database without closing it', async () => {
    await ok('campaigns:create', { name: 'Kept', rulesetId: 'enigma' });
    const backup = await ok('backups:create', {});
    expect(backup.reason).toBe('manual');
    expect(isGoodDatabaseFile(join(backupDir(t.dir.file()), backup.name))).toBe(true);
    expect((await ok('backups:list', {})).map((b) => b.name)).toEqual([backup.name]);
    // One self-contained file: checking it left no -wal, -shm or partial files beside it.
    expect(readdirSync(backupDir(t.dir.file()))).toEqual([backup.name]);
    await ok('campaigns:create', { name: 'Still writable', rulesetId: 'enigma' });
  });

  it('restores a backup after backing up the current database, and the app goes on', async () => {
    await ok('campaigns:create', { name: 'Before', rulesetId: 'enigma' });
    const backup = await ok('backups:create', {});
    await ok('campaigns:create', { name: 'After', rulesetId: 'enigma' });
    const restored = await ok('backups:restore', { name: backup.name });
    expect((await ok('campaigns:list', {})).map((c) => c.name)).toEqual(['Before']);
    expect(restored.safetyBackup).toMatch(/before-restore/);
    // The safety backup holds what was there before the restore.
    const again = await ok('backups:restore', { name: restored.safetyBackup });
    expect((await ok('campaigns:list', {})).map((c) => c.name).sort()).toEqual(['After', 'Before']);
    expect(again.restored).toBe(restored.safetyBackup);
  });

  it('a call made while a restore is under way waits for it: its write lands in the restored file', async () => {
    await ok('campaigns:create', { name: 'Before', rulesetId: 'enigma' });
    const backup = await ok('backups:create', {});
    const restoring = ok('backups:restore', { name: backup.name });
    const during = ok('campaigns:create', { name: 'During', rulesetId: 'enigma' });
    await Promise.all([restoring, during]);
    expect((await ok('campaigns:list', {})).map((c) => c.name).sort()).toEqual(['Before', 'During']);
  });

  it('a call made while a backup copies the file runs at once; the copy is made and checked on a worker thread', async () => {
    fillWithPages(t.dir.file());
    const warnings = vi.spyOn(console, 'warn');
    let backupDone = false;
    const backingUp = ok('backups:create', {}).then((backup) => { backupDone = true; return backup; });
    await copyBegun(t.dir.file());
    const during = await ok('campaigns:create', { name: 'During', rulesetId: 'enigma' });
    expect(backupDone).toBe(false);
    const backup = await backingUp;
    // The worker made it: this thread did not fall back to copying.
    expect(warnings).not.toHaveBeenCalled();
    expect(isGoodDatabaseFile(join(backupDir(t.dir.file()), backup.name))).toBe(true);
    // The copy is the file as it stood at one moment: every page of the filler, and the call's write in the live file.
    expect(rowsOf(join(backupDir(t.dir.file()), backup.name), 'SELECT count(*) AS n FROM pages_to_copy')).toEqual([{ n: 1200 }]);
    expect(t.rows('SELECT name FROM campaigns WHERE id = ?', during.id)).toEqual([{ name: 'During' }]);
    expect(readdirSync(backupDir(t.dir.file()))).toEqual([backup.name]);
  });

  it('a backup still copying when the app closes is abandoned, and leaves no partial file', async () => {
    fillWithPages(t.dir.file());
    const backingUp = t.app.dispatch('backups:create', {});
    await copyBegun(t.dir.file());
    t.reopen();
    expect(await backingUp).toEqual({ error: expect.objectContaining({ kind: 'internal' }) });
    expect(readdirSync(backupDir(t.dir.file()))).toEqual([]);
  });

  it('clears copies left unfinished an hour ago or more, and leaves newer ones (another app may be making them)', async () => {
    const dir = backupDir(t.dir.file());
    mkdirSync(dir, { recursive: true });
    const left = ['gm-workstation-20261101T080000000Z-start.sqlite.partial', 'gm-workstation-20261101T080000000Z-start.sqlite.partial-journal'];
    const recent = 'gm-workstation-20261123T080000000Z-auto.sqlite.partial';
    const notOurs = 'notes.sqlite.partial';
    for (const name of [...left, recent, notOurs]) writeFileSync(join(dir, name), 'unfinished');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const name of [...left, notOurs]) utimesSync(join(dir, name), twoHoursAgo, twoHoursAgo);
    // A restore's copy beside the database, left by a restore that was killed.
    writeFileSync(restoringPath(t.dir.file()), 'unfinished');
    utimesSync(restoringPath(t.dir.file()), twoHoursAgo, twoHoursAgo);
    const backup = await ok('backups:create', {});
    expect(readdirSync(dir).sort()).toEqual([backup.name, recent, notOurs].sort());
    expect(existsSync(restoringPath(t.dir.file()))).toBe(false);
  });

  it('refuses names that are not its own backups', async () => {
    for (const name of ['../gm-workstation.sqlite', 'nope.sqlite', 'gm-workstation-20260101T000000000Z-manual.sqlite']) {
      const answer = await t.app.dispatch('backups:restore', { name });
      expect(answer).toEqual({ error: { message: 'That backup does not exist (it may have been pruned).', kind: 'notFound' } });
    }
  });

  it('does not take a file that fails quick_check for a database', () => {
    const fake = join(t.dir.path, 'not-a-db.sqlite');
    writeFileSync(fake, '{"this":"is json"}');
    expect(isGoodDatabaseFile(fake)).toBe(false);
    expect(isGoodDatabaseFile(join(t.dir.path, 'missing.sqlite'))).toBe(false);
  });

  it('keeps the ten newest plus the newest of each of the last ten days', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const at = (iso: string, name: string): BackupInfo => ({ name, createdAt: iso, bytes: 1, reason: 'auto' });
    const backups: BackupInfo[] = [];
    // 11 backups today, one an hour apart, then two a day for the 14 days before.
    for (let i = 0; i < 11; i += 1) backups.push(at(new Date(now.getTime() - i * 60 * 60 * 1000).toISOString(), `today${i}`));
    for (let d = 1; d <= 14; d += 1) {
      for (const h of [8, 20]) backups.push(at(new Date(Date.UTC(2026, 10, 22 - d, h)).toISOString(), `day${d}at${h}`));
    }
    const keep = backupsToKeep(backups, now);
    // The 10 newest (today), plus the 20:00 backup of each of the 10 previous days inside the window.
    expect([...keep].filter((n) => n.startsWith('today')).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `today${i}`).sort());
    expect([...keep].filter((n) => n.startsWith('day')).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((d) => `day${d}at20`).sort());
  });

  it('backs up on start and after changes when automatic backups are on', async () => {
    t.reopen({ transport: 'web', autoBackup: true, autoBackupEveryMs: 0 });
    await ok('campaigns:create', { name: 'Auto', rulesetId: 'enigma' });
    // Each is made on a worker thread, one after the other.
    const reasons = () => listBackups(t.dir.file()).map((b) => b.reason).sort();
    for (const deadline = Date.now() + 10_000; reasons().length < 2 && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reasons()).toEqual(['auto', 'start']);
  });
});

describe("the start's backup in the desktop app and web mode", () => {
  const reasons = () => listBackups(t.dir.file()).map((b) => b.reason).sort();
  const made = async (count: number) => {
    for (const deadline = Date.now() + 10_000; reasons().length < count && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const never = () => new Promise<void>(() => undefined);

  it('waits for the first screen: no worker shares the machine with the page as it loads', async () => {
    let shown!: () => void;
    t.reopen({ transport: 'web', autoBackup: true, startBackupAfter: new Promise<void>((resolve) => (shown = resolve)) });
    // A backup begun makes its folder at once (db/backup.ts): none is, while the page's reads go on.
    expect(existsSync(backupDir(t.dir.file()))).toBe(false);
    await ok('campaigns:list', { includeArchived: true });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(existsSync(backupDir(t.dir.file()))).toBe(false);
    shown();
    await made(1);
    expect(reasons()).toEqual(['start']);
  });

  it('is made at the first change when that comes sooner, and is the one backup that change asks for', async () => {
    t.reopen({ transport: 'web', autoBackup: true, startBackupAfter: never() });
    await ok('campaigns:create', { name: 'First', rulesetId: 'enigma' });
    await made(1);
    await ok('campaigns:create', { name: 'Second', rulesetId: 'enigma' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reasons()).toEqual(['start']);
  });

  it('is made when the first screen never comes (a page never opened)', async () => {
    t.reopen({ transport: 'web', autoBackup: true, startBackupAfter: never(), startBackupLatestMs: 100 });
    await made(1);
    expect(reasons()).toEqual(['start']);
  });
});
