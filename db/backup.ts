// Backups with SQLite's online backup API (never a raw copy of the open file), each verified with quick_check,
// kept by a retention rule: the most recent ones plus the newest of each of the last days.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Db } from './connection.ts';
import { lookReadOnly } from './read-only.ts';

export interface BackupInfo {
  name: string;
  createdAt: string;
  bytes: number;
  reason: string;
}

export const RETENTION = { recent: 10, days: 10 } as const;

/**
 * The backups folder is shared by every database in a folder, so each backup names the database it is of: in its
 * file name (`<database's file name without .sqlite>-<stamp>-<reason>.sqlite`, which for the default
 * `gm-workstation.sqlite` is the name every backup had before) and inside the copy (`backup_origin`, below).
 */
export const backupDir = (databasePath: string) => join(dirname(databasePath), 'backups');

/** The start of the names of a database's backups: `table` for `table.sqlite`. */
export const backupPrefix = (databasePath: string) => basename(databasePath).replace(/\.sqlite$/, '');

const escapeForPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A backup of this database, by its name. The stamp right after the prefix anchors it: `table-2-<stamp>-auto.sqlite`
 * is not a backup of `table.sqlite` (`2-…` is no stamp), and `table-<stamp>-auto.sqlite` not one of `table-2.sqlite`.
 */
const namePattern = (databasePath: string) => new RegExp(`^${escapeForPattern(backupPrefix(databasePath))}-(\\d{8}T\\d{9}Z)-([a-z-]+)\\.sqlite$`);

/** A copy of this database being made (`<backup>.partial`, and the journal SQLite keeps beside it while writing it). */
const partialPattern = (databasePath: string) =>
  new RegExp(`^${escapeForPattern(backupPrefix(databasePath))}-\\d{8}T\\d{9}Z-[a-z-]+\\.sqlite\\.partial(?:-journal)?$`);

/** What a backup says, inside, about where it came from (the `backup_origin` table written into every copy). */
export interface BackupOrigin {
  /** The database file's name (`table.sqlite`): what a backup must match to be restored into a database. */
  databaseName: string;
  /** Where that database was when the copy was made: for people reading the file, not matched (folders move). */
  databasePath: string;
  createdAt: string;
  reason: string;
}

/**
 * Backups made before a backup named its database have no `backup_origin` inside, and were all named
 * `gm-workstation-…`: they are taken as backups of `gm-workstation.sqlite`, the one name those versions used unless
 * told another; a database of any other name does not list them, and refuses to restore one.
 */
export const LEGACY_DATABASE_NAME = 'gm-workstation.sqlite';

export const originOf = (databasePath: string, createdAt: Date, reason: string): BackupOrigin => ({
  databaseName: basename(databasePath),
  databasePath,
  createdAt: createdAt.toISOString(),
  reason,
});

/**
 * The origin written inside a backup: the origin itself, `legacy` when it has none (made by an older version), or
 * `unreadable` when the file cannot be read as a database (a damaged backup, listed by its name alone).
 */
export type OriginFound = BackupOrigin | 'legacy' | 'unreadable';

export function readOrigin(path: string, nativeBinding?: string): OriginFound {
  try {
    // Our backups are rollback-journal files, but a copy of a WAL file put there by hand is looked at too.
    return lookReadOnly(path, nativeBinding, (db): OriginFound => {
      const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'backup_origin'").get();
      if (!table) return 'legacy';
      const row = db.prepare('SELECT database_name, database_path, created_at, reason FROM backup_origin LIMIT 1').get() as
        | { database_name: string; database_path: string; created_at: string; reason: string }
        | undefined;
      if (!row) return 'unreadable';
      return { databaseName: row.database_name, databasePath: row.database_path, createdAt: row.created_at, reason: row.reason };
    });
  } catch {
    return 'unreadable';
  }
}

