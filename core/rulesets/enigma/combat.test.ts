// Enigma's combat answers are kept for the last (context, event) pair the kernel and the machine ask about: an
// answer must never be given for another context, another event or the other side of `turnOpen`.
import { describe, expect, it } from 'vitest';
import { EncounterEngine } from '../../encounter/kernel.ts';
import type { CombatantSeed } from '../../encounter/types.ts';
import { defaultOptions } from '../options.ts';
import { applyCombat, combatRefusal, type CombatEvent } from './combat.ts';
import { enigmaEncounter } from './encounter.ts';
import { enigmaOptions } from './options.ts';
import type { EnigmaContext } from './rules.ts';

const seed = (id: string, side: 'party' | 'gm'): CombatantSeed => ({
  id, name: id[0]!.toUpperCase() + id.slice(1), side, characterId: null,
  sheet: { endure: 10, navigate: 8, glean: 8, attack: 8, influence: 8, manifest: 8, namedNpc: false, armoured: false, notes: '' },
});

function running(): EncounterEngine {
  const e = EncounterEngine.create(enigmaEncounter, { options: defaultOptions(enigmaOptions), carried: { escalation: null } });
  e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('hero', 'party'), seed('goblin', 'gm')] });
  e.apply({ type: 'SET_GM_ORDER', ids: ['goblin'] });
  e.apply({ type: 'START' });
  return e;
}
const contextOf = (e: EncounterEngine) => e.snapshot.context as EnigmaContext;

describe('combat answers kept per context and event', () => {
  it('gives each event its own next context, even asked of the same context one after the other', () => {
    const ctx = contextOf(running());
    const one: CombatEvent = { type: 'APPLY_DAMAGE', targetId: 'goblin', amount: 1, source: '' };
    const three: CombatEvent = { type: 'APPLY_DAMAGE', targetId: 'goblin', amount: 3, source: '' };
    expect(applyCombat(ctx, one).combatants['goblin']!.lp).toBe(9);
    expect(applyCombat(ctx, three).combatants['goblin']!.lp).toBe(7);
    expect(applyCombat(ctx, one).combatants['goblin']!.lp).toBe(9);
    // The same answer object for the same pair asked twice in a row: the machine's guard and action share it.
    expect(applyCombat(ctx, three)).toBe(applyCombat(ctx, three));
  });

  it('gives each context its own next context for the same event', () => {
    const e = running();
    const before = contextOf(e);
    const damage: CombatEvent = { type: 'APPLY_DAMAGE', targetId: 'goblin', amount: 2, source: '' };
    e.step(damage);
    const after = contextOf(e);
    expect(applyCombat(before, damage).combatants['goblin']!.lp).toBe(8);
    expect(applyCombat(after, damage).combatants['goblin']!.lp).toBe(6);
    expect(applyCombat(before, damage).combatants['goblin']!.lp).toBe(8);
  });

  it('answers a turn that is open and one that is not separately', () => {
    const ctx = contextOf(running());
    const move: CombatEvent = { type: 'MOVE', spaces: 2, pauses: 0 };
    expect(combatRefusal(ctx, move, true)).toBeNull();
    expect(combatRefusal(ctx, move, false)).toBe("Moving happens on a combatant's turn.");
    expect(combatRefusal(ctx, move, true)).toBeNull();
    expect(combatRefusal(ctx, { type: 'MOVE', spaces: 30, pauses: 0 }, true)).toMatch(/^Hero can cover 8 spaces in one Move/);
  });
});
