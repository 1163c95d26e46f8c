// Every option changes behaviour: for each option Factions declares (read from `factionsOptions`, so a new option
// without a case fails here) and each value other than the default, a short case played through the public API
// gives a different outcome than the default does. An option with a single choice chooses nothing and fails here:
// such a ruling is a documented constant (RETIRED_FACTIONS_OPTIONS), not an option.
import { describe, expect, it } from 'vitest';
import { defaultOptions, otherValues } from '../options.ts';
import { factionsEncounter } from './encounter.ts';
import { factionsOptions } from './options.ts';
import { app, damage, encounter, fight, melee, seed, who } from './testing.ts';

type Values = Record<string, string | number | boolean>;
const defaults = defaultOptions(factionsOptions) as Values;

/** Plays the case and returns what it shows: a refusal's sentence counts as an outcome too. */
function outcome(play: (options: Values) => unknown, options: Values): string {
  try {
    return JSON.stringify(play({ ...defaults, ...options }) ?? null);
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

const heavyHit = (o: Values) => {
  const e = fight([seed('hero', 'party', { weaponDie: 10 }), seed('foe', 'gm', { str: 20, healthMax: 20, health: 20, armour: 3, armourDamaged: true, hasShield: true, shieldDamaged: true })], o);
  e.apply(melee('hero', 'foe'));
  e.apply({ type: 'REACT', reaction: 'none' });
  e.apply(damage(8));
  return who(e, 'foe').gear;
};

const CASES: Record<string, Record<string, (o: Values) => unknown>> = {
  initiativePerPhase: {
    oncePerRound: (o) => {
      const e = encounter({ ...o, fastSlow: true });
      e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party', { wit: 15 }), seed('foe', 'gm', { wit: 15 })] });
      e.apply({ type: 'SET_INITIATIVE', faction: 'party' });
      e.apply({ type: 'START' });
      e.apply({ type: 'ROLL_FAT', roll: app(10) });
      e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'gm' });
      e.apply({ type: 'PASS' });
      e.apply({ type: 'PASS' });
      return e.view().prompt?.answer;
    },
  },
  pcMorale: {
    false: (o) => {
      const f = fight([seed('hero', 'party'), seed('foe', 'gm'), seed('imp', 'gm')], o);
      f.apply({ type: 'END_TURN' });
      f.apply({ type: 'SELECT_CHARACTER', combatantId: 'foe' });
      f.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 4, source: 'club', byId: 'foe' });
      f.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 1, source: 'club', byId: 'foe' });
      f.apply({ type: 'END_TURN' });
      f.apply({ type: 'PASS' });
      return f.view().prompt?.answer;
    },
  },
  loneFighter: {
    lastStanding: (o) => {
      const e = fight([seed('hero', 'party'), seed('ally', 'party'), seed('foe', 'gm'), seed('imp', 'gm')], o);
      e.apply({ type: 'APPLY_DAMAGE', targetId: 'ally', amount: 10, source: '' });
      e.apply({ type: 'END_TURN' });
      e.apply({ type: 'PASS' });
      e.apply({ type: 'MORALE_ROLL', roll: app(2) });
      e.apply({ type: 'OVERRIDE', targetId: 'hero', field: 'moraleImmune', value: false, note: 'new stretch' });
      e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'gm' });
      e.apply({ type: 'SELECT_CHARACTER', combatantId: 'foe' });
      e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 4, source: '', byId: 'foe' });
      e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 2, source: '', byId: 'foe' });
      e.apply({ type: 'END_TURN' });
      e.apply({ type: 'PASS' });
      e.apply({ type: 'PASS' });
      return e.view().prompt?.answer;
    },
  },
  counterMustBeLegal: {
    false: (o) => {
      const e = fight([], o);
      e.apply({ type: 'SET_ZONE', combatantId: 'hero', zone: 'hall' });
      e.apply({ type: 'SET_ZONE', combatantId: 'foe', zone: 'gate' });
      e.apply({ type: 'ATTACK', attackerId: 'hero', targetIds: ['foe'], kind: 'ranged' });
      e.apply({ type: 'REACT', reaction: 'counter' });
      return e.view().prompt?.answer;
    },
  },
  grabbedMayReact: {
    true: (o) => {
      const e = fight([seed('hero', 'party', { str: 12 }), seed('foe', 'gm', { str: 5 }), seed('archer', 'gm')], o);
      e.apply(melee('hero', 'foe', { effect: 'grapple' }));
      e.apply({ type: 'REACT', reaction: 'none' });
      e.apply({ type: 'RESOLVE_ATTACK', saveRoll: app(9) });
      e.apply({ type: 'END_TURN' });
      e.apply({ type: 'PASS' });
      e.apply({ type: 'CHOOSE_FIRST_FACTION', faction: 'gm' });
      e.apply({ type: 'SELECT_CHARACTER', combatantId: 'archer' });
      e.apply({ type: 'ATTACK', attackerId: 'archer', targetIds: ['hero'], kind: 'ranged' });
      e.apply({ type: 'REACT', reaction: 'hideBehind', behindId: 'foe' });
      return e.view().prompt?.answer;
    },
  },
  redirectionChain: {
    once: (o) => {
      const e = fight([seed('hero', 'party'), seed('foe', 'gm'), seed('friend', 'gm'), seed('bodyguard', 'gm')], o);
      e.apply(melee('hero', 'foe'));
      e.apply({ type: 'REACT', reaction: 'hideBehind', behindId: 'friend' });
      e.apply({ type: 'REACT', reaction: 'hideBehind', behindId: 'bodyguard' });
      return e.view().prompt?.subjectId;
    },
  },
  impairedMode: {
    flatD4: (o) => {
      const e = fight([], o);
      e.apply(melee('hero', 'foe', { holdBack: true }));
      e.apply({ type: 'REACT', reaction: 'none' });
      return factionsEncounter.rollsFor!(e.snapshot, { type: 'RESOLVE_ATTACK' }).map((r) => r.notation);
    },
  },
  armourFloor: {
    one: (o) => {
      const e = fight([seed('hero', 'party'), seed('foe', 'gm', { armour: 3 })], o);
      e.apply(melee('hero', 'foe'));
      e.apply({ type: 'REACT', reaction: 'none' });
      e.apply(damage(2));
      return who(e, 'foe').health;
    },
  },
  heavyHitDestroys: { shieldAndArmour: heavyHit },
  meleeBlastDodgeable: {
    false: (o) => {
      const e = fight([seed('hero', 'party'), seed('foe', 'gm')], o);
      for (const id of ['hero', 'foe']) e.apply({ type: 'SET_ZONE', id, zone: 'hall' });
      e.apply({ type: 'ATTACK', attackerId: 'hero', targetIds: [], kind: 'melee', blast: true, zone: 'hall' });
      return e.view().prompt?.choices.map((c) => c.id);
    },
  },
  healthModel: {
    hpZeroIncapacitates: (o) => {
      const e = fight([seed('hero', 'party', { weaponDie: 12 }), seed('foe', 'gm', { str: 8, healthMax: 8, health: 8 })], o);
      e.apply(melee('hero', 'foe'));
      e.apply({ type: 'REACT', reaction: 'none' });
      e.apply(damage(4));
      return who(e, 'foe').incapacitated;
    },
  },
  damagedFailsAgain: {
    destroyed: (o) => {
      const e = fight([seed('foe', 'gm'), seed('hero', 'party', { armour: 1, armourDamaged: true })], o, 'foe');
      e.apply(melee('foe', 'hero'));
      e.apply({ type: 'REACT', reaction: 'none' });
      e.apply(damage(1));
      e.apply({ type: 'END_TURN' });
      e.apply({ type: 'END_COMBAT', outcome: 'the foe flees' });
      while (e.view().prompt?.answer === 'DURABILITY_RESULT') e.apply({ type: 'DURABILITY_RESULT', result: 'damaged' });
      return who(e, 'hero').gear;
    },
  },
  fastSlow: {
    true: (o) => {
      const e = encounter(o);
      e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party'), seed('foe', 'gm')] });
      e.apply({ type: 'SET_INITIATIVE', faction: 'party' });
      e.apply({ type: 'START' });
      return e.view().prompt?.answer;
    },
  },
  chaosOfCombat: {
    true: (o) => fight([], o).view().counters.find((c) => c.key === 'chaos')?.countdown,
  },
  chaosTimeoutAtZero: {
    false: (o) => fight([], { ...o, chaosOfCombat: true }).view().counters.find((c) => c.key === 'chaos'),
  },
};

describe('every Factions option changes what the engine does', () => {
  for (const option of factionsOptions) {
    const others = otherValues(option);
    if (others.length === 0) {
      it(`${option.key} is a choice that chooses nothing: give it a second reading or retire it`, () => expect(others, `${option.key} has a single choice`).not.toEqual([]));
      continue;
    }
    for (const value of others) {
      it(`${option.key}: ${String(value)} plays differently from ${String(option.default)}`, () => {
        const play = CASES[option.key]?.[String(value)];
        expect(play, `no case walks ${option.key} = ${String(value)}`).toBeDefined();
        const byDefault = outcome(play!, {});
        const byValue = outcome(play!, { [option.key]: value });
        expect(byValue).not.toBe(byDefault);
      });
    }
  }
});
