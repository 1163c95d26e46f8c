-- Narrow indexes for a character's history in a long campaign, so it reads what it orders and names, not the rows
-- and wide index entries around them:
--  - the fights its items and records come from, by the encounter's key: their campaign, names, sessions and days,
--    without the encounter's row (its input before them, and a page or more a fight). None of these changes with a
--    fight's events (an event writes the phase, round, event count and last change): an event's write leaves the
--    index alone;
CREATE INDEX encounters_names ON encounters (id, campaign_id, name, session_id, day);
--  - the character's records in order with what places each in time and chooses those sent: about a fifth of an
--    entry of injuries_history, which holds every column the history shows (the record's data and cause among
--    them). A rest's count-down writes a record's data, never these columns but its healing.
CREATE INDEX injuries_moments ON injuries (character_id, campaign_id, created_at, source_seq, id, category, healed_at);
