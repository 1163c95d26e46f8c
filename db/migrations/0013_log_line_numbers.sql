-- The full log screen reads a page of an encounter's log by line number, not the whole log: each event row keeps
-- how many log lines the encounter's earlier events wrote (its first line's number, from 0), and an index finds the
-- events that hold lines [from, to) without reading the others.
ALTER TABLE encounter_events ADD COLUMN line_start INTEGER NOT NULL DEFAULT 0 CHECK (line_start >= 0);
UPDATE encounter_events SET line_start = numbered.line_start
  FROM (SELECT encounter_id, seq,
          COALESCE(SUM(json_array_length(log_json)) OVER (PARTITION BY encounter_id ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS line_start
        FROM encounter_events) AS numbered
  WHERE numbered.encounter_id = encounter_events.encounter_id AND numbered.seq = encounter_events.seq;
CREATE INDEX encounter_events_by_line ON encounter_events (encounter_id, line_start);
