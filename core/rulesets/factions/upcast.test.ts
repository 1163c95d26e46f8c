// Events stored before rules version 2 still replay: every old shape reads as today's (upcast.ts), and a whole fight
// sent in the old shapes ends in the same view and log as the same fight in today's.
import { describe, expect, it } from 'vitest';
import { parseEvent } from '../../encounter/kernel.ts';
import { factionsEncounter } from './encounter.ts';
import { app, encounter, seed, texts } from './testing.ts';
import { upcastFactionsEvent } from './upcast.ts';

const roll = app(7);

/** [old shape, today's shape] for every event whose fields changed. */
const SHAPES: [Record<string, unknown>, Record<string, unknown>][] = [
  [{ type: 'SET_FACTION', id: 'a', faction: 'gm' }, { type: 'SET_FACTION', combatantId: 'a', faction: 'gm' }],
  [{ type: 'SET_CONCEALED', id: 'a', concealed: true }, { type: 'SET_CONCEALED', combatantId: 'a', concealed: true }],
  [{ type: 'SET_ZONE', id: 'a', zone: 'hall' }, { type: 'SET_ZONE', combatantId: 'a', zone: 'hall' }],
  [{ type: 'SET_STATUS', id: 'a', status: 'unaware', on: true }, { type: 'SET_STATUS', combatantId: 'a', status: 'unaware', on: true }],
  [{ type: 'SET_GROUP', label: 'Archers', ids: ['a', 'b'] }, { type: 'SET_GROUP', label: 'Archers', memberIds: ['a', 'b'] }],
  [{ type: 'SET_INITIATIVE', id: 'party' }, { type: 'SET_INITIATIVE', faction: 'party' }],
  [{ type: 'SET_INITIATIVE', id: 'random', roll }, { type: 'SET_INITIATIVE', faction: 'random', roll }],
  [{ type: 'CHOOSE_FIRST_FACTION', id: 'gm' }, { type: 'CHOOSE_FIRST_FACTION', faction: 'gm' }],
  [{ type: 'SELECT_CHARACTER', id: 'a' }, { type: 'SELECT_CHARACTER', combatantId: 'a' }],
  [{ type: 'SELECT_CHARACTER', id: 'pass' }, { type: 'SELECT_CHARACTER', pass: true }],
  [{ type: 'ROLL_FAT', id: 'roll', roll }, { type: 'ROLL_FAT', roll }],
  [{ type: 'MORALE_ROLL', id: 'roll', roll }, { type: 'MORALE_ROLL', roll }],
  [{ type: 'RESOLVE_ATTACK', id: 'roll', damageRoll: roll, counterRoll: roll }, { type: 'RESOLVE_ATTACK', damageRoll: roll, counterDamageRoll: roll }],
  [{ type: 'ATTACK', attackerId: 'a', targetIds: ['b'], kind: 'ranged', range: 'beyondHalf', witRoll: roll }, { type: 'ATTACK', attackerId: 'a', targetIds: ['b'], kind: 'ranged', range: 'beyondHalf', attackRoll: roll }],
  [{ type: 'STUNT_ANSWER', id: 'accept' }, { type: 'STUNT_ANSWER', decision: 'accept' }],
  [{ type: 'MORALE_OUTCOME', id: 'retreat' }, { type: 'MORALE_OUTCOME', outcome: 'retreat' }],
  [{ type: 'DURABILITY_RESULT', id: 'damaged' }, { type: 'DURABILITY_RESULT', result: 'damaged' }],
  [{ type: 'REACT', id: 'none' }, { type: 'REACT', reaction: 'none' }],
  [{ type: 'REACT', id: 'dodge', roll }, { type: 'REACT', reaction: 'dodge', roll }],
  [{ type: 'REACT', id: 'counter' }, { type: 'REACT', reaction: 'counter' }],
  [{ type: 'REACT', id: 'counter:rangedFar', roll }, { type: 'REACT', reaction: 'counter', counterPreset: 'rangedFar', roll }],
  [{ type: 'REACT', id: 'counter:unarmed', counter: { kind: 'melee', witRoll: roll } }, { type: 'REACT', reaction: 'counter', counterPreset: 'unarmed', counter: { kind: 'melee', attackRoll: roll } }],
  [{ type: 'REACT', id: 'hideBehind:b' }, { type: 'REACT', reaction: 'hideBehind', behindId: 'b' }],
  [{ type: 'REACT', id: 'guard:c' }, { type: 'REACT', reaction: 'guard', guardId: 'c' }],
  [{ type: 'REMOVE_COMBATANT', id: 'a', reason: 'fled' }, { type: 'REMOVE_COMBATANT', combatantId: 'a', reason: 'fled' }],
];

describe('old event shapes (rules version 1)', () => {
  it.each(SHAPES)('%j reads as today\'s shape', (old, today) => {
    expect(parseEvent(factionsEncounter, old)).toEqual(today);
    // Today's shape is left as it is.
    expect(upcastFactionsEvent(today)).toEqual(today);
  });

  it('is rules version 2', () => {
    expect(factionsEncounter.rulesVersion).toBe(2);
  });

  it('a fight stored in the old shapes replays to the same view and log as the same fight today', () => {
    const seeds = [seed('hero', 'party'), seed('ally', 'party'), seed('foe', 'gm')];
    const old = [
      { type: 'ADD_COMBATANTS', combatants: seeds },
      { type: 'SET_CONCEALED', id: 'ally', concealed: false },
      { type: 'SET_ZONE', id: 'hero', zone: 'hall' },
      { type: 'SET_INITIATIVE', id: 'party' },
      { type: 'START' },
      { type: 'CHOOSE_FIRST_FACTION', id: 'gm' },
      { type: 'SELECT_CHARACTER', id: 'foe' },
      { type: 'ATTACK', attackerId: 'foe', targetIds: ['hero'], kind: 'ranged', range: 'beyondHalf', witRoll: app(1) },
      { type: 'REACT', id: 'hideBehind:ally' },
      { type: 'REACT', id: 'none' },
      { type: 'RESOLVE_ATTACK', id: 'roll', damageRoll: app(3) },
      { type: 'END_TURN' },
      { type: 'SELECT_CHARACTER', id: 'pass' },
      { type: 'SET_STATUS', id: 'foe', status: 'unaware', on: true },
    ];
    const today = old.map((e) => upcastFactionsEvent(e) as Record<string, unknown>);
    expect(today.some((e) => 'id' in e || 'witRoll' in e)).toBe(false);
    const play = (events: unknown[]) => {
      const e = encounter();
      const log = events.flatMap((event) => texts(e.apply(event)));
      return { view: e.view(), log };
    };
    const before = play(old);
    expect(before.log).toContain('Hero hides behind Ally, who agrees (the reaction is Hero\'s turn): Ally becomes the target and may react.');
    expect(play(today)).toEqual(before);
  });
});
