// Opening the one SQLite file: pragmas set and asserted on every connection, then migrations.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate } from './migrate.ts';

export type Db = Database.Database;

/**
 * A prepared statement kept per connection and SQL text: better-sqlite3 compiles the SQL on every `prepare`, which
 * cost a sixth of a GM event's append. Statements here are used with run/get/all only (never iterate, raw or pluck,
 * which would change or hold the shared statement).
 */
const statements = new WeakMap<Db, Map<string, Database.Statement>>();
export function prepared(db: Db, sql: string): Database.Statement {
  return cachedStatement(statements, db, sql, false);
}

/**
 * `prepared` in raw mode: rows come as arrays of the selected columns, in order. For the bulk reads of a long
 * campaign (a character's thousand records), where better-sqlite3's building of one object per row took twice as
 * long as the read; the caller builds its own objects. Used with all/get only, like `prepared`.
 */
const rawStatements = new WeakMap<Db, Map<string, Database.Statement>>();
export function preparedRaw(db: Db, sql: string): Database.Statement {
  return cachedStatement(rawStatements, db, sql, true);
}

function cachedStatement(caches: WeakMap<Db, Map<string, Database.Statement>>, db: Db, sql: string, raw: boolean): Database.Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) cache.set(sql, (statement = raw ? db.prepare(sql).raw(true) : db.prepare(sql)));
  return statement;
}

export interface OpenOptions {
  /** Path to an Electron-ABI build of better-sqlite3 (the app); Node's own build otherwise. */
  nativeBinding?: string;
  /** Skip migrations (the migration tests drive them by hand). */
  migrate?: boolean;
}

/**
 * WAL for crash safety and concurrent reads; synchronous FULL so a committed GM event survives a power cut, not
 * only a crash (the app writes one small event at a time, so the extra fsync is cheap); foreign keys on; a busy
 * timeout so a second process waits instead of failing.
 */
export const PRAGMAS = { journal_mode: 'wal', foreign_keys: 1, busy_timeout: 5000, synchronous: 2 } as const;

export function openDatabase(path: string, options: OpenOptions = {}): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    db.pragma(`journal_mode = ${PRAGMAS.journal_mode}`);
    db.pragma(`foreign_keys = ${PRAGMAS.foreign_keys}`);
    db.pragma(`busy_timeout = ${PRAGMAS.busy_timeout}`);
    db.pragma(`synchronous = ${PRAGMAS.synchronous}`);
    assertPragmas(db, path === ':memory:');
    if (options.migrate !== false) migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export function assertPragmas(db: Db, inMemory = false): void {
  const read = (name: string) => db.pragma(name, { simple: true });
  const mode = read('journal_mode');
  if (!inMemory && mode !== PRAGMAS.journal_mode) throw new Error(`The database could not switch to WAL (journal_mode is ${String(mode)}).`);
  if (read('foreign_keys') !== PRAGMAS.foreign_keys) throw new Error('Foreign keys could not be enabled.');
  if (read('busy_timeout') !== PRAGMAS.busy_timeout) throw new Error('The busy timeout could not be set.');
  if (read('synchronous') !== PRAGMAS.synchronous) throw new Error('The synchronous level could not be set.');
}

/** One transaction function per connection, which runs whatever it is given (see writeTransaction). */
const runners = new WeakMap<Db, Database.Transaction<(work: () => unknown) => unknown>>();

/**
 * Runs `work` in one BEGIN IMMEDIATE transaction: all of it is committed, or none of it. Inside another
 * transaction it runs in a savepoint. The transaction function is made once per connection: better-sqlite3 builds
 * four wrappers for each one.
 */
export function writeTransaction<T>(db: Db, work: () => T): T {
  let run = runners.get(db);
  if (!run) runners.set(db, (run = db.transaction((inner: () => unknown) => inner())));
  return run.immediate(work) as T;
}
