import type { EncounterRules } from '../encounter/types.ts';
import type { RecoveryRules } from '../ledger/types.ts';
import type { RulingOption } from './options.ts';
import type { SheetSchema } from './sheet.ts';

export const RULESET_IDS = ['enigma', 'teams', 'factions', 'cairn-errant', 'thrum'] as const;
export type RulesetId = (typeof RULESET_IDS)[number];

export interface RulesetDefinition {
  id: RulesetId;
  name: string;
  /** One line for the campaign picker. */
  summary: string;
  sheet: SheetSchema;
  options: readonly RulingOption[];
  /** Present once the ruleset's encounter flow is implemented. */
  encounter?: EncounterRules;
  /** Recovery between fights: the actions of the campaign ledger and the recovery screen. */
  recovery?: RecoveryRules;
}
