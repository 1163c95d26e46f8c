// Recovery mode on real files: a damaged database starts the app in recovery mode, which restores the newest good
// backup (the damaged file kept aside byte-identical) or starts an empty database, and then opens normally; the
// CLI refuses a damaged database with one sentence and exit code 4.
import { closeSync, copyFileSync, existsSync, openSync, readFileSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppInfo, CampaignSummary, Envelope, RecoveryDone, RecoveryStatus, RulesetInfo } from '../core/api/contract.ts';
import type { ChangeNotice } from '../core/api/names.ts';
import { backupDir, listBackups } from '../db/backup.ts';
import { markerPath } from '../db/health.ts';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';
import { openApp, type AppService } from './app.ts';
import { main } from './cli/main.ts';
import { DamagedDatabaseError } from './recovery-mode.ts';

let dir: TempDir;
const open: AppService[] = [];
afterEach(() => {
  for (const app of open.splice(0)) app.close();
  dir?.remove();
});

function start(transport: 'web' | 'ipc' | 'cli' = 'web'): AppService {
  const app = openApp({ databasePath: dir.file(), transport, version: 'test' });
  open.push(app);
  return app;
}

async function ok<T>(app: AppService, name: string, input: unknown = {}): Promise<T> {
  const envelope = (await app.dispatch(name, input)) as Envelope<T>;
  if ('error' in envelope) throw new Error(`${name}: ${envelope.error.message}`);
  return envelope.result;
}

const names = async (app: AppService) => (await ok<CampaignSummary[]>(app, 'campaigns:list')).map((c) => c.name).sort();
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

function garbleHeader(path: string): void {
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.from('GARBLED HEADER!!'), 0, 16, 0);
  closeSync(fd);
}

/** A database with two backups (The Vault; then The Vault and Harbour Town) and a newer backup that is broken. */
async function damagedWithBackups(): Promise<{ goodBackup: string; damagedBytes: Buffer }> {
  const app = start();
  await ok(app, 'campaigns:create', { name: 'The Vault', rulesetId: 'enigma' });
  await ok(app, 'backups:create');
  await pause();
  await ok(app, 'campaigns:create', { name: 'Harbour Town', rulesetId: 'enigma' });
  const good = await ok<{ name: string }>(app, 'backups:create');
  await pause();
  const broken = await ok<{ name: string }>(app, 'backups:create');
  garbleHeader(join(backupDir(dir.file()), broken.name));
  await ok(app, 'campaigns:create', { name: 'Lost Since The Backup', rulesetId: 'enigma' });
  app.close();
  open.splice(open.indexOf(app), 1);
  garbleHeader(dir.file());
  return { goodBackup: good.name, damagedBytes: readFileSync(dir.file()) };
}

