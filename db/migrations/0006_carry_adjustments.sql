-- Each carry-over row notes the event that holds the GM's adjustments to it (the fight's ending event, its newest),
-- or NULL when the GM adjusted nothing. A history looked into every carried fight's newest event to find the few
-- adjusted ones: a random read into the largest table per fight (8 ms of a history over 1,000 fights, and most of
-- it once the system has dropped the file from its cache). Events are immutable and an undo of the ending event
-- removes its carry rows, so the note never goes stale.
ALTER TABLE encounter_carry ADD COLUMN adjusted_seq INTEGER;

UPDATE encounter_carry SET adjusted_seq = (
  SELECT v.seq FROM encounters e JOIN encounter_events v ON v.encounter_id = e.id AND v.seq = e.event_count
  WHERE e.id = encounter_carry.encounter_id AND json_extract(v.payload_json, '$.carryAdjust') IS NOT NULL
);
