// Looking at a database file without changing its folder. A read-only connection to a WAL database makes an empty
// -wal and an -shm beside it (SQLite needs them to read); a look that leaves them behind has changed the folder of a
// file that may not even be ours. Every read-only look (identification, health check, backup checks) goes through
// here, and so does gmw's refused open.
import Database from 'better-sqlite3';
import { existsSync, rmSync, statSync } from 'node:fs';

/**
 * Notes which of `<path>-wal` and `<path>-shm` are absent now; the returned function removes the ones that appeared
 * since, unless the -wal that appeared holds frames (then something wrote a journal, which is never thrown away).
 */
export function sidecarsMadeFrom(path: string): () => void {
  const wal = `${path}-wal`;
  const made = [wal, `${path}-shm`].filter((file) => !existsSync(file));
  return () => {
    if (made.includes(wal) && existsSync(wal) && statSync(wal).size > 0) return;
    for (const file of made) rmSync(file, { force: true });
  };
}

/** Opens `path` read-only, runs `look` on it, closes it and leaves the folder as it found it. Throws what opening throws. */
export function lookReadOnly<T>(path: string, nativeBinding: string | undefined, look: (db: Database.Database) => T): T {
  const leave = sidecarsMadeFrom(path);
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    return look(db);
  } finally {
    db?.close();
    leave();
  }
}

/** True when the file is there, not empty, opens as a database and passes quick_check; it leaves nothing behind. */
export function isGoodDatabaseFile(path: string, nativeBinding?: string): boolean {
  try {
    if (!existsSync(path) || statSync(path).size === 0) return false;
    return lookReadOnly(path, nativeBinding, (db) => db.pragma('quick_check', { simple: true }) === 'ok');
  } catch {
    return false;
  }
}
