import type { Db } from './connection.ts';
import { MIGRATIONS, type Migration } from './migrations/index.ts';

/** A database written by a newer version: refused untouched, with a sentence for the GM (server/failure-sentences.ts). */
export class NewerSchemaError extends Error {
  override name = 'NewerSchemaError';
  readonly gmSentence = true;
  constructor(readonly schema: number, readonly known: number) {
    super(newerSentence(schema, known));
  }
}

/** The one sentence for a newer database, said alike when it is identified (db/identify.ts) and when it migrates. */
export function newerSentence(version: number, newest: number): string {
  return `This database was written by a newer GM Workstation (schema ${version}; this version knows ${newest}). Update the app to open it.`;
}

export function currentVersion(db: Db): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`);
  const row = db.prepare('SELECT max(version) AS version FROM schema_migrations').get() as { version: number | null };
  return row.version ?? 0;
}

/** Applies every migration newer than the database, each in its own immediate transaction. */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): number {
  const from = currentVersion(db);
  const newest = migrations.at(-1)?.version ?? 0;
  if (from > newest) {
    throw new NewerSchemaError(from, newest);
  }
  for (const migration of migrations) {
    if (migration.version <= from) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version, migration.name, new Date().toISOString());
    }).immediate();
  }
  return newest;
}
