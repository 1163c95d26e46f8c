// The option builders (options.ts): flag(), choice() and number() declare a ruling with its key and values kept as
// types and its members in the order app:info has always sent them; defineOptions() registers retired keys;
// readOptions() reads stored values as typed values, falling back to each default; optionsReader() reads each options
// object once, and every ruleset reads its rulings through one (rulingsOf), so a replay reads options once per fight.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { enigmaOptions } from './enigma/options.ts';
import { EncounterEngine } from '../encounter/kernel.ts';
import { generateFight, RULESET_IDS } from '../../bench/fight.ts';
import { choice, defaultOptions, defineOptions, flag, number, optionsReader, optionsValidator, readOptions, resolveOptions, retiredOptionsOf, type OptionValuesOf } from './options.ts';
import { rulingsOf as thrumRulings, thrumOptions } from './thrum/options.ts';

const ties = choice('contestTies', {
  ruling: 'R-H11', default: 'defenceHolds', label: 'Tied attack and defence', description: 'Who wins a tie.',
  choices: [
    { value: 'defenceHolds', label: 'The defence' },
    { value: 'attackWins', label: 'The attacker' },
  ],
});
const options = defineOptions([
  ties,
  flag('areasHitAllies', { ruling: 'R-H10', default: true, label: 'Areas hit allies', description: 'Allies inside an area are hit.' }),
  number('criticalMargin', { ruling: 'R-H11', default: 5, min: 1, max: 10, label: 'Critical margin', description: 'How far above is a Critical.' }),
  flag('farMelee', { ruling: 'R-C29', origin: 'app', default: false, label: 'Far melee', description: 'A ruling of the app.' }),
], { retired: [{ key: 'loadFloor', ruling: 'R-H8' }] });

describe('flag(), choice() and number()', () => {
  it('give the members of a hand-written declaration, in its order (origin after the ruling)', () => {
    expect(JSON.stringify(options)).toBe(JSON.stringify([
      { key: 'contestTies', ruling: 'R-H11', kind: 'choice', default: 'defenceHolds', label: 'Tied attack and defence', description: 'Who wins a tie.', choices: [{ value: 'defenceHolds', label: 'The defence' }, { value: 'attackWins', label: 'The attacker' }] },
      { key: 'areasHitAllies', ruling: 'R-H10', kind: 'flag', default: true, label: 'Areas hit allies', description: 'Allies inside an area are hit.' },
      { key: 'criticalMargin', ruling: 'R-H11', kind: 'number', default: 5, min: 1, max: 10, label: 'Critical margin', description: 'How far above is a Critical.' },
      { key: 'farMelee', ruling: 'R-C29', origin: 'app', kind: 'flag', default: false, label: 'Far melee', description: 'A ruling of the app.' },
    ]));
    expect(options[1]).not.toHaveProperty('origin');
  });

  it('refuse a default that is not one of the choices, or outside the bounds', () => {
    // A default outside the choices is a type error too; the cast makes the load-time check reachable.
    const bad = 'neither' as 'a';
    expect(() => choice('mode', { ruling: 'R-X1', default: bad, label: 'Mode', description: 'd', choices: [{ value: 'a', label: 'A' }] }))
      .toThrow('The option mode defaults to neither, which is not one of its choices.');
    expect(() => number('cap', { ruling: 'R-X2', default: 3, min: 1, max: 2, label: 'Cap', description: 'd' })).toThrow('The option cap defaults to 3, outside 1–2.');
    expect(() => number('cap', { ruling: 'R-X2', default: 1.5, min: 1, max: 2, label: 'Cap', description: 'd' })).toThrow();
  });
});

describe('defineOptions()', () => {
  it('registers the retired keys: the validator accepts and drops them, resolveOptions leaves them out', () => {
    expect(retiredOptionsOf(options)).toEqual([{ key: 'loadFloor', ruling: 'R-H8' }]);
    expect(optionsValidator(options).parse({ loadFloor: 'zero', criticalMargin: 4 })).toEqual({ criticalMargin: 4 });
    expect(resolveOptions(options, { loadFloor: 'zero' })).toEqual({ contestTies: 'defenceHolds', areasHitAllies: true, criticalMargin: 5, farMelee: false });
  });

  it('refuses two options with one key', () => {
    expect(() => defineOptions([flag('a', { ruling: 'R-1', default: true, label: 'A', description: 'd' }), flag('a', { ruling: 'R-2', default: false, label: 'A', description: 'd' })]))
      .toThrow('The option a is declared twice.');
  });
});

