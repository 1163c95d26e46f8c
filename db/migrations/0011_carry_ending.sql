-- Each carry-over row notes the event that ended its fight and wrote it (`ended_seq`) and that event's time
-- (`ended_at`). The campaign's history placed a fight's end at the encounter's newest event, which was the ending
-- until a ruleset allowed events after it (a Factions chase after the fight): such an event moved the end past the
-- ledger entries written since, and refused their undo with a false sentence. Rows written before this migration
-- belong to fights whose newest event is their ending, so that event is the one noted.
ALTER TABLE encounter_carry ADD COLUMN ended_seq INTEGER;
ALTER TABLE encounter_carry ADD COLUMN ended_at TEXT;

UPDATE encounter_carry SET
  ended_seq = (SELECT e.event_count FROM encounters e WHERE e.id = encounter_carry.encounter_id),
  ended_at = (SELECT v.recorded_at FROM encounters e JOIN encounter_events v ON v.encounter_id = e.id AND v.seq = e.event_count
    WHERE e.id = encounter_carry.encounter_id);

-- A character's history reads its carry rows by subject; the end's time rides in the same index.
DROP INDEX encounter_carry_by_subject;
CREATE INDEX encounter_carry_by_subject ON encounter_carry (subject, adjusted_seq, ended_at);
-- "Has a fight's end been written onto the campaign since this time?" is asked before every undo.
CREATE INDEX encounter_carry_by_end ON encounter_carry (ended_at);
