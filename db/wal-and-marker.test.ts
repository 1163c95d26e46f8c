// The -wal and the marker on real files and real processes: a -wal written for another file is never applied
// (another program's, or this database's after someone copied a good file over it), a stop killed right after its
// clean close is not called a loss, and an orphan -wal beside a missing database is kept, never deleted.
import Database from 'better-sqlite3';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CampaignSummary, Envelope, RecoveryDone, RecoveryStatus } from '../core/api/contract.ts';
import { openApp, type AppService } from '../server/app.ts';
import { openDatabase } from './connection.ts';
import { checkDatabaseHealth, judgeWal, markerPath, markerState } from './health.ts';
import { tempDir, type TempDir } from './testing/temp-db.ts';
import { startWebMode } from './testing/web-process.ts';

const root = join(import.meta.dirname, '..');
let dir: TempDir;
const apps: AppService[] = [];
beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--node-only', '--quiet'], { cwd: root, stdio: 'inherit' });
}, 120_000);
beforeEach(() => {
  dir = tempDir('gmw-wal-');
});
afterEach(() => {
  for (const app of apps.splice(0)) app.close();
  dir.remove();
});

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function start(path = dir.file(), transport: 'web' | 'cli' = 'web'): AppService {
  const app = openApp({ databasePath: path, transport, version: 'test' });
  apps.push(app);
  return app;
}

function stop(app: AppService): void {
  app.close();
  apps.splice(apps.indexOf(app), 1);
}

async function ok<T>(app: AppService, name: string, input: unknown = {}): Promise<T> {
  const envelope = (await app.dispatch(name, input)) as Envelope<T>;
  if ('error' in envelope) throw new Error(`${name}: ${envelope.error.message}`);
  return envelope.result;
}

const names = async (app: AppService) => (await ok<CampaignSummary[]>(app, 'campaigns:list')).map((c) => c.name).sort();
const campaignsIn = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT name FROM campaigns ORDER BY name').all() as { name: string }[]).map((r) => r.name);
  } finally {
    db.close();
  }
};

/** Our database with The Vault in it, closed cleanly by the app (the marker says closed). */
async function ourDatabase(): Promise<string> {
  const app = start();
  await ok(app, 'campaigns:create', { name: 'The Vault', rulesetId: 'enigma' });
  stop(app);
  expect(markerState(dir.file())).toBe('closed');
  return dir.file();
}

/** Web mode, a campaign written through it, then SIGKILL: its -wal (with that campaign) stays beside the file. */
async function killedWriter(path: string, campaign: string): Promise<void> {
  const web = await startWebMode(path);
  await web.call('campaigns:create', { name: campaign, rulesetId: 'enigma' });
  web.child.kill('SIGKILL');
  await web.ended;
  expect(markerState(path)).toBe('open');
  expect(existsSync(`${path}-wal`)).toBe(true);
}

