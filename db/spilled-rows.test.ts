// A ledger entry or a fight's snapshot sought by its key is read from its key's index and its own row, never through
// the large rows beside it (snapshots: migration 0019, the same story at 120–300 KB a snapshot of 200–500 combatants).
// A ledger entry first: a rest's before and after images hold every record it counted down (1.4 MB on a long campaign),
// so its row spills onto overflow pages; where the rows sat in the key's own b-tree (WITHOUT ROWID, before migration
// 0018), SQLite read a spilled cell whole each time a seek compared a key with it: every seek by key, and a rest's
// foreign-key check of each of the records it names against its own entry. Counted in the bytes the process reads
// from the file (Linux's /proc/self/io; skipped where there is none), on a fresh connection, so the test holds the
// reads, not a time; the tables' form is checked everywhere.
import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCampaign } from './campaigns.ts';
import { openDatabase } from './connection.ts';
import { insertEncounter, saveSnapshot } from './encounters.ts';
import { insertEntry } from './ledger.ts';
import { tempDir } from './testing/temp-db.ts';

const dir = tempDir();
const file = dir.file();
const CAMPAIGN = '00000001-0000-4000-8000-000000000000';
/** Three fights side by side, each with 20 snapshots of about 120 KB (one every 50 events, as the store keeps them). */
const FIGHTS = ['00000002', '00000003', '00000004'].map((n) => `${n}-0000-4000-8000-000000000000`);
/** Each rest's images: 600 records of about 400 characters, some 250 KB an image. */
const RECORDS = 600;

/** The bytes this process has read (Linux); elsewhere the counting tests are skipped and the table forms still checked. */
const countsReads = existsSync('/proc/self/io');
const bytesRead = () => (countsReads ? Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]) : NaN);

/** The bytes read from the file by `work` on a connection that has read nothing of the ledger yet. */
function readBy(work: (db: Database.Database) => unknown): { bytes: number; result: unknown } {
  const db = new Database(file, { readonly: true });
  try {
    db.pragma('cache_size = 0');
    db.prepare('SELECT count(*) FROM campaigns').get(); // the schema, read once by any first statement
    const before = bytesRead();
    const result = work(db);
    return { bytes: bytesRead() - before, result };
  } finally {
    db.close();
  }
}

/** A table's form: WITHOUT ROWID or not (`wr`), and its key's index (whether unique, its columns). */
function formOf(table: string): { withoutRowid: number | undefined; keyUnique: number | undefined; keyColumns: string[] } {
  return readBy((db) => {
    const keyIndex = (db.pragma(`index_list(${table})`) as { name: string; unique: number; origin: string }[]).find((i) => i.origin === 'pk');
    return {
      withoutRowid: (db.pragma('table_list') as { name: string; wr: number }[]).find((t) => t.name === table)?.wr,
      keyUnique: keyIndex?.unique,
      keyColumns: keyIndex ? (db.pragma(`index_info(${keyIndex.name})`) as { name: string }[]).map((c) => c.name) : [],
    };
  }).result as ReturnType<typeof formOf>;
}

beforeAll(() => {
  const db = openDatabase(file);
  const now = '2026-01-01T00:00:00.000Z';
  insertCampaign(db, { id: CAMPAIGN, name: 'Long road', ruleset_id: 'enigma', options_json: '{}', party_json: '{}', archived_at: null, created_at: now, updated_at: now });
  const image = (rest: number, left: number) => JSON.stringify(Object.fromEntries(Array.from({ length: RECORDS }, (_, i) => [
    `record:${CAMPAIGN}:${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`,
    { name: `Wound ${i}`, data_json: JSON.stringify({ restsRemaining: left, notes: `rest ${rest} `.repeat(30) }) },
  ])));
  db.transaction(() => {
    for (const id of FIGHTS) {
      insertEncounter(db, { id, campaign_id: CAMPAIGN, name: 'Bridge', ruleset_id: 'enigma', input_json: '{}', phase: 'running', round: 40, event_count: 1_020, created_at: now, updated_at: now });
      for (let seq = 50; seq <= 1_000; seq += 50) saveSnapshot(db, id, seq, { round: seq / 25, combatants: 'x'.repeat(120_000) });
    }
    // Rests and small entries taking turns, so that every seek passes rests on its way.
    for (let n = 0; n < 24; n++) {
      const rest = n % 2 === 0;
      insertEntry(db, {
        campaign_id: CAMPAIGN, type: rest ? 'REST' : 'ADVANCE_DAYS', payload_json: '{}', log_json: JSON.stringify([rest ? `Rest ${n}.` : `Day ${n}.`]),
        day: n, session_id: null, subjects_json: '[]', before_json: rest ? image(n, 9) : '{}', after_json: rest ? image(n, 8) : '{}', recorded_at: now,
      });
    }
  })();
  db.close();
});

