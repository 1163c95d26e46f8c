// The statements that read a campaign's history and timeline: what they read of a lasting record and of a ledger
// entry, and a character's history, each part through the index that holds that character's rows together. Kept
// apart from the handlers (server/handlers/ledger.ts) so a test can hold each to its plan.

/** What the history and the timeline read of a lasting record (server/handlers/ledger.ts makes them objects). */
export const FACT_RECORD_COLUMNS = `id, character_id, name, category, data_json, source_encounter_id, source_seq, source_text, created_at, healed_at,
  day_gained, session_gained, day_healed, session_healed`;

/** The columns the history and the timeline read of a ledger entry, with whether it touched a lasting record. */
export const ENTRY_COLUMNS = `seq, type, day, session_id, state, recorded_at, log_json, subjects_json,
  EXISTS (SELECT 1 FROM ledger_records r WHERE r.campaign_id = ledger_entries.campaign_id AND r.seq = ledger_entries.seq) AS touched_records`;

/**
 * A character's history reads only that character's rows, each found through an index that holds them together
 * (migration 0010), so the history reads a few pages of a long campaign instead of most of its records, its
 * treatments and its carry-overs (docs/performance.md, fix 30).
 *  - records: the character's lasting records in order (those of one moment by the event that caused them), from
 *    the index that holds their columns;
 *  - entries: the done entries naming the character (found in a narrow index of the entries' subjects), then read
 *    from the index that holds their columns;
 *  - carried: the character's carry rows, from their index by subject;
 *  - treatments: the lasting records each of the given entries touched (a JSON array of their seqs), by the
 *    table's key, one row per entry.
 */
export const HISTORY_READS = {
  records: `SELECT ${FACT_RECORD_COLUMNS} FROM injuries INDEXED BY injuries_history WHERE campaign_id = ? AND character_id = ? ORDER BY created_at, source_seq`,
  entries: `SELECT ${ENTRY_COLUMNS} FROM ledger_entries INDEXED BY ledger_entries_by_state WHERE campaign_id = ? AND state = 'done' AND seq IN (
    SELECT seq FROM ledger_entries INDEXED BY ledger_entries_by_subjects WHERE campaign_id = ? AND state = 'done'
      AND EXISTS (SELECT 1 FROM json_each(subjects_json) WHERE value = ?)) ORDER BY seq`,
  carried: 'SELECT encounter_id, subject, adjusted_seq, ended_at FROM encounter_carry INDEXED BY encounter_carry_by_subject WHERE subject = ?',
  treatments: 'SELECT seq, json_group_array(record_id) FROM ledger_records WHERE campaign_id = ? AND seq IN (SELECT value FROM json_each(?)) GROUP BY seq ORDER BY seq',
};
