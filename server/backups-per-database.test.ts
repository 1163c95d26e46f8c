// Backups belong to one database: two databases in one folder share its backups/ folder, and each lists, prunes,
// offers in recovery and restores only its own (db/backup.ts). `table.sqlite` and `table-2.sqlite` are used on
// purpose: one's backup names start with the other's prefix.
import Database from 'better-sqlite3';
import { closeSync, copyFileSync, mkdirSync, openSync, readFileSync, readdirSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, RecoveryStatus } from '../core/api/contract.ts';
import { backupDir, listBackups, readOrigin } from '../db/backup.ts';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';
import type { AppService } from './app.ts';
import { closeAll, names, ok, sha256, start, stop } from './testing/open-apps.ts';
import { main } from './cli/main.ts';

let dir: TempDir;
afterEach(() => {
  closeAll();
  dir?.remove();
});

const listed = async (app: AppService) => (await ok<{ name: string }[]>(app, 'backups:list')).map((b) => b.name).sort();
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

function garbleHeader(path: string): void {
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.from('GARBLED HEADER!!'), 0, 16, 0);
  closeSync(fd);
}

/** `table.sqlite` (A) and `table-2.sqlite` (B) in one folder, each with a campaign and one backup made by hand. */
async function twoDatabases() {
  dir = tempDir();
  const a = { path: dir.file('table.sqlite'), app: start(dir.file('table.sqlite')) };
  const b = { path: dir.file('table-2.sqlite'), app: start(dir.file('table-2.sqlite')) };
  await ok(a.app, 'campaigns:create', { name: 'The Vault (A)', rulesetId: 'enigma' });
  await ok(b.app, 'campaigns:create', { name: 'Harbour Town (B)', rulesetId: 'enigma' });
  const aBackup = await ok<{ name: string }>(a.app, 'backups:create');
  await pause();
  const bBackup = await ok<{ name: string }>(b.app, 'backups:create');
  return { a, b, aBackup: aBackup.name, bBackup: bBackup.name };
}

