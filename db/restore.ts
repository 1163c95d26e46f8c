// The one way a backup is put in the database's place, for the Backups screen and the recovery screen alike: the
// backup is checked (this database's, and sound) before anything of the database is touched, and it replaces the
// database in one rename, so a kill at any moment leaves the old database whole or the restored one whole.
import Database from 'better-sqlite3';
import { closeSync, copyFileSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { GmError } from '../core/api/contract.ts';
import { LEGACY_DATABASE_NAME, backupPath, readOrigin, restoringPath } from './backup.ts';
import { isGoodDatabaseFile } from './read-only.ts';

export { restoringPath };

const NOTHING_CHANGED = 'Nothing was changed.';

/** Why a backup may not go into this database, as one sentence; null when it may. */
function foreignBackup(databasePath: string, source: string, nativeBinding?: string): string | null {
  const origin = readOrigin(source, nativeBinding);
  const here = basename(databasePath);
  if (origin === 'unreadable') return null; // the integrity check of the copy says what is wrong with it
  if (origin === 'legacy') {
    return here === LEGACY_DATABASE_NAME
      ? null
      : `That backup was made by an older version, which did not record its database; such backups are taken as ${LEGACY_DATABASE_NAME}'s, not ${here}'s. ${NOTHING_CHANGED}`;
  }
  return origin.databaseName === here
    ? null
    : `That backup is of another database (${origin.databaseName}), not of ${here}: restoring it would put that database's campaigns here. ${NOTHING_CHANGED}`;
}

/**
 * The copy becomes a database, not a backup: the row saying which database it was copied from goes (the next
 * backup writes its own). False when the copy cannot be written as a database.
 */
function dropOrigin(path: string, nativeBinding?: string): boolean {
  try {
    const db = new Database(path, { fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    try {
      db.exec('DROP TABLE IF EXISTS backup_origin');
      return true;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes a rename in the folder durable. Some systems (Windows) cannot open a folder: their rename is durable anyway. */
function syncFolder(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    fsyncSync(fd);
  } catch {
    // Nothing more can be done for the rename from here.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Removes the copy a restore made beside the database (and the journal of its last change), if any. */
export function removeRestoringCopy(databasePath: string): void {
  for (const path of [restoringPath(databasePath), `${restoringPath(databasePath)}-journal`, `${restoringPath(databasePath)}-wal`, `${restoringPath(databasePath)}-shm`]) {
    rmSync(path, { force: true });
  }
}

/**
 * Restores the backup `name` into the database at `databasePath`:
 * 1. refuses, with one sentence and nothing changed, a backup that is not this database's (db/backup.ts's origin
 *    rule) or that fails quick_check;
 * 2. copies it beside the database (`<database>.restoring`), checks the copy, and flushes it to the disk;
 * 3. calls `makeWay`, which readies the database's place (the Backups screen: a safety backup, then the database
 *    closed with every commit checkpointed into the file; the recovery screen: the damaged file moved aside);
 * 4. renames the copy over the database, and flushes the folder.
 * Until the rename the database is as it was; the rename swaps it whole. A failure before it removes the copy.
 * Returns what `makeWay` returned.
 */
export async function restoreBackup<T>(databasePath: string, name: string, makeWay: () => T | Promise<T>, nativeBinding?: string): Promise<T> {
  const source = backupPath(databasePath, name);
  if (!source) throw new GmError('That backup does not exist (it may have been pruned).', 'notFound');
  const foreign = foreignBackup(databasePath, source, nativeBinding);
  if (foreign) throw new GmError(foreign);
  const copy = restoringPath(databasePath);
  // A copy left by a restore that was stopped (a kill) is stale: the lock lets only this app restore here.
  removeRestoringCopy(databasePath);
  try {
    copyFileSync(source, copy);
    // The copy is checked, not the backup: what is renamed into place is what passed.
    if (!isGoodDatabaseFile(copy, nativeBinding) || !dropOrigin(copy, nativeBinding)) {
      throw new GmError(`That backup failed its integrity check: it is damaged. ${NOTHING_CHANGED} Choose another one.`);
    }
    syncFile(copy);
    const made = await makeWay();
    renameSync(copy, databasePath);
    syncFolder(dirname(databasePath));
    return made;
  } catch (error) {
    removeRestoringCopy(databasePath);
    throw error;
  }
}
