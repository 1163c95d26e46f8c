// A file that is not ours is never changed: the app identifies the file read-only before its first write, and
// refuses another program's database, a file with a `campaigns` table of its own and a newer GM Workstation's
// database with one sentence. Each case on a real file, through every way in: the desktop start (openApp as
// electron/main.ts calls it), web mode and gmw as real processes; the file's sha256 and the folder's listing are
// compared before and after.
import Database from 'better-sqlite3';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openApp } from '../server/app.ts';
import { openDatabase } from './connection.ts';
import { loadFixture } from './fixtures/fixture-db.ts';
import { NEWEST_VERSION, NotOurDatabaseError, identifyDatabaseFile } from './identify.ts';
import { NewerSchemaError } from './migrate.ts';
import { tempDir, type TempDir } from './testing/temp-db.ts';

let dir: TempDir;
beforeEach(() => {
  dir = tempDir('gmw-identify-');
});
afterEach(() => dir.remove());

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const listing = () => readdirSync(dir.path).sort();

/** Another program's file: one `notes` table, in SQLite's default rollback-journal mode. */
function notesFile(): string {
  const path = dir.file('notes.sqlite');
  const db = new Database(path);
  db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('buy milk'), ('call the dwarf')");
  db.close();
  return path;
}

/** Another program's file that happens to have a `campaigns` table (and others). */
function ownCampaignsFile(): string {
  const path = dir.file('wargame.sqlite');
  const db = new Database(path);
  db.exec(`CREATE TABLE campaigns (id INTEGER PRIMARY KEY, title TEXT);
    CREATE TABLE armies (id INTEGER PRIMARY KEY, campaign INTEGER);
    INSERT INTO campaigns (title) VALUES ('Waterloo')`);
  db.close();
  return path;
}

/** Our database at a schema newer than this version knows, switched back to a rollback journal (no -wal). */
function newerFile(): string {
  const path = dir.file('newer.sqlite');
  const db = openDatabase(path);
  db.prepare("INSERT INTO campaigns (id, name, ruleset_id, created_at, updated_at) VALUES ('c1', 'The Vault', 'enigma', 'now', 'now')").run();
  db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(NEWEST_VERSION + 1, 'from the future', '2031-01-01T00:00:00.000Z');
  db.pragma('journal_mode = delete');
  db.close();
  expect(readFileSync(path)[18]).toBe(1); // the header's read version: rollback journal
  return path;
}

const NOT_OURS = {
  notes: { make: notesFile, sentence: (path: string) => `${path} is not a GM Workstation database (it holds a table named notes); GM Workstation leaves it unchanged. Choose another file with --db.` },
  'its own campaigns table': { make: ownCampaignsFile, sentence: (path: string) => `${path} is not a GM Workstation database (it holds tables named armies, campaigns); GM Workstation leaves it unchanged. Choose another file with --db.` },
  'a newer schema in rollback-journal mode': { make: newerFile, sentence: () => `This database was written by a newer GM Workstation (schema ${NEWEST_VERSION + 1}; this version knows ${NEWEST_VERSION}). Update the app to open it.` },
} as const;
const CASES = Object.keys(NOT_OURS) as (keyof typeof NOT_OURS)[];