describe('backups of two databases in one folder', { timeout: 30_000 }, () => {
  it('each names its database, in its file name and inside; each database lists only its own (the screen and gmw)', async () => {
    const { a, b, aBackup, bBackup } = await twoDatabases();
    expect(aBackup).toMatch(/^table-\d{8}T\d{9}Z-manual\.sqlite$/);
    expect(bBackup).toMatch(/^table-2-\d{8}T\d{9}Z-manual\.sqlite$/);
    expect(readdirSync(backupDir(a.path)).sort()).toEqual([aBackup, bBackup].sort());
    expect(readOrigin(join(backupDir(a.path), aBackup))).toMatchObject({ databaseName: 'table.sqlite', databasePath: a.path, reason: 'manual' });
    expect(readOrigin(join(backupDir(b.path), bBackup))).toMatchObject({ databaseName: 'table-2.sqlite', databasePath: b.path, reason: 'manual' });
    expect(await listed(a.app)).toEqual([aBackup]);
    expect(await listed(b.app)).toEqual([bBackup]);
    // gmw, on B while A's app is open.
    stop(b.app);
    const out: string[] = [];
    const errors: string[] = [];
    const code = await main(['backups:list', '{}', '--db', b.path], { stdout: (text) => void out.push(text), stderr: (line) => void errors.push(line), stderrIsTTY: false, env: {}, cwd: dir.path });
    expect(code, errors.join('\n')).toBe(0);
    expect((JSON.parse(out.join('')) as { name: string }[]).map((backup) => backup.name)).toEqual([bBackup]);
  });

  it("pruning A's thirty backups leaves every one of B's thirty, and B's unfinished copies", async () => {
    const { a, b, aBackup, bBackup } = await twoDatabases();
    const folder = backupDir(a.path);
    // Thirty backups of each, one a day for the last thirty days (A's an hour before B's): real copies, named as the
    // app names each database's backups, each still saying inside whose it is.
    const day = 24 * 60 * 60 * 1000;
    const stampOf = (date: Date) => date.toISOString().replace(/[-:.]/g, '');
    const named = (backup: string, at: Date, reason = 'auto') => backup.replace(/\d{8}T\d{9}Z-manual\.sqlite$/, `${stampOf(at)}-${reason}.sqlite`);
    const bFiles = [bBackup];
    for (let d = 1; d <= 30; d += 1) {
      copyFileSync(join(folder, aBackup), join(folder, named(aBackup, new Date(Date.now() - d * day - 60 * 60 * 1000))));
      const bCopy = named(bBackup, new Date(Date.now() - d * day));
      copyFileSync(join(folder, bBackup), join(folder, bCopy));
      bFiles.push(bCopy);
    }
    // Unfinished copies left two hours ago by an app that stopped.
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const aLeftover = `${named(aBackup, new Date('2026-11-01T08:00:00Z'), 'start')}.partial`;
    const bLeftover = `${named(bBackup, new Date('2026-11-01T09:00:00Z'), 'start')}.partial`;
    bFiles.push(bLeftover);
    for (const left of [aLeftover, bLeftover]) {
      writeFileSync(join(folder, left), 'unfinished');
      utimesSync(join(folder, left), twoHoursAgo, twoHoursAgo);
    }
    expect(readdirSync(folder)).toHaveLength(64);
    const bHashes = Object.fromEntries(bFiles.map((name) => [name, sha256(join(folder, name))]));

    await ok(a.app, 'backups:create'); // prunes A's backups after making one
    const aLeft = readdirSync(folder).filter((name) => !bFiles.includes(name));
    // The ten newest of A (the two made today, eight daily) plus the newest of each of the last ten days (day 9
    // adds one; day 10 is just outside the ten days).
    expect(aLeft).toHaveLength(11);
    expect(aLeft.some((name) => name.endsWith('.partial'))).toBe(false);
    const bLeft = readdirSync(folder).filter((name) => bFiles.includes(name));
    expect(bLeft.sort()).toEqual([...bFiles].sort());
    for (const name of bLeft) expect(sha256(join(folder, name)), name).toBe(bHashes[name]);
    expect(await listed(b.app)).toHaveLength(31);
  });

  it("a damaged B is offered B's newest good backup, never A's newer one, and none when B has none", async () => {
    const { a, b, bBackup } = await twoDatabases();
    await pause();
    await ok(a.app, 'campaigns:create', { name: 'Only in A', rulesetId: 'enigma' });
    const aNewer = await ok<{ name: string }>(a.app, 'backups:create');
    stop(b.app);
    garbleHeader(b.path);
    const damaged = start(b.path);
    const status = await ok<RecoveryStatus>(damaged, 'recovery:status');
    expect(status).toMatchObject({ damaged: true, newestGoodBackup: { name: bBackup }, backupCount: 1 });
    // Restoring A's backup into B is refused, even through the recovery screen.
    expect(await damaged.dispatch('recovery:restore', { name: aNewer.name })).toEqual({
      error: { kind: 'notFound', message: 'That backup does not exist (it may have been pruned).' },
    });
    await ok(damaged, 'recovery:restore', { name: bBackup });
    expect(await names(damaged)).toEqual(['Harbour Town (B)']);

    // A third database in the folder, with no backup of its own, damaged: nothing is offered.
    const c = dir.file('table-3.sqlite');
    const cApp = start(c);
    await ok(cApp, 'campaigns:create', { name: 'Lost (C)', rulesetId: 'enigma' });
    stop(cApp);
    garbleHeader(c);
    const cDamaged = start(c);
    expect(await ok<RecoveryStatus>(cDamaged, 'recovery:status')).toMatchObject({ damaged: true, newestGoodBackup: null, backupCount: 0 });
  });

  it("a backup of A renamed by hand as one of B's is refused with a sentence, and B is unchanged", async () => {
    const { a, b, aBackup, bBackup } = await twoDatabases();
    const disguised = bBackup.replace(/\d{8}T\d{9}Z/, '20260101T000000000Z');
    copyFileSync(join(backupDir(a.path), aBackup), join(backupDir(b.path), disguised));
    // Its inside says whose it is: B does not even list it.
    expect(await listed(b.app)).not.toContain(disguised);
    const before = sha256(b.path);
    expect(await b.app.dispatch('backups:restore', { name: disguised })).toEqual({
      error: {
        kind: 'refused',
        message: "That backup is of another database (table.sqlite), not of table-2.sqlite: restoring it would put that database's campaigns here. Nothing was changed.",
      },
    });
    expect(sha256(b.path)).toBe(before);
    expect(await names(b.app)).toEqual(['Harbour Town (B)']);
    expect(listBackups(b.path).map((backup) => backup.reason)).toEqual(['manual']);

    // The same through the recovery screen of a damaged B.
    stop(b.app);
    garbleHeader(b.path);
    const damagedBytes = readFileSync(b.path);
    const damaged = start(b.path);
    expect(await damaged.dispatch('recovery:restore', { name: disguised })).toMatchObject({ error: { message: expect.stringMatching(/^That backup is of another database \(table\.sqlite\)/) } });
    expect(readFileSync(b.path).equals(damagedBytes)).toBe(true);
  });
});

describe('backups made before a backup named its database', { timeout: 30_000 }, () => {
  /** A backup as older versions made them: named gm-workstation-…, with no backup_origin inside. */
  function legacyBackup(databasePath: string, stamp: string): string {
    const folder = backupDir(databasePath);
    mkdirSync(folder, { recursive: true });
    const name = `gm-workstation-${stamp}-auto.sqlite`;
    const copy = new Database(join(folder, name));
    copy.exec("CREATE TABLE campaigns (id TEXT PRIMARY KEY, name TEXT); INSERT INTO campaigns VALUES ('1', 'From an old version')");
    copy.close();
    return name;
  }

  it('belong to gm-workstation.sqlite; a database of another name neither lists nor restores them', async () => {
    dir = tempDir();
    const legacy = legacyBackup(dir.file(), '20260101T100000000Z');
    const standard = start(dir.file());
    expect(await listed(standard)).toEqual([legacy]);
    const other = start(dir.file('table.sqlite'));
    expect(await listed(other)).toEqual([]);
    // Renamed by hand as one of table.sqlite's: refused, it says nothing of its database.
    copyFileSync(join(backupDir(dir.file()), legacy), join(backupDir(dir.file()), 'table-20260101T100000000Z-auto.sqlite'));
    expect(await other.dispatch('backups:restore', { name: 'table-20260101T100000000Z-auto.sqlite' })).toMatchObject({
      error: { kind: 'refused', message: expect.stringMatching(/^That backup was made by an older version, which did not record its database/) },
    });
  });
});