describe('readOptions()', () => {
  it('reads each stored value, the default where none is stored, and leaves retired and unknown keys out', () => {
    expect(readOptions(options, { contestTies: 'attackWins', criticalMargin: 7, loadFloor: 'zero', typo: 1 })).toEqual({
      contestTies: 'attackWins', areasHitAllies: true, criticalMargin: 7, farMelee: false,
    });
  });

  it('reads a value its option does not take (a wrong kind, out of bounds, not a choice) as the default', () => {
    expect(readOptions(options, { contestTies: 'maybe', areasHitAllies: 'yes', criticalMargin: 11, farMelee: 1 })).toEqual({
      contestTies: 'defenceHolds', areasHitAllies: true, criticalMargin: 5, farMelee: false,
    });
    expect(readOptions(options, { criticalMargin: 2.5 }).criticalMargin).toBe(5);
  });

  it('types each value by its option: a choice is the union of its values', () => {
    const values = readOptions(options, {});
    expectTypeOf(values.contestTies).toEqualTypeOf<'defenceHolds' | 'attackWins'>();
    expectTypeOf(values.areasHitAllies).toEqualTypeOf<boolean>();
    expectTypeOf(values.criticalMargin).toEqualTypeOf<number>();
    expectTypeOf<keyof OptionValuesOf<typeof options>>().toEqualTypeOf<'contestTies' | 'areasHitAllies' | 'criticalMargin' | 'farMelee'>();
    // @ts-expect-error: not an option of this ruleset
    void values.loadFloor;
  });
});

describe('the rulesets declared with the builders', () => {
  // Their app:info entries are held word for word, in member order, by the golden files (server/golden).
  it('give typed values: Thrum\'s Stunned and Enigma\'s Opposed ties are the unions of their choices', () => {
    expectTypeOf(readOptions(thrumOptions, {}).stunned).toEqualTypeOf<'skipNextAction' | 'gmAdjudicates'>();
    expectTypeOf(readOptions(enigmaOptions, {}).opposedTies).toEqualTypeOf<'defender' | 'attacker'>();
    expect(readOptions(thrumOptions, { stunned: 'gmAdjudicates', panicOrder: 'x' })).toMatchObject({ stunned: 'gmAdjudicates', criticalMargin: 5 });
    expect(retiredOptionsOf(thrumOptions).map((o) => o.key)).toContain('panicOrder');
    expect(retiredOptionsOf(enigmaOptions).map((o) => o.key)).toContain('removalCursor');
  });
});

/** A stored options object that counts how often a value is read from it. */
function counted<T extends object>(values: T): { options: T; reads: () => number } {
  let reads = 0;
  const options = new Proxy(values, { get: (target, key, receiver) => (reads++, Reflect.get(target, key, receiver)) });
  return { options, reads: () => reads };
}

describe('optionsReader()', () => {
  it('reads each options object once: asked again (after another one, too) it gives the same values without reading', () => {
    const rulings = optionsReader(options);
    const first = counted({ contestTies: 'attackWins' });
    const second = counted({ criticalMargin: 7 });
    const values = rulings(first.options);
    expect(values).toEqual({ contestTies: 'attackWins', areasHitAllies: true, criticalMargin: 5, farMelee: false });
    expect(first.reads()).toBe(options.length);
    expect(rulings(second.options).criticalMargin).toBe(7);
    for (let i = 0; i < 100; i++) expect(rulings(first.options)).toBe(values);
    expect(rulings(second.options).criticalMargin).toBe(7);
    expect([first.reads(), second.reads()]).toEqual([options.length, options.length]);
    // Another object with the same values is another encounter's: read on its own.
    expect(rulings({ contestTies: 'attackWins' })).not.toBe(values);
  });

  it('reads a stored fight whose options predate an option as its default, and drops the keys since retired', () => {
    // A Thrum fight stored by the first version (db/fixtures/v1.sql): no R-H11 tie or Critical margin yet, and the
    // panic order R-H8 took then.
    const { contestTies: _ties, criticalMargin: _margin, ...current } = defaultOptions(thrumOptions);
    const stored = { ...current, stunned: 'gmAdjudicates', panicOrder: 'beforeWounds' };
    const rulings = thrumRulings(stored);
    expect(rulings).toMatchObject({ contestTies: 'defenceHolds', criticalMargin: 5, stunned: 'gmAdjudicates' });
    expect(Object.keys(rulings).sort()).toEqual(thrumOptions.map((o) => o.key).sort());
  });

  it('is each ruleset\'s way in: a replayed fight reads its options once, however many events it has', () => {
    for (const [index, id] of RULESET_IDS.entries()) {
      const fight = generateFight(id, 6, 120, index + 1);
      const { options: stored, reads } = counted({ ...fight.input.options });
      const engine = EncounterEngine.resume(fight.rules, { ...fight.input, options: stored }, undefined, fight.events);
      expect(engine.view(), id).toEqual(EncounterEngine.resume(fight.rules, fight.input, undefined, fight.events).view());
      expect(reads(), id).toBe(Object.keys(stored).length);
    }
  });
});
