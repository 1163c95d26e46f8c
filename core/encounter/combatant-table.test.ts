// A changed combatant record is a table read as the record it stands for (combatant-table.ts): it must read,
// enumerate, compare and stringify as the plain record would, refuse changes in place, and a replay must change
// one combatant at a time without reading every row of the record again.
import { describe, expect, it, vi } from 'vitest';
import { RULESET_IDS, generateFight } from '../../bench/fight.ts';
import { eachCombatant, isCombatantTable, withCombatant, withCombatants } from './combatant-table.ts';
import { EncounterEngine } from './kernel.ts';

// The rows read out of plain records, counted where every ruleset hands a record in (this file's module, for every
// module that imports it): a plain record's rows are read into a table there, a table's are not. The module's own
// calls between its functions are not counted twice (they do not pass through these).
const read = vi.hoisted(() => ({ plainRows: 0 }));
vi.mock('./combatant-table.ts', async (importOriginal) => {
  const table = await importOriginal<typeof import('./combatant-table.ts')>();
  const counting = <F extends (record: never, ...rest: never[]) => unknown>(change: F): F =>
    ((record: object, ...rest: unknown[]) => {
      if (!table.isCombatantTable(record)) read.plainRows += Object.keys(record).length;
      return Reflect.apply(change, undefined, [record, ...rest]);
    }) as unknown as F;
  return { ...table, withCombatant: counting(table.withCombatant), withCombatants: counting(table.withCombatants), eachCombatant: counting(table.eachCombatant) };
});

interface Row { name: string; lp: number }

// Ids that a plain object orders first (array indices) beside ids it keeps in the order they were added.
const plain: Record<string, Row> = { ash: { name: 'Ash', lp: 5 }, '7': { name: 'Seven', lp: 3 }, mira: { name: 'Mira', lp: 4 } };

describe('a combatant table', () => {
  it('reads as the plain record with the same change, keys in the same order', () => {
    const changed = withCombatant(plain, 'mira', { name: 'Mira', lp: 1 });
    const expected = { ...plain, mira: { name: 'Mira', lp: 1 } };
    expect(isCombatantTable(changed)).toBe(true);
    expect(JSON.stringify(changed)).toBe(JSON.stringify(expected));
    expect(Object.keys(changed)).toEqual(Object.keys(expected));
    expect(Object.entries(changed)).toEqual(Object.entries(expected));
    expect(changed).toEqual(expected);
    expect({ ...changed }).toEqual(expected);
    expect(isCombatantTable({ ...changed })).toBe(false);
    expect(changed['ash']).toBe(plain['ash']);
    expect(['ash' in changed, 'nobody' in changed, Object.hasOwn(changed, '7'), Object.hasOwn(changed, 'toString')]).toEqual([true, false, true, false]);
    expect(changed['nobody']).toBeUndefined();
    expect(String(changed)).toBe('[object Object]');
    expect(Object.getPrototypeOf(changed)).toBe(Object.prototype);
    expect(plain['mira']!.lp).toBe(4);
  });

  it('changes several at once, every one at once, and refuses a combatant it does not hold', () => {
    const twice = withCombatants(plain, [['ash', { name: 'Ash', lp: 2 }], ['7', { name: 'Seven', lp: 0 }]]);
    expect(twice).toEqual({ ash: { name: 'Ash', lp: 2 }, '7': { name: 'Seven', lp: 0 }, mira: plain['mira'] });
    const healed = eachCombatant(twice, (c, id) => ({ ...c, name: `${c.name} (${id})`, lp: 9 }));
    expect(JSON.stringify(healed)).toBe('{"7":{"name":"Seven (7)","lp":9},"ash":{"name":"Ash (ash)","lp":9},"mira":{"name":"Mira (mira)","lp":9}}');
    expect(twice['ash']!.lp).toBe(2);
    expect(() => withCombatant(plain, 'nobody', { name: 'Nobody', lp: 0 })).toThrow('nobody is not a combatant');
  });

  it('is never changed in place', () => {
    const changed = withCombatant(plain, 'ash', { name: 'Ash', lp: 0 }) as Record<string, Row | undefined>;
    expect(() => { changed['ash'] = { name: 'Ash', lp: 9 }; }).toThrow(TypeError);
    expect(() => { changed['new'] = { name: 'New', lp: 9 }; }).toThrow(TypeError);
    expect(() => { delete changed['ash']; }).toThrow(TypeError);
    expect(() => Object.freeze(changed)).toThrow(TypeError);
    expect(changed['ash']!.lp).toBe(0);
  });
});

describe('a replay', () => {
  // Each change copies its combatant's row, not the whole record: the rows of a plain record are read into a table
  // once after the combatants join, not again on every change (a copy of 200 keys cost a third of a replay at 200
  // combatants), nor again each round (a new round's reset keeps the table).
  it.each(RULESET_IDS)('%s: reads the rows of a plain record once, however many changes and rounds the fight has', (rulesetId) => {
    const fight = generateFight(rulesetId, 30, 500, 1);
    const before = read.plainRows;
    const engine = EncounterEngine.resume(fight.rules, fight.input, undefined, fight.events);
    expect(engine.view().round).toBeGreaterThanOrEqual(2);
    // Changed through a table (a spread of the record would leave a plain one), its rows read once.
    expect(isCombatantTable((engine.snapshot.context as { combatants: unknown }).combatants)).toBe(true);
    expect(read.plainRows - before).toBeLessThanOrEqual(30);
  });
});
