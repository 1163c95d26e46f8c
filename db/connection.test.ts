import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { PRAGMAS, assertPragmas, openDatabase, writeTransaction } from './connection.ts';
import { currentVersion, migrate } from './migrate.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { tempDir, type TempDir } from './testing/temp-db.ts';

let dir: TempDir;
afterEach(() => dir?.remove());

describe('connection', () => {
  it('sets WAL, foreign keys, busy timeout and synchronous on every connection', () => {
    dir = tempDir();
    const db = openDatabase(dir.file());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(PRAGMAS.busy_timeout);
    expect(db.pragma('synchronous', { simple: true })).toBe(PRAGMAS.synchronous);
    db.close();
  });

  it('notices a connection whose pragmas were not applied', () => {
    dir = tempDir();
    const raw = new Database(dir.file());
    expect(() => assertPragmas(raw)).toThrow(/WAL/);
    raw.close();
  });

  it('records each migration once and reopens without re-running it', () => {
    dir = tempDir();
    const db = openDatabase(dir.file());
    expect(currentVersion(db)).toBe(MIGRATIONS.at(-1)!.version);
    expect(migrate(db)).toBe(MIGRATIONS.at(-1)!.version);
    const rows = db.prepare('SELECT version, name FROM schema_migrations').all();
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
    db.close();
  });

  it('refuses a database written by a newer version', () => {
    dir = tempDir();
    const db = openDatabase(dir.file());
    db.prepare("INSERT INTO schema_migrations VALUES (999, 'future', 'x')").run();
    db.close();
    expect(() => openDatabase(dir.file())).toThrow(/newer GM Workstation/);
  });

  it('leaves the old version intact when a migration fails halfway', () => {
    dir = tempDir();
    const db = openDatabase(dir.file());
    const broken = [...MIGRATIONS, { version: 99, name: 'broken', sql: 'CREATE TABLE half_done (x); SELECT * FROM no_such_table;' }];
    expect(() => migrate(db, broken)).toThrow();
    expect(currentVersion(db)).toBe(MIGRATIONS.at(-1)!.version);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half_done'").get()).toEqual({ n: 0 });
    db.close();
  });

  it('rolls back a whole write transaction on failure', () => {
    dir = tempDir();
    const db = openDatabase(dir.file());
    const insert = db.prepare("INSERT INTO campaigns (id, name, ruleset_id, created_at, updated_at) VALUES (?, 'A', 'enigma', 'now', 'now')");
    expect(() => writeTransaction(db, () => { insert.run('a'); insert.run('a'); })).toThrow();
    expect(db.prepare('SELECT count(*) AS n FROM campaigns').get()).toEqual({ n: 0 });
    db.close();
  });
});
