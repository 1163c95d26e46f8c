// Row shapes as stored, and their mapping to the API's types.
import type { CampaignSummary, Character, EncounterSummary, InjuryRecord } from '../core/api/contract.ts';
import type { InjuryRow } from './consequences.ts';

export interface CampaignRow {
  id: string;
  name: string;
  ruleset_id: string;
  options_json: string;
  party_json: string;
  /** The campaign's own condition list (JSON), or null for its ruleset's (migration 12). */
  conditions_json?: string | null;
  day?: number;
  session_id?: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  character_count?: number;
  encounter_count?: number;
}

export interface CharacterRow {
  id: string;
  campaign_id: string;
  role: 'pc' | 'npc';
  name: string;
  sheet_json: string;
  state_json?: string;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface EncounterRow {
  id: string;
  campaign_id: string;
  name: string;
  ruleset_id: string;
  input_json: string;
  phase: 'setup' | 'running' | 'ended';
  round: number;
  event_count: number;
  session_id?: string | null;
  day?: number | null;
  created_at: string;
  updated_at: string;
}

export const toCampaignSummary = (row: CampaignRow): CampaignSummary => ({
  id: row.id,
  name: row.name,
  rulesetId: row.ruleset_id,
  archived: row.archived_at !== null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  characterCount: row.character_count ?? 0,
  encounterCount: row.encounter_count ?? 0,
});

export const toCharacter = (row: CharacterRow): Character => ({
  id: row.id,
  campaignId: row.campaign_id,
  role: row.role,
  name: row.name,
  sheet: JSON.parse(row.sheet_json),
  condition: JSON.parse(row.state_json ?? '{}'),
  archived: row.archived_at !== null,
  updatedAt: row.updated_at,
});

export const toEncounterSummary = (row: Omit<EncounterRow, 'input_json'>): EncounterSummary => ({
  id: row.id,
  campaignId: row.campaign_id,
  name: row.name,
  phase: row.phase,
  round: row.round,
  eventCount: row.event_count,
  updatedAt: row.updated_at,
});

export const toInjuryRecord = (row: Pick<InjuryRow, 'id' | 'character_id' | 'name' | 'category' | 'data_json' | 'source_encounter_id' | 'source_seq' | 'created_at' | 'healed_at'>): InjuryRecord => ({
  id: row.id,
  characterId: row.character_id,
  name: row.name,
  category: row.category,
  data: JSON.parse(row.data_json),
  sourceEncounterId: row.source_encounter_id,
  sourceSeq: row.source_seq,
  createdAt: row.created_at,
  healedAt: row.healed_at,
});
