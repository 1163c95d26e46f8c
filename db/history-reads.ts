// The statements that read a campaign's history and timeline: what they read of a lasting record and of a ledger
// entry, and a character's history, each part through the index that holds that character's rows together. Kept
// apart from the handlers (server/handlers/ledger.ts, server/character-history.ts) so a test can hold each to its plan.
import type { InjuryRow } from './consequences.ts';

/** What the history and the timeline read of a lasting record (server/handlers/ledger.ts makes them objects). */
export const FACT_RECORD_COLUMNS = `id, character_id, name, category, data_json, source_encounter_id, source_seq, source_text, created_at, healed_at,
  day_gained, session_gained, day_healed, session_healed`;
/** How many columns FACT_RECORD_COLUMNS names: a statement's columns after them start at this index of a raw row. */
export const FACT_RECORD_WIDTH = FACT_RECORD_COLUMNS.split(',').length;

/** The columns the history and the timeline read of a ledger entry, with whether it touched a lasting record. */
export const ENTRY_COLUMNS = `seq, type, day, session_id, state, recorded_at, log_json, subjects_json,
  EXISTS (SELECT 1 FROM ledger_records r WHERE r.campaign_id = ledger_entries.campaign_id AND r.seq = ledger_entries.seq) AS touched_records`;

/**
 * A character's history reads only that character's rows, each found through an index that holds them together
 * (migration 0010), and of a ledger entry first only what places it in time: its lines (a rest's counts every open
 * record down) and the records it touched are read for the entries the reply carries (server/character-history.ts).
 *  - recordCounts, lastingCounts, newestGained, sentRecords: of the character's lasting records, from the narrow
 *    index that holds what orders them and chooses those sent (migration 0015), counted there and read only as far
 *    as the reply goes: how many there are and how many healed (of all, and of those that are not harm: `@lasting`
 *    is a JSON array of the categories that are not; two walks of the character's entries, two counts each, cost
 *    less than one walk with four), the newest `@count` in the order gained (of one moment by the event that caused
 *    them, then by id: the index's order) and the ids of those sent in the order gained: the newest `@open` open and
 *    `@healed` healed harm (-1: all), walked back from the newest, and every one that is not harm, sorted once
 *    chosen;
 *  - newestHealed: the newest `@count` of the character's healed records (by their healing, then in the order
 *    gained), walked back from the end of the index of healed records (migration 0016), with what the history shows
 *    of a healing (its name, day and session), so a healing kept among the items needs no record's row;
 *  - recordDetails: everything the history shows of the given records (a JSON array of their ids), by their key: the
 *    records sent and those whose gain is kept among the items, with the seqs of the entries that changed each
 *    (`treatment_seqs`, migration 0017: its treatments, once the entries not done are left out);
 *  - entries: the done entries naming the character, with their time, kind, day and the openings of their lines
 *    (kept with each entry, migration 0014: where the reply shows an entry cut, it shows no more), from one walk of
 *    the campaign's done entries in the narrow index that holds those columns and the entries' subjects, with
 *    whether each touched a lasting record (a rest touches every open record, so the first one found answers);
 *  - entryLines: the whole lines and subjects of the given done entries (a JSON array of their seqs), those the
 *    reply sends whole, from the index that holds them (the table's rows carry the entries' before and after
 *    images: nine times slower to read);
 *  - carriedCount, newestCarried, adjustedCarried: the character's carry rows, from their index by subject (a party
 *    member's fights are its campaign's): how many, the newest `@count` of those the GM did not adjust (by their end,
 *    then the fight: the index's order) and all those the GM adjusted, in the index's order;
 *  - fights: the given fights' names, sessions and days (a JSON array of their ids), from the index that holds them
 *    (migration 0015): an encounter's row holds its input, tens of KB of sheets, before those columns;
 *  - treatedOwn: which of the given entries touched one of the character's records, each answered by the first
 *    such record found (an entry's records are read in key order, each record's owner by its key).
 */
/** The character's records (`@character`, `@campaign`), what places each in time and chooses those sent. */
const OWN_RECORDS = 'character_id = @character AND campaign_id = @campaign';
const MOMENT_COLUMNS = 'id, category, created_at, source_seq, healed_at';
/** A record is harm unless its ruleset's category says it is not (isHarm, core/ledger/records.ts). */
const LASTING = 'category IN (SELECT value FROM json_each(@lasting))';
/** The newest `limit` of the character's harm records that `state` picks, walked back from the newest. */
const NEWEST_HARM = (state: string, limit: string) => `SELECT id, created_at, source_seq FROM injuries INDEXED BY injuries_moments
  WHERE ${OWN_RECORDS} AND ${state} AND NOT ${LASTING} ORDER BY created_at DESC, source_seq DESC, id DESC LIMIT ${limit}`;

