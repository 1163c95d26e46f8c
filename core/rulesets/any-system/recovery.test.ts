import { describe, expect, it } from 'vitest';
import { defaultOptions } from '../options.ts';
import { anySystemOptions } from './options.ts';
import { conditionOf, longRest, revive, shortRest } from './recovery.ts';

const options = defaultOptions(anySystemOptions);
const hurt = conditionOf({ hpMax: 20, hp: 20 }, { hp: 6, tempHp: 4 });

describe('rests', () => {
  it('reads the condition from the state before the sheet', () => {
    expect(hurt).toEqual({ hp: 6, hpMax: 20, tempHp: 4, dead: false });
    expect(conditionOf({ hpMax: 20, hp: 12 })).toEqual({ hp: 12, hpMax: 20, tempHp: 0, dead: false });
  });

  it('a short rest heals the HP typed, up to the maximum (R-A11)', () => {
    expect(shortRest('Ana', hurt, options, 5)).toEqual({ condition: { ...hurt, hp: 11 }, text: 'Ana takes a short rest: HP 6 → 11.' });
    expect(shortRest('Ana', hurt, options, 50).condition.hp).toBe(20);
    expect(() => shortRest('Ana', hurt, { ...options, shortRestHp: 'none' }, 5)).toThrow('A short rest restores nothing in this campaign (R-A11).');
  });

  it('a long rest restores HP as R-A10 says and clears temporary HP', () => {
    expect(longRest('Ana', hurt, options)).toEqual({ condition: { ...hurt, hp: 20, tempHp: 0 }, text: 'Ana takes a long rest: HP 6 → 20, temporary HP 4 → 0.' });
    expect(longRest('Ana', hurt, { ...options, longRestHp: 'half' }).condition.hp).toBe(10);
    expect(longRest('Ana', hurt, { ...options, longRestHp: 'none' }).condition.hp).toBe(6);
  });

  it('the dead do not rest; a revival brings them back', () => {
    const dead = { ...hurt, hp: 0, dead: true };
    expect(() => longRest('Ana', dead, options)).toThrow('Ana is dead: a rest restores nothing to the dead.');
    expect(revive('Ana', dead, 1)).toEqual({ condition: { ...dead, dead: false, hp: 1 }, text: 'Ana is brought back to life at 1 HP.' });
    expect(() => revive('Ana', hurt, 1)).toThrow('Ana is not dead.');
  });
});
