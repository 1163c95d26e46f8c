// The shared roster rules (core/encounter/roster.ts) on a tiny ruleset of two sides, 'us' and 'them'.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { addedSentence, addSeeds, checkAdd, checkRemove, checkSidesPresent, dropFromRoster, leaveOrder, nameOf, names, plural, update, type RosterSpec } from './roster.ts';
import type { CombatantSeed } from './types.ts';

interface Piece { name: string; side: string; hp: number; gone: boolean }
interface Ctx { roster: string[]; combatants: Record<string, Piece>; log: string[] }

const spec: RosterSpec<Ctx, Piece> = {
  max: 3,
  sideProblem: (_ctx, seed) => (seed.side === 'us' || seed.side === 'them' ? null : `${seed.name} must join us or them.`),
  idProblem: (seed) => (seed.id === 'pass' ? '"pass" cannot be a combatant\'s id.' : null),
  seedProblem: (_ctx, seed) => (seed.sheet['hp'] === 0 ? `${seed.name} has no HP left.` : null),
  fromSeed: (_ctx, seed) => ({ name: seed.name, side: seed.side, hp: Number(seed.sheet['hp'] ?? 1), gone: false }),
  hasLeft: (piece) => piece.gone,
};

const seed = (id: string, side = 'us', hp = 1): CombatantSeed => ({ id, name: id.toUpperCase(), side, characterId: null, sheet: { hp } });
const empty = (): Ctx => ({ roster: [], combatants: {}, log: [] });

describe('checkAdd: the refusals of adding combatants', () => {
  it('asks for at least one combatant', () => {
    expect(checkAdd(spec, empty(), [])).toBe('Choose at least one combatant to add.');
  });
  it('holds at most the spec\'s maximum', () => {
    const ctx = addSeeds(spec, empty(), [seed('a'), seed('b')]);
    expect(checkAdd(spec, ctx, [seed('c')])).toBeNull();
    expect(checkAdd(spec, ctx, [seed('c'), seed('d')])).toBe('An encounter holds at most 3 combatants.');
  });
  it('refuses a side the ruleset does not have, with its sentence', () => {
    expect(checkAdd(spec, empty(), [seed('a', 'nobody')])).toBe('A must join us or them.');
  });
  it('refuses a combatant already there, or twice in one batch', () => {
    const ctx = addSeeds(spec, empty(), [seed('a')]);
    expect(checkAdd(spec, ctx, [seed('a')])).toBe('A is already in this encounter.');
    expect(checkAdd(spec, empty(), [seed('b'), seed('b')])).toBe('B is already in this encounter.');
  });
  it('asks the spec about each seed after its side and its id, in the order given', () => {
    expect(checkAdd(spec, empty(), [seed('a', 'us', 0)])).toBe('A has no HP left.');
    expect(checkAdd(spec, empty(), [seed('a', 'nobody', 0)])).toBe('A must join us or them.');
    expect(checkAdd(spec, empty(), [seed('a', 'us', 0), seed('b', 'nobody')])).toBe('A has no HP left.');
  });
  it('asks the spec about an id it cannot take after the side and before the duplicate', () => {
    expect(checkAdd(spec, empty(), [seed('pass')])).toBe('"pass" cannot be a combatant\'s id.');
    expect(checkAdd(spec, empty(), [seed('pass', 'nobody')])).toBe('PASS must join us or them.');
    expect(checkAdd(spec, empty(), [seed('pass'), seed('pass')])).toBe('"pass" cannot be a combatant\'s id.');
  });
});

describe('addSeeds and dropFromRoster', () => {
  it('adds each seed as the spec makes it, in order, without changing the context it was given', () => {
    const before = empty();
    const ctx = addSeeds(spec, before, [seed('a'), seed('b', 'them', 4)]);
    expect(ctx.roster).toEqual(['a', 'b']);
    expect(ctx.combatants['b']).toEqual({ name: 'B', side: 'them', hp: 4, gone: false });
    expect(before).toEqual(empty());
  });
  it('runs the spec\'s afterAdd and afterDrop', () => {
    const withLog: RosterSpec<Ctx, Piece> = {
      ...spec,
      afterAdd: (ctx, seeds) => ({ ...ctx, log: [...ctx.log, `+${seeds.map((s) => s.id).join('')}`] }),
      afterDrop: (ctx, id, dropped) => ({ ...ctx, log: [...ctx.log, `-${id}:${dropped.name}`] }),
    };
    const ctx = dropFromRoster(withLog, addSeeds(withLog, empty(), [seed('a'), seed('b')]), 'a');
    expect(ctx.log).toEqual(['+ab', '-a:A']);
  });
  it('drops a combatant without a trace', () => {
    const ctx = dropFromRoster(spec, addSeeds(spec, empty(), [seed('a'), seed('b')]), 'a');
    expect(ctx.roster).toEqual(['b']);
    expect(Object.keys(ctx.combatants)).toEqual(['b']);
  });
});