/** Whether a backup's inside says it is of this database (`unreadable` says nothing: the name decides). */
export function originMatches(databasePath: string, origin: OriginFound): boolean {
  if (origin === 'unreadable') return true;
  if (origin === 'legacy') return basename(databasePath) === LEGACY_DATABASE_NAME;
  return origin.databaseName === basename(databasePath);
}

const stampOf = (date: Date) => date.toISOString().replace(/[-:.]/g, '');
function dateOf(stamp: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z$/.exec(stamp)!;
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!));
}

/**
 * Makes a fresh copy one self-contained file, writes into it which database it is of (`origin`, in one row of
 * `backup_origin`, replacing the row a restored database brought along), and checks it; true when it passed. A
 * copy of a WAL database says "WAL" in its header, so every later opening would leave -wal and -shm files beside
 * it: the copy is switched to a rollback journal first. It uses nothing but its arguments, because the backup
 * worker runs it from its source text (`BACKUP_WORKER`).
 */
export function finishCopy(Sqlite: typeof Database, path: string, nativeBinding: string | null | undefined, origin: BackupOrigin): boolean {
  const options = nativeBinding ? { nativeBinding } : {};
  try {
    const copy = new Sqlite(path, { fileMustExist: true, ...options });
    try {
      if (copy.pragma('journal_mode = DELETE', { simple: true }) !== 'delete') return false;
      copy.transaction(() => {
        copy.exec(
          'DROP TABLE IF EXISTS backup_origin; ' +
            'CREATE TABLE backup_origin (database_name TEXT NOT NULL, database_path TEXT NOT NULL, created_at TEXT NOT NULL, reason TEXT NOT NULL)',
        );
        copy.prepare('INSERT INTO backup_origin VALUES (?, ?, ?, ?)').run(origin.databaseName, origin.databasePath, origin.createdAt, origin.reason);
      })();
    } finally {
      copy.close();
    }
    const check = new Sqlite(path, { readonly: true, fileMustExist: true, ...options });
    try {
      return check.pragma('quick_check', { simple: true }) === 'ok';
    } finally {
      check.close();
    }
  } catch {
    return false;
  }
}

/**
 * The backup worker: copies the database through the online backup API on a read-only connection of its own,
 * inside one read transaction (so the copy is the file as it stood when the copy began, while the app goes on
 * writing through its own connection), then finishes the copy (`finishCopy`). All of it off the app's thread: on a
 * 481 MB campaign the copy's last step (its sync) and its check took 0.6–0.8 s, which the GM's calls waited out.
 * It is stopped by asking (`state[0]`), between two steps of the copy, never terminated: a worker terminated inside
 * a call to SQLite took the process down with it. It says it is done in `state[1]`, whatever the outcome.
 */
const BACKUP_WORKER = `
const { parentPort, workerData: job } = require('node:worker_threads');
const Database = require(job.module);
const finishCopy = ${finishCopy.toString()};
const state = new Int32Array(job.state);
const stopAsked = () => Atomics.load(state, 0) === 1;
(async () => {
  const source = new Database(job.source, { readonly: true, fileMustExist: true, ...(job.nativeBinding ? { nativeBinding: job.nativeBinding } : {}) });
  try {
    source.exec('BEGIN');
    source.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
    await source.backup(job.partial, {
      progress: () => {
        if (stopAsked()) throw new Error('stopped');
        return job.pagesPerStep;
      },
    });
  } finally {
    source.close();
  }
  return stopAsked() ? false : finishCopy(Database, job.partial, job.nativeBinding, job.origin);
})()
  .then((passed) => parentPort.postMessage({ passed }), (error) => parentPort.postMessage({ failed: String((error && error.message) || error) }))
  .finally(() => {
    Atomics.store(state, 1, 1);
    Atomics.notify(state, 1);
  });
`;

/** Pages the worker copies between two looks at whether it should stop (about 4 MB, a few milliseconds). */
const WORKER_PAGES_PER_STEP = 1000;
/** How long the app, closing, waits for a worker to stop: the copy's check cannot be stopped once begun. */
const WORKER_STOP_WAIT_MS = 10_000;

