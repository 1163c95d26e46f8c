-- A character's history shows a ledger entry its records' treatments name by the opening of its lines (cut to 200
-- characters), and an entry that created a record by the opening of its first line; a rest's one line counts every
-- open record down and runs to tens of thousands of characters. Each entry keeps both openings, their first 201
-- characters (enough to cut to 200 as the whole would be), written with the entry by the same expressions
-- (db/ledger.ts ENTRY_LEADS), so the history never reads a line it does not send. An index holds them with what
-- places an entry in time and whom it names, instead of the index by subjects alone: the history reads a
-- character's entries from it by one walk, where a seek into the index by state read each rest's whole line.
ALTER TABLE ledger_entries ADD COLUMN lines_lead TEXT NOT NULL DEFAULT '';
ALTER TABLE ledger_entries ADD COLUMN first_line_lead TEXT;
UPDATE ledger_entries SET
  lines_lead = (SELECT coalesce(substr(group_concat(value, ' ' ORDER BY key), 1, 201), '') FROM json_each(log_json)),
  first_line_lead = substr(json_extract(log_json, '$[0]'), 1, 201);
CREATE INDEX ledger_entries_history ON ledger_entries (campaign_id, state, seq, type, day, session_id, recorded_at, subjects_json,
  lines_lead, first_line_lead);
DROP INDEX ledger_entries_by_subjects;
