// What one ruleset hands the app: everything the screens, handlers and exports ask of it, so nothing outside its
// folder names it (issue 29). Each ruleset's index.ts makes one with `defineRuleset`; core/rulesets/registry.ts lists
// them, and the list of ids is read from there (`RULESETS.map((r) => r.id)`), never written out elsewhere.
import type { EncounterRules } from '../encounter/types.ts';
import type { RecoveryRules } from '../ledger/types.ts';
import type { RulesetDemo } from './demo.ts';
import type { RulesetImports } from './importers.ts';
import type { RulingOption } from './options.ts';
import type { SheetSchema } from './sheet.ts';

/** A ruleset's id ('enigma', 'cairn-errant'): the registry holds the list, so the type is any string. */
export type RulesetId = string;

/** One kind of lasting record the ruleset writes onto a character (an injury category, a wound, a death). */
export interface RecordCategory {
  /** The record's `category` as stored. */
  key: string;
  /** What the character's history calls it ("Cheated death"). */
  label: string;
  /** Harm (an injury or wound, counted as open until it heals), or a mark riding the same channel (death, gear). */
  harm: boolean;
}

/** The lasting records of the ruleset: their kinds, and which ones never heal. */
export interface RecordKinds {
  categories: readonly RecordCategory[];
  /** Whether a record's stored data marks it permanent (it never heals). */
  isPermanent(data: Record<string, unknown>): boolean;
}

export interface RulesetDefinition {
  id: RulesetId;
  name: string;
  /** One line for the campaign picker. */
  summary: string;
  sheet: SheetSchema;
  options: readonly RulingOption[];
  /** The encounter flow: machine, events, view, consequences (every ruleset has one). */
  encounter: EncounterRules;
  /** Recovery between fights: the actions of the campaign ledger and the recovery screen (every ruleset has them). */
  recovery: RecoveryRules;
  /** The lasting records its fights and recovery write (the character's history, open injuries). */
  records: RecordKinds;
  /** The sample campaign "Load the demo campaigns" creates for it. */
  demo: RulesetDemo;
  /** Files of other trackers its campaigns read (the party, templates, encounters), when it offers any. */
  imports?: RulesetImports;
}

/** A ruleset's definition, checked against the contract where it is written (its folder's index.ts). */
export const defineRuleset = (definition: RulesetDefinition): RulesetDefinition => definition;