export const HISTORY_READS = {
  recordCounts: `SELECT count(*), count(healed_at) FROM injuries INDEXED BY injuries_moments WHERE ${OWN_RECORDS}`,
  lastingCounts: `SELECT count(*), count(healed_at) FROM injuries INDEXED BY injuries_moments WHERE ${OWN_RECORDS} AND ${LASTING}`,
  newestGained: `SELECT ${MOMENT_COLUMNS} FROM injuries INDEXED BY injuries_moments WHERE ${OWN_RECORDS}
    ORDER BY created_at DESC, source_seq DESC, id DESC LIMIT @count`,
  newestHealed: `SELECT id, healed_at, name, day_healed, session_healed FROM injuries INDEXED BY injuries_healed
    WHERE ${OWN_RECORDS} AND healed_at IS NOT NULL ORDER BY healed_at DESC, created_at DESC, source_seq DESC, id DESC LIMIT @count`,
  sentRecords: `SELECT id FROM (
      SELECT * FROM (${NEWEST_HARM('healed_at IS NULL', '@open')})
      UNION ALL SELECT * FROM (${NEWEST_HARM('healed_at IS NOT NULL', '@healed')})
      UNION ALL SELECT id, created_at, source_seq FROM injuries INDEXED BY injuries_moments
        WHERE ${OWN_RECORDS} AND EXISTS (SELECT 1 FROM json_each(@lasting)) AND ${LASTING})
    ORDER BY created_at, source_seq, id`,
  recordDetails: `SELECT ${FACT_RECORD_COLUMNS}, treatment_seqs FROM injuries WHERE id IN (SELECT value FROM json_each(?))`,
  entries: `SELECT seq, type, day, session_id, recorded_at, lines_lead, first_line_lead,
    EXISTS (SELECT 1 FROM ledger_records r WHERE r.campaign_id = ledger_entries.campaign_id AND r.seq = ledger_entries.seq) AS touched_records
    FROM ledger_entries INDEXED BY ledger_entries_history WHERE campaign_id = ? AND state = 'done'
    AND EXISTS (SELECT 1 FROM json_each(subjects_json) WHERE value = ?) ORDER BY seq`,
  entryLines: `SELECT seq, log_json, subjects_json FROM ledger_entries INDEXED BY ledger_entries_by_state
    WHERE campaign_id = ? AND state = 'done' AND seq IN (SELECT value FROM json_each(?))`,
  carriedCount: 'SELECT count(*) FROM encounter_carry INDEXED BY encounter_carry_by_subject WHERE subject = ?',
  newestCarried: `SELECT encounter_id, adjusted_seq, ended_at FROM encounter_carry INDEXED BY encounter_carry_by_subject
    WHERE subject = ? AND adjusted_seq IS NULL ORDER BY ended_at DESC, encounter_id DESC LIMIT ?`,
  adjustedCarried: `SELECT encounter_id, adjusted_seq, ended_at FROM encounter_carry INDEXED BY encounter_carry_by_subject
    WHERE subject = ? AND adjusted_seq IS NOT NULL ORDER BY adjusted_seq, ended_at, encounter_id`,
  fights: `SELECT id, name, session_id, day FROM encounters INDEXED BY encounters_names
    WHERE id IN (SELECT value FROM json_each(?)) AND campaign_id = ?`,
  treatedOwn: `SELECT value FROM json_each(?) WHERE EXISTS (SELECT 1 FROM ledger_records r CROSS JOIN injuries i ON i.id = r.record_id
    WHERE r.campaign_id = ? AND r.seq = value AND i.character_id = ? AND i.campaign_id = ?)`,
};

/**
 * What the history and the timeline read of a lasting record (FACT_RECORD_COLUMNS), read raw (arrays, in the order
 * selected) and made into objects by the handler. A long campaign gives a character a thousand records and more,
 * and better-sqlite3's own row objects took longer to build than the read itself.
 */
export type FactRecord = Pick<InjuryRow, 'id' | 'character_id' | 'name' | 'category' | 'data_json' | 'source_encounter_id' | 'source_seq' | 'source_text' | 'created_at'
  | 'healed_at' | 'day_gained' | 'session_gained' | 'day_healed' | 'session_healed'>;
export const factRecord = ([id, character_id, name, category, data_json, source_encounter_id, source_seq, source_text, created_at, healed_at,
  day_gained, session_gained, day_healed, session_healed]: unknown[]) => ({
  id, character_id, name, category, data_json, source_encounter_id, source_seq, source_text, created_at, healed_at, day_gained, session_gained, day_healed, session_healed,
}) as FactRecord;
