// Rules version 2 (upcast.ts): every event Thrum stored with a bare `id` reads in today's shape, and today's events
// are left as they are.
import { describe, expect, it } from 'vitest';
import { thrumEncounter } from './encounter.ts';
import { upcastThrum } from './upcast.ts';

const roll = { faces: [3, 4], source: 'manual' as const };

const OLD_TO_NEW: [unknown, unknown][] = [
  [{ type: 'SET_SIDE', id: 'ally', side: 'party' }, { type: 'SET_SIDE', combatantId: 'ally', side: 'party' }],
  [{ type: 'PLACE_NPC', id: 'orc', square: { x: 1, y: 2 } }, { type: 'PLACE_NPC', combatantId: 'orc', square: { x: 1, y: 2 } }],
  [{ type: 'ROLL_INITIATIVE', id: 'ana', roll }, { type: 'ROLL_INITIATIVE', combatantId: 'ana', roll }],
  [{ type: 'BREAK_TIE', id: 'ana' }, { type: 'BREAK_TIE', combatantId: 'ana' }],
  [{ type: 'DELAY', id: 'ana', afterId: 'bo' }, { type: 'DELAY', combatantId: 'ana', afterId: 'bo' }],
  [{ type: 'PANIC_ROLL', id: 'ana', roll }, { type: 'PANIC_ROLL', combatantId: 'ana', roll }],
  [{ type: 'INCAPACITY_ROLL', id: 'ana', roll }, { type: 'INCAPACITY_ROLL', combatantId: 'ana', roll }],
  [{ type: 'FORCED_MOVE', id: 'orc', squares: 2, source: 'a shove' }, { type: 'FORCED_MOVE', combatantId: 'orc', squares: 2, source: 'a shove' }],
  [{ type: 'SET_POSITION', id: 'orc', square: null, note: '' }, { type: 'SET_POSITION', combatantId: 'orc', square: null, note: '' }],
  [{ type: 'DEFENSE_CHOICE', id: 'evasion' }, { type: 'DEFENSE_CHOICE', defence: 'evasion' }],
  [{ type: 'DEFENSE_RESULT', id: 'failure' }, { type: 'DEFENSE_RESULT', outcome: 'failure' }],
  [{ type: 'DEFENSE_RESULT', id: 'roll', attackRoll: roll, defenceRoll: roll }, { type: 'DEFENSE_RESULT', outcome: 'roll', attackRoll: roll, defenceRoll: roll }],
  [{ type: 'BUFF_CHOICE', id: 'takeNew' }, { type: 'BUFF_CHOICE', decision: 'takeNew' }],
  [{ type: 'RESOLVE_TRIGGER', id: 'bo' }, { type: 'RESOLVE_TRIGGER', ownerId: 'bo' }],
];

describe('Thrum rules version 2: no bare id', () => {
  it.each(OLD_TO_NEW)('reads the stored %j as today\'s shape, which the schema accepts', (old, today) => {
    const read = upcastThrum(old);
    expect(read).toEqual(today);
    expect(thrumEncounter.eventSchema.safeParse(read).success).toBe(true);
    // The old shape itself is no longer an event.
    expect(thrumEncounter.eventSchema.safeParse(old).success).toBe(false);
  });

  it('leaves today\'s events, other events and what is not an event unchanged', () => {
    for (const [, today] of OLD_TO_NEW) expect(upcastThrum(today)).toBe(today);
    const attack = { type: 'ATTACK', attackerId: 'ana', ability: 'Strike', attackType: 'physical', targets: [{ targetId: 'orc' }], fatigue: 1, stress: 0 };
    expect(upcastThrum(attack)).toBe(attack);
    for (const other of [null, 'DELAY', 3, ['DELAY'], { id: 'ana' }]) expect(upcastThrum(other)).toBe(other);
  });

  it('is rules version 2', () => {
    expect(thrumEncounter.rulesVersion).toBe(2);
  });
});
