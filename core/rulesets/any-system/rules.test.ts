import { describe, expect, it } from 'vitest';
import { defaultOptions, type OptionValues } from '../options.ts';
import { anySystemOptions } from './options.ts';
import { absorb, atZero, compareInitiative, concentrationDc, deathSave, failuresFromDamage, grantTempHp, heal, initiativeTotal, initialContext, reactionsLeft, sortedOrder, type AnyContext } from './rules.ts';
import { combatantFromSeed } from './order.ts';
import { seed } from './testing.ts';

const options = defaultOptions(anySystemOptions);

function context(extra: OptionValues = {}): AnyContext {
  const ctx = initialContext({ options: { ...options, ...extra }, carried: {} });
  const c = (id: string, side: 'party' | 'enemies', total: number, modifier: number) =>
    ({ ...combatantFromSeed(seed(id, side, { initiativeModifier: modifier })), initiative: { total, face: null } });
  const list = [c('ana', 'party', 15, 1), c('gob', 'enemies', 15, 3), c('bo', 'party', 18, 0), c('orc', 'enemies', 15, 1)];
  return { ...ctx, roster: list.map((x) => x.id), combatants: Object.fromEntries(list.map((x) => [x.id, x])) };
}

describe('initiative', () => {
  it('totals the face and the modifier', () => {
    expect(initiativeTotal(14, 3)).toBe(17);
    expect(initiativeTotal(2, -1)).toBe(1);
  });

  it('sorts high first; ties by the higher modifier, then the order they joined', () => {
    expect(sortedOrder(context())).toEqual(['bo', 'gob', 'ana', 'orc']);
  });

  it('sorts low first under R-A4', () => {
    expect(sortedOrder(context({ order: 'lowFirst' }))).toEqual(['gob', 'ana', 'orc', 'bo']);
  });

  it('puts the party first on a tie under R-A3 partyFirst, and leaves every tie to the GM under gm', () => {
    expect(sortedOrder(context({ tieBreak: 'partyFirst' }))).toEqual(['bo', 'ana', 'gob', 'orc']);
    expect(sortedOrder(context({ tieBreak: 'gm' }))).toEqual(['bo', 'ana', 'gob', 'orc']);
    const ordered = { ...context({ tieBreak: 'gm' }), tiesOrdered: ['orc', 'gob', 'ana'] };
    expect(sortedOrder(ordered)).toEqual(['bo', 'orc', 'gob', 'ana']);
  });

  it('a fixed entry loses ties, and one without initiative goes last', () => {
    const ctx = context();
    const lair = { ...ctx.combatants['gob']!, id: 'lair', fixed: true, initiative: { total: 18, face: null } };
    const late = { ...ctx.combatants['ana']!, id: 'late', initiative: null };
    const withMore: AnyContext = { ...ctx, roster: [...ctx.roster, 'lair', 'late'], combatants: { ...ctx.combatants, lair, late } };
    expect(sortedOrder(withMore)).toEqual(['bo', 'lair', 'gob', 'ana', 'orc', 'late']);
    expect(compareInitiative(withMore, lair, withMore.combatants['bo']!)).toBeGreaterThan(0);
  });
});

describe('damage and health', () => {
  it('temporary HP absorb damage first', () => {
    expect(absorb({ hp: 10, tempHp: 5 }, 3)).toEqual({ hp: 10, tempHp: 2, absorbed: 3, lost: 0 });
    expect(absorb({ hp: 10, tempHp: 5 }, 8)).toEqual({ hp: 7, tempHp: 0, absorbed: 5, lost: 3 });
    expect(absorb({ hp: 4, tempHp: 0 }, 10)).toEqual({ hp: 0, tempHp: 0, absorbed: 0, lost: 4 });
  });

  it('healing stops at the maximum', () => {
    expect(heal({ hp: 3, hpMax: 10 }, 4)).toEqual({ hp: 7, gained: 4 });
    expect(heal({ hp: 8, hpMax: 10 }, 9)).toEqual({ hp: 10, gained: 2 });
  });

  it('temporary HP keep the higher value', () => {
    expect(grantTempHp(5, 3)).toBe(5);
    expect(grantTempHp(2, 7)).toBe(7);
  });

  it('0 HP is what the rulings say', () => {
    expect(atZero(options, { side: 'party' })).toBe('dying');
    expect(atZero(options, { side: 'enemies' })).toBe('dead');
    expect(atZero({ ...options, deathSaves: false }, { side: 'party' })).toBe('down');
    expect(atZero({ ...options, zeroHpParty: 'dead' }, { side: 'party' })).toBe('dead');
    expect(atZero({ ...options, zeroHpNpc: 'down' }, { side: 'enemies' })).toBe('down');
  });
});

describe('death saves', () => {
  const none = { successes: 0, failures: 0 };
  it('10 or more succeeds, under 10 fails, a 1 fails twice, a 20 is back up', () => {
    expect(deathSave(none, 10)).toEqual({ saves: { successes: 1, failures: 0 }, result: 'success' });
    expect(deathSave(none, 9)).toEqual({ saves: { successes: 0, failures: 1 }, result: 'failure' });
    expect(deathSave(none, 1)).toEqual({ saves: { successes: 0, failures: 2 }, result: 'failure' });
    expect(deathSave({ successes: 2, failures: 2 }, 20)).toEqual({ saves: none, result: 'up' });
  });

  it('three successes stable, three failures dead', () => {
    expect(deathSave({ successes: 2, failures: 1 }, 12).result).toBe('stable');
    expect(deathSave({ successes: 0, failures: 2 }, 1)).toEqual({ saves: { successes: 0, failures: 3 }, result: 'dead' });
  });

  it('damage while dying is a failure, a critical two', () => {
    expect(failuresFromDamage(none, false)).toEqual({ saves: { successes: 0, failures: 1 }, dead: false });
    expect(failuresFromDamage({ successes: 1, failures: 1 }, true)).toEqual({ saves: { successes: 1, failures: 3 }, dead: true });
  });
});

describe('reactions and concentration', () => {
  it('counts reactions per round', () => {
    expect(reactionsLeft(options, { reactionsUsed: 0 })).toBe(1);
    expect(reactionsLeft(options, { reactionsUsed: 1 })).toBe(0);
    expect(reactionsLeft({ ...options, reactionsPerRound: 2 }, { reactionsUsed: 1 })).toBe(1);
  });

  it('the concentration DC is 10 or half the damage', () => {
    expect(concentrationDc(7)).toBe(10);
    expect(concentrationDc(22)).toBe(11);
    expect(concentrationDc(45)).toBe(22);
  });
});
