// A database file big enough that its backup takes a while, and when the backup of it has begun: for the tests of
// calls made during a backup.
import Database from 'better-sqlite3';
import { existsSync, readdirSync } from 'node:fs';
import { backupDir } from '../../db/backup.ts';

/** About 1,200 pages of filler in the file, so that a backup of it takes a while. */
export function fillWithPages(databasePath: string): void {
  const raw = new Database(databasePath);
  raw.exec("CREATE TABLE pages_to_copy (filler BLOB); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200) INSERT INTO pages_to_copy SELECT randomblob(3500) FROM n");
  raw.close();
}

/** Resolves once a backup's partial copy is in the backups folder. */
export async function copyBegun(databasePath: string): Promise<void> {
  const dir = backupDir(databasePath);
  while (!(existsSync(dir) && readdirSync(dir).some((name) => name.endsWith('.partial')))) await new Promise((resolve) => setImmediate(resolve));
}

export function rowsOf(path: string, sql: string, ...args: unknown[]): unknown[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(sql).all(...args);
  } finally {
    db.close();
  }
}