afterAll(() => dir.remove());

describe("a ledger entry sought by its key", () => {
  it.skipIf(!countsReads)('is read without the images of the rests beside it, nor its own when they are not asked for', () => {
    const imageBytes = readBy((db) => db.prepare('SELECT length(after_json) AS n FROM ledger_entries WHERE campaign_id = ? AND seq = 13').get(CAMPAIGN)).result as { n: number };
    expect(imageBytes.n).toBeGreaterThan(200_000);

    // A small entry between rests (seq 12 is the 12th entry: an ADVANCE_DAYS), and a rest's opening columns.
    const small = readBy((db) => db.prepare('SELECT type, log_json FROM ledger_entries WHERE campaign_id = ? AND seq = ?').get(CAMPAIGN, 12));
    expect(small.result).toEqual({ type: 'ADVANCE_DAYS', log_json: '["Day 11."]' });
    const restHead = readBy((db) => db.prepare('SELECT type, log_json FROM ledger_entries WHERE campaign_id = ? AND seq = ?').get(CAMPAIGN, 13));
    expect(restHead.result).toEqual({ type: 'REST', log_json: '["Rest 12."]' });
    // A few pages each (the index's, the table's and the row's first): 20 pages of 4 KB at most, where a single image
    // compared on the way is 60 of them. WITHOUT ROWID read 0.5–1 MB for each.
    expect(small.bytes).toBeLessThan(80_000);
    expect(restHead.bytes).toBeLessThan(80_000);
  });

  it('is found by the foreign key of the records an entry names through the small index of the key', () => {
    // The rows hold the images; the key's index holds the key alone.
    expect(formOf('ledger_entries')).toEqual({ withoutRowid: 0, keyUnique: 1, keyColumns: ['campaign_id', 'seq'] });
    expect(readBy((db) => db.prepare('SELECT count(*) AS n FROM ledger_records WHERE campaign_id = ? AND seq = 13').get(CAMPAIGN)).result).toEqual({ n: RECORDS });
  });
});

describe("a fight's snapshots sought by their key", () => {
  it.skipIf(!countsReads)('are found without reading the snapshots on the way', () => {
    // What every undo seeks (to delete the snapshots from the event it takes back on: none here), and a resume's.
    const fromUndone = readBy((db) => db.prepare('SELECT count(*) AS n FROM encounter_snapshots WHERE encounter_id = ? AND seq >= ?').get(FIGHTS[1], 1_011));
    expect(fromUndone.result).toEqual({ n: 0 });
    const newest = readBy((db) => db.prepare('SELECT seq FROM encounter_snapshots WHERE encounter_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1').get(FIGHTS[1], 1_011));
    expect(newest.result).toEqual({ seq: 1_000 });
    // One snapshot is 30 pages of 4 KB; WITHOUT ROWID read 0.5–1.3 MB for each.
    expect(fromUndone.bytes).toBeLessThan(80_000);
    expect(newest.bytes).toBeLessThan(80_000);
  });

  it('are rows of a rowid table, their key an index of its own', () => {
    expect(formOf('encounter_snapshots')).toEqual({ withoutRowid: 0, keyUnique: 1, keyColumns: ['encounter_id', 'seq'] });
  });
});
