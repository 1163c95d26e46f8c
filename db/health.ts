// Start-up health check of the campaign database, run before anything migrates or writes to it: a damaged file is
// reported, never silently re-created or "repaired" in place. See docs/reliability.md "A damaged database".
import Database from 'better-sqlite3';
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { backupDir, listBackups, type BackupInfo } from './backup.ts';

/**
 * How the damage showed itself: `missing` and `empty` only count as damage when the marker says a database
 * existed here; `notADatabase` is SQLITE_NOTADB (a garbled header, another kind of file under the name);
 * `corrupt` is SQLITE_CORRUPT (or a short read of a cut-off file) or a failed quick_check. Other errors (a locked
 * file, no permission) are not damage: they are thrown, and the app reports that it could not open the file.
 * `walMissing`: the file itself is sound, but the app did not close it and its -wal file is gone, so the commits
 * that were only in the WAL are lost (the file is a valid, older database).
 */
export type DamageKind = 'missing' | 'empty' | 'notADatabase' | 'corrupt' | 'walMissing';

export type DatabaseHealth =
  | { state: 'new' }
  | { state: 'ok' }
  | { state: 'damaged'; kind: DamageKind; sentence: string; detail: string };

/**
 * The marker that tells "a database existed here" from a first launch: a small sidecar file written next to the
 * database after its first successful open. It is per database file (the backups folder is shared by every
 * database in a folder, so it cannot tell them apart). Its last line says whether the app that had the database
 * open closed it (`state: closed`) or is, or was when it stopped, still using it (`state: open`): SQLite deletes
 * the -wal file on a clean close and leaves it after a crash, so an `open` state with no -wal beside the database
 * means the log of its newest commits was lost.
 */
export const markerPath = (databasePath: string) => `${databasePath}.opened`;

export type MarkerState = 'open' | 'closed';

/** The head of the marker: when the app first opened this database, kept as it was on every later rewrite. */
function markerHead(databasePath: string, now: Date): string {
  const path = markerPath(databasePath);
  if (existsSync(path)) {
    const lines = readFileSync(path, 'utf8').split('\n').filter((line) => line && !line.startsWith('state: '));
    if (lines.length) return `${lines.join('\n')}\n`;
  }
  return (
    `GM Workstation opened ${basename(databasePath)} here first on ${now.toISOString()}.\n` +
    'While this file exists, a missing or empty database next to it is treated as damage, not as a first launch.\n'
  );
}

/** Writes the marker with its state line; replaced in one rename, so a crash leaves the old or the new one. */
function writeMarker(databasePath: string, state: MarkerState, now: Date): void {
  if (databasePath === ':memory:') return;
  const path = markerPath(databasePath);
  const partial = `${path}.partial`;
  writeFileSync(partial, `${markerHead(databasePath, now)}state: ${state} ${now.toISOString()} pid ${process.pid}\n`);
  renameSync(partial, path);
}

/** Called after the database opened and migrated cleanly: it exists, and it is in use until markDatabaseClosed. */
export function markDatabaseOpened(databasePath: string, now: Date = new Date()): void {
  writeMarker(databasePath, 'open', now);
}

/** Called after the last connection closed cleanly (SQLite checkpointed the WAL into the file and deleted it). */
export function markDatabaseClosed(databasePath: string, now: Date = new Date()): void {
  if (databasePath === ':memory:' || !existsSync(markerPath(databasePath))) return;
  writeMarker(databasePath, 'closed', now);
}

/** The marker's state line; a marker without one (written by an older version) counts as closed. */
export function markerState(databasePath: string): MarkerState | null {
  const path = markerPath(databasePath);
  if (!existsSync(path)) return null;
  const match = /^state: (open|closed)\b/m.exec(readFileSync(path, 'utf8'));
  return (match?.[1] as MarkerState | undefined) ?? 'closed';
}

