// Rules version 2: events stored in a GM's database (or an exported file) under version 1 still replay. Every old
// shape reads as today's, and a fight stored in the old shapes replays to the same view as the same fight sent today.
import { describe, expect, it } from 'vitest';
import { EncounterEngine, parseEvent } from '../../encounter/kernel.ts';
import { defaultOptions } from '../options.ts';
import { teamsEncounter } from './encounter.ts';
import { teamsOptions } from './options.ts';
import { app, seed } from './testing.ts';
import { upcastTeams } from './upcast.ts';

const roll = app(3);
const OLD_TO_NEW: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ['a parry names its item', { type: 'DEFEND', id: 'parry:weapon' }, { type: 'DEFEND', defence: 'parry', slot: 'weapon' }],
  ['a shield parry', { type: 'DEFEND', id: 'parry:shield' }, { type: 'DEFEND', defence: 'parry', slot: 'shield' }],
  ['an interception names the ally', { type: 'DEFEND', id: 'intercept:b1' }, { type: 'DEFEND', defence: 'intercept', interceptorId: 'b1' }],
  ['a block', { type: 'DEFEND', id: 'block' }, { type: 'DEFEND', defence: 'block' }],
  ['a dodge keeps its rolls', { type: 'DEFEND', id: 'dodge', testRoll: roll, luckRoll: roll }, { type: 'DEFEND', defence: 'dodge', testRoll: roll, luckRoll: roll }],
  ['taking the hit', { type: 'DEFEND', id: 'none' }, { type: 'DEFEND', defence: 'none' }],
  ['Fortify', { type: 'CONSCIOUSNESS', id: 'fortify', testRoll: roll, luckRoll: roll }, { type: 'CONSCIOUSNESS', decision: 'fortify', testRoll: roll, luckRoll: roll }],
  ['falling unconscious', { type: 'CONSCIOUSNESS', id: 'unconscious' }, { type: 'CONSCIOUSNESS', decision: 'unconscious' }],
  ['continuing an extended action', { type: 'EXTENDED', id: 'continue', testRoll: roll }, { type: 'EXTENDED', decision: 'continue', testRoll: roll }],
  ['abandoning it', { type: 'EXTENDED', id: 'abandon' }, { type: 'EXTENDED', decision: 'abandon' }],
  ['waiving the opening attack', { type: 'OPENING_ATTACK', id: 'waive' }, { type: 'OPENING_ATTACK', decision: 'waive' }],
  ['the death test had a bare id', { type: 'LUCK_TEST', id: 'roll', luckRoll: roll }, { type: 'LUCK_TEST', luckRoll: roll }],
  ['moving to a team', { type: 'SET_TEAM', id: 'a1', team: 'town' }, { type: 'SET_TEAM', combatantId: 'a1', team: 'town' }],
  ['who cannot be surprised', { type: 'SET_UNSURPRISABLE', id: 'a1', unsurprisable: true }, { type: 'SET_UNSURPRISABLE', combatantId: 'a1', unsurprisable: true }],
  ['who takes the turn', { type: 'SELECT_MEMBER', id: 'a1' }, { type: 'SELECT_MEMBER', combatantId: 'a1' }],
  ['whose readied action fires', { type: 'FIRE_READIED', id: 'a1', note: 'now' }, { type: 'FIRE_READIED', combatantId: 'a1', note: 'now' }],
  ['a removal (the shared rename)', { type: 'REMOVE_COMBATANT', id: 'a1', reason: 'fled' }, { type: 'REMOVE_COMBATANT', combatantId: 'a1', reason: 'fled' }],
];

describe('Teams events of rules version 1 read as version 2', () => {
  it.each(OLD_TO_NEW)('%s', (_what, old, today) => {
    expect(parseEvent(teamsEncounter, old)).toEqual(today);
  });

  it('leaves today\'s shapes and other events as they are', () => {
    for (const [, , today] of OLD_TO_NEW) expect(upcastTeams(today)).toBe(today);
    const attack = { type: 'ATTACK', attackerId: 'a', targetId: 'b' };
    expect(upcastTeams(attack)).toBe(attack);
    expect(upcastTeams(null)).toBeNull();
    expect(teamsEncounter.rulesVersion).toBe(2);
  });

  it('refuses a parry without its item and an interception without its ally, with a sentence', () => {
    const e = hitFight(EncounterEngine.create(teamsEncounter, input()));
    expect(() => e.apply({ type: 'DEFEND', defence: 'parry' })).toThrow('Say which item parries: the weapon or the shield.');
    expect(() => e.apply({ type: 'DEFEND', defence: 'intercept' })).toThrow('Say who intercepts.');
  });

  it('a fight stored in the old shapes replays to the view the same fight gives today', () => {
    const today = hitFight(EncounterEngine.create(teamsEncounter, input()));
    today.apply({ type: 'DEFEND', defence: 'parry', slot: 'weapon' });
    today.apply({ type: 'END_TURN' });
    today.apply({ type: 'SELECT_MEMBER', combatantId: 'g1' });
    const old = EncounterEngine.resume(teamsEncounter, input(), null, [
      ...SETUP,
      { type: 'SELECT_MEMBER', id: 'p1' },
      ATTACK,
      { type: 'DEFEND', id: 'parry:weapon' },
      { type: 'END_TURN' },
      { type: 'SELECT_MEMBER', id: 'g1' },
    ]);
    expect(old.view()).toEqual(today.view());
  });
});

const input = () => ({ options: defaultOptions(teamsOptions), carried: {} });
const SETUP = [
  { type: 'ADD_COMBATANTS', combatants: [seed('p1', 'party'), seed('p2', 'party'), seed('g1', 'gm', { shield: 'round' })] },
  { type: 'START' },
];
const ATTACK = { type: 'ATTACK', attackerId: 'p1', targetId: 'g1', attribute: 'strength', proficiency: 'martial', testRoll: app(6, 6), luckRoll: app(10) };

/** p1 hits g1, whose defence is asked. */
function hitFight(e: EncounterEngine): EncounterEngine {
  for (const event of SETUP) e.apply(event);
  e.apply({ type: 'SELECT_MEMBER', combatantId: 'p1' });
  e.apply(ATTACK);
  expect(e.view().prompt?.answer).toBe('DEFEND');
  return e;
}