describe('recovery mode', () => {
  it('offers the newest good backup, refuses everything else, restores it and then opens normally', async () => {
    dir = tempDir();
    const { goodBackup, damagedBytes } = await damagedWithBackups();

    const app = start('web');
    const status = await ok<RecoveryStatus>(app, 'recovery:status');
    expect(status).toMatchObject({
      damaged: true,
      kind: 'notADatabase',
      sentence: 'The campaign database file is damaged: it is no longer a readable database.',
      databasePath: dir.file(),
      backupCount: 3,
      newestGoodBackup: { name: goodBackup },
    });
    const refused = (await app.dispatch('campaigns:list', {})) as Envelope<unknown>;
    expect(refused).toEqual({ error: { kind: 'refused', message: expect.stringMatching(/damaged.*Restore a backup or start an empty database first\.$/) } });
    // What the app says of itself and its rulesets needs no database.
    expect((await ok<AppInfo>(app, 'app:info')).rulesets.map((r) => r.id)).toContain('enigma');
    expect((await ok<RulesetInfo>(app, 'rulesets:get', { id: 'enigma' })).name).toBe('Enigma');
    expect(readFileSync(dir.file()).equals(damagedBytes)).toBe(true);

    const notices: ChangeNotice[] = [];
    app.onChange((notice) => notices.push(notice));
    const done = await ok<RecoveryDone>(app, 'recovery:restore', { name: goodBackup });
    expect(done.restored).toBe(goodBackup);
    expect(done.damagedKeptAs).toMatch(/gm-workstation\.sqlite\.damaged-\d{8}T\d{9}Z$/);
    expect(readFileSync(done.damagedKeptAs!).equals(damagedBytes)).toBe(true);

    // The same service now runs the handler table on the restored database.
    expect(await names(app)).toEqual(['Harbour Town', 'The Vault']);
    expect(await ok<RecoveryStatus>(app, 'recovery:status')).toEqual({ damaged: false });
    expect(notices).toContainEqual({ area: 'campaigns', id: '*' });
    await ok(app, 'campaigns:create', { name: 'After The Restore', rulesetId: 'enigma' });

    // A restart opens normally; the damaged file is still aside, untouched.
    app.close();
    open.splice(0);
    const again = start('web');
    expect(await names(again)).toEqual(['After The Restore', 'Harbour Town', 'The Vault']);
    expect(readFileSync(done.damagedKeptAs!).equals(damagedBytes)).toBe(true);
  });

  it('moves the -wal and -shm aside with the damaged file', async () => {
    dir = tempDir();
    const { goodBackup } = await damagedWithBackups();
    const app = start('ipc');
    expect((await ok<RecoveryStatus>(app, 'recovery:status')).damaged).toBe(true);
    copyFileSync(dir.file(), `${dir.file()}-wal`); // stand-ins: whatever is there must travel with the file
    copyFileSync(dir.file(), `${dir.file()}-shm`);
    const walBytes = readFileSync(`${dir.file()}-wal`);
    const done = await ok<RecoveryDone>(app, 'recovery:restore', { name: goodBackup });
    expect(readFileSync(`${done.damagedKeptAs}-wal`).equals(walBytes)).toBe(true);
    expect(existsSync(`${done.damagedKeptAs}-shm`)).toBe(true);
    expect(await names(app)).toEqual(['Harbour Town', 'The Vault']);
  });

  it('refuses a backup that fails its own integrity check, and changes nothing', async () => {
    dir = tempDir();
    const { damagedBytes } = await damagedWithBackups();
    const app = start();
    const broken = listBackups(dir.file())[0]!.name;
    const envelope = (await app.dispatch('recovery:restore', { name: broken })) as Envelope<unknown>;
    expect(envelope).toEqual({ error: { kind: 'refused', message: 'That backup failed its integrity check: it is damaged. Nothing was changed. Choose another one.' } });
    expect(readFileSync(dir.file()).equals(damagedBytes)).toBe(true);
    expect(readdirSync(dir.path).filter((f) => f.includes('.damaged-'))).toEqual([]);
  });

  it('without a good backup says so, and "start an empty database" keeps the damaged file aside', async () => {
    dir = tempDir();
    const app0 = start();
    await ok(app0, 'campaigns:create', { name: 'The Vault', rulesetId: 'enigma' });
    app0.close();
    open.splice(0);
    garbleHeader(dir.file());
    const damagedBytes = readFileSync(dir.file());

    const app = start('web');
    expect(await ok<RecoveryStatus>(app, 'recovery:status')).toMatchObject({ damaged: true, newestGoodBackup: null, backupCount: 0 });
    const done = await ok<RecoveryDone>(app, 'recovery:startEmpty');
    expect(done.restored).toBeNull();
    expect(readFileSync(done.damagedKeptAs!).equals(damagedBytes)).toBe(true);
    expect(await names(app)).toEqual([]);
    await ok(app, 'campaigns:create', { name: 'A Fresh Start', rulesetId: 'enigma' });
    expect(await names(app)).toEqual(['A Fresh Start']);
  });

  it('a missing database where one existed starts in recovery mode, never as a silent first launch', async () => {
    dir = tempDir();
    const app0 = start();
    await ok(app0, 'campaigns:create', { name: 'The Vault', rulesetId: 'enigma' });
    app0.close();
    open.splice(0);
    expect(existsSync(markerPath(dir.file()))).toBe(true);
    rmSync(dir.file());

    const app = start('web');
    expect(await ok<RecoveryStatus>(app, 'recovery:status')).toMatchObject({ damaged: true, kind: 'missing' });
    expect(existsSync(dir.file())).toBe(false);
    expect(await ok<RecoveryDone>(app, 'recovery:startEmpty')).toEqual({ damagedKeptAs: null, restored: null });
    expect(await names(app)).toEqual([]);
  });

  it('a lost -wal after the app stopped without closing: the sound, older file can be kept as it is', async () => {
    dir = tempDir();
    const app0 = start();
    await ok(app0, 'campaigns:create', { name: 'Checkpointed', rulesetId: 'enigma' });
    app0.close();
    open.splice(0);
    const app1 = start();
    await ok(app1, 'campaigns:create', { name: 'Only In The WAL', rulesetId: 'enigma' });
    // What a crash followed by a deleted -wal leaves: the main file as it is on disk now, and the marker saying "open".
    const copy = join(dir.path, 'copy.sqlite');
    copyFileSync(dir.file(), copy);
    copyFileSync(markerPath(dir.file()), markerPath(copy));
    expect(readFileSync(markerPath(copy), 'utf8')).toMatch(/^state: open /m);

    const app = openApp({ databasePath: copy, transport: 'web', version: 'test' });
    open.push(app);
    expect(await ok<RecoveryStatus>(app, 'recovery:status')).toMatchObject({ damaged: true, kind: 'walMissing' });
    expect(await app.dispatch('campaigns:list', {})).toMatchObject({ error: { kind: 'refused' } });
    expect(await ok<RecoveryDone>(app, 'recovery:keep')).toEqual({ damagedKeptAs: null, restored: null });
    expect(await names(app)).toEqual(['Checkpointed']);
    expect(existsSync(copy)).toBe(true);
  });

  it('keeping the file as it is is refused for real damage, and changes nothing', async () => {
    dir = tempDir();
    const { damagedBytes } = await damagedWithBackups();
    const app = start();
    expect(await app.dispatch('recovery:keep', {})).toMatchObject({ error: { message: expect.stringMatching(/cannot be used as it is/) } });
    expect(readFileSync(dir.file()).equals(damagedBytes)).toBe(true);
    expect(await ok<RecoveryStatus>(app, 'recovery:status')).toMatchObject({ damaged: true, kind: 'notADatabase' });
  });

  it('a healthy app refuses recovery requests', async () => {
    dir = tempDir();
    const app = start();
    expect(await ok<RecoveryStatus>(app, 'recovery:status')).toEqual({ damaged: false });
    expect(await app.dispatch('recovery:startEmpty', {})).toEqual({ error: { kind: 'refused', message: 'The campaign database is not damaged, so there is nothing to recover.' } });
    expect(await app.dispatch('recovery:keep', {})).toEqual({ error: { kind: 'refused', message: 'The campaign database is not damaged, so there is nothing to recover.' } });
  });
});