/** Runs the backup worker; resolves to whether the copy passed its check. Stopping `signal` stops the worker. */
function copyOnWorker(databasePath: string, partial: string, origin: BackupOrigin, nativeBinding: string | undefined, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const state = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
    const worker = new Worker(BACKUP_WORKER, {
      eval: true,
      // The worker's code is CommonJS: a process started as `node --input-type=module -e …` would hand it that flag.
      execArgv: process.execArgv.filter((arg, i, all) => !arg.startsWith('--input-type') && all[i - 1] !== '--input-type'),
      // The same better-sqlite3 this bundle loads (each bundle and the tests have a `require`).
      workerData: { module: require.resolve('better-sqlite3'), source: databasePath, partial, origin, nativeBinding: nativeBinding ?? null, state: state.buffer, pagesPerStep: WORKER_PAGES_PER_STEP },
    });
    // Asked to stop, the worker finishes the step it is in; this thread waits for that, so that nothing the app
    // does next (closing, exiting) finds the worker inside SQLite.
    const stop = () => {
      Atomics.store(state, 0, 1);
      Atomics.wait(state, 1, 0, WORKER_STOP_WAIT_MS);
    };
    signal?.addEventListener('abort', stop, { once: true });
    worker.once('message', (answer: { passed?: boolean; failed?: string }) => {
      if (answer.failed !== undefined) reject(new Error(answer.failed));
      else resolve(answer.passed === true);
    });
    // A worker that failed to start never says it is done: nothing is left to wait for.
    worker.once('error', (error) => {
      Atomics.store(state, 1, 1);
      reject(error);
    });
    worker.once('exit', (code) => {
      Atomics.store(state, 1, 1);
      signal?.removeEventListener('abort', stop);
      reject(new Error(`The backup worker stopped (exit code ${code}).`));
    });
  });
}

const ABANDONED = 'The backup was abandoned: the app closed.';

/**
 * Copies the live database and checks the copy, on a worker thread (above). Where that fails (a runtime that
 * cannot load the SQLite module on a worker, say), the copy is made on this thread instead, through the app's
 * own connection a hundred pages per turn of the event loop (calls go on between the turns, and a write made
 * meanwhile reaches the copy too), and finished here. Stopping `signal` (the app closing) abandons the copy.
 */
export async function createBackup(db: Db, databasePath: string, now: Date, reason: string, nativeBinding?: string, signal?: AbortSignal): Promise<BackupInfo> {
  const dir = backupDir(databasePath);
  mkdirSync(dir, { recursive: true });
  const name = `${backupPrefix(databasePath)}-${stampOf(now)}-${reason}.sqlite`;
  const origin = originOf(databasePath, now, reason);
  const partial = join(dir, `${name}.partial`);
  const discard = () => {
    try {
      rmSync(partial, { force: true });
    } catch {
      // Still open, on a system that does not delete open files: a later pruning clears it once an hour old.
    }
  };
  discard();
  try {
    let passed: boolean;
    try {
      const copying = copyOnWorker(databasePath, partial, origin, nativeBinding, signal);
      // The app closing abandons the copy: its file goes once the worker has stopped (it stops first).
      signal?.addEventListener('abort', discard, { once: true });
      passed = await copying;
    } catch (error) {
      discard();
      if (signal?.aborted) throw new Error(ABANDONED);
      console.warn(`[gmw] the backup on a worker thread failed (${error instanceof Error ? error.message : String(error)}); copying on the app's thread.`);
      await db.backup(partial);
      passed = finishCopy(Database, partial, nativeBinding, origin);
    }
    if (signal?.aborted) throw new Error(ABANDONED);
    if (!passed) {
      discard();
      throw new Error('The backup copy failed its integrity check and was discarded.');
    }
    renameSync(partial, join(dir, name));
    return { name, createdAt: now.toISOString(), bytes: statSync(join(dir, name)).size, reason };
  } finally {
    signal?.removeEventListener('abort', discard);
  }
}

