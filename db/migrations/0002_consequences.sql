-- 0002: what fights leave behind. A character's carried condition (ruleset state: current LP, dice, restrictions),
-- lasting injuries linked to the encounter event that caused them, and what an ended encounter wrote onto the
-- campaign so that undoing its end puts things back.
ALTER TABLE characters ADD COLUMN state_json TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(state_json));

CREATE TABLE injuries (
  id                  TEXT PRIMARY KEY,
  campaign_id         TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  character_id        TEXT NOT NULL REFERENCES characters(id) ON DELETE CASCADE,
  name                TEXT NOT NULL,
  category            TEXT NOT NULL,
  -- the ruleset's full record (Enigma: base roll, multiplier, rests remaining, permanent, cure condition)
  data_json           TEXT NOT NULL CHECK (json_valid(data_json)),
  source_encounter_id TEXT REFERENCES encounters(id) ON DELETE CASCADE,
  -- the encounter event that caused it
  source_seq          INTEGER,
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL,
  healed_at           TEXT
) STRICT;
CREATE INDEX injuries_by_character ON injuries (character_id, healed_at);
CREATE INDEX injuries_by_encounter ON injuries (source_encounter_id);

CREATE TABLE encounter_carry (
  encounter_id  TEXT NOT NULL REFERENCES encounters(id) ON DELETE CASCADE,
  -- 'campaign' or 'character:<id>'
  subject       TEXT NOT NULL,
  previous_json TEXT NOT NULL CHECK (json_valid(previous_json)),
  PRIMARY KEY (encounter_id, subject)
) STRICT, WITHOUT ROWID;
