import { prepared, type Db } from './connection.ts';
import type { CampaignRow, CharacterRow } from './rows.ts';

const SUMMARY = `SELECT c.*,
  (SELECT count(*) FROM characters WHERE campaign_id = c.id AND archived_at IS NULL) AS character_count,
  (SELECT count(*) FROM encounters WHERE campaign_id = c.id) AS encounter_count
  FROM campaigns c`;

export function listCampaigns(db: Db, includeArchived: boolean): CampaignRow[] {
  const where = includeArchived ? '' : ' WHERE c.archived_at IS NULL';
  return prepared(db, `${SUMMARY}${where} ORDER BY c.archived_at IS NOT NULL, c.updated_at DESC`).all() as CampaignRow[];
}

export function getCampaign(db: Db, id: string): CampaignRow | undefined {
  return prepared(db, `${SUMMARY} WHERE c.id = ?`).get(id) as CampaignRow | undefined;
}

/** Only the name (an encounter's reply and its exports need nothing else; getCampaign also counts its rows). */
export function campaignName(db: Db, id: string): string | undefined {
  return (prepared(db, 'SELECT name FROM campaigns WHERE id = ?').get(id) as { name: string } | undefined)?.name;
}

/** What an encounter's detail shows of its campaign: the name, and what picks the conditions it suggests. */
export function campaignHead(db: Db, id: string): Pick<CampaignRow, 'name' | 'ruleset_id' | 'conditions_json'> | undefined {
  return prepared(db, 'SELECT name, ruleset_id, conditions_json FROM campaigns WHERE id = ?').get(id) as Pick<CampaignRow, 'name' | 'ruleset_id' | 'conditions_json'> | undefined;
}

export function insertCampaign(db: Db, row: Omit<CampaignRow, 'character_count' | 'encounter_count'>): void {
  prepared(db, `INSERT INTO campaigns (id, name, ruleset_id, options_json, party_json, archived_at, created_at, updated_at)
    VALUES (@id, @name, @ruleset_id, @options_json, @party_json, @archived_at, @created_at, @updated_at)`).run(row);
}

export function updateCampaign(db: Db, id: string, fields: Partial<Pick<CampaignRow, 'name' | 'options_json' | 'party_json' | 'conditions_json' | 'archived_at'>>, now: string): void {
  const sets = Object.keys(fields).map((key) => `${key} = @${key}`);
  prepared(db, `UPDATE campaigns SET ${[...sets, 'updated_at = @now'].join(', ')} WHERE id = @id`).run({ ...fields, id, now });
}

export function touchCampaign(db: Db, id: string, now: string): void {
  prepared(db, 'UPDATE campaigns SET updated_at = ? WHERE id = ?').run(now, id);
}

/** How old a campaign's last activity may grow while a fight runs (see noteCampaignActivity). */
const ACTIVITY_GRAIN_MS = 60_000;

/**
 * Notes a fight's write as the campaign's last activity, which orders the campaign list (newest first). The row is
 * written only when that would change the order (another campaign is newer) or the time it holds is a minute old:
 * most events of a fight leave the campaign's page alone, one page fewer in each event's commit.
 */
export function noteCampaignActivity(db: Db, id: string, now: string): void {
  prepared(db, NOTE_ACTIVITY).run(noteActivityParams(id, now));
}

/** noteCampaignActivity's statement, on `table` (the benchmark runs it on a copy of the campaigns table). */
export const noteActivitySql = (table: string) => `UPDATE ${table} SET updated_at = @now WHERE id = @id
  AND (updated_at < @stale OR EXISTS (SELECT 1 FROM ${table} other WHERE other.updated_at > ${table}.updated_at))`;
export const noteActivityParams = (id: string, now: string) => ({ id, now, stale: new Date(Date.parse(now) - ACTIVITY_GRAIN_MS).toISOString() });
/** Built once: every GM event runs it. */
const NOTE_ACTIVITY = noteActivitySql('campaigns');

export function listCharacters(db: Db, campaignId: string): CharacterRow[] {
  return prepared(db, 'SELECT * FROM characters WHERE campaign_id = ? ORDER BY role, archived_at IS NOT NULL, name COLLATE NOCASE').all(campaignId) as CharacterRow[];
}

export function getCharacter(db: Db, id: string): CharacterRow | undefined {
  return prepared(db, 'SELECT * FROM characters WHERE id = ?').get(id) as CharacterRow | undefined;
}

export function insertCharacter(db: Db, row: CharacterRow): void {
  prepared(db, `INSERT INTO characters (id, campaign_id, role, name, sheet_json, state_json, archived_at, created_at, updated_at)
    VALUES (@id, @campaign_id, @role, @name, @sheet_json, @state_json, @archived_at, @created_at, @updated_at)`).run({ state_json: '{}', ...row });
}

export function updateCharacter(db: Db, id: string, fields: Partial<Pick<CharacterRow, 'name' | 'sheet_json' | 'archived_at'>>, now: string): void {
  const sets = Object.keys(fields).map((key) => `${key} = @${key}`);
  prepared(db, `UPDATE characters SET ${[...sets, 'updated_at = @now'].join(', ')} WHERE id = @id`).run({ ...fields, id, now });
}