describe('checkRemove', () => {
  const ctx = addSeeds(spec, empty(), [seed('a')]);
  it('refuses one who is not there', () => {
    expect(checkRemove(spec, ctx, 'zz')).toBe('That combatant is not in this encounter.');
  });
  it('refuses one who has already left the fight (or what the spec names)', () => {
    const gone = update(ctx, 'a', { gone: true });
    expect(checkRemove(spec, ctx, 'a')).toBeNull();
    expect(checkRemove(spec, gone, 'a')).toBe('A has already left the fight.');
    expect(checkRemove({ ...spec, leftWhat: 'order' }, gone, 'a')).toBe('A has already left the order.');
  });
});

describe('checkSidesPresent', () => {
  const sides = [{ key: 'us', noun: 'friend' }, { key: 'them', noun: 'enemy' }];
  it('names the first side with nobody on it', () => {
    expect(checkSidesPresent(empty(), sides)).toBe('Add at least one friend before starting.');
    expect(checkSidesPresent(addSeeds(spec, empty(), [seed('a')]), sides)).toBe('Add at least one enemy before starting.');
    expect(checkSidesPresent(addSeeds(spec, empty(), [seed('a'), seed('b', 'them')]), sides)).toBeNull();
  });
});

describe('leaveOrder (R-E3, R-H4)', () => {
  it('slides everyone after up and keeps the cursor on the same turn position', () => {
    expect(leaveOrder(['a', 'b', 'c', 'd'], 2, 'a')).toEqual({ order: ['b', 'c', 'd'], cursor: 1, index: 0 });
    expect(leaveOrder(['a', 'b', 'c', 'd'], 2, 'c')).toEqual({ order: ['a', 'b', 'd'], cursor: 2, index: 2 });
    expect(leaveOrder(['a', 'b', 'c', 'd'], 2, 'd')).toEqual({ order: ['a', 'b', 'c'], cursor: 2, index: 3 });
  });
  it('leaves the order itself alone for one not placed', () => {
    const order = ['a', 'b'];
    expect(leaveOrder(order, 1, 'z').order).toBe(order);
  });
});

describe('update and the small helpers', () => {
  const ctx = addSeeds(spec, empty(), [seed('a'), seed('b')]);
  it('changes one combatant and keeps the same context when nothing would change', () => {
    const hurt = update(ctx, 'a', { hp: 0 });
    expect(hurt.combatants['a']!.hp).toBe(0);
    expect(hurt.combatants['b']).toBe(ctx.combatants['b']);
    expect(update(ctx, 'a', { hp: 1 })).toBe(ctx);
  });
  it('takes the combatant type from the context: a change is checked against it, with no type arguments', () => {
    expectTypeOf(update(ctx, 'a', { hp: 0 })).toEqualTypeOf<Ctx>();
    expectTypeOf(update<Ctx, Piece>).parameter(2).toEqualTypeOf<Partial<Piece>>();
    // @ts-expect-error: a piece has no field 'hq' (the change never widens the combatant type)
    update(ctx, 'a', { hq: 0 });
    // @ts-expect-error: a piece's hp is a number
    update(ctx, 'a', { hp: '0' });
  });
  it('names a combatant, several, or someone', () => {
    expect(nameOf(ctx, 'a')).toBe('A');
    expect(nameOf(ctx, null)).toBe('someone');
    expect(nameOf(ctx, 'zz')).toBe('someone');
    expect(names(ctx, ['a', 'b'])).toBe('A, B');
  });
  it('counts in words', () => {
    expect(plural(1, 'action')).toBe('1 action');
    expect(plural(0, 'action')).toBe('0 actions');
    expect(plural(2, 'action')).toBe('2 actions');
  });
});

describe('addedSentence', () => {
  it('names those added by side, in the sides’ order, and leaves out a side with nobody', () => {
    const sides = [{ key: 'party', label: 'the party' }, { key: 'gm', label: 'the GM side' }, { key: 'x', label: 'Red Company' }];
    expect(addedSentence([{ name: 'Goblin 1', side: 'gm' }, { name: 'Ash', side: 'party' }, { name: 'Mira', side: 'party' }], sides)).toBe('Added Ash, Mira to the party; Goblin 1 to the GM side.');
    expect(addedSentence([{ name: 'Vex', side: 'x' }], sides)).toBe('Added Vex to Red Company.');
  });
});
