-- 0001: campaigns, characters, event-sourced encounters.
CREATE TABLE campaigns (
  id           TEXT PRIMARY KEY,
  name         TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  ruleset_id   TEXT NOT NULL,
  options_json TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(options_json)),
  -- party-level values kept between encounters (Enigma: escalation)
  party_json   TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(party_json)),
  archived_at  TEXT,
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL
) STRICT;

CREATE TABLE characters (
  id          TEXT PRIMARY KEY,
  campaign_id TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  role        TEXT NOT NULL CHECK (role IN ('pc', 'npc')),
  name        TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  sheet_json  TEXT NOT NULL CHECK (json_valid(sheet_json)),
  archived_at TEXT,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
) STRICT;
CREATE INDEX characters_by_campaign ON characters (campaign_id, role, name);

CREATE TABLE encounters (
  id          TEXT PRIMARY KEY,
  campaign_id TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  name        TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  ruleset_id  TEXT NOT NULL,
  -- the machine input (options and carried party values) frozen at creation, so a replay never changes
  input_json  TEXT NOT NULL CHECK (json_valid(input_json)),
  -- denormalised from the replayed state for lists; the events are the truth
  phase       TEXT NOT NULL DEFAULT 'setup' CHECK (phase IN ('setup', 'running', 'ended')),
  round       INTEGER NOT NULL DEFAULT 0,
  event_count INTEGER NOT NULL DEFAULT 0,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
) STRICT;
CREATE INDEX encounters_by_campaign ON encounters (campaign_id, updated_at);

-- An encounter is its ordered list of GM events (every die result inside the payload).
CREATE TABLE encounter_events (
  encounter_id TEXT NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
  seq          INTEGER NOT NULL CHECK (seq >= 1),
  type         TEXT NOT NULL,
  payload_json TEXT NOT NULL CHECK (json_valid(payload_json)),
  -- the readable log lines derived when the event was applied
  log_json     TEXT NOT NULL CHECK (json_valid(log_json)),
  recorded_at  TEXT NOT NULL,
  PRIMARY KEY (encounter_id, seq)
) STRICT, WITHOUT ROWID;

-- Undone events, newest on top (highest depth), until a new event is appended.
CREATE TABLE encounter_redo (
  encounter_id TEXT NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
  depth        INTEGER NOT NULL CHECK (depth >= 1),
  payload_json TEXT NOT NULL CHECK (json_valid(payload_json)),
  PRIMARY KEY (encounter_id, depth)
) STRICT, WITHOUT ROWID;

-- Machine snapshots after event `seq`: resume = newest snapshot + replay of the later events.
CREATE TABLE encounter_snapshots (
  encounter_id  TEXT NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
  seq           INTEGER NOT NULL,
  snapshot_json TEXT NOT NULL CHECK (json_valid(snapshot_json)),
  PRIMARY KEY (encounter_id, seq)
) STRICT, WITHOUT ROWID;
