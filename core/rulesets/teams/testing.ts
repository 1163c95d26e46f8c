// Test helpers for the Teams ruleset: seeds with the default sheet, rolls, and an engine already set up.
import { EncounterEngine } from '../../encounter/kernel.ts';
import type { CombatantSeed, GmEvent } from '../../encounter/types.ts';
import { defaultOptions } from '../options.ts';
import { defaultSheet } from '../sheet.ts';
import { teamsEncounter } from './encounter.ts';
import { teamsOptions } from './options.ts';
import type { TeamsCombatant, TeamsContext } from './rules.ts';
import { teamsSheet } from './sheet.ts';

export const app = (...faces: number[]) => ({ faces, source: 'app' as const });

const nameFor = (id: string) => id[0]!.toUpperCase() + id.slice(1);

export function seed(id: string, side: string, sheet: Record<string, string | number | boolean> = {}, extra: Partial<CombatantSeed> = {}): CombatantSeed {
  return { id, name: nameFor(id), side, characterId: null, sheet: { ...defaultSheet(teamsSheet), ...sheet }, ...extra };
}

export function encounter(options: Record<string, string | number | boolean> = {}): EncounterEngine {
  return EncounterEngine.create(teamsEncounter, { options: { ...defaultOptions(teamsOptions), ...options }, carried: {} });
}

/** A started fight: party ids vs enemy ids, party first, no instigator. */
export function fight(party: CombatantSeed[], enemies: CombatantSeed[], options: Record<string, string | number | boolean> = {}): EncounterEngine {
  const e = encounter(options);
  e.apply({ type: 'ADD_COMBATANTS', combatants: [...party, ...enemies] });
  e.apply({ type: 'START' });
  return e;
}

export const ctx = (e: EncounterEngine) => e.snapshot.context as TeamsContext;
export const who = (e: EncounterEngine, id: string): TeamsCombatant => ctx(e).combatants[id]!;
export const activeName = (e: EncounterEngine) => (e.view().activeId ? who(e, e.view().activeId!).name : null);

/** Picks a member at its team's go and starts its turn. */
/** The team whose member the pick prompt offers (its choices are that team's members), or null with no pick open. */
export const teamPicking = (e: EncounterEngine): string | null => {
  const prompt = e.view().prompt;
  return prompt?.kind === 'selectMember' && prompt.choices[0] ? who(e, prompt.choices[0].id).team : null;
};
export const pick = (e: EncounterEngine, id: string) => e.apply({ type: 'SELECT_MEMBER', combatantId: id });

/** Picks and ends turns for the given ids in order, returning the team of each turn. */
export function turns(e: EncounterEngine, ids: string[]): string[] {
  return ids.map((id) => {
    pick(e, id);
    const team = who(e, id).team;
    e.apply({ type: 'END_TURN' });
    return team;
  });
}

/** Plays a whole round picking the first eligible member of each team; returns the team sequence. */
export function playRound(e: EncounterEngine): string[] {
  const round = e.view().round;
  const sequence: string[] = [];
  for (let i = 0; i < 100 && e.view().round === round && e.view().prompt?.answer === 'SELECT_MEMBER'; i += 1) {
    const id = e.view().prompt!.choices[0]!.id;
    pick(e, id);
    sequence.push(who(e, id).team);
    e.apply({ type: 'END_TURN' });
  }
  return sequence;
}

export const attack = (attackerId: string, targetId: string, test: number[], luck: number, extra: Partial<GmEvent> = {}): GmEvent => ({
  type: 'ATTACK', attackerId, targetId, attribute: 'strength', proficiency: 'martial', testRoll: app(...test), luckRoll: app(luck), ...extra,
});

/** Boudica's spear (§2.4 worked examples): str/dex, finesse/martial, damage 4 piercing, critical 8 at 19+. */
export const SPEAR = {
  weaponName: 'Spear', weaponAttributes: 'strengthOrDexterity', weaponProficiencies: 'martialOrFinesse',
  weaponDamage: 4, weaponCritDamage: 8, weaponCritThreshold: 19, weaponDamageType: 'piercing', weaponDelivery: 'melee',
} as const;
