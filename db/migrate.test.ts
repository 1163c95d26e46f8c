// Migrations against a fixture database of every schema version (db/fixtures/vN.sql): each is migrated to the
// newest version and must end with a fresh database's schema, every row it had, clean foreign keys and integrity,
// and work through the app. A migration that fails part-way leaves the database at the version it had.
//
// Adding a migration N: add db/migrations/NNNN_name.sql and its entry in db/migrations/index.ts, then run
// `node scripts/make-fixtures.mjs`. It writes db/fixtures/vN.sql only (older fixtures stay as released versions
// wrote them); if the new version stores something the fixture campaigns do not exercise yet, add it to
// db/fixtures/generate.ts first. Commit vN.sql with the migration. The tests below then run for version N too and
// fail while any version lacks its fixture.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CampaignDetail, CampaignSummary, EncounterDetail } from '../core/api/contract.ts';
import { openApp, type AppService } from '../server/app.ts';
import { openDatabase, type Db } from './connection.ts';
import { fixturePath, loadFixture, quoteName } from './fixtures/fixture-db.ts';
import { currentVersion, migrate } from './migrate.ts';
import { MIGRATIONS, type Migration } from './migrations/index.ts';
import { tempDir, type TempDir } from './testing/temp-db.ts';

const NEWEST = MIGRATIONS.at(-1)!.version;
const VERSIONS = MIGRATIONS.map((m) => m.version);
const showFigures = process.env['GMW_FIGURES'] === '1';

let dir: TempDir;
beforeEach(() => {
  dir = tempDir('gmw-migrate-');
});
afterEach(() => dir.remove());

/** A database file holding fixture `version` (0: an empty file), opened without migrating. */
function openFixture(version: number, name = `v${version}.sqlite`): { path: string; db: Db } {
  const path = dir.file(name);
  if (version > 0) loadFixture(version, path);
  return { path, db: openDatabase(path, { migrate: false }) };
}

/** A new database built by the migrations up to `version`. */
function freshDatabase(version: number): Db {
  const db = openDatabase(dir.file(`fresh-${version}.sqlite`), { migrate: false });
  migrate(db, MIGRATIONS.filter((m) => m.version <= version));
  return db;
}

const tableNames = (db: Db) =>
  (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as { name: string }[]).map((r) => r.name);

/**
 * The schema as SQLite understands it, per table: its kind (strict, without rowid), columns, indexes with their
 * columns, and foreign keys. Raw CREATE text is not compared: ALTER TABLE ADD COLUMN splices the column into the
 * stored CREATE text, so a migrated table's text can differ from a fresh CREATE of the same table. (CHECK
 * constraints have no pragma; they travel in that text and are exercised by the app tests.) Views and triggers,
 * which have no pragma either, are compared by their text.
 */
function schemaOf(db: Db) {
  const pragma = (name: string, arg: string) => db.pragma(`${name}(${quoteName(arg)})`) as Record<string, unknown>[];
  const tables = tableNames(db).map((table) => ({
    table,
    kind: pragma('table_list', table).map(({ type, ncol, wr, strict }) => ({ type, ncol, wr, strict })),
    columns: pragma('table_info', table),
    indexes: pragma('index_list', table)
      .map(({ name, unique, origin, partial }) => ({ name, unique, origin, partial, columns: pragma('index_xinfo', String(name)) }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name))),
    foreignKeys: pragma('foreign_key_list', table),
  }));
  const viewsAndTriggers = db.prepare(`SELECT type, name, sql FROM sqlite_master WHERE type IN ('view', 'trigger') ORDER BY name`).all();
  return { tables, viewsAndTriggers };
}

/** Every row of every table, in primary-key order, as JSON: only the columns the table had then. */
function contents(db: Db): Record<string, string> {
  const out: Record<string, string> = {};
  for (const table of tableNames(db)) {
    const columns = db.pragma(`table_info(${quoteName(table)})`) as { name: string; pk: number }[];
    const keys = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => quoteName(c.name));
    out[table] = JSON.stringify({
      columns: columns.map((c) => c.name),
      rows: db.prepare(`SELECT ${columns.map((c) => quoteName(c.name)).join(', ')} FROM ${quoteName(table)} ORDER BY ${keys.join(', ') || 'rowid'}`).raw().all(),
    });
  }
  return out;
}

