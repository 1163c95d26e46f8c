// Enigma's injuries (RULES.md §1.6): the source's lists, durations (R-E23..R-E25), names (R-E27) and effects (R-E26, R-E28).
import { describe, expect, it } from 'vitest';
import { defaultOptions } from '../options.ts';
import {
  INJURY_CATEGORIES,
  INJURY_NAMES,
  extendInjury,
  injuryDuration,
  injuryEffects,
  injuryNameFromRoll,
  isActiveInjury,
  maxLp,
  speed,
  type Injury,
  type InjuryCategory,
} from './injuries.ts';
import { enigmaOptions } from './options.ts';

const defaults = defaultOptions(enigmaOptions);
const withOptions = (chosen: Record<string, string | number | boolean>) => ({ ...defaults, ...chosen });

function injury(name: string, category: InjuryCategory, restsRemaining: number, extra: Partial<Injury> = {}): Injury {
  return { id: name.toLowerCase().replace(/ /g, '-'), name, category, baseRoll: restsRemaining, multiplier: 1, restsRemaining, permanent: false, cureCondition: null, notes: '', ...extra };
}

const noDisadvantage = { endure: 0, navigate: 0, glean: 0, attack: 0, influence: 0, manifest: 0 };

describe('injury categories and the source lists', () => {
  it('lists the nine categories in source order with the source labels', () => {
    expect(INJURY_CATEGORIES.map((c) => c.key)).toEqual(['endure', 'navigate', 'influence', 'glean', 'manifest', 'attack', 'speed', 'armourRestrictive', 'maxLp']);
    expect(INJURY_CATEGORIES.find((c) => c.key === 'armourRestrictive')?.label).toBe('Armor-Restrictive');
    expect(INJURY_CATEGORIES.find((c) => c.key === 'maxLp')?.label).toBe('Temporary LP reduction');
    for (const category of INJURY_CATEGORIES) expect(category.effect).toMatch(/^[A-Z].*\.$/);
  });

  it('keeps the eight source lists word for word: ten names each, Manifest nine (R-E27)', () => {
    const counts = Object.fromEntries(Object.entries(INJURY_NAMES).map(([k, names]) => [k, names.length]));
    expect(counts).toEqual({ endure: 10, navigate: 10, influence: 10, glean: 10, manifest: 9, attack: 10, speed: 10, armourRestrictive: 10 });
    expect(INJURY_NAMES.manifest).toEqual(['Anxiety', 'Depression', 'Disassociation', 'Doubt', 'Frustration', 'Guilt', 'Intrusive Thoughts', 'Paranoia', 'Post-Traumatic Stress']);
    expect(INJURY_NAMES.speed).toEqual([
      'Cracked Pelvis', 'Dislocated Hip', 'Fractured Shin', 'Pulled Hamstring', 'Severed Achilles Tendon',
      'Severe Calf Tear', 'Sprained Knee', 'Torn Foot Ligaments', 'Spine Trauma', 'Wrenched Ankle',
    ]);
    // Source order, not alphabetical: "Inner Ear Damage" comes second, "Broken Toe" seventh.
    expect(INJURY_NAMES.navigate[1]).toBe('Inner Ear Damage');
    expect(INJURY_NAMES.navigate[6]).toBe('Broken Toe');
    expect(INJURY_NAMES.endure[0]).toBe('Broken Ribs');
    expect(INJURY_NAMES.influence[9]).toBe('Trembling Hands');
    expect(INJURY_NAMES.glean[0]).toBe('Blinded in One Eye');
    expect(INJURY_NAMES.attack[3]).toBe('Dislocated Shoulder');
    expect(INJURY_NAMES.armourRestrictive[2]).toBe('Dislocated Shoulder Blade');
  });
});