describe('identifying a file read-only', () => {
  it('tells new, ours (older or current), newer and foreign apart', () => {
    expect(identifyDatabaseFile(dir.file('none.sqlite'))).toEqual({ kind: 'absent' });
    const blank = dir.file('blank.sqlite');
    new Database(blank).pragma('user_version = 0');
    expect(identifyDatabaseFile(blank)).toEqual({ kind: 'blank' });
    const older = dir.file('v1.sqlite');
    loadFixture(1, older);
    expect(identifyDatabaseFile(older)).toEqual({ kind: 'ours', version: 1 });
    const current = dir.file('current.sqlite');
    openDatabase(current).close();
    expect(identifyDatabaseFile(current)).toEqual({ kind: 'ours', version: NEWEST_VERSION });
    expect(identifyDatabaseFile(newerFile())).toEqual({ kind: 'newer', version: NEWEST_VERSION + 1, newest: NEWEST_VERSION });
    expect(identifyDatabaseFile(notesFile())).toEqual({ kind: 'foreign', names: ['notes'] });
    expect(identifyDatabaseFile(ownCampaignsFile())).toEqual({ kind: 'foreign', names: ['armies', 'campaigns'] });
  });

  it('a schema_migrations table that is not ours (Rails keeps one with a version column only) is foreign', () => {
    const path = dir.file('rails.sqlite');
    const db = new Database(path);
    db.exec("CREATE TABLE schema_migrations (version TEXT PRIMARY KEY); INSERT INTO schema_migrations VALUES ('20240101000000'); CREATE TABLE posts (id INTEGER)");
    db.close();
    expect(identifyDatabaseFile(path)).toEqual({ kind: 'foreign', names: ['posts', 'schema_migrations'] });
  });

  it("another program's WAL-mode file is identified without leaving a -wal or -shm beside it", () => {
    const path = dir.file('wal-notes.sqlite');
    const db = new Database(path);
    db.pragma('journal_mode = wal');
    db.exec('CREATE TABLE notes (body TEXT)');
    db.close();
    const before = { sha: sha256(path), files: listing() };
    expect(identifyDatabaseFile(path)).toEqual({ kind: 'foreign', names: ['notes'] });
    expect({ sha: sha256(path), files: listing() }).toEqual(before);
  });
});

describe.each(CASES)('a file that is not ours (%s) is refused and left unchanged', (name) => {
  const { make, sentence } = NOT_OURS[name];

  it('by the desktop start (openApp over IPC with the desktop lock)', () => {
    const path = make();
    const before = { sha: sha256(path), files: listing() };
    let thrown: unknown;
    try {
      openApp({ databasePath: path, transport: 'ipc', version: 'test', autoBackup: true, lock: 'desktop', backfill: true }).close();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(name === 'a newer schema in rollback-journal mode' ? NewerSchemaError : NotOurDatabaseError);
    expect((thrown as Error).message).toBe(sentence(path));
    expect({ sha: sha256(path), files: listing() }).toEqual(before);
  });

  it('by openApp for web mode and the CLI, again and again', () => {
    const path = make();
    const before = { sha: sha256(path), files: listing() };
    for (const transport of ['web', 'cli', 'web'] as const) {
      expect(() => openApp({ databasePath: path, transport, version: 'test', lock: transport })).toThrow(sentence(path));
    }
    expect({ sha: sha256(path), files: listing() }).toEqual(before);
  });
});

describe('the built programs on a file that is not ours', () => {
  const root = join(import.meta.dirname, '..');
  beforeAll(() => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--node-only', '--quiet'], { cwd: root, stdio: 'inherit' });
  }, 120_000);
  const webMode = (path: string) =>
    spawnSync(process.execPath, ['--input-type=module', '-e', `const { runWebMode } = await import(${JSON.stringify(pathToFileURL(join(root, 'scripts/web-server.mjs')).href)}); await runWebMode(['--db', ${JSON.stringify(path)}, '--port', '0']);`], { cwd: dir.path, encoding: 'utf8', timeout: 30_000 });
  const gmw = (args: string[]) => spawnSync(process.execPath, [join(root, 'dist/cli/gmw.cjs'), ...args], { cwd: dir.path, encoding: 'utf8', env: { ...process.env, GMW_DB: '' }, timeout: 30_000 });

  it.each(CASES)('web mode (%s): says why, exits, and the file and folder are as they were', { timeout: 60_000 }, (name) => {
    const path = NOT_OURS[name].make();
    const before = { sha: sha256(path), files: listing() };
    const run = webMode(path);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(NOT_OURS[name].sentence(path));
    expect({ sha: sha256(path), files: listing() }).toEqual(before);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it.each(CASES)('gmw demo and campaigns:create (%s): exit 4, and the file and folder are as they were', { timeout: 60_000 }, (name) => {
    const path = NOT_OURS[name].make();
    const before = { sha: sha256(path), files: listing() };
    for (const args of [['demo', '--db', path], ['campaigns:create', '{"name":"The Vault","rulesetId":"enigma"}', '--db', path]]) {
      const run = gmw(args);
      expect(run.status, run.stderr).toBe(4);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/not a GM Workstation database|newer GM Workstation/);
      expect({ sha: sha256(path), files: listing() }).toEqual(before);
    }
  });
});
