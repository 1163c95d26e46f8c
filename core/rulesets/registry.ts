// The ruleset registry: all five rulesets with their sheets and rulings; those with an encounter flow are playable.
import { cairnErrant } from './cairn-errant/index.ts';
import { enigma } from './enigma/index.ts';
import { factions } from './factions/index.ts';
import { teams } from './teams/index.ts';
import { thrum } from './thrum/index.ts';
import type { RulesetDefinition, RulesetId } from './types.ts';

export const RULESETS: readonly RulesetDefinition[] = [enigma, teams, factions, cairnErrant, thrum];

const byId = new Map(RULESETS.map((r) => [r.id, r]));

export function findRuleset(id: string): RulesetDefinition | undefined {
  return byId.get(id as RulesetId);
}