describe('durations (R-E23, R-E25)', () => {
  it('first Survive: 1d4 rests', () => {
    expect(injuryDuration(3, 1, defaults)).toEqual({ multiplier: 1, rests: 3 });
  });

  it('R-E23 a fourth Survive multiplies by 4 by default: 2 × 4 = 8 rests', () => {
    expect(injuryDuration(2, 4, defaults)).toEqual({ multiplier: 4, rests: 8 });
  });

  it('R-E23 option capAt3: a fourth Survive still multiplies by 3', () => {
    expect(injuryDuration(2, 4, withOptions({ injuryMultiplier: 'capAt3' }))).toEqual({ multiplier: 3, rests: 6 });
    expect(injuryDuration(2, 2, withOptions({ injuryMultiplier: 'capAt3' }))).toEqual({ multiplier: 2, rests: 4 });
  });

  it('refuses a d4 face outside 1..4 and a Survive number below 1 with a GM sentence', () => {
    expect(() => injuryDuration(5, 1, defaults)).toThrow(new RangeError("An injury's d4 shows 1 to 4, not 5."));
    expect(() => injuryDuration(0, 1, defaults)).toThrow(RangeError);
    expect(() => injuryDuration(2.5, 1, defaults)).toThrow(RangeError);
    expect(() => injuryDuration(2, 0, defaults)).toThrow(new RangeError('Survives are counted from 1 (the first in this encounter), not 0.'));
  });

  it('ENIGMA-19 second Survive extends the same injury: 3 × 2 = 6 rests', () => {
    const ankle = injury('Sprained Ankle', 'speed', 3);
    const frozen = structuredClone(ankle);
    const extended = extendInjury(ankle, 2, defaults);
    expect(extended).toEqual({ ...ankle, baseRoll: 3, multiplier: 2, restsRemaining: 6 });
    expect(extended.id).toBe(ankle.id); // the same record, no second Sprained Ankle
    expect(ankle).toEqual(frozen); // the input is untouched
  });

  it('R-E23 a third Survive extends with the original d4, never rerolled: 3 × 3 = 9', () => {
    const twice = extendInjury(injury('Sprained Ankle', 'speed', 3), 2, defaults);
    expect(extendInjury(twice, 3, defaults)).toMatchObject({ baseRoll: 3, multiplier: 3, restsRemaining: 9 });
  });

  it('R-E23 extending never lowers what remains', () => {
    const long = injury('Broken Ribs', 'endure', 7, { baseRoll: 2, multiplier: 1 });
    expect(extendInjury(long, 2, defaults).restsRemaining).toBe(7);
  });
});

describe('names from a d10 (R-E27)', () => {
  it('picks the name at the 1-based face', () => {
    expect(injuryNameFromRoll('endure', 1, defaults)).toEqual({ name: 'Broken Ribs' });
    expect(injuryNameFromRoll('speed', 10, defaults)).toEqual({ name: 'Wrenched Ankle' });
    expect(injuryNameFromRoll('manifest', 9, defaults)).toEqual({ name: 'Post-Traumatic Stress' });
  });

  it('R-E27 a 10 on the nine-name Manifest list is rerolled by default', () => {
    expect(injuryNameFromRoll('manifest', 10, defaults)).toEqual({ reroll: true });
  });

  it('R-E27 option gmChooses: a 10 on the Manifest list goes to the GM', () => {
    expect(injuryNameFromRoll('manifest', 10, withOptions({ manifestRollOfTen: 'gmChooses' }))).toEqual({ gmChooses: true });
    expect(injuryNameFromRoll('manifest', 4, withOptions({ manifestRollOfTen: 'gmChooses' }))).toEqual({ name: 'Doubt' });
  });

  it('the Temporary LP reduction has no list: the GM chooses', () => {
    expect(injuryNameFromRoll('maxLp', 3, defaults)).toEqual({ gmChooses: true });
  });

  it('refuses a d10 face outside 1..10 with a GM sentence', () => {
    expect(() => injuryNameFromRoll('endure', 11, defaults)).toThrow(new RangeError('A d10 shows 1 to 10, not 11.'));
    expect(() => injuryNameFromRoll('endure', 0, defaults)).toThrow(RangeError);
    expect(() => injuryNameFromRoll('glean', 1.5, defaults)).toThrow(RangeError);
  });
});

