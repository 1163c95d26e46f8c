-- A character's healed records in the order of their healing, with what the history shows of a healing: its newest
-- healings are walked back from the end of this index, where they were sorted out of every entry of the character's
-- records in injuries_moments (2,600 entries for 200 at 2,000 encounters), and shown without the record's row.
-- Only healed records are in it: a fight's new records (open) leave it alone, and a rest's count-down writes none of
-- its columns but the healing of the records it heals.
CREATE INDEX injuries_healed ON injuries (character_id, campaign_id, healed_at, created_at, source_seq, id, name, day_healed, session_healed)
  WHERE healed_at IS NOT NULL;
