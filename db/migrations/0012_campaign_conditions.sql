-- A campaign's own list of condition names, suggested by the runner's condition form (issue 29). NULL, as every
-- campaign has until the GM edits it, means the campaign uses its ruleset's list; otherwise a JSON array of names,
-- written only by campaigns:setConditions and the campaign import, which check them (core/encounter/condition-list.ts).
ALTER TABLE campaigns ADD COLUMN conditions_json TEXT CHECK (conditions_json IS NULL OR json_valid(conditions_json));