describe('effects (R-E26, R-E28)', () => {
  it('ENIGMA-20 two different injuries: Navigate d8 speed 8 → 6 and +1 disadvantage on Endure checks', () => {
    const ankle = injury('Sprained Ankle', 'speed', 2);
    const first = injuryDuration(3, 2, defaults); // second Survive, a fresh d4 = 3 (R-E24)
    const laceration = injury('Deep Laceration', 'endure', first.rests, { baseRoll: 3, multiplier: first.multiplier });
    expect(laceration.restsRemaining).toBe(6);
    const effects = injuryEffects([ankle, laceration], false, defaults);
    expect(effects).toEqual({ disadvantage: { ...noDisadvantage, endure: 1 }, speedPenalty: 2, maxLpReduction: 0 });
    expect(speed(8, effects)).toBe(6);
    expect(ankle.restsRemaining).toBe(2); // the ankle stays as it was
  });

  it('R-E26 the category sets the effect, not the name: an "Ankle Sprain" filed under Speed slows, it does not hinder Navigate', () => {
    const effects = injuryEffects([injury('Ankle Sprain', 'speed', 2)], false, defaults);
    expect(effects.disadvantage.navigate).toBe(0);
    expect(effects.speedPenalty).toBe(2);
  });

  it('R-E28 disadvantage stacks add up per capacity', () => {
    const effects = injuryEffects([injury('Broken Ribs', 'endure', 2), injury('Concussion', 'endure', 1), injury('Migraine', 'glean', 1)], false, defaults);
    expect(effects.disadvantage).toEqual({ ...noDisadvantage, endure: 2, glean: 1 });
  });

  it('restrictive armour injuries count only while armoured, then on all six capacities', () => {
    const injuries = [injury('Fractured Sternum', 'armourRestrictive', 3), injury('Broken Ribs', 'endure', 2)];
    expect(injuryEffects(injuries, false, defaults).disadvantage).toEqual({ ...noDisadvantage, endure: 1 });
    expect(injuryEffects(injuries, true, defaults).disadvantage).toEqual({ endure: 2, navigate: 1, glean: 1, attack: 1, influence: 1, manifest: 1 });
  });

  it('R-E28 speed penalties add up and speed never drops below 1', () => {
    const legs = [injury('Cracked Pelvis', 'speed', 2), injury('Fractured Shin', 'speed', 2)];
    const effects = injuryEffects(legs, false, defaults);
    expect(effects.speedPenalty).toBe(4);
    expect(speed(10, effects)).toBe(6);
    expect(speed(4, effects)).toBe(1);
    expect(speed(4, injuryEffects([...legs, injury('Spine Trauma', 'speed', 1)], false, defaults))).toBe(1);
  });

  it('R-E28 option injuryStacking off: each effect counts at most once', () => {
    const injuries = [
      injury('Broken Ribs', 'endure', 2), injury('Concussion', 'endure', 2), injury('Crushed Ribs', 'armourRestrictive', 2),
      injury('Cracked Pelvis', 'speed', 2), injury('Fractured Shin', 'speed', 2),
      injury('Fever', 'maxLp', 2), injury('Internal Bleeding', 'maxLp', 2),
    ];
    const effects = injuryEffects(injuries, true, withOptions({ injuryStacking: false }));
    expect(effects).toEqual({ disadvantage: { endure: 1, navigate: 1, glean: 1, attack: 1, influence: 1, manifest: 1 }, speedPenalty: 2, maxLpReduction: 3 });
    expect(injuryEffects(injuries, true, defaults)).toEqual({
      disadvantage: { endure: 3, navigate: 1, glean: 1, attack: 1, influence: 1, manifest: 1 }, speedPenalty: 4, maxLpReduction: 6,
    });
  });

  it('healed injuries have no effect; permanent ones always do', () => {
    const healed = injury('Broken Ribs', 'endure', 0);
    const permanent = injury('Blinded in One Eye', 'glean', 0, { permanent: true });
    expect(isActiveInjury(healed)).toBe(false);
    expect(isActiveInjury(permanent)).toBe(true);
    expect(isActiveInjury(injury('Migraine', 'glean', 1))).toBe(true);
    expect(injuryEffects([healed, permanent], false, defaults).disadvantage).toEqual({ ...noDisadvantage, glean: 1 });
  });
});

describe('max LP (R-E21)', () => {
  const fever = injury('Fever', 'maxLp', 2);

  it('a Temporary LP reduction takes 3 off the base Endure die: d10 → 7', () => {
    expect(maxLp(10, 10, injuryEffects([fever], false, defaults), defaults)).toBe(7);
    expect(maxLp(10, 10, injuryEffects([], false, defaults), defaults)).toBe(10);
  });

  it('R-E21 a diminished Endure die does not lower max LP by default; option maxLpDie current does', () => {
    const effects = injuryEffects([fever], false, defaults);
    expect(maxLp(10, 6, effects, defaults)).toBe(7);
    expect(maxLp(10, 6, effects, withOptions({ maxLpDie: 'current' }))).toBe(3);
  });

  it('max LP never drops below 1', () => {
    const effects = injuryEffects([fever, injury('Sepsis', 'maxLp', 2)], false, defaults);
    expect(maxLp(4, 4, effects, defaults)).toBe(1);
  });
});
