// Start-up health check of the campaign database, run before anything migrates or writes to it: a damaged file is
// reported, never silently re-created or "repaired" in place. See docs/reliability.md "A damaged database".
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { backupDir, listBackups, type BackupInfo } from './backup.ts';
import { identifyDatabaseFile, identifyWithoutWal } from './identify.ts';
import { databasePageSize, readWal, walAlreadyInFile } from './identify-wal.ts';
import { isGoodDatabaseFile, lookReadOnly } from './read-only.ts';

/**
 * How the damage showed itself: `missing` and `empty` only count as damage when the marker says a database
 * existed here; `notADatabase` is SQLITE_NOTADB (a garbled header, another kind of file under the name);
 * `corrupt` is SQLITE_CORRUPT (or a short read of a cut-off file) or a failed quick_check. Other errors (a locked
 * file, no permission) are not damage: they are thrown, and the app reports that it could not open the file.
 * `walMissing`: the file itself is sound, but the app did not close it and its -wal file is gone, so the commits
 * that were only in the WAL are lost (the file is a valid, older database).
 * `foreignWal`: the -wal beside the file was written for another database file (another program's, or this
 * database's before someone copied another file over it); SQLite would have applied it. It was moved aside.
 */
export type DamageKind = 'missing' | 'empty' | 'notADatabase' | 'corrupt' | 'walMissing' | 'foreignWal';

export type DatabaseHealth =
  | { state: 'new' }
  | { state: 'ok' }
  | { state: 'damaged'; kind: DamageKind; sentence: string; detail: string };

/**
 * The marker that tells "a database existed here" from a first launch: a small sidecar file written next to the
 * database after its first successful open. It is per database file (the backups folder is shared by every
 * database in a folder, so it cannot tell them apart). Its state line says whether the app that had the database
 * open closed it (`state: closed`) or is, or was when it stopped, still using it (`state: open`): SQLite deletes
 * the -wal file on a clean close and leaves it after a crash, so an `open` state with no -wal beside the database
 * means the log of its newest commits was lost. `closing` is written just before the app closes the database
 * (SQLite then checkpoints every frame into the file and deletes the -wal): a stop killed after that deletion but
 * before `closed` was written lost nothing. `checkpointing` is written before each of the app's checkpoints.
 *
 * While the app has the database open, a `file:` line records the size and modification time of the database
 * file as the app last left it (at open, after each checkpoint, and after any write that changed the file): a
 * -wal beside a file that changed since, with no checkpoint or close under way, was written for another file.
 */
export const markerPath = (databasePath: string) => `${databasePath}.opened`;

export type MarkerState = 'open' | 'checkpointing' | 'closing' | 'closed';

/** The database file as the app left it: a file copied over it has another modification time, or size. */
export interface FileStamp {
  size: number;
  mtimeNs: bigint;
}

export function fileStamp(databasePath: string): FileStamp | null {
  try {
    const stat = statSync(databasePath, { bigint: true });
    return { size: Number(stat.size), mtimeNs: stat.mtimeNs };
  } catch {
    return null;
  }
}

/** Compared to the millisecond: tools that keep a file's time (cp -p, a move to another disk) keep at least that. */
/**
 * The same file as recorded: the same size and modification time within a millisecond (a copy that keeps times
 * through a seconds-as-float call such as Node's utimes can land a nanosecond below the millisecond it came from).
 */
const sameStamp = (a: FileStamp, b: FileStamp) => {
  const apart = a.mtimeNs > b.mtimeNs ? a.mtimeNs - b.mtimeNs : b.mtimeNs - a.mtimeNs;
  return a.size === b.size && apart <= 1_000_000n;
};

/** The head of the marker: when the app first opened this database, kept as it was on every later rewrite. */
function markerHead(databasePath: string, now: Date): string {
  const path = markerPath(databasePath);
  if (existsSync(path)) {
    const lines = readFileSync(path, 'utf8').split('\n').filter((line) => line && !line.startsWith('state: ') && !line.startsWith('file: '));
    if (lines.length) return `${lines.join('\n')}\n`;
  }
  return (
    `GM Workstation opened ${basename(databasePath)} here first on ${now.toISOString()}.\n` +
    'While this file exists, a missing or empty database next to it is treated as damage, not as a first launch.\n'
  );
}

/** The stamp each database's marker holds, as this process last wrote it (so a write that changed nothing is not rewritten). */
const stamped = new Map<string, FileStamp>();