const SENTENCES: Record<DamageKind, string> = {
  missing: 'The campaign database is missing: it was here before, but the file is gone.',
  empty: 'The campaign database is empty: the file is there, but it has no data in it (zero bytes).',
  notADatabase: 'The campaign database file is damaged: it is no longer a readable database.',
  corrupt: 'The campaign database file is damaged: its integrity check found broken pages.',
  walMissing:
    'The campaign database was not closed normally, and its journal file (-wal) is gone: the newest changes it held are lost, and the file holds an older state.',
};

function damaged(kind: DamageKind, detail: string): DatabaseHealth {
  return { state: 'damaged', kind, sentence: SENTENCES[kind], detail };
}

/** SQLite's own error code, from better-sqlite3's SqliteError. */
const sqliteCode = (error: unknown) => String((error as { code?: unknown } | undefined)?.code ?? '');

function classify(error: unknown): DatabaseHealth {
  const code = sqliteCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code.startsWith('SQLITE_NOTADB')) return damaged('notADatabase', message);
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_IOERR_SHORT_READ') return damaged('corrupt', message);
  throw error;
}

/**
 * Checks the file at `databasePath` without changing it: read-only, so nothing is checkpointed or migrated.
 * A database with a committed WAL beside it is checked with that WAL applied (SQLite reads it), which is what the
 * app will see when it opens the file.
 */
export function checkDatabaseHealth(databasePath: string, nativeBinding?: string): DatabaseHealth {
  if (databasePath === ':memory:') return { state: 'new' };
  const existedBefore = existsSync(markerPath(databasePath));
  if (!existsSync(databasePath)) return existedBefore ? damaged('missing', `${databasePath} does not exist.`) : { state: 'new' };
  if (statSync(databasePath).size === 0) return existedBefore ? damaged('empty', `${databasePath} is 0 bytes long.`) : { state: 'new' };
  const walGone = markerState(databasePath) === 'open' && !existsSync(`${databasePath}-wal`);
  const health = quickCheck(databasePath, nativeBinding);
  if (health.state !== 'ok' || !walGone) return health;
  return damaged('walMissing', `${markerPath(databasePath)} says the app still had the database open, but ${databasePath}-wal does not exist.`);
}

/** True when the file (a backup) opens and passes quick_check; like the start-up check, it leaves nothing behind. */
export function isGoodDatabaseFile(path: string, nativeBinding?: string): boolean {
  try {
    return existsSync(path) && statSync(path).size > 0 && quickCheck(path, nativeBinding).state === 'ok';
  } catch {
    return false;
  }
}

function quickCheck(path: string, nativeBinding?: string): DatabaseHealth {
  const sidecars = [`${path}-wal`, `${path}-shm`].filter((file) => !existsSync(file));
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    const rows = db.pragma('quick_check(20)') as { quick_check: string }[];
    const problems = rows.map((row) => row.quick_check).filter((line) => line !== 'ok');
    return problems.length === 0 ? { state: 'ok' } : damaged('corrupt', problems.join('; '));
  } catch (error) {
    return classify(error);
  } finally {
    db?.close();
    // A read-only connection to a WAL database leaves an empty -wal and an -shm behind; the check takes away the
    // ones it made (a -wal it made has no frames: read-only connections cannot write).
    if (sidecars.length === 2 && existsSync(sidecars[0]!) && statSync(sidecars[0]!).size === 0) for (const file of sidecars) rmSync(file, { force: true });
  }
}

export interface GoodBackup extends BackupInfo {
  path: string;
}

/** This database's newest backup that passes quick_check, or null; broken backups are skipped, never offered. */
export function newestGoodBackup(databasePath: string, nativeBinding?: string): GoodBackup | null {
  for (const backup of listBackups(databasePath, nativeBinding)) {
    const path = join(backupDir(databasePath), backup.name);
    if (isGoodDatabaseFile(path, nativeBinding)) return { ...backup, path };
  }
  return null;
}
