// The ruleset registry: one line per ruleset (its folder's definition). The list of ruleset ids is read from here.
import { anySystem } from './any-system/index.ts';
import { cairnErrant } from './cairn-errant/index.ts';
import { enigma } from './enigma/index.ts';
import { factions } from './factions/index.ts';
import { teams } from './teams/index.ts';
import { thrum } from './thrum/index.ts';
import type { RulesetDefinition } from './types.ts';

export const RULESETS: readonly RulesetDefinition[] = [enigma, teams, factions, cairnErrant, thrum, anySystem];

const byId = new Map(RULESETS.map((r) => [r.id, r]));

export function findRuleset(id: string): RulesetDefinition | undefined {
  return byId.get(id);
}
