// Thrum's recovery (RULES.md §5.6): Downtime by R-H17's three choices, R-H9's lingering incapacity, powerful items.
import { describe, expect, it } from 'vitest';
import { defaultOptions } from '../options.ts';
import { thrumOptions } from './options.ts';
import { RecoveryRefusal, conditionOf, downtime, restore, stateOf, type ThrumCondition } from './recovery.ts';

const defaults = defaultOptions(thrumOptions);
const worn = (extra: Partial<ThrumCondition> = {}): ThrumCondition => ({
  fatigueTolerance: 0, stressTolerance: 3, baseFatigueTolerance: 5, baseStressTolerance: 5, wounds: 2, stillIncapacitated: true, outOfAction: false, ...extra,
});
const refusal = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(RecoveryRefusal);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('Downtime (R-H17)', () => {
  it('by default restores both tolerances to base and heals one Wound; ends R-H9 incapacity', () => {
    const result = downtime('Ana', worn(), defaults);
    expect(result.condition).toEqual({ ...worn(), fatigueTolerance: 5, stressTolerance: 5, wounds: 1, stillIncapacitated: false });
    expect(result.text).toBe('Ana spends a day of Downtime: Fatigue Tolerance 0 → 5; Stress Tolerance 3 → 5; Wounds 2 → 1; Ana is no longer Incapacitated.');
    expect(result.rulings).toEqual(['R-H17', 'R-H9']);
  });

  it('heals every Wound with baseAndAllWounds', () => {
    expect(downtime('Ana', worn(), { ...defaults, downtimeRestores: 'baseAndAllWounds' }).condition.wounds).toBe(0);
  });

  it('restores one point of each tolerance per day with onePointPerDay, never above base', () => {
    const one = downtime('Ana', worn(), { ...defaults, downtimeRestores: 'onePointPerDay' });
    expect([one.condition.fatigueTolerance, one.condition.stressTolerance, one.condition.wounds]).toEqual([1, 4, 1]);
    const week = downtime('Ana', worn(), { ...defaults, downtimeRestores: 'onePointPerDay' }, 7);
    expect([week.condition.fatigueTolerance, week.condition.stressTolerance]).toEqual([5, 5]);
    expect(week.text).toContain('7 days of Downtime');
  });

  it('a character with three Wounds can return to play once one is healed (the table decides)', () => {
    const result = downtime('Ana', worn({ wounds: 3, outOfAction: true }), defaults);
    expect(result.condition).toMatchObject({ wounds: 2, outOfAction: false });
    expect(result.text).toContain('Ana can return to play if the table agrees');
  });

  it('refuses Downtime that restores nothing, and odd lengths', () => {
    const fresh = worn({ fatigueTolerance: 5, stressTolerance: 5, wounds: 0, stillIncapacitated: false });
    expect(refusal(() => downtime('Ana', fresh, defaults))).toBe('Ana has nothing for Downtime to restore: tolerances at base and no Wounds.');
    expect(refusal(() => downtime('Ana', worn(), defaults, 0))).toBe('Downtime lasts 1 to 365 days.');
  });
});

describe('powerful items and story objectives', () => {
  it('restore what the GM says, up to base', () => {
    const result = restore('Ana', worn(), { fatigue: 9 }, 'Phoenix feather');
    expect(result.condition).toMatchObject({ fatigueTolerance: 5, stressTolerance: 3, stillIncapacitated: false });
    expect(result.text).toBe('Phoenix feather restores Ana: Fatigue Tolerance 0 → 5; Ana is no longer Incapacitated.');
    expect(refusal(() => restore('Ana', worn(), {}, 'x'))).toBe('Say what is restored: Fatigue Tolerance, Stress Tolerance or Wounds.');
    expect(refusal(() => restore('Ana', worn(), { wounds: 1 }, ' '))).toBe('Name the item or story objective that restores it.');
    expect(refusal(() => restore('Ana', worn({ wounds: 0 }), { wounds: 1 }, 'Shrine'))).toBe('Ana has nothing of that to restore.');
  });
});

describe('stored condition', () => {
  it('reads the carried state over the sheet and writes back the carry-over fields', () => {
    const condition = conditionOf({ baseFatigueTolerance: 6, fatigueTolerance: 6, baseStressTolerance: 4, stressTolerance: 4, wounds: 0 }, { fatigueTolerance: 2, wounds: 1 });
    expect(condition).toEqual({ fatigueTolerance: 2, stressTolerance: 4, baseFatigueTolerance: 6, baseStressTolerance: 4, wounds: 1, stillIncapacitated: false, outOfAction: false });
    expect(stateOf(condition)).toEqual({ fatigueTolerance: 2, stressTolerance: 4, wounds: 1, stillIncapacitated: false, outOfAction: false });
  });

  it('a stored "no longer incapacitated" wins over a sheet still marked incapacitated (R-H9)', () => {
    const sheet = { fatigueTolerance: 0, stillIncapacitated: true };
    expect(conditionOf(sheet, {}).stillIncapacitated).toBe(true);
    expect(conditionOf(sheet, { stillIncapacitated: false }).stillIncapacitated).toBe(false);
  });
});