describe('the CLI on a damaged database', () => {
  it('openApp refuses it for the CLI with one sentence naming the file and the newest good backup', async () => {
    dir = tempDir();
    const { goodBackup } = await damagedWithBackups();
    expect(() => start('cli')).toThrow(DamagedDatabaseError);
    expect(() => start('cli')).toThrow(`(${dir.file()}); the newest good backup is ${goodBackup} in ${backupDir(dir.file())}; start the app to restore it.`);
  });

  it('gmw exits 4 with the sentence, and the damaged file is not touched', async () => {
    dir = tempDir();
    const app0 = start();
    await ok(app0, 'campaigns:create', { name: 'The Vault', rulesetId: 'enigma' });
    app0.close();
    open.splice(0);
    rmSync(dir.file());
    const lines: string[] = [];
    const code = await main(['campaigns:list', '{}', '--db', dir.file()], {
      stdout: () => {},
      stderr: (line) => void lines.push(line),
      stderrIsTTY: false,
      env: {},
      cwd: dir.path,
    });
    expect(code).toBe(4);
    expect(lines).toEqual([expect.stringMatching(/^The campaign database is missing: it was here before, but the file is gone \(.*\); no good backup was found in .*backups\.$/)]);
    expect(existsSync(dir.file())).toBe(false);
  });
});
