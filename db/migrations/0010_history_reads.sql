-- A character's history reads that character's rows only, and each through an index that holds them together. In a
-- long campaign the party's records, treatments and carry-overs lie mixed in their tables, so one character's
-- history read most of their pages: quick while the file sits in memory, slow when the system has let it go.
--  - the character's lasting records, in order (those of one moment in the order of the events that caused them),
--    with every column the history shows;
CREATE INDEX injuries_history ON injuries (character_id, created_at, source_seq, campaign_id, id, name, category,
  data_json, source_encounter_id, source_text, healed_at, day_gained, session_gained, day_healed, session_healed);
--  - the character's carry-overs (with the encounter, the table's key);
CREATE INDEX encounter_carry_by_subject ON encounter_carry (subject, adjusted_seq);
--  - the ledger entries that name the character, found without reading their log lines;
CREATE INDEX ledger_entries_by_subjects ON ledger_entries (campaign_id, state, subjects_json);
-- The treatments of the character's records are now read by entry, through the table's key: the index by record
-- has no reader left, and every entry that treats records wrote into it.
DROP INDEX ledger_records_by_record;