/**
 * This database's backups, newest first: named after it, and not saying inside that they are of another database
 * (a backup renamed by hand, or two databases whose names differ only by `.sqlite`). Looking inside opens each
 * backup read-only for one small query (well under a millisecond each).
 */
export function listBackups(databasePath: string, nativeBinding?: string): BackupInfo[] {
  const dir = backupDir(databasePath);
  if (!existsSync(dir)) return [];
  const pattern = namePattern(databasePath);
  return readdirSync(dir)
    .flatMap((name) => {
      const m = pattern.exec(name);
      if (!m || !originMatches(databasePath, readOrigin(join(dir, name), nativeBinding))) return [];
      return [{ name, createdAt: dateOf(m[1]!).toISOString(), bytes: statSync(join(dir, name)).size, reason: m[2]! }];
    })
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** The backups the retention rule keeps: the `recent` newest, plus the newest of each of the last `days` days. */
export function backupsToKeep(backups: readonly BackupInfo[], now: Date, rule = RETENTION): Set<string> {
  const newestFirst = [...backups].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const keep = new Set(newestFirst.slice(0, rule.recent).map((b) => b.name));
  const oldest = now.getTime() - rule.days * 24 * 60 * 60 * 1000;
  const seenDays = new Set<string>();
  for (const backup of newestFirst) {
    if (new Date(backup.createdAt).getTime() < oldest) continue;
    const day = backup.createdAt.slice(0, 10);
    if (!seenDays.has(day)) {
      seenDays.add(day);
      keep.add(backup.name);
    }
  }
  return keep;
}

/**
 * The checked copy of a backup that a restore puts beside the database, and then renames over it (db/restore.ts):
 * the same folder, so that the rename is one atomic step.
 */
export const restoringPath = (databasePath: string) => `${databasePath}.restoring`;

/** A copy untouched for this long was left by an app that stopped while making it. */
const PARTIAL_LEFT_AFTER_MS = 60 * 60 * 1000;

/**
 * Deletes this database's backups the retention rule does not keep, and its copies left unfinished by an app that
 * stopped while making them (untouched for an hour): a backup's `.partial`, and a restore's copy beside the
 * database (`restoringPath`); returns their names. Other databases' backups in the same folder are never counted
 * or deleted.
 */
export function pruneBackups(databasePath: string, now: Date, nativeBinding?: string): string[] {
  const dir = backupDir(databasePath);
  const backups = listBackups(databasePath, nativeBinding);
  const keep = backupsToKeep(backups, now);
  const removed = backups.filter((b) => !keep.has(b.name)).map((b) => b.name);
  if (existsSync(dir)) {
    const partial = partialPattern(databasePath);
    removed.push(...readdirSync(dir).filter((name) => partial.test(name) && now.getTime() - statSync(join(dir, name)).mtimeMs > PARTIAL_LEFT_AFTER_MS));
  }
  for (const name of removed) rmSync(join(dir, name), { force: true });
  for (const left of [restoringPath(databasePath), `${restoringPath(databasePath)}-journal`]) {
    if (existsSync(left) && now.getTime() - statSync(left).mtimeMs > PARTIAL_LEFT_AFTER_MS) {
      rmSync(left, { force: true });
      removed.push(basename(left));
    }
  }
  return removed;
}

/**
 * A backup's file path, refusing any name that is not one of this database's backups (no path tricks, no other
 * database's backups). What the copy says inside is checked by the restore (db/restore.ts), with its own sentence.
 */
export function backupPath(databasePath: string, name: string): string | null {
  return namePattern(databasePath).test(name) && existsSync(join(backupDir(databasePath), name)) ? join(backupDir(databasePath), name) : null;
}
