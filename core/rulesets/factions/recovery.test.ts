// Factions' after-the-fight and between-fights rules (RULES.md §3.6): group saves, durability, chases, stretches.
import { describe, expect, it } from 'vitest';
import { defaultOptions } from '../options.ts';
import { factionsOptions } from './options.ts';
import { IMPROVISED_WEAPON_STATE, applyDurability, durabilityRefusal, endStretch, groupSave, inventoryAfterFight, resolveChase, setHealth } from './recovery.ts';

const options = defaultOptions(factionsOptions);

describe('group saves (R-F8)', () => {
  it('compares one d20 with each score: a pass when the die shows the score or less', () => {
    expect(groupSave(9, [{ id: 'a', score: 9 }, { id: 'b', score: 8 }, { id: 'c', score: 15 }]).map((r) => r.passed)).toEqual([true, false, true]);
  });
});

describe('durability (§3.6, R-F22)', () => {
  it('a failed roll damages an intact item; a pass changes nothing', () => {
    expect(applyDurability('intact', 'damaged', options)).toBe('damaged');
    expect(applyDurability('intact', 'ok', options)).toBe('intact');
  });

  it('R-F22 an already damaged item that fails again stays damaged, or is destroyed with the alternative', () => {
    expect(applyDurability('damaged', 'damaged', options)).toBe('damaged');
    expect(applyDurability('damaged', 'damaged', { ...options, damagedFailsAgain: 'destroyed' })).toBe('destroyed');
  });

  it('has nothing to roll for an item that is missing or destroyed', () => {
    expect(durabilityRefusal('Hero', 'shield', 'none')).toBe('Hero has no shield.');
    expect(durabilityRefusal('Hero', 'armour', 'destroyed')).toBe("Hero's armour was destroyed and has left the inventory.");
    expect(durabilityRefusal('Hero', 'weapon', 'damaged')).toBeNull();
    expect(applyDurability('destroyed', 'damaged', options)).toBe('destroyed');
  });

  it('improvised weapons start damaged; destroyed items leave the inventory', () => {
    expect(IMPROVISED_WEAPON_STATE).toBe('damaged');
    expect(inventoryAfterFight({ weapon: 'damaged', shield: 'destroyed', armour: 'intact' })).toEqual({ kept: ['weapon', 'armour'], damaged: ['weapon'], lost: ['shield'] });
  });
});

describe('long chases (§3.6)', () => {
  const fleeing = [{ id: 'a', agi: 12 }, { id: 'b', agi: 7 }];
  it('the fleeing make a group AGI save: those who pass escape, those who fail are caught', () => {
    expect(resolveChase(fleeing, 'none', 10)).toEqual([{ id: 'a', escaped: true }, { id: 'b', escaped: false }]);
  });
  it('no save when the fleeing are faster; no escape when the pursuers are', () => {
    expect(resolveChase(fleeing, 'fleeingFaster', null)).toEqual([{ id: 'a', escaped: true }, { id: 'b', escaped: true }]);
    expect(resolveChase(fleeing, 'pursuersFaster', null)).toEqual([{ id: 'a', escaped: false }, { id: 'b', escaped: false }]);
  });
  it('refuses with a sentence', () => {
    expect(resolveChase(fleeing, 'none', null)).toBe('The group AGI save needs one d20.');
    expect(resolveChase([], 'none', 4)).toBe('Choose who is fleeing.');
  });
});

describe('the end of a stretch and health between fights', () => {
  it('lifts morale immunity and a failed check when the stretch ends (R-F8)', () => {
    expect(endStretch({ health: 5, moraleImmune: true })).toEqual({ health: 5, moraleImmune: false, moraleFailed: false });
    expect(endStretch({ health: 5 })).toBe('Nothing to clear: this character has no morale flag from this stretch.');
    expect(endStretch({ dead: true, moraleImmune: true })).toBe('A dead character has no stretch to end.');
  });

  it('sets health within 0 and the maximum; health above 0 ends dying', () => {
    expect(setHealth({ health: 0, dying: true }, 3, 10)).toEqual({ health: 3, dying: false });
    expect(setHealth({ health: 0 }, 11, 10)).toBe('Health is a whole number from 0 to 10.');
    expect(setHealth({ dead: true }, 3, 10)).toBe('A dead character cannot recover.');
  });
});
