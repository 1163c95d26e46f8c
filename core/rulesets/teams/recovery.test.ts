// Teams' recovery hooks (R-T26): the chapter has no rest rules, so these restore, reset, wake and repair.
import { describe, expect, it } from 'vitest';
import { defaultSheet } from '../sheet.ts';
import { RecoveryRefusal, cheatDeathAfterSuccess, freshCondition, repairItem, resetPools, restorePools, wake, type RecoveringCharacter } from './recovery.ts';
import { teamsSheet } from './sheet.ts';

const sheet = { ...defaultSheet(teamsSheet), shieldName: 'Buckler', shieldBlock: 2 };
const boudica = (condition: Partial<RecoveringCharacter['condition']> = {}): RecoveringCharacter => ({
  name: 'Boudica', sheet, condition: { ...freshCondition(sheet), endurance: 0, health: 7, stamina: 1, focus: 2, unconscious: true, ...condition },
});

describe('recovery between fights (R-T26)', () => {
  it('a fresh character starts at its maxima, with item durability 10 for metal and 4 otherwise', () => {
    expect(freshCondition(sheet)).toEqual({ endurance: 12, health: 12, stamina: 4, focus: 4, unconscious: false, cheatDeathDifficulty: 10, items: { weapon: { durability: 10 }, shield: { durability: 4 } } });
  });

  it('restores pools by the given amounts, capped at their maximum', () => {
    const result = restorePools(boudica(), { endurance: 20, health: 3 });
    expect(result.condition).toMatchObject({ endurance: 12, health: 10, unconscious: true });
    expect(result.text).toBe('Boudica recovers: endurance 0 → 12/12, health 7 → 10/12; still unconscious (wake them to bring them round).');
    expect(restorePools(boudica(), { health: 1 }, true).text).toBe('Boudica recovers: health 7 → 8/12; conscious again.');
    expect(restorePools(boudica({ unconscious: false }), { stamina: 1 }).text).toBe('Boudica recovers: stamina 1 → 2/4.');
    expect(restorePools(boudica({ health: 0 }), { stamina: 1 }, true).text).toBe('Boudica recovers: stamina 1 → 2/4; still unconscious at zero health.');
    expect(() => restorePools(boudica(), {})).toThrow('Say which pools recover and by how much.');
    expect(() => restorePools(boudica(), { health: 0 })).toThrow('Health recovers by a whole number of at least 1.');
  });

  it('refuses a restore that changes nothing, but not one that only wakes', () => {
    expect(() => restorePools(boudica({ endurance: 12, health: 12 }), { endurance: 2, health: 1 })).toThrow("Boudica's endurance and health are already at their maximum.");
    expect(() => restorePools(boudica({ focus: 4 }), { focus: 2 })).toThrow("Boudica's focus is already at its maximum.");
    expect(restorePools(boudica({ health: 12 }), { health: 1 }, true).condition).toMatchObject({ health: 12, unconscious: false });
  });

  it('resets every pool to its maximum ("reset") and leaves the cheat-death difficulty alone', () => {
    const result = resetPools(boudica({ cheatDeathDifficulty: 15 }));
    expect(result.condition).toMatchObject({ endurance: 12, health: 12, stamina: 4, focus: 4, unconscious: false, cheatDeathDifficulty: 15 });
    expect(result.text).toBe('Boudica rests, pools back to their maximum (R-T26): endurance 0 → 12/12, health 7 → 12/12, stamina 1 → 4/4, focus 2 → 4/4, conscious again.');
    expect(() => resetPools({ ...boudica(), condition: freshCondition(sheet) })).toThrow('Boudica has nothing to recover: endurance, health, stamina and focus are at their maximum.');
  });

  it('wakes an unconscious character who has health left', () => {
    expect(wake(boudica()).condition.unconscious).toBe(false);
    expect(() => wake(boudica({ health: 0 }))).toThrow('Boudica is at zero health: restore some health first.');
    expect(() => wake(boudica({ unconscious: false }))).toThrow('Boudica is already conscious.');
  });

  it('repairs items up to their maximum, broken ones included', () => {
    const result = repairItem(boudica({ items: { weapon: { durability: 10 }, shield: { durability: 0 } } }), 'shield', 9);
    expect(result.condition.items.shield).toEqual({ durability: 4 });
    expect(result.text).toBe("Boudica's shield is repaired: durability 0 → 4/4 (no longer broken).");
    expect(() => repairItem(boudica(), 'weapon', 1)).toThrow("Boudica's weapon is not damaged.");
    expect(() => repairItem({ ...boudica(), sheet: defaultSheet(teamsSheet) }, 'shield', 1)).toThrow('Boudica has no shield to repair.');
    expect(repairItem(boudica({ items: { weapon: { durability: 3 } } }), 'weapon', 2).text).toBe("Boudica's weapon is repaired: durability 3 → 5/10.");
    expect(repairItem(boudica({ items: { weapon: { durability: 3 } } }), 'weapon').condition.items.weapon).toEqual({ durability: 10 });
    expect(() => repairItem(boudica({ items: { weapon: { durability: 3 } } }), 'weapon', 0)).toThrow('Durability is repaired by a whole number of at least 1.');
    expect(() => repairItem(boudica({ dead: true, items: { weapon: { durability: 3 } } }), 'weapon', 1)).toThrow('Boudica is dead: nothing recovers.');
  });

  it('nothing recovers for the dead, and the cheat-death difficulty only rises (+5)', () => {
    expect(() => restorePools(boudica({ dead: true }), { health: 1 })).toThrow(RecoveryRefusal);
    expect(() => resetPools(boudica({ dead: true }))).toThrow('Boudica is dead: nothing recovers.');
    expect([10, 15, 20].map(cheatDeathAfterSuccess)).toEqual([15, 20, 25]);
  });
});
