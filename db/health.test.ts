// Detecting a damaged database at start, each case on a real file: a damaged file is reported (never re-created),
// a first launch is not, and the check itself changes nothing on disk.
import Database from 'better-sqlite3';
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backupDir } from './backup.ts';
import { openDatabase, type Db } from './connection.ts';
import { checkDatabaseHealth, markDatabaseClosed, markDatabaseOpened, markerPath, markerState, newestGoodBackup } from './health.ts';
import { tempDir, type TempDir } from './testing/temp-db.ts';

let dir: TempDir;
afterEach(() => dir?.remove());

const PAGE = 4096;

function addCampaigns(db: Db, from: number, count: number): void {
  const insert = db.prepare("INSERT INTO campaigns (id, name, ruleset_id, created_at, updated_at) VALUES (?, ?, 'enigma', 'now', 'now')");
  db.transaction(() => {
    for (let i = from; i < from + count; i += 1) insert.run(`c${i}`, `Campaign ${i} ${'of the long road '.repeat(3)}`);
  })();
}

/** A real, healthy, migrated database of about 80 pages, closed cleanly, with the marker beside it. */
function healthyDatabase(name = 'gm-workstation.sqlite'): string {
  const path = dir.file(name);
  const db = openDatabase(path);
  markDatabaseOpened(path);
  addCampaigns(db, 0, 2000);
  db.close();
  markDatabaseClosed(path);
  return path;
}

function overwrite(path: string, at: number, bytes: Buffer): void {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, at);
  } finally {
    closeSync(fd);
  }
}

const campaignCount = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM campaigns').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('a first launch is not damage', () => {
  it('no file and no marker: a new database', () => {
    dir = tempDir();
    expect(checkDatabaseHealth(dir.file())).toEqual({ state: 'new' });
  });

  it('a zero-length file without the marker (never opened by the app): a new database', () => {
    dir = tempDir();
    writeFileSync(dir.file(), '');
    expect(checkDatabaseHealth(dir.file())).toEqual({ state: 'new' });
  });

  it('a healthy database: ok, and the marker records that it existed', () => {
    dir = tempDir();
    const path = healthyDatabase();
    expect(checkDatabaseHealth(path)).toEqual({ state: 'ok' });
    expect(readFileSync(markerPath(path), 'utf8')).toMatch(/first on \d{4}-/);
  });
});

describe('damage is detected on real files', () => {
  it('a truncated file (cut in half, as by a full disk or an interrupted copy): corrupt', () => {
    dir = tempDir();
    const path = healthyDatabase();
    truncateSync(path, Math.floor(statSync(path).size / 2) + 100);
    expect(checkDatabaseHealth(path)).toMatchObject({ state: 'damaged', kind: 'corrupt' });
  });

  it('a page of zeros in the middle: corrupt', () => {
    dir = tempDir();
    const path = healthyDatabase();
    const pages = statSync(path).size / PAGE;
    expect(pages).toBeGreaterThan(40);
    overwrite(path, Math.floor(pages / 2) * PAGE, Buffer.alloc(PAGE));
    expect(checkDatabaseHealth(path)).toMatchObject({ state: 'damaged', kind: 'corrupt', sentence: expect.stringMatching(/integrity check/) });
  });

  it('a garbled header: not a database', () => {
    dir = tempDir();
    const path = healthyDatabase();
    overwrite(path, 0, Buffer.from('GARBLED HEADER!!'));
    expect(checkDatabaseHealth(path)).toMatchObject({ state: 'damaged', kind: 'notADatabase', detail: 'file is not a database' });
  });

  it('a JSON file renamed to the database name: not a database', () => {
    dir = tempDir();
    const path = dir.file();
    writeFileSync(path, JSON.stringify({ format: 'gm-workstation-campaign', campaigns: [{ name: 'The Vault' }] }, null, 2));
    expect(checkDatabaseHealth(path)).toMatchObject({ state: 'damaged', kind: 'notADatabase' });
  });

  it('a zero-length file where a database existed: damage, never a first launch', () => {
    dir = tempDir();
    const path = healthyDatabase();
    writeFileSync(path, '');
    expect(checkDatabaseHealth(path)).toMatchObject({ state: 'damaged', kind: 'empty' });
  });

  it('a missing file where a database existed: damage, never a first launch', () => {
    dir = tempDir();
    const path = healthyDatabase();
    rmSync(path);
    expect(checkDatabaseHealth(path)).toMatchObject({ state: 'damaged', kind: 'missing' });
  });

  it('checking changes nothing: the damaged file stays byte-identical and no WAL is created', () => {
    dir = tempDir();
    const path = healthyDatabase();
    overwrite(path, 20 * PAGE, Buffer.alloc(PAGE));
    const before = readFileSync(path);
    expect(checkDatabaseHealth(path).state).toBe('damaged');
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });
});

