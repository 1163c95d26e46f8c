-- Each injury keeps the first log line of the event that caused it. A character's history showed it by looking
-- the event up for every record (a random read into the largest table per record: 10 ms of a 1,300-record
-- history); the line never changes once written (events are immutable; an undo removes the injury with its event).
ALTER TABLE injuries ADD COLUMN source_text TEXT;

UPDATE injuries SET source_text = (
  SELECT json_extract(v.log_json, '$[0].text') FROM encounter_events v
  WHERE v.encounter_id = injuries.source_encounter_id AND v.seq = injuries.source_seq
) WHERE source_seq IS NOT NULL;