/** Writes the marker with its state line; replaced in one rename, so a crash leaves the old or the new one. */
function writeMarker(databasePath: string, state: MarkerState, now: Date): void {
  if (databasePath === ':memory:') return;
  const path = markerPath(databasePath);
  const partial = `${path}.partial`;
  const stamp = state === 'closed' ? null : fileStamp(databasePath);
  const file = stamp ? `file: size ${stamp.size} mtime ${stamp.mtimeNs}\n` : '';
  writeFileSync(partial, `${markerHead(databasePath, now)}${file}state: ${state} ${now.toISOString()} pid ${process.pid}\n`);
  renameSync(partial, path);
  if (stamp) stamped.set(databasePath, stamp);
  else stamped.delete(databasePath);
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

/**
 * Called before a step that writes the database file itself (a checkpoint, the close), with `checkpointing` or
 * `closing`; and with `open` after it, which records the file as the step left it.
 */
export function markDatabaseState(databasePath: string, state: Exclude<MarkerState, 'closed'>, now: Date = new Date()): void {
  if (databasePath === ':memory:' || !existsSync(markerPath(databasePath))) return;
  writeMarker(databasePath, state, now);
}

/** After a write: when SQLite's own checkpoint changed the database file, the marker records the file as it is now. */
export function noteDatabaseFile(databasePath: string): void {
  const known = stamped.get(databasePath);
  if (!known) return;
  const now = fileStamp(databasePath);
  if (now && !sameStamp(known, now) && existsSync(markerPath(databasePath))) writeMarker(databasePath, 'open', new Date());
}

/** The marker's state line; a marker without one (written by an older version) counts as closed. */
export function markerState(databasePath: string): MarkerState | null {
  const path = markerPath(databasePath);
  if (!existsSync(path)) return null;
  const match = /^state: (open|checkpointing|closing|closed)\b/m.exec(readFileSync(path, 'utf8'));
  return (match?.[1] as MarkerState | undefined) ?? 'closed';
}

/** The database file as the marker last recorded it, or null (no marker, closed, or written by an older version). */
export function markerStamp(databasePath: string): FileStamp | null {
  const path = markerPath(databasePath);
  if (!existsSync(path)) return null;
  const match = /^file: size (\d+) mtime (\d+)$/m.exec(readFileSync(path, 'utf8'));
  return match ? { size: Number(match[1]), mtimeNs: BigInt(match[2]!) } : null;
}

const SENTENCES: Record<DamageKind, string> = {
  missing: 'The campaign database is missing: it was here before, but the file is gone.',
  empty: 'The campaign database is empty: the file is there, but it has no data in it (zero bytes).',
  notADatabase: 'The campaign database file is damaged: it is no longer a readable database.',
  corrupt: 'The campaign database file is damaged: its integrity check found broken pages.',
  walMissing:
    'The campaign database was not closed normally, and its journal file (-wal) is gone: the newest changes it held are lost, and the file holds an older state.',
  foreignWal: 'The journal file (-wal) beside the campaign database was written for another database file, so it was not applied.',
};

export function damaged(kind: DamageKind, detail: string): Extract<DatabaseHealth, { state: 'damaged' }> {
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
  // `closing`: the app was closing the database, and SQLite deletes the -wal only once every frame is in the file.
  const state = markerState(databasePath);
  const walGone = (state === 'open' || state === 'checkpointing') && !existsSync(`${databasePath}-wal`);
  const health = quickCheck(databasePath, nativeBinding);
  if (health.state !== 'ok' || !walGone) return health;
  return damaged('walMissing', `${markerPath(databasePath)} says the app still had the database open, but ${databasePath}-wal does not exist.`);
}

function quickCheck(path: string, nativeBinding?: string): DatabaseHealth {
  try {
    return lookReadOnly(path, nativeBinding, (db) => {
      const rows = db.pragma('quick_check(20)') as { quick_check: string }[];
      const problems = rows.map((row) => row.quick_check).filter((line) => line !== 'ok');
      return problems.length === 0 ? { state: 'ok' } : damaged('corrupt', problems.join('; '));
    });
  } catch (error) {
    return classify(error);
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

/** Whether the -wal beside a database may be applied to it: `none` when there is none with committed frames. */
export type WalVerdict = { state: 'none' } | { state: 'belongs' } | { state: 'foreign'; detail: string };

/**
 * Judges the -wal beside the database before SQLite opens the pair read-write (and applies it for good at its
 * first checkpoint). SQLite checks a WAL's frames against the WAL's own header only, never against the database
 * file, so the app checks what it can:
 * - its pages must be the database's page size;
 * - when the marker says the app had the file open (a crash), the database file must be as the app last left it
 *   (size and modification time): a file copied over it since is another file, whatever the -wal holds;
 * - the database seen with the -wal must still be a GM Workstation database (another program's -wal brings its
 *   own schema page, or pages that break ours, which the health check then finds).
 * A WAL whose every page is already in the file changes nothing and is always fine. A checkpoint or close under
 * way (the marker's `checkpointing`, `closing`) may have changed the file, so only the other checks apply then.
 */
export function judgeWal(databasePath: string, nativeBinding?: string): WalVerdict {
  const walPath = `${databasePath}-wal`;
  const wal = readWal(walPath);
  if (!wal) return { state: 'none' };
  const pageSize = databasePageSize(databasePath);
  // An unreadable file is the health check's to report; moving it aside takes the -wal with it.
  if (pageSize === null) return { state: 'none' };
  if (wal.pageSize !== pageSize) {
    return { state: 'foreign', detail: `${walPath} holds pages of ${wal.pageSize} bytes; the database's pages are ${pageSize} bytes.` };
  }
  if (walAlreadyInFile(databasePath, walPath, wal)) return { state: 'belongs' };
  const recorded = markerState(databasePath) === 'open' ? markerStamp(databasePath) : null;
  const now = fileStamp(databasePath);
  if (recorded && now && !sameStamp(recorded, now)) {
    return {
      state: 'foreign',
      detail: `${markerPath(databasePath)} says the app had the database open with this -wal when the file was ${recorded.size} bytes, ` +
        `last changed at ${stampTime(recorded)}; it is now ${now.size} bytes, last changed at ${stampTime(now)} (another file was put in its place).`,
    };
  }
  const withWal = identifyDatabaseFile(databasePath, nativeBinding);
  if (withWal.kind === 'ours' || withWal.kind === 'blank' || withWal.kind === 'newer') return { state: 'belongs' };
  const alone = identifyWithoutWal(databasePath, nativeBinding);
  if (alone.kind !== 'ours' && alone.kind !== 'blank') return { state: 'belongs' }; // not ours with or without it: refused as a whole
  return {
    state: 'foreign',
    detail: withWal.kind === 'foreign'
      ? `With ${walPath} applied the file would hold another program's tables (${withWal.names.slice(0, 3).join(', ')}).`
      : `With ${walPath} applied the file would not be readable${withWal.kind === 'unreadable' ? `: ${withWal.detail}` : '.'}`,
  };
}

const stampTime = (stamp: FileStamp) => new Date(Number(stamp.mtimeNs / 1_000_000n)).toISOString();

const stampOf = (date: Date) => date.toISOString().replace(/[-:.]/g, '');

/** Renames the -wal (and the -shm, when there is one) to `<db>.<label>-<stamp>` (`-shm` after it); nothing is deleted. */
export function moveWalAside(databasePath: string, label: string, now: Date): string {
  const aside = `${databasePath}.${label}-${stampOf(now)}`;
  renameSync(`${databasePath}-wal`, aside);
  if (existsSync(`${databasePath}-shm`)) renameSync(`${databasePath}-shm`, `${aside}-shm`);
  return aside;
}

/**
 * A -wal with content beside a database that is not there (or is 0 bytes) and was never opened here (no marker):
 * SQLite deletes such a -wal when it creates the database, and with it whatever it held (a copy that lost its
 * database file, a folder restored in part). It is moved aside instead; returns the sentence that says where, or
 * null when there was nothing to keep. With the marker, the missing database is damage, and recovery keeps the
 * -wal with it.
 */
export function keepOrphanWal(databasePath: string, now: Date = new Date()): string | null {
  if (databasePath === ':memory:' || existsSync(markerPath(databasePath))) return null;
  if (existsSync(databasePath) && statSync(databasePath).size > 0) return null;
  const walPath = `${databasePath}-wal`;
  if (!existsSync(walPath) || statSync(walPath).size === 0) return null;
  const aside = moveWalAside(databasePath, 'orphan-wal', now);
  return `A journal file (-wal) was found beside ${databasePath}, which ${existsSync(databasePath) ? 'is empty' : 'does not exist'}: ` +
    `it may hold campaigns, so it is kept as ${aside} and a new database is started.`;
}
