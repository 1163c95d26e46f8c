-- Each event notes what it changed in the roster the round summary follows (core/export/summary.ts, RosterChange):
-- the phase, round and awaited answer after it, the order when it moved, and the rows whose health, tags, status,
-- name or side changed. The summary then adds up stored changes instead of replaying every event through the
-- ruleset's machine (the first export of a 10,000-event fight after the app opened). Events stored before this
-- version, and imported ones, have none: their fights replay as before.
ALTER TABLE encounter_events ADD COLUMN roster_json TEXT CHECK (roster_json IS NULL OR json_valid(roster_json));
