// Every read-only look at a database file leaves its folder as it found it: a read-only connection to a WAL file
// makes an empty -wal and an -shm, and those go again; a journal somebody else left there stays.
import Database from 'better-sqlite3';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readOrigin } from './backup.ts';
import { isGoodDatabaseFile, lookReadOnly, sidecarsMadeFrom } from './read-only.ts';
import { tempDir, type TempDir } from './testing/temp-db.ts';

let dir: TempDir;
beforeEach(() => {
  dir = tempDir('gmw-read-only-');
});
afterEach(() => dir.remove());

const listing = () => readdirSync(dir.path).sort();

/** A file in WAL mode, closed cleanly: no -wal or -shm beside it, but its header says WAL. */
function walFile(): string {
  const path = dir.file('table.sqlite');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('the lich is in the cellar')");
  db.close();
  return path;
}

describe('a read-only look', () => {
  it('at a WAL file reads it and leaves no -wal or -shm behind', () => {
    const path = walFile();
    const before = listing();
    expect(lookReadOnly(path, undefined, (db) => db.prepare('SELECT body FROM notes').pluck().get())).toBe('the lich is in the cellar');
    expect(listing()).toEqual(before);
  });

  it('leaves nothing behind when the look itself throws', () => {
    const path = walFile();
    const before = listing();
    expect(() => lookReadOnly(path, undefined, (db) => db.prepare('SELECT * FROM no_such_table').all())).toThrow(/no such table/);
    expect(listing()).toEqual(before);
  });

  it('the quick check of a backup and the reading of its origin leave the folder as it was', () => {
    const path = walFile();
    const before = listing();
    expect(isGoodDatabaseFile(path)).toBe(true);
    expect(readOrigin(path)).toBe('legacy');
    expect(listing()).toEqual(before);
  });

  it('an empty file or a missing one is not a good database file, and nothing is created', () => {
    writeFileSync(dir.file('empty.sqlite'), '');
    const before = listing();
    expect(isGoodDatabaseFile(dir.file('empty.sqlite'))).toBe(false);
    expect(isGoodDatabaseFile(dir.file('missing.sqlite'))).toBe(false);
    expect(listing()).toEqual(before);
  });

  it('a -wal with frames that appeared meanwhile is a journal, and is kept', () => {
    const path = walFile();
    const leave = sidecarsMadeFrom(path);
    const writer = new Database(path);
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec("INSERT INTO notes VALUES ('and the key is under the mat')");
    leave();
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
    writer.close();
  });
});
