// Which file the app was pointed at, found out read-only before anything writes to it: a GM Workstation database
// (of this version, an older or a newer one), a new one (nothing there yet), or somebody else's. Opening a file
// read-write is already a change: SQLite rewrites the header to switch it to WAL, and the migrations add tables.
// So the app identifies first, and refuses anything that is not its own with one sentence, leaving the file (and
// the folder around it) byte for byte as it was. See docs/reliability.md "Files that are not ours".
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { NewerSchemaError } from './migrate.ts';
import { lookReadOnly } from './read-only.ts';
import { MIGRATIONS } from './migrations/index.ts';

export type FileIdentity =
  /** No file at the path: the app will create it. */
  | { kind: 'absent' }
  /** A file of 0 bytes (whoever made it wrote nothing). */
  | { kind: 'empty' }
  /** A valid SQLite file with no tables, views, triggers or indexes: nothing in it to keep apart from ours. */
  | { kind: 'blank' }
  | { kind: 'ours'; version: number }
  | { kind: 'newer'; version: number; newest: number }
  /** Another program's database, with the names of its tables (views and triggers when it has no table). */
  | { kind: 'foreign'; names: string[] }
  /** Not readable as a database (a garbled header, broken pages): the health check says which damage it is. */
  | { kind: 'unreadable'; detail: string };

/** The newest schema this version writes. */
export const NEWEST_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/** A file the app refuses to open because it belongs to another program; the message is the sentence. */
export class NotOurDatabaseError extends Error {
  override name = 'NotOurDatabaseError';
  /** Its message is a sentence for the GM (server/failure-sentences.ts): shown as it is by every transport. */
  readonly gmSentence = true;
  constructor(readonly databasePath: string, readonly names: readonly string[]) {
    super(notOursSentence(databasePath, names));
  }
}

function notOursSentence(databasePath: string, names: readonly string[]): string {
  const shown = names.slice(0, 3).join(', ') + (names.length > 3 ? ', …' : '');
  const holds = names.length === 0 ? '' : ` (it holds ${names.length === 1 ? 'a table' : 'tables'} named ${shown})`;
  return `${databasePath} is not a GM Workstation database${holds}; GM Workstation leaves it unchanged. Choose another file with --db.`;
}

/** SQLite's own error code, from better-sqlite3's SqliteError. */
const sqliteCode = (error: unknown) => String((error as { code?: unknown } | undefined)?.code ?? '');

/** Throws the refusal for a file that is not ours (or newer); returns the identity otherwise. */
export function refuseUnlessOurs(databasePath: string, identity: FileIdentity): FileIdentity {
  if (identity.kind === 'foreign') throw new NotOurDatabaseError(databasePath, identity.names);
  if (identity.kind === 'newer') throw new NewerSchemaError(identity.version, identity.newest);
  return identity;
}

/**
 * Identifies the file at `path` as SQLite would show it to the app: with its -wal applied when there is one.
 * Read-only; a read-only connection to a WAL database leaves an empty -wal and an -shm behind, which are taken
 * away again (only the ones this made: one it made has no frames, as read-only connections cannot write).
 */
export function identifyDatabaseFile(path: string, nativeBinding?: string): FileIdentity {
  if (path === ':memory:' || !existsSync(path)) return { kind: 'absent' };
  if (statSync(path).size === 0) return { kind: 'empty' };
  try {
    return lookReadOnly(path, nativeBinding, identityOf);
  } catch (error) {
    const code = sqliteCode(error);
    if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_IOERR_SHORT_READ') {
      return { kind: 'unreadable', detail: error instanceof Error ? error.message : String(error) };
    }
    throw error;
  }
}

/**
 * The database file alone, without the -wal beside it: a copy in a temporary folder is identified (SQLite always
 * reads a -wal that sits beside a file, and renaming somebody's -wal away, even for a moment, would be a change).
 * Only needed when the file with its -wal does not look like ours, which is rare, so the copy's cost is fine.
 */
export function identifyWithoutWal(path: string, nativeBinding?: string): FileIdentity {
  if (!existsSync(path)) return { kind: 'absent' };
  const folder = mkdtempSync(join(tmpdir(), 'gmw-identify-'));
  try {
    const copy = join(folder, basename(path));
    copyFileSync(path, copy);
    return identifyDatabaseFile(copy, nativeBinding);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** What the open connection holds: ours when schema_migrations lists our migrations by version and name. */
export function identityOf(db: Database.Database): FileIdentity {
  const objects = db.prepare("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").all() as { type: string; name: string }[];
  const tables = objects.filter((o) => o.type === 'table').map((o) => o.name);
  const others = objects.filter((o) => o.type === 'view' || o.type === 'trigger').map((o) => o.name);
  if (tables.includes('schema_migrations')) {
    const applied = appliedMigrations(db);
    if (applied && applied.length > 0) {
      const known = new Map(MIGRATIONS.map((m) => [m.version, m.name]));
      const matches = applied.filter((m) => m.version <= NEWEST_VERSION).every((m) => known.get(m.version) === m.name);
      const version = Math.max(...applied.map((m) => m.version));
      if (matches && version > NEWEST_VERSION) return { kind: 'newer', version, newest: NEWEST_VERSION };
      if (matches) return { kind: 'ours', version };
    }
    // An empty schema_migrations and nothing else is what a first start that failed before its first migration
    // leaves: still new. Beside other tables it proves nothing.
    if (applied && applied.length === 0 && tables.length === 1 && others.length === 0) return { kind: 'blank' };
  }
  if (objects.length === 0) return { kind: 'blank' };
  const names = tables.length > 0 ? tables : others.length > 0 ? others : objects.map((o) => o.name);
  return { kind: 'foreign', names: names.sort((a, b) => a.localeCompare(b)) };
}

/** The rows of schema_migrations, or null when the table is not shaped like ours (Rails has one with `version` only). */
function appliedMigrations(db: Database.Database): { version: number; name: string }[] | null {
  try {
    const rows = db.prepare('SELECT version, name FROM schema_migrations').all() as { version: unknown; name: unknown }[];
    if (!rows.every((row) => Number.isInteger(row.version) && typeof row.name === 'string')) return null;
    return rows as { version: number; name: string }[];
  } catch {
    return null;
  }
}
