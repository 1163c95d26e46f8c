-- The campaign's encounters are listed newest first by creation (listEncounters); nothing reads them in order of
-- their last change. Indexed by updated_at, every GM event moved the encounter's entry in this index: one more page
-- written and synced in each event's commit. Indexed by created_at, which never changes, the list reads in index
-- order and an event leaves the index alone.
DROP INDEX encounters_by_campaign;
CREATE INDEX encounters_by_campaign ON encounters (campaign_id, created_at);