/** The rows of the columns in `before` (a table's columns at the older version), read from `db` now. */
function rowsOfColumns(db: Db, before: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [table, json] of Object.entries(before)) {
    const { columns } = JSON.parse(json) as { columns: string[] };
    const keys = (db.pragma(`table_info(${quoteName(table)})`) as { name: string; pk: number }[]).filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => quoteName(c.name));
    out[table] = JSON.stringify({
      columns,
      rows: db.prepare(`SELECT ${columns.map(quoteName).join(', ')} FROM ${quoteName(table)} ORDER BY ${keys.join(', ') || 'rowid'}`).raw().all(),
    });
  }
  return out;
}

function rowCounts(db: Db): Record<string, number> {
  return Object.fromEntries(tableNames(db).map((t) => [t, (db.prepare(`SELECT count(*) AS n FROM ${quoteName(t)}`).get() as { n: number }).n]));
}

function expectSound(db: Db): void {
  expect(db.pragma('foreign_key_check')).toEqual([]);
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
}

/**
 * Splits a migration into its statements (comments dropped; semicolons inside quotes kept). A migration with a
 * trigger (BEGIN … END) would be cut inside its body: the injected-failure test then fails on a syntax error
 * and this splitter must learn to keep such a body whole.
 */
function statementsOf(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i += 1) {
    const ch = sql[i]!;
    if (quote) {
      current += ch;
      if (ch === quote) quote = null;
    } else if (ch === '-' && sql[i + 1] === '-') {
      while (i < sql.length && sql[i] !== '\n') i += 1;
      current += '\n';
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      current += ch;
    } else if (ch === ';') {
      if (current.trim()) statements.push(current.trim());
      current = '';
    } else {
      current += ch;
    }
  }
  if (current.trim()) statements.push(current.trim());
  return statements;
}

async function ok<T>(app: AppService, name: string, input: unknown): Promise<T> {
  const envelope = await app.dispatch(name, input);
  if ('error' in envelope) throw new Error(`${name}: ${envelope.error.message}`);
  return envelope.result as T;
}

describe('migration fixtures', () => {
  it('every schema version has a fixture that is exactly that version', () => {
    for (const version of VERSIONS) {
      expect(existsSync(fixturePath(version)), `db/fixtures/v${version}.sql is missing: run node scripts/make-fixtures.mjs`).toBe(true);
      const { db } = openFixture(version);
      const fresh = freshDatabase(version);
      expect(currentVersion(db)).toBe(version);
      expect(schemaOf(db)).toEqual(schemaOf(fresh));
      expectSound(db);
      db.close();
      fresh.close();
    }
  });

  it('the fixtures hold the rows each version stores', () => {
    const expectations: Record<number, string[]> = {
      1: ['campaigns', 'characters', 'encounters', 'encounter_events', 'encounter_redo', 'encounter_snapshots'],
      2: ['injuries', 'encounter_carry'],
      3: ['sessions', 'ledger_entries'],
      4: ['ledger_records'],
    };
    for (const version of VERSIONS) {
      const { db } = openFixture(version);
      const counts = rowCounts(db);
      for (const table of Object.values(expectations).slice(0, version).flat()) expect(counts[table], `v${version} ${table}`).toBeGreaterThan(0);
      const rulesets = db.prepare('SELECT count(DISTINCT ruleset_id) AS n FROM campaigns').get() as { n: number };
      // Version 12's fixture was the first written with Any system registered: its demo is there too.
      expect(rulesets.n).toBe(version >= 12 ? 6 : 5);
      db.close();
    }
  });
});

