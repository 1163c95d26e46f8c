// Factions' after-the-fight and between-fights rules (RULES.md §3.6): group saves, durability, chases, stretches.
import { describe, expect, it } from 'vitest';
import { defaultOptions } from '../options.ts';
import { factionsOptions } from './options.ts';
import { IMPROVISED_WEAPON_STATE, applyDurability, durabilityRefusal, endStretch, groupSave, inventoryAfterFight, repairGear, replaceGear, resolveChase, setHealth } from './recovery.ts';

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
    expect(endStretch('Hero', { health: 5, moraleImmune: true })).toEqual({ health: 5, moraleImmune: false, moraleFailed: false });
    expect(endStretch('Hero', { health: 5, moraleFailed: true })).toEqual({ health: 5, moraleImmune: false, moraleFailed: false });
    expect(endStretch('Hero', { health: 5 })).toBe('Hero has no morale flag to clear: no morale check was passed or failed this stretch.');
    expect(endStretch('Hero', { dead: true, moraleImmune: true })).toBe('Hero is dead: nothing recovers.');
  });

  const hero = (state: Parameters<typeof setHealth>[0]['state']) => ({ name: 'Hero', state, healthMax: 10 });

  it('sets health within 0 and the maximum; health above 0 ends dying and incapacitation', () => {
    expect(setHealth(hero({ health: 0, dying: true, incapacitated: true }), 3, options)).toEqual({ health: 3, dying: false, incapacitated: false });
    expect(setHealth(hero({ health: 4, incapacitated: true }), 4, options, true)).toBe('Hero already has 4 health and is incapacitated: nothing changes.');
    expect(setHealth(hero({ health: 0 }), 11, options)).toBe("Hero's health is a whole number from 0 to 10.");
    expect(setHealth(hero({ health: 0 }), -1, options)).toBe("Hero's health is a whole number from 0 to 10.");
    expect(setHealth(hero({ dead: true }), 3, options)).toBe('Hero is dead: nothing recovers.');
  });

  it('at 0 health the character is incapacitated and dying stays as it was', () => {
    expect(setHealth(hero({ health: 6 }), 0, options)).toEqual({ health: 0, incapacitated: true, dying: false });
    expect(setHealth(hero({ health: 2, dying: true }), 0, options)).toEqual({ health: 0, incapacitated: true, dying: true });
  });

  it('R-F20: Murdham lets the GM keep a character incapacitated above 0; plain HP does not', () => {
    expect(setHealth(hero({ health: 1, incapacitated: true }), 5, options, true)).toEqual({ health: 5, incapacitated: true, dying: false });
    expect(setHealth(hero({ health: 1, incapacitated: true }), 5, { ...options, healthModel: 'hpZeroIncapacitates' }, true)).toBe('With plain HP (R-F20) Hero is incapacitated only at 0 health.');
    expect(setHealth(hero({ health: 1, incapacitated: true }), 5, { ...options, healthModel: 'hpZeroIncapacitates' })).toEqual({ health: 5, incapacitated: false, dying: false });
  });
});

describe('repair and replacement between fights', () => {
  it('repairs only a damaged item', () => {
    expect(repairGear('Hero', 'weapon', 'damaged')).toEqual({ state: 'intact' });
    expect(repairGear('Hero', 'weapon', 'intact')).toBe("Hero's weapon is not damaged.");
    expect(repairGear('Hero', 'shield', 'destroyed')).toBe("Hero's shield was destroyed and has left the inventory: replace it instead.");
    expect(repairGear('Hero', 'armour', 'none')).toBe('Hero has no armour.');
  });

  it('replaces a damaged or destroyed item', () => {
    expect(replaceGear('Hero', 'shield', 'destroyed')).toEqual({ state: 'intact' });
    expect(replaceGear('Hero', 'weapon', 'damaged')).toEqual({ state: 'intact' });
    expect(replaceGear('Hero', 'weapon', 'intact')).toBe("Hero's weapon is intact: there is nothing to replace.");
    expect(replaceGear('Hero', 'armour', 'none')).toBe('Hero has no armour on the character sheet: add it there first.');
  });
});