describe('a -wal written for another file is never applied', () => {
  it("another program's -wal beside our database: moved aside, and recovery offers the file as it is", async () => {
    const path = await ourDatabase();
    const before = sha256(path);
    // Another program's database, open in WAL mode with its newest rows only in its -wal.
    const other = dir.file('notes.sqlite');
    const notes = new Database(other);
    notes.pragma('journal_mode = wal');
    notes.pragma('wal_autocheckpoint = 0');
    notes.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('buy milk')");
    copyFileSync(`${other}-wal`, `${path}-wal`);
    notes.close();
    const foreign = readFileSync(`${path}-wal`);
    expect(judgeWal(path)).toMatchObject({ state: 'foreign' });

    const app = start();
    const status = await ok<RecoveryStatus>(app, 'recovery:status');
    expect(status).toMatchObject({ damaged: true, kind: 'foreignWal', sentence: expect.stringMatching(/^The journal file \(-wal\) beside the campaign database was written for another database file, so it was not applied: it is kept as .*gm-workstation\.sqlite\.foreign-wal-\d{8}T\d{9}Z\.$/) });
    const keptAs = /kept as (.*)\.$/.exec((status as { sentence: string }).sentence)![1]!;
    expect(readFileSync(keptAs).equals(foreign)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(sha256(path)).toBe(before);

    expect(await ok<RecoveryDone>(app, 'recovery:keep')).toEqual({ damagedKeptAs: null, restored: null });
    expect(await names(app)).toEqual(['The Vault']);
    expect(readFileSync(keptAs).equals(foreign)).toBe(true);
  });

  it('a good database copied over the file after a crash, with the old -wal still beside it: the copy is kept as it is', { timeout: 60_000 }, async () => {
    const path = await ourDatabase();
    const good = dir.file('good-copy.sqlite');
    copyFileSync(path, good);
    await killedWriter(path, 'Only In The Old WAL');
    const oldWal = readFileSync(`${path}-wal`);
    copyFileSync(good, path); // by hand, over the file, the -wal and -shm left where they were

    expect(judgeWal(path)).toMatchObject({ state: 'foreign', detail: expect.stringMatching(/another file was put in its place/) });
    // gmw refuses it with the sentence (exit 4) and moves nothing.
    const gmw = spawnSync(process.execPath, [join(root, 'dist/cli/gmw.cjs'), 'campaigns:create', '{"name":"X","rulesetId":"enigma"}', '--db', path], { encoding: 'utf8', timeout: 30_000 });
    expect(gmw.status, gmw.stderr).toBe(4);
    expect(gmw.stderr).toMatch(/The journal file \(-wal\) beside the campaign database was written for another database file, so it was not applied/);
    expect(readFileSync(`${path}-wal`).equals(oldWal)).toBe(true);
    expect(sha256(path)).toBe(sha256(good));

    const app = start();
    expect(await ok<RecoveryStatus>(app, 'recovery:status')).toMatchObject({ damaged: true, kind: 'foreignWal' });
    expect(sha256(path)).toBe(sha256(good));
    const kept = readdirSync(dir.path).find((name) => /\.foreign-wal-\d{8}T\d{9}Z$/.test(name))!;
    expect(readFileSync(join(dir.path, kept)).equals(oldWal)).toBe(true);
    await ok(app, 'recovery:keep');
    expect(await names(app)).toEqual(['The Vault']);
  });

  it('after a crash with nothing copied over, the -wal is the database\'s own and every commit in it is kept', { timeout: 60_000 }, async () => {
    const path = await ourDatabase();
    await killedWriter(path, 'Only In The WAL');
    expect(judgeWal(path)).toEqual({ state: 'belongs' });
    const app = start();
    expect(await ok<RecoveryStatus>(app, 'recovery:status')).toEqual({ damaged: false });
    expect(await names(app)).toEqual(['Only In The WAL', 'The Vault']);
  });

  it('a database and its -wal copied together after a crash (cp -p, or moved) are still one pair', { timeout: 60_000 }, async () => {
    const path = await ourDatabase();
    await killedWriter(path, 'Only In The WAL');
    const moved = dir.file('moved.sqlite');
    for (const suffix of ['', '-wal', '-shm', '.opened']) {
      copyFileSync(`${path}${suffix}`, `${moved}${suffix}`);
    }
    // `cp -p` keeps the modification time; copyFileSync does not, so the pair is stamped as cp -p would leave it.
    const { utimesSync, statSync } = await import('node:fs');
    const stat = statSync(path);
    utimesSync(moved, stat.atime, stat.mtime);
    expect(judgeWal(moved)).toEqual({ state: 'belongs' });
    expect(campaignsIn(moved)).toEqual(['Only In The WAL', 'The Vault']);
  });
});

describe('a stop killed right after its clean close', () => {
  it('is not called a loss: SIGTERM, then SIGKILL as soon as the -wal is gone, again and again', { timeout: 120_000 }, async () => {
    const path = dir.file();
    const written: string[] = [];
    let recoveryStarts = 0;
    for (let round = 0; round < 5; round += 1) {
      const web = await startWebMode(path);
      if (/restore a backup/.test(web.output())) recoveryStarts += 1;
      const name = `Campaign ${round}`;
      await web.call('campaigns:create', { name, rulesetId: 'enigma' });
      written.push(name);
      web.child.kill('SIGTERM');
      const since = Date.now();
      // (A backup still copying on its worker keeps the -wal: the close then leaves it, and this round kills later.)
      while (existsSync(`${path}-wal`) && Date.now() - since < 3000) { /* wait for SQLite to delete it */ }
      web.child.kill('SIGKILL');
      await web.ended;
      const health = checkDatabaseHealth(path);
      if (health.state === 'damaged') {
        recoveryStarts += 1;
        // Put the marker right, so the next round starts from a normal state.
        writeFileSync(markerPath(path), readFileSync(markerPath(path), 'utf8').replace(/^state: \w+/m, 'state: closed'));
      }
    }
    expect(recoveryStarts).toBe(0);
    expect(campaignsIn(path)).toEqual(written);
  });

  it('the marker a kill leaves at any moment after SQLite deleted the -wal in the close is not a loss', async () => {
    const path = dir.file();
    const app = start(path);
    await ok(app, 'campaigns:create', { name: 'The Vault', rulesetId: 'enigma' });
    // What a SIGKILL right after the connection closed (the -wal just deleted) leaves: the marker as it was then.
    let leftByKill = '';
    const close = Database.prototype.close;
    const spy = vi.spyOn(Database.prototype, 'close').mockImplementation(function (this: Database.Database) {
      const result = close.call(this);
      if (!existsSync(`${path}-wal`) && !leftByKill) leftByKill = readFileSync(markerPath(path), 'utf8');
      return result;
    });
    try {
      stop(app);
    } finally {
      spy.mockRestore();
    }
    expect(leftByKill).not.toBe('');
    writeFileSync(markerPath(path), leftByKill);
    expect(checkDatabaseHealth(path)).toEqual({ state: 'ok' });
    expect(campaignsIn(path)).toEqual(['The Vault']);
  });

  it('a real lost -wal after a crash is still found', { timeout: 60_000 }, async () => {
    const path = await ourDatabase();
    await killedWriter(path, 'Only In The WAL');
    const { rmSync } = await import('node:fs');
    rmSync(`${path}-wal`);
    expect(checkDatabaseHealth(path)).toMatchObject({ state: 'damaged', kind: 'walMissing' });
  });
});

describe('an orphan -wal beside a missing database', () => {
  /** The -wal of a new database holding five campaigns, copied while it was open; the database file is not. */
  function orphanWal(path: string): Buffer {
    const live = dir.file('live.sqlite');
    const db = openDatabase(live);
    db.pragma('wal_autocheckpoint = 0');
    const insert = db.prepare("INSERT INTO campaigns (id, name, ruleset_id, created_at, updated_at) VALUES (?, ?, 'enigma', 'now', 'now')");
    for (let i = 1; i <= 5; i += 1) insert.run(`c${i}`, `Campaign ${i}`);
    copyFileSync(`${live}-wal`, `${path}-wal`);
    db.close();
    return readFileSync(`${path}-wal`);
  }

  it('is kept aside (never deleted), the start says where, and it still holds the five campaigns', async () => {
    const path = dir.file();
    const wal = orphanWal(path);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const app = start(path);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^\[gmw\] A journal file \(-wal\) was found beside .*gm-workstation\.sqlite, which does not exist: it may hold campaigns, so it is kept as .*gm-workstation\.sqlite\.orphan-wal-\d{8}T\d{9}Z and a new database is started\.$/));
    warn.mockRestore();
    expect(await names(app)).toEqual([]);
    const kept = readdirSync(dir.path).find((name) => /\.orphan-wal-\d{8}T\d{9}Z$/.test(name))!;
    expect(readFileSync(join(dir.path, kept)).equals(wal)).toBe(true);

    // What was kept is the data: beside a blank one-page WAL-mode file, SQLite reads the five campaigns from it.
    const rescue = dir.file('rescue.sqlite');
    const blank = new Database(rescue);
    blank.pragma('journal_mode = wal');
    blank.close();
    copyFileSync(join(dir.path, kept), `${rescue}-wal`);
    expect(campaignsIn(rescue)).toEqual(['Campaign 1', 'Campaign 2', 'Campaign 3', 'Campaign 4', 'Campaign 5']);
  });

  it('web mode says so when it starts', { timeout: 60_000 }, async () => {
    const path = dir.file();
    orphanWal(path);
    const web = await startWebMode(path);
    expect(web.output()).toMatch(/A journal file \(-wal\) was found beside .* so it is kept as .*\.orphan-wal-\d{8}T\d{9}Z and a new database is started\./);
    web.child.kill('SIGTERM');
    await web.ended;
    expect(readdirSync(dir.path).filter((name) => name.includes('.orphan-wal-'))).toHaveLength(1);
  });
});
