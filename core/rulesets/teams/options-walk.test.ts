// Every Teams option changes behaviour (issue 27): for each option the ruleset declares, and each value other than
// its default, a short case through the public API whose outcome differs from the default's. The options are read
// from `teamsOptions`, so a new option without a case turns this red; an option with a single choice chooses
// nothing and is refused too (it belongs in RETIRED_TEAMS_OPTIONS as a documented constant).
import { describe, expect, it } from 'vitest';
import type { EncounterEngine } from '../../encounter/kernel.ts';
import type { GmEvent } from '../../encounter/types.ts';
import { defaultOptions, otherValues, type OptionValues } from '../options.ts';
import { teamsEncounter } from './encounter.ts';
import { app, attack, encounter, fight, pick, seed, turns, who } from './testing.ts';
import { teamsOptions } from './options.ts';

type Options = OptionValues;
const still = (id: string, side: string, sheet: Record<string, string | number | boolean> = {}) => seed(id, side, { stamina: 0, ...sheet });
/** The sentence of a refusal, or "taken". */
const outcome = (run: () => unknown): string => {
  try {
    run();
    return 'taken';
  } catch (error) {
    return (error as Error).message;
  }
};
const dodgeTrap = (id: string): GmEvent => ({ type: 'REACTION_TEST', reactorId: id, reaction: 'dodge', difficulty: 5, against: 'a falling net', testRoll: app(3, 3), luckRoll: app(4) });

/** Brute hits Hero (sword, shield) for 12 + 4 slashing; the defence window is open. */
function hit(options: Options): EncounterEngine {
  const e = fight(
    [still('brute', 'party', { weaponName: 'Axe', weaponDamage: 4, weaponCritThreshold: 20, weaponDamageType: 'slashing' })],
    [seed('hero', 'gm', { weaponName: 'Sword', shieldName: 'Shield', shieldBlock: 3, physicalDeflection: 2, elementalDeflection: 1 })],
    options,
  );
  pick(e, 'brute');
  e.apply(attack('brute', 'hero', [6, 6], 5));
  return e;
}