describe.each(VERSIONS)('a version %i database migrated to the newest version', (version) => {
  it('has the fresh schema, every row it had, clean foreign keys and integrity', () => {
    const { db } = openFixture(version);
    const countsBefore = rowCounts(db);
    const before = contents(db);
    const started = performance.now();
    expect(migrate(db)).toBe(NEWEST);
    const took = performance.now() - started;
    if (showFigures) console.log(`[figures] v${version} → v${NEWEST}: ${took.toFixed(1)} ms, ${Object.values(countsBefore).reduce((a, b) => a + b, 0)} rows`);

    const fresh = freshDatabase(NEWEST);
    expect(schemaOf(db)).toEqual(schemaOf(fresh));
    fresh.close();
    const countsAfter = rowCounts(db);
    for (const [table, count] of Object.entries(countsBefore)) {
      expect(countsAfter[table], table).toBe(table === 'schema_migrations' ? NEWEST : count);
    }
    const { schema_migrations: _versions, ...kept } = before;
    expect(rowsOfColumns(db, kept)).toEqual(kept);
    expectSound(db);
    // Every encounter belongs to a session (decisions.md, the campaign ledger); 0003 gives older ones a first session.
    expect(db.prepare('SELECT count(*) AS n FROM encounters WHERE session_id IS NULL').get()).toEqual({ n: 0 });
    // 0004: ledger_records names exactly the `record:` keys of every entry's after-image.
    const fromImages = db.prepare(`SELECT l.campaign_id, l.seq, substr(j.key, 8) AS record_id FROM ledger_entries l, json_each(l.after_json) j
      WHERE j.key LIKE 'record:%' ORDER BY 1, 2, 3`).all();
    expect(db.prepare('SELECT campaign_id, seq, record_id FROM ledger_records ORDER BY 1, 2, 3').all()).toEqual(fromImages);
    if (version >= 3) expect(fromImages.length).toBeGreaterThan(0);
    // 0017: every record keeps the seqs of the entries that changed it, in order, exactly those ledger_records names.
    const named = db.prepare(`SELECT i.id, group_concat(r.seq, ',' ORDER BY r.seq) AS seqs FROM injuries i
      LEFT JOIN ledger_records r ON r.campaign_id = i.campaign_id AND r.record_id = i.id GROUP BY i.id ORDER BY i.id`).all();
    expect(db.prepare('SELECT id, treatment_seqs AS seqs FROM injuries ORDER BY id').all()).toEqual(named);
    if (version >= 4) expect(named.filter((r) => (r as { seqs: string | null }).seqs !== null).length).toBeGreaterThan(0);
    // 0005: every injury with a cause keeps its cause's first log line, exactly the line its event holds.
    const causes = db.prepare(`SELECT i.id, i.source_text AS kept, json_extract(v.log_json, '$[0].text') AS line FROM injuries i
      JOIN encounter_events v ON v.encounter_id = i.source_encounter_id AND v.seq = i.source_seq`).all() as { kept: string | null; line: string }[];
    if (version >= 2) expect(causes.length).toBeGreaterThan(0);
    for (const cause of causes) expect(cause.kept).toBe(cause.line);
    db.close();
  });

  it('works through the app: lists campaigns, opens every encounter and resumes the running fight', async () => {
    const { path, db } = openFixture(version);
    const encounters = db.prepare('SELECT id, name, event_count, phase FROM encounters ORDER BY id').all() as { id: string; name: string; event_count: number; phase: string }[];
    const campaignCount = (db.prepare('SELECT count(*) AS n FROM campaigns WHERE archived_at IS NULL').get() as { n: number }).n;
    db.close();

    let app = openApp({ databasePath: path, transport: 'cli', version: 'test' });
    try {
      const campaigns = await ok<CampaignSummary[]>(app, 'campaigns:list', {});
      expect(campaigns).toHaveLength(campaignCount);
      for (const campaign of campaigns) {
        const detail = await ok<CampaignDetail>(app, 'campaigns:get', { id: campaign.id });
        if (detail.encounters.length) expect(detail.sessions.length).toBeGreaterThan(0);
      }
      for (const row of encounters) {
        const detail = await ok<EncounterDetail>(app, 'encounters:get', { id: row.id });
        expect(detail.encounter.eventCount).toBe(row.event_count);
        expect(detail.view.phase).toBe(row.phase);
        expect(detail.log.length).toBeGreaterThan(0);
      }

      // The long fight resumes from its snapshot after event 50 plus the events after it, with its redo stack.
      const watch = encounters.find((e) => e.name === 'The long watch')!;
      const resumed = await ok<EncounterDetail>(app, 'encounters:get', { id: watch.id });
      expect(resumed.view.phase).toBe('running');
      expect(resumed.canRedo).toBe(true);
      const redone = await ok<EncounterDetail>(app, 'encounters:redo', { id: watch.id });
      expect(redone.encounter.eventCount).toBe(watch.event_count + 1);
      const undone = await ok<EncounterDetail>(app, 'encounters:undo', { id: watch.id });
      expect(undone.view).toEqual(resumed.view);

      // After a restart the same fight reads the same from disk.
      app.close();
      app = openApp({ databasePath: path, transport: 'cli', version: 'test' });
      const reopened = await ok<EncounterDetail>(app, 'encounters:get', { id: watch.id });
      expect(reopened.view).toEqual(resumed.view);
      expect(reopened.encounter.eventCount).toBe(watch.event_count);
    } finally {
      app.close();
    }
  });
});

