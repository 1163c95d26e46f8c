-- 0003: the campaign clock, game sessions and the recovery ledger.
-- The in-game day counter and the session being played (null between sessions).
ALTER TABLE campaigns ADD COLUMN day INTEGER NOT NULL DEFAULT 1 CHECK (day >= 1);
ALTER TABLE campaigns ADD COLUMN session_id TEXT;

CREATE TABLE sessions (
  id          TEXT PRIMARY KEY,
  campaign_id TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  number      INTEGER NOT NULL CHECK (number >= 1),
  title       TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 120),
  -- the real date it was played (YYYY-MM-DD)
  real_date   TEXT NOT NULL,
  notes       TEXT NOT NULL DEFAULT '' CHECK (length(notes) <= 10000),
  start_day   INTEGER NOT NULL,
  end_day     INTEGER,
  started_at  TEXT NOT NULL,
  ended_at    TEXT,
  UNIQUE (campaign_id, number)
) STRICT;

-- An encounter belongs to the session it was created in, on an in-game day.
ALTER TABLE encounters ADD COLUMN session_id TEXT REFERENCES sessions(id);
ALTER TABLE encounters ADD COLUMN day INTEGER;

-- When a record was gained and healed, and the last ledger entry that changed it (null: only its encounter did).
ALTER TABLE injuries ADD COLUMN day_gained INTEGER;
ALTER TABLE injuries ADD COLUMN session_gained TEXT;
ALTER TABLE injuries ADD COLUMN day_healed INTEGER;
ALTER TABLE injuries ADD COLUMN session_healed TEXT;
ALTER TABLE injuries ADD COLUMN ledger_seq INTEGER;

-- The ledger: every recovery and clock action, in order, never deleted. `before_json`/`after_json` hold the exact
-- stored values the entry replaced and wrote (character states, records, party, clock, sessions), so undo puts
-- back the exact previous state and redo the exact next one. `state`: done, undone (redo-able) or dropped (undone,
-- then a new entry was appended).
CREATE TABLE ledger_entries (
  campaign_id   TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  seq           INTEGER NOT NULL CHECK (seq >= 1),
  type          TEXT NOT NULL,
  payload_json  TEXT NOT NULL CHECK (json_valid(payload_json)),
  log_json      TEXT NOT NULL CHECK (json_valid(log_json)),
  day           INTEGER NOT NULL,
  session_id    TEXT,
  subjects_json TEXT NOT NULL CHECK (json_valid(subjects_json)),
  before_json   TEXT NOT NULL CHECK (json_valid(before_json)),
  after_json    TEXT NOT NULL CHECK (json_valid(after_json)),
  state         TEXT NOT NULL DEFAULT 'done' CHECK (state IN ('done', 'undone', 'dropped')),
  recorded_at   TEXT NOT NULL,
  PRIMARY KEY (campaign_id, seq)
) STRICT, WITHOUT ROWID;

-- Campaigns that already have encounters get a first, finished session holding them.
INSERT INTO sessions (id, campaign_id, number, title, real_date, start_day, end_day, started_at, ended_at)
  SELECT lower(hex(randomblob(16))), c.id, 1, 'Session 1', substr(min(e.created_at), 1, 10), 1, 1, min(e.created_at), max(e.updated_at)
  FROM campaigns c JOIN encounters e ON e.campaign_id = c.id GROUP BY c.id;
UPDATE encounters SET day = 1, session_id = (SELECT s.id FROM sessions s WHERE s.campaign_id = encounters.campaign_id);
UPDATE injuries SET day_gained = 1, session_gained = (SELECT s.id FROM sessions s WHERE s.campaign_id = injuries.campaign_id);