describe('a WAL that held committed transactions', () => {
  /** Simulates a crash: copies the database and its WAL while a connection still has unsaved-to-main commits. */
  function crashedCopy(): { path: string; committed: number } {
    const live = dir.file('live.sqlite');
    const db = openDatabase(live);
    addCampaigns(db, 0, 50);
    db.pragma('wal_checkpoint(TRUNCATE)');
    addCampaigns(db, 50, 25); // committed, and only in the WAL
    const path = dir.file();
    copyFileSync(live, path);
    copyFileSync(`${live}-wal`, `${path}-wal`);
    db.close();
    markDatabaseOpened(path);
    return { path, committed: 75 };
  }

  it('with its WAL the crashed database is healthy and keeps every committed transaction', () => {
    dir = tempDir();
    const { path, committed } = crashedCopy();
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
    expect(checkDatabaseHealth(path)).toEqual({ state: 'ok' });
    expect(campaignCount(path)).toBe(committed);
  });

  it('with its WAL deleted after a crash: detected (the file is sound but older), the WAL-only rows are gone', () => {
    dir = tempDir();
    const { path } = crashedCopy();
    rmSync(`${path}-wal`);
    const health = checkDatabaseHealth(path);
    expect(health).toMatchObject({ state: 'damaged', kind: 'walMissing' });
    expect(campaignCount(path)).toBe(50);
  });

  it('after a clean close there is no WAL, and that is not damage', () => {
    dir = tempDir();
    const path = dir.file();
    const db = openDatabase(path);
    markDatabaseOpened(path);
    expect(markerState(path)).toBe('open');
    addCampaigns(db, 0, 10);
    db.close();
    markDatabaseClosed(path);
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(markerState(path)).toBe('closed');
    expect(checkDatabaseHealth(path)).toEqual({ state: 'ok' });
  });

  it('the marker keeps the day the database was first opened through every open and close', () => {
    dir = tempDir();
    const path = healthyDatabase();
    const first = readFileSync(markerPath(path), 'utf8').split('\n')[0];
    markDatabaseOpened(path, new Date('2030-01-01T00:00:00Z'));
    markDatabaseClosed(path, new Date('2030-01-02T00:00:00Z'));
    const text = readFileSync(markerPath(path), 'utf8');
    expect(text.split('\n')[0]).toBe(first);
    expect(text.match(/^state: /gm)).toHaveLength(1);
    expect(text).toMatch(/^state: closed 2030-01-02T00:00:00.000Z pid \d+$/m);
  });

  it('a marker written before the state line existed counts as closed', () => {
    dir = tempDir();
    const path = healthyDatabase();
    writeFileSync(markerPath(path), 'GM Workstation opened gm-workstation.sqlite here first on 2026-01-01T00:00:00.000Z.\n');
    expect(markerState(path)).toBe('closed');
    expect(checkDatabaseHealth(path)).toEqual({ state: 'ok' });
  });
});

describe('the newest good backup', () => {
  it('skips backups that fail quick_check and offers the newest that passes', () => {
    dir = tempDir();
    const path = healthyDatabase();
    mkdirSync(backupDir(path), { recursive: true });
    const backup = (stamp: string) => join(backupDir(path), `gm-workstation-${stamp}-auto.sqlite`);
    copyFileSync(path, backup('20260101T100000000Z'));
    copyFileSync(path, backup('20260102T100000000Z'));
    copyFileSync(path, backup('20260103T100000000Z'));
    overwrite(backup('20260103T100000000Z'), 0, Buffer.from('GARBLED HEADER!!'));
    expect(newestGoodBackup(path)).toMatchObject({ name: 'gm-workstation-20260102T100000000Z-auto.sqlite', createdAt: '2026-01-02T10:00:00.000Z' });
    // Checking the backups left nothing beside them (a read-only open of a WAL file makes an -wal and an -shm).
    expect(readdirSync(backupDir(path)).filter((name) => /-(wal|shm)$/.test(name))).toEqual([]);
  });

  it('is null when no backup passes', () => {
    dir = tempDir();
    const path = healthyDatabase();
    mkdirSync(backupDir(path), { recursive: true });
    writeFileSync(join(backupDir(path), 'gm-workstation-20260101T100000000Z-auto.sqlite'), '{}');
    expect(newestGoodBackup(path)).toBeNull();
  });
});

// `GMW_HEALTH_BENCH=1 npx vitest run db/health.test.ts`: how long the start-up check takes on a large database
// (docs/reliability.md). Not part of `npm test`; no timing is asserted.
describe.skipIf(!process.env.GMW_HEALTH_BENCH)('start-up check on a large database', () => {
  it('times quick_check on about 10, 50 and 200 MB', { timeout: 600_000 }, () => {
    dir = tempDir();
    const path = dir.file();
    const db = openDatabase(path);
    const insert = db.prepare("INSERT INTO campaigns (id, name, ruleset_id, party_json, created_at, updated_at) VALUES (?, ?, 'enigma', ?, 'now', 'now')");
    const party = JSON.stringify({ notes: 'x'.repeat(900) });
    let rows = 0;
    for (const megabytes of [10, 50, 200]) {
      while (statSync(path).size + (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0) < megabytes * 1024 * 1024) {
        db.transaction(() => {
          for (let i = 0; i < 2000; i += 1, rows += 1) insert.run(`c${rows}`, `Campaign ${rows}`, party);
        })();
        db.pragma('wal_checkpoint(TRUNCATE)');
      }
      const started = performance.now();
      const health = checkDatabaseHealth(path);
      const ms = performance.now() - started;
      expect(health).toEqual({ state: 'ok' });
      console.log(`health check: ${(statSync(path).size / 1024 / 1024).toFixed(1)} MB, ${rows} rows: ${ms.toFixed(0)} ms`);
    }
    db.close();
  });
});