describe('a migration that fails part-way leaves the database at its old version', () => {
  /** Version, row contents and schema: what must be the same after a failed migration. */
  const stateOf = (db: Db) => ({ version: currentVersion(db), contents: contents(db), schema: schemaOf(db) });

  it('a broken migration after the real ones rolls back everything it did', () => {
    const broken: Migration = {
      version: NEWEST + 1, name: 'broken',
      sql: `CREATE TABLE weather (campaign_id TEXT NOT NULL REFERENCES campaigns(id), sky TEXT NOT NULL) STRICT;
        INSERT INTO weather SELECT id, 'rain' FROM campaigns;
        ALTER TABLE characters ADD COLUMN mood TEXT;
        UPDATE campaigns SET name = name || ' (rained out)';
        UPDATE no_such_table SET sky = 'clear';`,
    };
    const { db } = openFixture(NEWEST);
    const before = stateOf(db);
    expect(() => migrate(db, [...MIGRATIONS, broken])).toThrow(/no such table: no_such_table/);
    expect(stateOf(db)).toEqual(before);
    expectSound(db);
    db.close();

    // From an older fixture the real migrations each commit on their own; the broken one after them leaves the
    // database exactly as the real ones made it.
    const older = openFixture(1, 'older.sqlite').db;
    expect(() => migrate(older, [...MIGRATIONS, broken])).toThrow(/no such table/);
    expect(currentVersion(older)).toBe(NEWEST);
    const fresh = freshDatabase(NEWEST);
    expect(schemaOf(older)).toEqual(schemaOf(fresh));
    fresh.close();
    older.close();
  });

  // Every real migration, failing after each of its statements in turn (the last one included: the failure then
  // comes between its SQL and its row in schema_migrations), on the fixture of the version before it.
  const cases = MIGRATIONS.flatMap((migration) =>
    statementsOf(migration.sql).map((_, index, all) => ({ version: migration.version, after: index + 1, of: all.length })));

  it.each(cases)('migration $version failing after statement $after of $of', ({ version, after }) => {
    const target = MIGRATIONS.find((m) => m.version === version)!;
    const statements = statementsOf(target.sql);
    const hooked: Migration = {
      ...target,
      sql: [...statements.slice(0, after), 'SELECT gmw_fail_here()', ...statements.slice(after)].join(';\n'),
    };
    const { db } = openFixture(version - 1);
    db.function('gmw_fail_here', () => {
      throw new Error('Injected failure in the middle of a migration.');
    });
    const before = stateOf(db);
    expect(() => migrate(db, MIGRATIONS.map((m) => (m.version === version ? hooked : m)))).toThrow('Injected failure in the middle of a migration.');
    expect(stateOf(db)).toEqual(before);
    expectSound(db);

    // Nothing half-done is left behind: the real migrations then run to the newest version.
    expect(migrate(db)).toBe(NEWEST);
    const fresh = freshDatabase(NEWEST);
    expect(schemaOf(db)).toEqual(schemaOf(fresh));
    fresh.close();
    db.close();
  });
});

