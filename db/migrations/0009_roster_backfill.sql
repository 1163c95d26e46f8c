-- The events that have no roster change yet (stored before version 7), found without reading the table: the desktop
-- app and web mode fill them in the background (server/roster-backfill.ts). The app stores a change with every event
-- it writes, so the index holds only old events, and holds nothing once they are filled; writing an event never
-- adds to it.
CREATE INDEX encounter_events_without_roster ON encounter_events (encounter_id, seq) WHERE roster_json IS NULL;