/** One case per option: the outcome under the given options. */
const cases: Record<string, (options: Options) => unknown> = {
  prefillInstigatorAttack: (options) => {
    const e = encounter(options);
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('clementine', 'party'), seed('guard', 'gm')] });
    e.apply({ type: 'SET_INSTIGATOR', combatantId: 'clementine' });
    e.apply({ type: 'START' });
    pick(e, 'clementine');
    return e.view().prompt?.kind ?? null;
  },
  roundStartTeam: (options) => {
    const e = fight(['p1', 'p2', 'p3'].map((id) => seed(id, 'party')), ['g1', 'g2'].map((id) => seed(id, 'gm')), options);
    turns(e, ['p1', 'g1', 'p2', 'g2', 'p3']);
    return e.view().prompt!.text;
  },
  surprisedCannotReact: (options) => {
    const e = encounter(options);
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('roland', 'party'), seed('ga', 'gm')] });
    e.apply({ type: 'DECLARE_SURPRISE', team: 'gm' });
    e.apply({ type: 'START' });
    return outcome(() => e.apply(dodgeTrap('roland')));
  },
  reactionCap: (options) => {
    // A reaction after the owner's turn, then again in the next round before their turn comes.
    const nextRound = fight([seed('p1', 'party')], [seed('g1', 'gm')], options);
    turns(nextRound, ['p1']);
    nextRound.apply(dodgeTrap('p1'));
    turns(nextRound, ['g1']);
    // A reaction before the owner's turn, then again after it in the same round.
    const sameRound = encounter(options);
    sameRound.apply({ type: 'ADD_COMBATANTS', combatants: [seed('p1', 'party'), seed('g1', 'gm'), seed('g2', 'gm')] });
    sameRound.apply({ type: 'SET_TEAM_ORDER', teams: ['gm', 'party'] });
    sameRound.apply({ type: 'START' });
    pick(sameRound, 'g1');
    sameRound.apply(dodgeTrap('p1'));
    sameRound.apply({ type: 'END_TURN' });
    turns(sameRound, ['p1']);
    return [outcome(() => nextRound.apply(dodgeTrap('p1'))), outcome(() => sameRound.apply(dodgeTrap('p1')))];
  },
  readyUsesReaction: (options) => {
    const e = fight([seed('p1', 'party')], [seed('g1', 'gm')], options);
    pick(e, 'p1');
    e.apply({ type: 'ACTION', kind: 'ready', trigger: 'a guard moves', readied: 'shout' });
    pick(e, 'g1');
    e.apply({ type: 'FIRE_READIED', combatantId: 'p1' });
    return who(e, 'p1').reactionSpent;
  },
  stepExcludesMove: (options) => {
    const e = fight([seed('hero', 'party')], [seed('foe', 'gm')], options);
    pick(e, 'hero');
    e.apply({ type: 'FREE_ACTION', kind: 'step' });
    return outcome(() => e.apply({ type: 'ACTION', kind: 'move' }));
  },
  resuscitateDifficulty: (options) => {
    const e = fight([seed('medic', 'party'), seed('vic', 'party', { health: 9, unconscious: true })], [seed('foe', 'gm')], options);
    pick(e, 'medic');
    return outcome(() => e.apply({ type: 'ACTION', kind: 'resuscitate', targetId: 'vic', dice: [6], testRoll: app(3), luckRoll: app(2) }));
  },
  freeReactionsPayResources: (options) => {
    const e = fight([still('brute', 'party')], [seed('hero', 'gm', { stamina: 0 }), seed('bodyguard', 'gm', { weaponName: 'Mace' })], options);
    pick(e, 'brute');
    e.apply(attack('brute', 'hero', [6, 6], 5));
    e.apply({ type: 'DEFEND', defence: 'intercept', interceptorId: 'bodyguard' });
    e.apply({ type: 'DEFEND', defence: 'parry', slot: 'weapon' });
    return who(e, 'bodyguard').stamina;
  },
  multipleAttackPenaltyScope: (options) => {
    const e = fight([seed('hero', 'party'), seed('ally', 'party')], [still('foe', 'gm', { evasion: 30 })], options);
    pick(e, 'hero');
    e.apply({ type: 'ACTION', kind: 'command', targetId: 'ally' });
    e.apply(attack('ally', 'foe', [1, 1], 5, { via: 'command' }));
    return who(e, 'ally').attacksThisRound;
  },
  killingStrikeTest: (options) => {
    const e = fight([seed('killer', 'party')], [seed('vic', 'gm', { unconscious: true, health: 5, constitution: 20 })], options);
    pick(e, 'killer');
    return teamsEncounter.rollsFor!(e.snapshot, { type: 'KILLING_STRIKE', targetId: 'vic', attribute: 'strength', proficiency: 'martial' }).map((r) => r.notation);
  },
  dodgeTarget: (options) => {
    const e = hit(options);
    e.apply({ type: 'DEFEND', defence: 'dodge', testRoll: app(6, 2), luckRoll: app(20) }); // 8 + 4 = 12 against the attack's 12
    return who(e, 'hero').endurance;
  },
  parryAfterHit: (options) => hit(options).view().prompt!.choices.map((c) => c.id),
  damageUsesPenalisedTest: (options) => {
    const e = fight([still('brute', 'party')], [still('foe', 'gm', { evasion: 1, enduranceMax: 99, endurance: 99 })], options);
    pick(e, 'brute');
    e.apply(attack('brute', 'foe', [1, 1], 5));
    const before = who(e, 'foe').endurance;
    e.apply(attack('brute', 'foe', [3, 3], 5));
    return before - who(e, 'foe').endurance;
  },
  parryScope: (options) => {
    const e = fight([still('mage', 'party', { weaponName: 'Firebolt', weaponDamageType: 'fire', weaponDamage: 2 })], [seed('hero', 'gm', { weaponName: 'Sword', elementalDeflection: 1 })], options);
    pick(e, 'mage');
    e.apply(attack('mage', 'hero', [3, 3], 5));
    e.apply({ type: 'DEFEND', defence: 'parry', slot: 'weapon' });
    return who(e, 'hero').endurance;
  },
  blockOverflowDeflection: (options) => {
    const e = hit(options);
    e.apply({ type: 'DEFEND', defence: 'block' });
    return who(e, 'hero').endurance;
  },
  killingStrikeWeapons: (options) => {
    const strike = (sheet: Record<string, string | number | boolean>) => {
      const e = fight([seed('killer', 'party', sheet)], [seed('vic', 'gm', { unconscious: true, health: 5 })], options);
      pick(e, 'killer');
      return outcome(() => e.apply({ type: 'KILLING_STRIKE', targetId: 'vic', attribute: 'strength', proficiency: 'martial', testRoll: app(6, 6, 6, 6), luckRoll: app(5) }));
    };
    return [strike({ weaponName: 'Sap', weaponNonlethal: true }), strike({ weaponName: 'Sword' })];
  },
  poolsAfterCombat: (options) => {
    const e = fight([seed('hero', 'party', {}, { characterId: 'pc-hero' })], [seed('foe', 'gm')], options);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 5, source: 'a trap' });
    e.apply({ type: 'END_COMBAT', outcome: 'The foe fled.' });
    return teamsEncounter.consequences!(e.snapshot).carry![0]!.state['endurance'];
  },
  overkillBasis: (options) => {
    const e = fight([seed('vic', 'party', { endurance: 3, health: 5 }), seed('friend', 'party')], [seed('foe', 'gm')], options);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'vic', amount: 8, source: 'a rockfall' });
    return e.view().prompt?.kind;
  },
};

describe('every Teams option changes an outcome', () => {
  const defaults = defaultOptions(teamsOptions);
  for (const option of teamsOptions) {
    const values = otherValues(option);
    if (values.length === 0) continue;
    for (const value of values) {
      it(`${option.ruling} ${option.key} = ${String(value)} differs from ${String(option.default)}`, () => {
        const play = cases[option.key];
        expect(play, `no case for ${option.key}`).toBeDefined();
        expect(play!({ ...defaults, [option.key]: value })).not.toEqual(play!(defaults));
      });
    }
  }

});
