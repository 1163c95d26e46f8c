// Backups with SQLite's online backup API (never a raw copy of the open file), each verified with quick_check,
// kept by a retention rule: the most recent ones plus the newest of each of the last days.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Db } from './connection.ts';

export interface BackupInfo {
  name: string;
  createdAt: string;
  bytes: number;
  reason: string;
}

export const RETENTION = { recent: 10, days: 10 } as const;
const NAME = /^gm-workstation-(\d{8}T\d{6}\d{3}Z)-([a-z-]+)\.sqlite$/;

export const backupDir = (databasePath: string) => join(dirname(databasePath), 'backups');

const stampOf = (date: Date) => date.toISOString().replace(/[-:.]/g, '');
function dateOf(stamp: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z$/.exec(stamp)!;
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!));
}

/** True when the file is a readable SQLite database whose quick_check passes. */
export function verifyDatabaseFile(path: string, nativeBinding?: string): boolean {
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    try {
      return db.pragma('quick_check', { simple: true }) === 'ok';
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/**
 * A copy of a WAL database says "WAL" in its header, so every later opening would leave -wal and -shm files beside
 * it: switch the copy to a rollback journal so a backup is one self-contained file.
 */
function selfContained(path: string, nativeBinding?: string): void {
  const copy = new Database(path, { fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** Copies the live database page by page through the online backup API, then verifies the copy. */
export async function createBackup(db: Db, databasePath: string, now: Date, reason: string, nativeBinding?: string): Promise<BackupInfo> {
  const dir = backupDir(databasePath);
  mkdirSync(dir, { recursive: true });
  const name = `gm-workstation-${stampOf(now)}-${reason}.sqlite`;
  const partial = join(dir, `${name}.partial`);
  rmSync(partial, { force: true });
  await db.backup(partial);
  selfContained(partial, nativeBinding);
  if (!verifyDatabaseFile(partial, nativeBinding)) {
    rmSync(partial, { force: true });
    throw new Error('The backup copy failed its integrity check and was discarded.');
  }
  renameSync(partial, join(dir, name));
  return { name, createdAt: now.toISOString(), bytes: statSync(join(dir, name)).size, reason };
}

export function listBackups(databasePath: string): BackupInfo[] {
  const dir = backupDir(databasePath);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((name) => {
      const m = NAME.exec(name);
      return m ? [{ name, createdAt: dateOf(m[1]!).toISOString(), bytes: statSync(join(dir, name)).size, reason: m[2]! }] : [];
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

/** Deletes the backups the retention rule does not keep; returns their names. */
export function pruneBackups(databasePath: string, now: Date): string[] {
  const backups = listBackups(databasePath);
  const keep = backupsToKeep(backups, now);
  const removed = backups.filter((b) => !keep.has(b.name)).map((b) => b.name);
  for (const name of removed) rmSync(join(backupDir(databasePath), name), { force: true });
  return removed;
}

/** A backup's file path, refusing anything that is not one of ours (no path tricks). */
export function backupPath(databasePath: string, name: string): string | null {
  return NAME.test(name) && existsSync(join(backupDir(databasePath), name)) ? join(backupDir(databasePath), name) : null;
}