describe('0006: carry adjustments noted on the carry rows', () => {
  it('a version 5 database whose fight ended with the GM adjusting its carry-over gets them noted, and its history shows them', async () => {
    // The version 6 fixture holds such a fight; taken back to version 5 (the column and its record dropped), it is
    // what version 5 wrote for it.
    const { path, db } = openFixture(6, 'adjusted.sqlite');
    const noted = () => db.prepare('SELECT encounter_id, subject, adjusted_seq FROM encounter_carry ORDER BY 1, 2').all() as { encounter_id: string; subject: string; adjusted_seq: number | null }[];
    const expected = noted();
    expect(expected.filter((r) => r.adjusted_seq !== null).length).toBeGreaterThan(0);
    expect(expected.filter((r) => r.adjusted_seq === null).length).toBeGreaterThan(0);
    db.exec('ALTER TABLE encounter_carry DROP COLUMN adjusted_seq; DELETE FROM schema_migrations WHERE version >= 6');
    expect(currentVersion(db)).toBe(5);
    expect(migrate(db)).toBe(NEWEST);
    expect(noted()).toEqual(expected);
    db.close();

    const app = openApp({ databasePath: path, transport: 'cli', version: 'test' });
    try {
      const adjusted = expected.find((r) => r.adjusted_seq !== null && r.subject.startsWith('character:'))!;
      const history = await app.dispatch('characters:history', { id: adjusted.subject.slice('character:'.length) });
      if ('error' in history) throw new Error(history.error.message);
      expect((history.result as { items: { kind: string; text: string }[] }).items.filter((i) => i.kind === 'override').map((i) => i.text))
        .toEqual([expect.stringMatching(/^GM override: .+'s LP is carried as 5 instead of \d+ \(a fall on the way home\)\.$/)]);
    } finally {
      app.close();
    }
  });
});

describe('0012: a campaign\'s own condition list', () => {
  it('a version 11 database gets the column empty, so every campaign suggests its ruleset\'s list, and a list can be set and reset', async () => {
    const { path, db } = openFixture(11, 'conditions.sqlite');
    expect(migrate(db)).toBe(NEWEST);
    expect(db.prepare('SELECT count(*) AS n FROM campaigns WHERE conditions_json IS NOT NULL').get()).toEqual({ n: 0 });
    // Only JSON may be stored (the handler writes a checked list).
    expect(() => db.prepare("UPDATE campaigns SET conditions_json = 'not json'").run()).toThrow(/CHECK constraint/);
    db.close();

    const app = openApp({ databasePath: path, transport: 'cli', version: 'test' });
    try {
      const [campaign] = await ok<CampaignSummary[]>(app, 'campaigns:list', {});
      const rulesetList = (await ok<{ conditionNames: string[] }>(app, 'rulesets:get', { id: campaign!.rulesetId })).conditionNames;
      expect(rulesetList.length).toBeGreaterThan(0);
      expect(await ok<CampaignDetail>(app, 'campaigns:get', { id: campaign!.id })).toMatchObject({ conditionNames: rulesetList, conditionNamesOwn: false });
      const set = await ok<CampaignDetail>(app, 'campaigns:setConditions', { id: campaign!.id, names: ['Soaked'] });
      expect(set).toMatchObject({ conditionNames: ['Soaked'], conditionNamesOwn: true });
      const reset = await ok<CampaignDetail>(app, 'campaigns:setConditions', { id: campaign!.id, names: null });
      expect(reset).toMatchObject({ conditionNames: rulesetList, conditionNamesOwn: false });
    } finally {
      app.close();
    }
  });

  it('the version 12 fixture holds a campaign with its own list, which its detail suggests', async () => {
    const { path, db } = openFixture(12, 'own-list.sqlite');
    const own = db.prepare('SELECT id, conditions_json FROM campaigns WHERE conditions_json IS NOT NULL').all() as { id: string; conditions_json: string }[];
    db.close();
    expect(own).toHaveLength(1);
    const app = openApp({ databasePath: path, transport: 'cli', version: 'test' });
    try {
      expect(await ok<CampaignDetail>(app, 'campaigns:get', { id: own[0]!.id })).toMatchObject({ conditionNames: JSON.parse(own[0]!.conditions_json), conditionNamesOwn: true });
    } finally {
      app.close();
    }
  });
});

describe('a database from a newer version', () => {
  it('is refused with a sentence and left untouched', () => {
    const { path, db } = openFixture(NEWEST);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, ?, ?)').run('from the future', '2031-01-01T00:00:00.000Z');
    const before = { contents: contents(db), schema: schemaOf(db) };
    db.close();

    expect(() => openApp({ databasePath: path, transport: 'cli', version: 'test' })).toThrow(
      `This database was written by a newer GM Workstation (schema 99; this version knows ${NEWEST}). Update the app to open it.`);

    const after = new Database(path, { readonly: true });
    expect({ contents: contents(after), schema: schemaOf(after) }).toEqual(before);
    after.close();
  });
});
