// A sheet's pool (sheet.ts `pool`): the maximum and the current value as one declaration, the current one capped by
// the maximum (`atMost`). It gives, member for member and in order, the pairs the sheets declare by hand today.
import { describe, expect, it } from 'vitest';
import { findRuleset } from './registry.ts';
import { pool, sheetSummary, sheetValidator, type SheetField, type SheetSchema } from './sheet.ts';

/** The hand-written maximum and current fields of `key` in a registered ruleset's sheet, in sheet order. */
function declared(rulesetId: string, key: string): SheetField[] {
  const fields = findRuleset(rulesetId)!.sheet.fields;
  return fields.filter((f) => f.key === `${key}Max` || f.key === key);
}

describe('pool()', () => {
  it.each([
    ['teams', pool('endurance', 'Endurance', { default: 12, min: 0, max: 999 }, { group: 'Pools', help: 'Soaks damage before health (§2.4 step 11).', maxHelp: 'Harmed while endurance is at half this or less.' })],
    ['teams', pool('health', 'Health', { default: 12, min: 0, max: 999, maxMin: 1 }, { group: 'Pools', help: 'Zero health means unconscious, and death risk on overkill (§2.4 step 13).', maxHelp: 'Bloodied while health is below this.' })],
    ['teams', pool('stamina', 'Stamina', { default: 4, min: 0, max: 999 }, { group: 'Pools', help: 'Spent on Block, Dodge, Fortify, Intercept, Parry and Sprint (§2.3).' })],
    ['cairn-errant', pool('hp', 'HP', { default: 4, min: 0, max: 20 }, { group: 'Health', maxLabel: 'Maximum HP', help: 'Damage below 0 HP goes to STR and calls for a Critical Damage save (§4.4 steps 9–10).' })],
    ['cairn-errant', pool('wil', 'WIL', { default: 10, min: 0, max: 18, maxMin: 1 }, { group: 'Attributes', help: 'WIL 0 is delirious (R-C24).' })],
  ])('%s: gives the declared pair, member for member and in order', (rulesetId, made) => {
    const key = made[1].key;
    expect(JSON.stringify(made)).toBe(JSON.stringify(declared(rulesetId, key)));
  });

  it('puts the maximum first, caps the current value by it, and reads as one stat in the summary', () => {
    const schema: SheetSchema = { fields: [...pool('hp', 'HP', { default: 4, min: 0, max: 20, maxMin: 1 }, { maxLabel: 'Maximum HP', short: 'Hit points', maxShort: 'Max HP' })] };
    expect(schema.fields.map((f) => [f.key, f.label, f.short])).toEqual([['hpMax', 'Maximum HP', 'Max HP'], ['hp', 'HP', 'Hit points']]);
    expect(schema.fields.map((f) => (f.kind === 'integer' ? [f.min, f.max, f.default, f.atMost] : null))).toEqual([[1, 20, 4, undefined], [0, 20, 4, 'hpMax']]);
    const validator = sheetValidator(schema);
    expect(validator.safeParse({ hpMax: 6, hp: 6 }).success).toBe(true);
    expect(validator.safeParse({ hpMax: 6, hp: 7 }).error?.issues[0]?.message).toBe('HP 7 is above Maximum HP 6: lower HP or raise Maximum HP.');
    expect(validator.safeParse({ hpMax: 0, hp: 0 }).success).toBe(false);
    expect(sheetSummary(schema, { hpMax: 6, hp: 3 })).toEqual([{ key: 'hp', short: 'Hit points', title: 'HP / maximum', text: '3/6' }]);
  });
});
