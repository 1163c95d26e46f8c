// Thrum's worked examples (RULES.md §5.7) by their IDs through the kernel, and the rules and rulings of §5.3–§5.6:
// attacks and defence tiers, boons and banes, loads against tolerances, Panic and Incapacity Rolls, incapacity
// upkeep and Wounds, movement on the map, buffs, terrain effects, triggers, the end check and the consequences.
import { describe, expect, it } from 'vitest';
import type { GmEvent } from '../../encounter/types.ts';
import { thrumEncounter } from './encounter.ts';
import { app, attack, contest, contestDetails, ctx, endTurnsUntil, fight, rolled, seed, shownSpeed, who } from './testing.ts';

const map = (elevation: Record<string, number> = {}, difficult: string[] = []): GmEvent => ({ type: 'SET_MAP', map: { width: 12, height: 12, elevation, difficult, startingArea: [] } });
const place = (id: string, x: number, y: number): GmEvent => ({ type: 'SET_POSITION', combatantId: id, square: { x, y }, note: '' });
const defend = (e: ReturnType<typeof fight>, defence: string, tier: string) => {
  e.apply({ type: 'DEFENSE_CHOICE', defence: defence });
  return contest(e, tier as 'critical' | 'success' | 'failure');
};
const texts = (lines: { text: string }[]) => lines.map((l) => l.text);
/** Drop rolls typed from dice (R-H11): 2d6 + Endurance or Reflex against the environment's 2d6 + the height. */
const holds = { roll: 'endurance', dice: app(6, 6), environment: app(1, 1) } as const;
const falls = { roll: 'reflex', dice: app(1, 1), environment: app(6, 6) } as const;

describe('worked examples (§5.7)', () => {
  it('THRUM-02 Bob and Alice delay (see machine.test.ts for the full walk-through)', () => {
    const e = fight([seed('bob', 'party'), seed('alice', 'party'), seed('carol', 'foes')]);
    e.apply({ type: 'DELAY', combatantId: 'bob', afterId: 'alice' });
    e.apply({ type: 'DELAY', combatantId: 'alice', afterId: 'bob' });
    expect(() => e.apply({ type: 'DELAY', combatantId: 'bob', afterId: null })).toThrow('Bob has already delayed this round and must act now (R-H3).');
    expect(ctx(e).order).toEqual(['bob', 'alice', 'carol']);
  });

  it('THRUM-03 distance 7: a Range 7 attack reaches a target 7 west and 4 north, Range 6 does not', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes')], {}, [map()]);
    e.apply(place('ana', 10, 10));
    e.apply(place('orc', 3, 6));
    expect(() => e.apply(attack('ana', ['orc'], { range: 6, attackType: 'mental' }))).toThrow('Orc is 7 squares away: beyond Range 6.');
    e.apply(attack('ana', ['orc'], { range: 7, attackType: 'mental' }));
    expect(e.view().prompt?.kind).toBe('defenceChoice');
  });

  it('THRUM-09 cover, orthogonal: +1 Bane from (1,3), none from (8,5), none on the line (4,9) (R-H14)', () => {
    const banes = (x: number, y: number) => {
      const e = fight([seed('ana', 'party'), seed('orc', 'foes')], {}, [map({ '4,5': 2 })]);
      e.apply(place('orc', 5, 5));
      e.apply(place('ana', x, y));
      e.apply(attack('ana', ['orc']));
      e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
      return contestDetails(e).attackBanes;
    };
    expect(banes(1, 3)).toEqual(['cover']);
    expect(banes(8, 5)).toEqual([]);
    expect(banes(4, 9)).toEqual([]);
  });

  it('THRUM-09 an attacker on elevation +3 is not lower than the wall: no cover', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes')], {}, [map({ '4,5': 2, '1,5': 3 })]);
    e.apply(place('orc', 5, 5));
    e.apply(place('ana', 1, 5));
    e.apply(attack('ana', ['orc']));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    expect(contestDetails(e).attackBanes).toEqual([]);
  });

  it('THRUM-10 cover, diagonal: a +2 pillar up-left of T covers from (2,3), not from (8,1)', () => {
    const banes = (x: number, y: number) => {
      const e = fight([seed('ana', 'party'), seed('orc', 'foes')], {}, [map({ '4,4': 2 })]);
      e.apply(place('orc', 5, 5));
      e.apply(place('ana', x, y));
      const lines = e.apply(attack('ana', ['orc']));
      return texts(lines)[0]!;
    };
    expect(banes(2, 3)).toContain('cover on Orc: +1 Bane');
    expect(banes(8, 1)).not.toContain('cover');
  });

  it('THRUM-22 the end check runs after the action: the last foe incapacitated ends combat at once, no further steps', () => {
    const e = fight([seed('ana', 'party', { fatigueTolerance: 0 }), seed('orc', 'foes', { fatigueTolerance: 0, baseFatigueTolerance: 0 })]);
    e.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'fatigue', amount: 2, source: '' });
    e.apply({ type: 'APPLY_LOAD', targetId: 'orc', load: 'fatigue', amount: 3, source: '' });
    e.apply(attack('ana', ['orc'], { finisher: true }));
    defend(e, 'resilience', 'failure');
    expect(e.view().prompt).toMatchObject({ kind: 'incapacityRoll', subjectId: 'orc', text: expect.stringContaining('Incapacity Roll (Finisher)') });
    e.apply({ type: 'INCAPACITY_ROLL', combatantId: 'orc', roll: app(1, 1) }); // 2 against Fatigue 4: fails
    // Ana is Exhausted: her post-action Incapacity Roll comes before the fight ends (§5.5), and nothing else does.
    expect(e.view().phase).not.toBe('ended');
    expect(e.view().prompt).toMatchObject({ kind: 'incapacityRoll', subjectId: 'ana', text: expect.stringContaining('Incapacity Roll (Exhausted after acting)') });
    expect(() => e.apply({ type: 'END_TURN' })).toThrow("Waiting for Ana's Incapacity Roll.");
    e.apply({ type: 'INCAPACITY_ROLL', combatantId: 'ana', roll: app(6, 6) }); // 12 > 2
    expect(e.view().phase).toBe('ended');
    expect(e.view().outcome).toBe('Every foe is incapacitated or removed.');
  });

  // source: Exhausted characters "must make an Incapacity Roll after they take an Action, unless the Action removes
  // Exhaustion" — also the action that ends the fight; its result (Fatigue Tolerance −1) is carried out of it.
  it('the Incapacity Roll after the fight-ending action is made, and its lowered Fatigue Tolerance is kept', () => {
    const e = fight([seed('ana', 'party', { fatigueTolerance: 1 }), seed('bo', 'party'), seed('orc', 'foes', { fatigueTolerance: 0, baseFatigueTolerance: 0 })]);
    e.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'fatigue', amount: 2, source: '' });
    e.apply({ type: 'APPLY_LOAD', targetId: 'orc', load: 'fatigue', amount: 3, source: '' });
    e.apply(attack('ana', ['orc'], { finisher: true }));
    defend(e, 'resilience', 'failure');
    e.apply({ type: 'INCAPACITY_ROLL', combatantId: 'orc', roll: app(1, 1) });
    e.apply({ type: 'INCAPACITY_ROLL', combatantId: 'ana', roll: app(1, 1) }); // 2 against Fatigue 2: a tie fails
    expect(e.view().phase).toBe('ended');
    expect(who(e, 'ana')).toMatchObject({ fatigueTolerance: 0, incapacitated: true }); // R-H9: Tolerance 0 stays out
  });
});

describe('attacks and defence (§5.4)', () => {
  const duel = (options = {}, sheets: Record<string, Record<string, number>> = {}) =>
    fight([seed('ana', 'party', { highestArtModifier: 3, evasion: 2, resilience: 1, ...sheets['ana'] }), seed('orc', 'foes', { evasion: 2, resilience: 1, resolve: 1, ...sheets['orc'] })], options);

  it('the defender chooses before the roll; only the matching defences are offered', () => {
    const e = duel();
    e.apply(attack('ana', ['orc']));
    const prompt = e.view().prompt!;
    expect(prompt).toMatchObject({ kind: 'defenceChoice', answer: 'DEFENSE_CHOICE', subjectId: 'orc' });
    expect(prompt.choices.map((c) => c.label)).toEqual(['Resilience + 1', 'Evasion + 2, +1 Boon', 'An ability\'s defence']);
    expect(() => e.apply({ type: 'DEFENSE_RESULT', outcome: 'failure' })).toThrow('Orc must choose a defence before the attack is rolled.');
    expect(() => e.apply({ type: 'DEFENSE_CHOICE', defence: 'resolve' })).toThrow('Against a physical attack the defence is Resilience or Evasion');
    expect(() => e.apply({ type: 'END_TURN' })).toThrow("Waiting for Orc chooses a defence against Ana's Strike before the roll.");
    expect(e.view().allowed).toEqual(['DEFENSE_CHOICE', 'TRIGGER', 'OVERRIDE']);
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['roll']);
    // R-H11 handed to the core rules: the GM gives the tier, and Resilience has no critical.
    const g = duel({ boonsAndBanes: 'countsToCoreRules' });
    g.apply(attack('ana', ['orc']));
    g.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    expect(g.view().prompt!.choices.map((c) => c.id)).toEqual(['success', 'failure']);
    expect(() => g.apply({ type: 'DEFENSE_RESULT', outcome: 'critical' })).toThrow('Only Evasion has a critical outcome');
  });

  it('Resilience: success avoids, failure takes the effect (+1 Fatigue, R-H12b)', () => {
    const e = duel();
    e.apply(attack('ana', ['orc']));
    defend(e, 'resilience', 'success');
    expect(who(e, 'orc').fatigueLoad).toBe(0);
    const f = duel();
    f.apply(attack('ana', ['orc'], { fatigue: 1, stress: 1 }));
    f.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    const lines = f.apply({ type: 'DEFENSE_RESULT', attackRoll: app(4, 3), defenceRoll: app(3, 3) });
    expect([who(f, 'orc').fatigueLoad, who(f, 'orc').stressLoad]).toEqual([1, 1]);
    expect(texts(lines)[0]).toBe("Ana's Strike [4, 3] + 3 = 10 against Orc's Resilience [3, 3] + 1 = 7: the attack is 3 higher — failure: takes the effect (Fatigue 1/5, Stress 1/5).");
  });

  it('a mental attack is met with Resolve or Evasion', () => {
    const e = duel();
    e.apply(attack('ana', ['orc'], { attackType: 'mental', fatigue: 0, stress: 1 }));
    expect(e.view().prompt!.choices.map((c) => c.id)).toEqual(['resolve', 'evasion', 'alternative']);
    defend(e, 'resolve', 'failure');
    expect(who(e, 'orc').stressLoad).toBe(1);
  });

  it('Evasion: critical avoids; success avoids with +1 Vulnerable; failure takes it with +1 Vulnerable; the boon only while not Vulnerable', () => {
    const e = duel();
    e.apply(attack('ana', ['orc']));
    defend(e, 'evasion', 'critical');
    expect(who(e, 'orc').statuses).toEqual({});
    const s = duel();
    s.apply(attack('ana', ['orc']));
    defend(s, 'evasion', 'success');
    expect([who(s, 'orc').fatigueLoad, who(s, 'orc').statuses['Vulnerable']?.stacks]).toEqual([0, 1]);
    const f = duel();
    f.apply(attack('ana', ['orc']));
    f.apply({ type: 'DEFENSE_CHOICE', defence: 'evasion' });
    expect(contestDetails(f).defenceBoons).toEqual(['Evasion while not Vulnerable']);
    contest(f, 'failure');
    expect([who(f, 'orc').fatigueLoad, who(f, 'orc').statuses['Vulnerable']?.stacks]).toEqual([1, 1]);
    f.apply({ type: 'END_TURN' });
    f.apply({ type: 'END_TURN' });
    f.apply(attack('ana', ['orc']));
    f.apply({ type: 'DEFENSE_CHOICE', defence: 'evasion' });
    expect(contestDetails(f).defenceBoons).toEqual([]);
  });

  it('a Basic Attack uses the highest Art modifier; an Art ability its own', () => {
    const e = duel();
    const basic = e.apply(attack('ana', ['orc']));
    expect(texts(basic)[0]).toContain('Art + 3 (highest Art, a Basic Attack)');
    const g = duel();
    expect(texts(g.apply(attack('ana', ['orc'], { art: 1 })))[0]).toContain('Art + 1.');
  });

  it('banes: +1 per enemy adjacent to a Ranged attacker, +1 for an Exhausted attacker; +1 on defence for a Frayed defender', () => {
    const e = fight([seed('ana', 'party', { fatigueTolerance: 1 }), seed('orc', 'foes', { stressTolerance: 0 }), seed('gob', 'foes'), seed('rat', 'foes')], {}, [map()]);
    e.apply(place('ana', 5, 5));
    e.apply(place('orc', 9, 9));
    e.apply(place('gob', 5, 6));
    e.apply(place('rat', 6, 6));
    e.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'fatigue', amount: 2, source: '' });
    e.apply({ type: 'APPLY_LOAD', targetId: 'orc', load: 'stress', amount: 1, source: '' });
    e.apply(attack('ana', ['orc'], { ranged: true, range: 8 }));
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    const details = contestDetails(e);
    expect(details.attackBanes).toEqual(['an enemy adjacent to a Ranged attacker', 'an enemy adjacent to a Ranged attacker', 'Exhausted attacker']);
    expect(details.defenceBanes).toEqual(['Frayed defender']);
  });

  it('without a map the GM gives cover and adjacent enemies', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes')]);
    e.apply({ type: 'ATTACK', attackerId: 'ana', ability: 'Shot', attackType: 'physical', ranged: true, adjacentEnemies: 1, targets: [{ targetId: 'orc', cover: true }], fatigue: 1, stress: 0 });
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'evasion' });
    expect(contestDetails(e).attackBanes).toEqual(['an enemy adjacent to a Ranged attacker', 'cover']);
  });

  it('an Obstructed target cannot be attacked, but an area may still reach it', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes')], {}, [map({ '4,4': 2, '4,5': 2, '4,6': 2 })]);
    e.apply(place('orc', 5, 5));
    e.apply(place('ana', 1, 5));
    expect(() => e.apply(attack('ana', ['orc']))).toThrow('The path to Orc is Obstructed');
    // source: "provided some other space in the area is not obstructed": (6,5) behind Orc is open.
    e.apply(attack('ana', ['orc'], { area: true, squares: [{ x: 5, y: 5 }, { x: 6, y: 5 }] }));
  });

  it('Overexert: the Stress is taken when declared, before any roll', () => {
    const e = duel();
    e.apply(attack('ana', ['orc'], { overexert: 2 }));
    expect(who(e, 'ana').stressLoad).toBe(2);
    expect(e.view().prompt?.kind).toBe('defenceChoice');
  });

  it('one Action per turn, and no moving on after acting unless the action allows it', () => {
    const e = duel();
    e.apply({ type: 'MOVE', squares: 2 });
    e.apply(attack('ana', ['orc']));
    defend(e, 'resilience', 'success');
    expect(e.view().turn).toEqual({ actionsLeft: 0, actionsPerTurn: 1 });
    expect(() => e.apply(attack('ana', ['orc']))).toThrow("Ana has already taken this turn's Action.");
    expect(() => e.apply({ type: 'MOVE', squares: 1 })).toThrow('Ana stopped moving to act: no more movement unless the action allows it.');
    const g = duel();
    g.apply(attack('ana', ['orc'], { movesAfter: true }));
    defend(g, 'resilience', 'success');
    g.apply({ type: 'MOVE', squares: 5 });
    expect(() => g.apply({ type: 'MOVE', squares: 1 })).toThrow('Ana has 0 squares of movement left; 1 needed (Speed 5, R-H12).');
  });

  it('the stance comes last: after it no Move or Action', () => {
    const e = duel();
    e.apply({ type: 'SET_STANCE', stance: 'Guard' });
    expect(() => e.apply(attack('ana', ['orc']))).toThrow('Ana has taken a stance: the Move and Action steps are over.');
  });

  it('several targets defend one after another', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes'), seed('gob', 'foes')]);
    e.apply(attack('ana', ['orc', 'gob'], { area: true }));
    defend(e, 'resilience', 'failure');
    expect(e.view().prompt).toMatchObject({ kind: 'defenceChoice', subjectId: 'gob' });
    defend(e, 'evasion', 'success');
    expect(e.view().prompt).toBeNull();
    expect([who(e, 'orc').fatigueLoad, who(e, 'gob').fatigueLoad]).toEqual([1, 0]);
  });

  it('R-H16 an Incapacitated target still defends; with the option off it takes the effect', () => {
    const setup = (options = {}) => {
      const e = fight([seed('ana', 'party'), seed('orc', 'foes'), seed('gob', 'foes')], options);
      e.apply({ type: 'APPLY_LOAD', targetId: 'orc', load: 'fatigue', amount: 3, source: '' });
      e.apply({ type: 'OVERRIDE', targetId: 'orc', field: 'incapacitated', value: 1, note: '' });
      e.apply(attack('ana', ['orc']));
      return e;
    };
    expect(setup().view().prompt?.kind).toBe('defenceChoice');
    const off = setup({ incapacitatedDefend: false });
    expect(off.view().prompt).toBeNull();
    expect(who(off, 'orc').fatigueLoad).toBe(4);
  });

  it('R-H10 areas hit allies unless the option spares them', async () => {
    const { areaTargets } = await import('./movement.ts');
    const { areaSquares } = await import('./grid.ts');
    const e = fight([seed('ana', 'party'), seed('bo', 'party'), seed('orc', 'foes')], {}, [map()]);
    e.apply(place('ana', 0, 0));
    e.apply(place('bo', 3, 3));
    e.apply(place('orc', 4, 4));
    expect(areaTargets(ctx(e), 'ana', areaSquares({ x: 3, y: 3 }, 2))).toEqual(['bo', 'orc']);
    expect(areaTargets({ ...ctx(e), options: { ...ctx(e).options, areasHitAllies: false } }, 'ana', areaSquares({ x: 3, y: 3 }, 2))).toEqual(['orc']);
  });
});

describe('Frayed and the Panic Roll (§5.5, R-H5, R-H6)', () => {
  const frayed = (options = {}) => {
    const e = fight([seed('ana', 'party', { resolve: 1, stressTolerance: 2, fatigueTolerance: 9 }), seed('orc', 'foes')], options);
    e.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'stress', amount: 4, source: 'horror' });
    e.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'fatigue', amount: 1, source: '' });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'END_TURN' });
    return e;
  };

  it('a Frayed combatant must make a Panic Roll at the start of its turn (2d6 + Resolve > Stress Load)', () => {
    const e = frayed();
    expect(e.view().prompt).toMatchObject({ kind: 'panicRoll', answer: 'PANIC_ROLL', subjectId: 'ana', choices: [{ id: 'ana', label: 'Roll 2d6 + 1' }] });
    expect(() => e.apply({ type: 'MOVE', squares: 1 })).toThrow("Waiting for Ana's Panic Roll.");
    expect(thrumEncounter.rollsFor!(e.snapshot, { type: 'PANIC_ROLL', combatantId: 'ana' })[0]).toMatchObject({ path: ['roll'], notation: '2d6' });
    const lines = e.apply({ type: 'PANIC_ROLL', combatantId: 'ana', roll: app(2, 2) }); // 5 > 4
    expect(texts(lines)[0]).toContain('= 5 against Stress Load 4: it must exceed the load and does.');
    expect(who(e, 'ana').stressLoad).toBe(4);
  });

  it('a tie fails: Stunned, Stress Load into Fatigue Load and reset, Stress Tolerance −1, in that order', () => {
    const e = frayed();
    const lines = e.apply({ type: 'PANIC_ROLL', combatantId: 'ana', roll: app(1, 2) }); // 4, a tie
    expect(lines[0]).toMatchObject({ rulings: ['R-H5', 'R-H6', 'R-H8'] });
    expect(texts(lines)[0]).toContain('a tie fails');
    expect(who(e, 'ana')).toMatchObject({ fatigueLoad: 5, stressLoad: 0, stressTolerance: 1, statuses: { Stunned: { stacks: 1, ticks: true } } });
  });

  it('R-H6 Stunned skips the next Action, then counts down at the end of the turn; the GM option only marks it', () => {
    const e = frayed();
    e.apply({ type: 'PANIC_ROLL', combatantId: 'ana', roll: app(1, 1) });
    expect(() => e.apply(attack('ana', ['orc']))).toThrow('Ana is Stunned and skips the Action this turn (R-H6).');
    e.apply({ type: 'MOVE', squares: 1 });
    const lines = e.apply({ type: 'END_TURN' });
    expect(texts(lines)[0]).toContain('Stunned 1 → 0');
    expect(who(e, 'ana').statuses).toEqual({});
    const g = frayed({ stunned: 'gmAdjudicates' });
    g.apply({ type: 'PANIC_ROLL', combatantId: 'ana', roll: app(1, 1) });
    g.apply(attack('ana', ['orc']));
  });

  it('R-H3 a Delay comes before the Panic Roll, which waits for the new slot', () => {
    const e = frayed();
    e.apply({ type: 'DELAY', combatantId: 'ana', afterId: null });
    expect(e.view().prompt).toBeNull();
    expect(e.view().activeId).toBe('orc');
    e.apply({ type: 'END_TURN' });
    expect(e.view().prompt).toMatchObject({ kind: 'panicRoll', subjectId: 'ana' });
  });
});

describe('Exhausted, Incapacity Rolls and Incapacitated (§5.5, R-H4, R-H7, R-H8)', () => {
  const tired = (options = {}, sheet = {}) => {
    const e = fight([seed('ana', 'party', { resilience: 1, fatigueTolerance: 2, ...sheet }), seed('bo', 'party'), seed('orc', 'foes')], options);
    e.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'fatigue', amount: 4, source: 'poison' });
    return e;
  };

  it('an Exhausted combatant rolls for incapacity after its Action (2d6 + Resilience > Fatigue Load)', () => {
    const e = tired();
    e.apply({ type: 'USE_ABILITY', ability: 'Shout' });
    expect(e.view().prompt).toMatchObject({ kind: 'incapacityRoll', subjectId: 'ana' });
    e.apply({ type: 'INCAPACITY_ROLL', combatantId: 'ana', roll: app(2, 2) }); // 5 > 4
    expect(who(e, 'ana').incapacitated).toBe(false);
  });

  it('no roll when the action removes Exhaustion', () => {
    const e = tired();
    e.apply({ type: 'USE_ABILITY', ability: 'Second Wind', removesExhaustion: true });
    expect(e.view().prompt).toBeNull();
  });

  it('a failed roll (a tie fails) incapacitates: stance ends, Fatigue Tolerance and Load −1 at once', () => {
    const e = tired();
    e.apply({ type: 'OVERRIDE', targetId: 'ana', field: 'acted', value: 0, note: '' });
    e.apply({ type: 'USE_ABILITY', ability: 'Shout' });
    const lines = e.apply({ type: 'INCAPACITY_ROLL', combatantId: 'ana', roll: app(1, 2) }); // 4, a tie
    expect(texts(lines)[0]).toContain('a tie fails');
    expect(who(e, 'ana')).toMatchObject({ incapacitated: true, fatigueTolerance: 1, fatigueLoad: 3, stance: null });
    expect(e.view().allowed).not.toContain('SET_STANCE');
  });

  it('R-H7 end of turn while Incapacitated: −1 Tolerance and Load; a Wound at Tolerance 0; Load 0 ends it', () => {
    const e = tired({}, { fatigueTolerance: 1 });
    e.apply({ type: 'USE_ABILITY', ability: 'Shout' });
    e.apply({ type: 'INCAPACITY_ROLL', combatantId: 'ana', roll: app(1, 1) });
    expect(who(e, 'ana')).toMatchObject({ fatigueTolerance: 0, fatigueLoad: 3, incapacitated: true });
    const lines = e.apply({ type: 'END_TURN' });
    expect(lines[0]!.rulings).toEqual(expect.arrayContaining(['R-H7']));
    expect(texts(lines)[0]).toContain('a Wound (1 of 3)');
    expect(who(e, 'ana')).toMatchObject({ fatigueTolerance: 0, fatigueLoad: 2, wounds: 1 });
    expect(thrumEncounter.consequences!(e.snapshot).injuries).toEqual([
      { key: 'ana.wound1', characterId: 'char-ana', name: 'Wound 1 of 3', category: 'wound', data: { kind: 'wound', number: 1, round: 1, outOfAction: false } },
    ]);
    endTurnsUntil(e, 'ana');
    e.apply({ type: 'END_TURN' }); // Load 2 → 1, second Wound
    endTurnsUntil(e, 'ana');
    const last = e.apply({ type: 'END_TURN' }); // Load 1 → 0: it ends, no Wound
    expect(texts(last)[0]).toContain('Fatigue Load 0: Incapacitated ends');
    expect(who(e, 'ana')).toMatchObject({ incapacitated: false, wounds: 2 });
  });

  it('R-H7 alternative: the wound check comes before the −1', () => {
    const e = tired({ woundCheckOrder: 'beforeDecrement' }, { fatigueTolerance: 2 });
    e.apply({ type: 'USE_ABILITY', ability: 'Shout' });
    e.apply({ type: 'INCAPACITY_ROLL', combatantId: 'ana', roll: app(1, 1) }); // Tolerance 2 → 1, Load 3
    e.apply({ type: 'END_TURN' }); // before: Tolerance 1, no Wound; after −1: Tolerance 0
    expect(who(e, 'ana')).toMatchObject({ fatigueTolerance: 0, wounds: 0 });
    const f = tired({}, { fatigueTolerance: 2 });
    f.apply({ type: 'USE_ABILITY', ability: 'Shout' });
    f.apply({ type: 'INCAPACITY_ROLL', combatantId: 'ana', roll: app(1, 1) });
    f.apply({ type: 'END_TURN' }); // after: Tolerance 0 and still Incapacitated: a Wound
    expect(who(f, 'ana')).toMatchObject({ fatigueTolerance: 0, wounds: 1 });
  });

  it('three Wounds remove the combatant from combat; it carries out of action', () => {
    const e = fight([seed('ana', 'party', { fatigueTolerance: 0, wounds: 2 }), seed('bo', 'party'), seed('orc', 'foes')]);
    e.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'fatigue', amount: 5, source: '' });
    e.apply({ type: 'OVERRIDE', targetId: 'ana', field: 'incapacitated', value: 1, note: '' });
    const lines = e.apply({ type: 'END_TURN' });
    expect(texts(lines)[0]).toContain('three Wounds: removed from combat and from normal campaign play');
    expect(ctx(e).order).toEqual(['bo', 'orc']);
    expect(e.view().activeId).toBe('bo');
    e.apply({ type: 'END_COMBAT', outcome: 'Won' });
    expect(thrumEncounter.consequences!(e.snapshot).carry).toContainEqual({ characterId: 'char-ana', state: { fatigueTolerance: 0, stressTolerance: 5, wounds: 3, stillIncapacitated: true, outOfAction: true } });
  });

  it('Finisher: an Exhausted target makes an Incapacity Roll right after the attack resolves', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes', { fatigueTolerance: 1 }), seed('gob', 'foes')]);
    e.apply({ type: 'APPLY_LOAD', targetId: 'orc', load: 'fatigue', amount: 1, source: '' });
    e.apply(attack('ana', ['orc'], { finisher: true }));
    defend(e, 'resilience', 'failure');
    expect(e.view().prompt).toMatchObject({ kind: 'incapacityRoll', subjectId: 'orc', text: expect.stringMatching(/Incapacity Roll \(Finisher\), 2d6 .* must exceed 2\./) });
    e.apply({ type: 'INCAPACITY_ROLL', combatantId: 'orc', roll: app(1, 1) });
    expect(who(e, 'orc').incapacitated).toBe(true);
    expect(e.view().phase).toBe('running');
  });

  it('Resuscitate ends Incapacitated; loads and tolerances never go below 0 (R-H8)', () => {
    const e = fight([seed('ana', 'party'), seed('bo', 'party'), seed('orc', 'foes')]);
    e.apply({ type: 'APPLY_LOAD', targetId: 'bo', load: 'fatigue', amount: 6, source: '' });
    e.apply({ type: 'OVERRIDE', targetId: 'bo', field: 'incapacitated', value: 1, note: '' });
    expect(() => e.apply({ type: 'RESUSCITATE', targetId: 'orc' })).toThrow('Orc is not Incapacitated.');
    e.apply({ type: 'RESUSCITATE', targetId: 'bo' });
    expect(who(e, 'bo').incapacitated).toBe(false);
    const lines = e.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'stress', amount: -3, source: 'calm' });
    expect(who(e, 'ana').stressLoad).toBe(0);
    expect(lines[0]!.rulings).toEqual(['R-H8']);
  });
});

describe('statuses (R-H15)', () => {
  it('statuses that count down lose a stack at the end of the bearer\'s turn; Vulnerable stays unless marked', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes')]);
    e.apply({ type: 'APPLY_STATUS', targetId: 'ana', status: 'slowed', stacks: 2, source: 'web' });
    e.apply({ type: 'APPLY_STATUS', targetId: 'ana', status: 'Vulnerable', stacks: 1, source: '' });
    expect(shownSpeed(e.view().order[0])).toBe(3);
    e.apply({ type: 'END_TURN' });
    expect(who(e, 'ana').statuses).toEqual({ Slowed: { stacks: 1, ticks: true }, Vulnerable: { stacks: 1, ticks: false } });
    const all = fight([seed('ana', 'party'), seed('orc', 'foes')], { statusCountdown: 'allStacksTick' });
    all.apply({ type: 'APPLY_STATUS', targetId: 'ana', status: 'Vulnerable', stacks: 1, source: '' });
    all.apply({ type: 'END_TURN' });
    expect(who(all, 'ana').statuses).toEqual({});
  });

  it('Frayed, Exhausted and Incapacitated are not set as statuses', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes')]);
    expect(() => e.apply({ type: 'APPLY_STATUS', targetId: 'ana', status: 'Frayed', stacks: 1, source: '' })).toThrow('Frayed is computed from the loads, not set.');
  });
});

describe('movement on the map (§5.3, R-H12)', () => {
  const walk = (elevation: Record<string, number> = {}, difficult: string[] = [], sheet = {}) => {
    const e = fight([seed('ana', 'party', { speed: 4, ...sheet }), seed('bo', 'party'), seed('orc', 'foes')], {}, [map(elevation, difficult)]);
    e.apply(place('ana', 0, 0));
    e.apply(place('bo', 1, 0));
    e.apply(place('orc', 3, 0));
    return e;
  };

  it('passes through allies but cannot stop on them, and never enters an enemy\'s square', () => {
    const e = walk();
    expect(() => e.apply({ type: 'MOVE', path: [{ x: 1, y: 0 }] })).toThrow('Bo stands on (1,0): movers pass through allies but cannot stop there.');
    expect(() => e.apply({ type: 'MOVE', path: [{ x: 1, y: 0 }, { x: 2, y: 0 }, { x: 3, y: 0 }] })).toThrow("Orc stands on (3,0): no moving into an enemy's square.");
    e.apply({ type: 'MOVE', path: [{ x: 1, y: 0 }, { x: 2, y: 0 }] });
    expect(who(e, 'ana').position).toEqual({ x: 2, y: 0 });
    expect(e.view().counters).toEqual([{ key: 'movement', label: 'Movement left', value: 2 }]);
  });

  it('elevation and Difficult Terrain cost extra; the path must fit the Speed', () => {
    const e = walk({ '0,1': 3 }, ['0,0']);
    // Leaving difficult (0,0) +1, climbing 3 levels +2: 4 squares of movement.
    expect(() => e.apply({ type: 'MOVE', path: [{ x: 0, y: 1 }, { x: 0, y: 2 }] })).toThrow('That path needs 7 squares of movement; Ana has 4 left (Speed 4).');
    e.apply({ type: 'MOVE', path: [{ x: 0, y: 1 }] });
    expect(ctx(e).turn.moved).toBe(4);
  });

  it('a drop of two levels: pay, or roll; a failed roll is +1 Slowed, and +1 Dazed when it stops the move', () => {
    const paid = walk({ '0,0': 3 });
    paid.apply({ type: 'MOVE', path: [{ x: 0, y: 1 }] });
    expect(ctx(paid).turn.moved).toBe(3);
    const rolled = walk({ '0,0': 3 });
    rolled.apply({ type: 'MOVE', path: [{ x: 0, y: 1 }], drops: [holds] });
    expect(ctx(rolled).turn.moved).toBe(1);
    const fell = walk({ '0,0': 3 }, [], { speed: 2 });
    expect(() => fell.apply({ type: 'MOVE', path: [{ x: 0, y: 1 }, { x: 0, y: 2 }], drops: [falls] })).toThrow('Ana fails the drop at (0,1) and cannot move further: end the path there.');
    const lines = fell.apply({ type: 'MOVE', path: [{ x: 0, y: 1 }], drops: [falls] });
    expect(lines[0]!.rulings).toEqual(['R-H12']);
    expect(who(fell, 'ana').statuses).toMatchObject({ Slowed: { stacks: 1 }, Dazed: { stacks: 1 } });
    expect(() => fell.apply({ type: 'MOVE', squares: 1 })).toThrow('Ana stopped moving to act');
  });
});

describe('buffs, terrain effects and triggers (§5.2 rule 6, §5.3)', () => {
  it('one buff per target: the target chooses to keep the old one or take the new one', () => {
    const e = fight([seed('ana', 'party'), seed('bo', 'party'), seed('orc', 'foes')]);
    e.apply({ type: 'USE_ABILITY', ability: 'Bless', buffTargetId: 'bo' });
    expect(who(e, 'bo').buff).toEqual({ name: 'Bless', fromId: 'ana' });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'USE_ABILITY', ability: 'Haste', buffTargetId: 'bo' });
    expect(e.view().prompt).toMatchObject({ kind: 'buffChoice', answer: 'BUFF_CHOICE', subjectId: 'bo' });
    e.apply({ type: 'BUFF_CHOICE', decision: 'takeNew' });
    expect(who(e, 'bo').buff).toEqual({ name: 'Haste', fromId: 'bo' });
  });

  it('one Terrain Effect per creator: a new one replaces the old', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes')]);
    e.apply({ type: 'USE_ABILITY', ability: 'Caltrops', terrainEffect: true });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'END_TURN' });
    const lines = e.apply({ type: 'USE_ABILITY', ability: 'Fog', terrainEffect: true });
    expect(who(e, 'ana').terrainEffect).toBe('Fog');
    expect(texts(lines)[0]).toContain('ending Caltrops');
  });

  // Bo (first in order) and Ana (second) hold stances with triggered effects; Orc acts third.
  const stances = () => {
    const e = fight([seed('bo', 'party'), seed('ana', 'party'), seed('orc', 'foes')]);
    e.apply({ type: 'SET_STANCE', stance: 'Watch' });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'SET_STANCE', stance: 'Riposte' });
    e.apply({ type: 'END_TURN' });
    return e;
  };

  it('out of turn only a current stance\'s triggered effect acts; an unnamed effect is the stance\'s', () => {
    const e = fight([seed('ana', 'party'), seed('bo', 'party'), seed('orc', 'foes')]);
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'END_TURN' });
    expect(() => e.apply({ type: 'TRIGGER', trigger: 'Orc moves', effects: [{ ownerId: 'ana', effect: 'Riposte' }] })).toThrow('Ana has no stance: out of turn only a current stance\'s triggered effect can act.');
    const f = stances();
    f.apply({ type: 'TRIGGER', trigger: 'Orc moves adjacent', effects: [{ ownerId: 'ana' }] });
    expect(f.view().prompt!.text).toBe('Trigger (Orc moves adjacent): resolve Ana\'s Riposte (stance), then confirm.');
  });

  it('effects on a common trigger resolve top-down in initiative order, whatever order they are declared in', () => {
    const e = stances();
    const lines = e.apply({ type: 'TRIGGER', trigger: 'Orc moves adjacent', effects: [{ ownerId: 'ana', effect: 'Riposte' }, { ownerId: 'bo', effect: 'Warning shout' }] });
    expect(lines[0]!.text).toBe('Trigger: Orc moves adjacent. In initiative order: Bo (Warning shout), Ana (Riposte).');
    const prompt = e.view().prompt!;
    expect(prompt).toMatchObject({ kind: 'trigger', answer: 'RESOLVE_TRIGGER', subjectId: 'bo', choices: [{ id: 'bo', label: 'Bo: resolved' }] });
    expect(prompt.text).toBe("Trigger (Orc moves adjacent): resolve Bo's Warning shout, then confirm. Then, last in first out: 2. Ana's Riposte (trigger: Orc moves adjacent).");
    expect(e.view().counters).toContainEqual({ key: 'triggers', label: 'Triggered effects waiting', value: 2 });
    expect(() => e.apply({ type: 'RESOLVE_TRIGGER', ownerId: 'ana' })).toThrow("Bo's triggered effect resolves first (last in, first out).");
    expect(() => e.apply({ type: 'END_TURN' })).toThrow("Waiting for Bo's triggered effect (Warning shout) to resolve.");
    e.apply({ type: 'RESOLVE_TRIGGER', ownerId: 'bo' });
    expect(e.view().prompt).toMatchObject({ subjectId: 'ana' });
    e.apply({ type: 'RESOLVE_TRIGGER', ownerId: 'ana' });
    expect(e.view().prompt).toBeNull();
  });

  it('an effect triggered by a triggered effect resolves first (last in, first out), interrupting what set it off', () => {
    const e = stances();
    e.apply({ type: 'TRIGGER', trigger: 'Orc moves adjacent', effects: [{ ownerId: 'ana', effect: 'Riposte' }, { ownerId: 'bo', effect: 'Warning shout' }] });
    e.apply({ type: 'RESOLVE_TRIGGER', ownerId: 'bo' });
    // Ana's Riposte is an attack; the attack itself sets off Bo's Watch, which pre-empts the rest of the Riposte.
    e.apply(attack('ana', ['orc']));
    const lines = e.apply({ type: 'TRIGGER', trigger: 'an ally attacks', effects: [{ ownerId: 'bo', effect: 'Cheer' }] });
    expect(lines[0]!.text).toBe("Trigger: an ally attacks. Bo (Cheer), before the rest of Ana's Strike (last in, first out).");
    expect(e.view().prompt!.text).toBe(
      "Trigger (an ally attacks): resolve Bo's Cheer, then confirm. Then, last in first out: 2. the rest of Ana's Strike; 3. Ana's Riposte (trigger: Orc moves adjacent).",
    );
    e.apply({ type: 'RESOLVE_TRIGGER', ownerId: 'bo' });
    expect(e.view().prompt).toMatchObject({ kind: 'defenceChoice', subjectId: 'orc' });
    defend(e, 'resilience', 'failure');
    expect(e.view().prompt).toMatchObject({ kind: 'trigger', subjectId: 'ana' });
    e.apply({ type: 'RESOLVE_TRIGGER', ownerId: 'ana' });
    expect(e.view().prompt).toBeNull();
    // The triggered attack used nobody's Action: Orc's turn is untouched.
    expect(e.view().activeId).toBe('orc');
    expect(ctx(e).turn.acted).toBe(false);
    expect(who(e, 'orc').fatigueLoad).toBe(1);
  });
});

describe('end of combat and what it leaves (§5.6, R-H9)', () => {
  it('loads reset; incapacitated PCs recover unless Fatigue Tolerance is 0 (R-H9); tolerances and wounds carry', () => {
    const e = fight([seed('ana', 'party', { fatigueTolerance: 1 }), seed('bo', 'party', { fatigueTolerance: 3 }), seed('cy', 'party'), seed('orc', 'foes')]);
    e.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'fatigue', amount: 4, source: '' });
    e.apply({ type: 'USE_ABILITY', ability: 'Shout' });
    e.apply({ type: 'INCAPACITY_ROLL', combatantId: 'ana', roll: app(1, 1) }); // Tolerance 0
    e.apply({ type: 'APPLY_LOAD', targetId: 'bo', load: 'fatigue', amount: 5, source: '' });
    e.apply({ type: 'OVERRIDE', targetId: 'bo', field: 'incapacitated', value: 1, note: '' });
    e.apply({ type: 'APPLY_LOAD', targetId: 'cy', load: 'stress', amount: 2, source: '' });
    expect(thrumEncounter.consequences!(e.snapshot).carry).toBeNull();
    const lines = e.apply({ type: 'END_COMBAT', outcome: 'The orc flees' });
    expect(texts(lines)[0]).toContain('Combat ends: The orc flees. Fatigue and Stress Loads reset to 0');
    expect(lines.find((l) => l.actorId === 'ana')).toMatchObject({ rulings: ['R-H9'] });
    expect(who(e, 'cy').stressLoad).toBe(0);
    const carry = thrumEncounter.consequences!(e.snapshot).carry!;
    expect(carry).toEqual([
      { characterId: 'char-ana', state: { fatigueTolerance: 0, stressTolerance: 5, wounds: 0, stillIncapacitated: true, outOfAction: false } },
      { characterId: 'char-bo', state: { fatigueTolerance: 3, stressTolerance: 5, wounds: 0, stillIncapacitated: false, outOfAction: false } },
      { characterId: 'char-cy', state: { fatigueTolerance: 5, stressTolerance: 5, wounds: 0, stillIncapacitated: false, outOfAction: false } },
    ]);
    const lenient = fight([seed('ana', 'party', { fatigueTolerance: 1 }), seed('orc', 'foes'), seed('gob', 'foes')], { zeroToleranceStaysOut: false });
    lenient.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'fatigue', amount: 4, source: '' });
    lenient.apply({ type: 'USE_ABILITY', ability: 'Shout' });
    lenient.apply({ type: 'INCAPACITY_ROLL', combatantId: 'ana', roll: app(1, 1) });
    expect(lenient.view().phase).toBe('ended'); // the whole party is down
    expect(who(lenient, 'ana').incapacitated).toBe(false);
  });

  it('the whole party incapacitated ends combat after the action (end check)', () => {
    const e = fight([seed('ana', 'party', { fatigueTolerance: 1 }), seed('orc', 'foes')]);
    e.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'fatigue', amount: 3, source: '' });
    e.apply({ type: 'USE_ABILITY', ability: 'Shout' });
    const lines = e.apply({ type: 'INCAPACITY_ROLL', combatantId: 'ana', roll: app(1, 1) });
    expect(e.view().phase).toBe('ended');
    expect(e.view().outcome).toBe('Every member of the party is incapacitated or removed.');
    expect(texts(lines)).toContain('Combat ends: Every member of the party is incapacitated or removed. Fatigue and Stress Loads reset to 0; buffs, stances and terrain effects end.');
  });

  it('carries lowered tolerances and wounds into the next fight', () => {
    const carried = thrumEncounter.carriedIn!({ fatigueTolerance: 2, stressTolerance: 4, wounds: 1 }, []);
    expect(carried).toEqual({ fatigueTolerance: 2, stressTolerance: 4, wounds: 1 });
    expect(thrumEncounter.carriedIn!({}, [{ kind: 'wound', number: 1 }, { kind: 'wound', number: 2 }])).toEqual({ wounds: 2 });
    const e = fight([seed('ana', 'party', {}, { carried }), seed('orc', 'foes')]);
    expect(e.view().order[0]).toMatchObject({ health: { label: 'Fatigue', current: 0, max: 2 } });
    expect(e.view().order[0]!.tags).toEqual(['Wounds 1/3', 'Fatigue Tolerance 2 (base 5)', 'Stress Tolerance 4 (base 5)']);
  });
});

describe('teleport and forced movement (§5.3)', () => {
  const ground = (elevation: Record<string, number> = {}, difficult: string[] = [], sheet = {}) => {
    const e = fight([seed('ana', 'party', { speed: 4, ...sheet }), seed('bo', 'party'), seed('orc', 'foes')], {}, [map(elevation, difficult)]);
    e.apply(place('ana', 0, 0));
    e.apply(place('bo', 2, 0));
    e.apply(place('orc', 1, 0));
    return e;
  };

  it('a teleport crosses nothing between: past an enemy, ignoring Difficult Terrain and elevation, for its distance', () => {
    const e = ground({ '3,0': 4 }, ['0,0']);
    // Walking: Orc blocks (1,0); leaving difficult (0,0) costs +1 and climbing 4 levels +3.
    const lines = e.apply({ type: 'MOVE', teleport: true, path: [{ x: 3, y: 0 }] });
    expect(who(e, 'ana').position).toEqual({ x: 3, y: 0 });
    expect(ctx(e).turn.moved).toBe(3);
    expect(lines[0]!.text).toBe('Ana teleports 3 squares to (3,0), crossing nothing between (no terrain or elevation costs). 1 square of movement left.');
  });

  it('a teleport still costs movement, names only its destination and cannot end on anyone', () => {
    const e = ground();
    expect(() => e.apply({ type: 'MOVE', teleport: true, path: [{ x: 5, y: 0 }] })).toThrow('A teleport of 5 squares needs that much movement; Ana has 4 left (Speed 4, R-H12).');
    expect(() => e.apply({ type: 'MOVE', teleport: true, path: [{ x: 1, y: 0 }] })).toThrow("Orc stands on (1,0): no moving into an enemy's square.");
    expect(() => e.apply({ type: 'MOVE', teleport: true, path: [{ x: 2, y: 0 }] })).toThrow("Bo stands on (2,0): movers cannot stop on an ally's square.");
    expect(() => e.apply({ type: 'MOVE', teleport: true, path: [{ x: 0, y: 1 }, { x: 0, y: 2 }] })).toThrow('A teleport names only its destination square, not a path.');
    const bare = fight([seed('ana', 'party', { speed: 4 }), seed('orc', 'foes')]);
    bare.apply({ type: 'MOVE', teleport: true, squares: 3 });
    expect(ctx(bare).turn.moved).toBe(3);
  });

  it('forced movement: a drop of two or more levels is rolled for; a failure is +1 Slowed', () => {
    const e = ground({ '1,0': 3 });
    e.apply({ type: 'END_TURN' }); // Bo's turn; Orc (on a ledge at +3) is shoved off it
    expect(() => e.apply({ type: 'FORCED_MOVE', combatantId: 'orc', path: [{ x: 1, y: 1 }] })).toThrow('Orc drops 3 levels into (1,1): roll Endurance or Reflex against 3.');
    const lines = e.apply({ type: 'FORCED_MOVE', combatantId: 'orc', path: [{ x: 1, y: 1 }], drops: [falls], source: 'Bo\'s Shove' });
    expect(who(e, 'orc')).toMatchObject({ position: { x: 1, y: 1 }, statuses: { Slowed: { stacks: 1, ticks: true } } });
    expect(lines[0]).toMatchObject({ rulings: ['R-H11', 'R-H12'], text: "Orc is moved 1 square to (1,1) by Bo's Shove; drops 3 levels into (1,1): Reflex [1, 1] + 0 = 2 against the environment [6, 6] + 3 = 15: fails, +1 Slowed." });
    const safe = ground({ '1,0': 3 });
    safe.apply({ type: 'FORCED_MOVE', combatantId: 'orc', path: [{ x: 1, y: 1 }], drops: [holds] });
    expect(who(safe, 'orc').statuses).toEqual({});
  });

  it('forced movement: +1 Dazed and no more movement when the movement spent reaches the lowered Speed', () => {
    const e = ground({ '0,2': 2 }, [], { speed: 3 });
    e.apply({ type: 'MOVE', path: [{ x: 0, y: 1 }, { x: 0, y: 2 }] }); // 1, then 2 for climbing two levels: all 3 spent
    const lines = e.apply({ type: 'FORCED_MOVE', combatantId: 'ana', path: [{ x: 0, y: 3 }], drops: [falls], source: 'a collapsing floor' });
    expect(who(e, 'ana').statuses).toMatchObject({ Slowed: { stacks: 1 }, Dazed: { stacks: 1 } });
    expect(lines[0]!.text).toContain('movement spent this turn reaches the lowered Speed 2: +1 Dazed and no further movement');
    expect(() => e.apply({ type: 'MOVE', squares: 1 })).toThrow('Ana stopped moving to act');
  });

  it('forced movement never ends on another character nor enters an enemy\'s square; without a map the GM gives the drop\'s height', () => {
    const e = ground();
    expect(() => e.apply({ type: 'FORCED_MOVE', combatantId: 'bo', path: [{ x: 1, y: 0 }, { x: 0, y: 1 }] })).toThrow("Orc stands on (1,0): Bo cannot be moved into an enemy's square.");
    expect(() => e.apply({ type: 'FORCED_MOVE', combatantId: 'bo', path: [{ x: 1, y: 1 }, { x: 0, y: 0 }] })).toThrow("Ana stands on (0,0): nobody can be pushed onto another character's square.");
    const bare = fight([seed('ana', 'party'), seed('orc', 'foes')]);
    const lines = bare.apply({ type: 'FORCED_MOVE', combatantId: 'orc', squares: 2, drop: 'reflex', levels: 3, dropDice: app(1, 1), environmentDice: app(6, 6) });
    expect(lines[0]!.text).toBe('Orc is moved 2 squares; drops 3 levels: Reflex [1, 1] + 0 = 2 against the environment [6, 6] + 3 = 15: fails, +1 Slowed.');
    expect(who(bare, 'orc').statuses['Slowed']?.stacks).toBe(1);
    const zero = rolled([seed('ana', 'party'), seed('orc', 'foes')]);
    expect(() => zero.apply({ type: 'FORCED_MOVE', combatantId: 'orc', squares: 1 })).toThrow('Round Zero has no actions, so nobody is moved by force');
  });

  it('a voluntary drop is logged with how the mover took it', () => {
    const e = ground({ '0,0': 3 });
    expect(e.apply({ type: 'MOVE', path: [{ x: 0, y: 1 }] })[0]!.text).toContain('drops 3 levels into (0,1) and pays 2 extra squares');
    const f = ground({ '0,0': 3 });
    expect(f.apply({ type: 'MOVE', path: [{ x: 0, y: 1 }], drops: [holds] })[0]!.text).toContain('drops 3 levels into (0,1): Endurance [6, 6] + 0 = 12 against the environment [1, 1] + 3 = 5: succeeds, base cost only');
  });
});

describe('rulings read from their options (R-H10, R-H12, R-H13, R-H14, R-H16)', () => {
  it('R-H10 an area attack hits allies (logged); with the option off allies cannot be among its targets', () => {
    const e = fight([seed('ana', 'party'), seed('bo', 'party'), seed('orc', 'foes')]);
    const lines = e.apply(attack('ana', ['orc', 'bo'], { area: true }));
    expect(lines[0]!.rulings).toContain('R-H10');
    expect(lines[0]!.text).toContain('the area hits allies too (Bo)');
    const spare = fight([seed('ana', 'party'), seed('bo', 'party'), seed('orc', 'foes')], { areasHitAllies: false });
    expect(() => spare.apply(attack('ana', ['orc', 'bo'], { area: true }))).toThrow("Bo is Ana's ally, and this campaign's areas spare allies (R-H10).");
  });

  it('R-H12 the Speed lost per Slowed stack is the option\'s number', () => {
    const speed = (options = {}) => {
      const e = fight([seed('ana', 'party', { speed: 5 }), seed('orc', 'foes')], options);
      e.apply({ type: 'APPLY_STATUS', targetId: 'ana', status: 'Slowed', stacks: 1, source: '' });
      return shownSpeed(e.view().order[0]);
    };
    expect(speed()).toBe(4);
    expect(speed({ slowedSpeedPerStack: 2 })).toBe(3);
  });

  it('R-H13 a character as cover counts its square + 2; at height 0 it gives no cover on flat ground', () => {
    const banes = (options = {}) => {
      const e = fight([seed('ana', 'party'), seed('orc', 'foes'), seed('gob', 'foes')], options, [map()]);
      e.apply(place('orc', 5, 5));
      e.apply(place('gob', 4, 5));
      e.apply(place('ana', 1, 3));
      const lines = e.apply(attack('ana', ['orc']));
      e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
      return { banes: contestDetails(e).attackBanes, rulings: lines[0]!.rulings };
    };
    expect(banes()).toEqual({ banes: ['cover'], rulings: ['R-H11', 'R-H12b', 'R-H13', 'R-H14'] });
    expect(banes({ characterCoverHeight: 0 }).banes).toEqual([]);
  });

  it('R-H14 an attacker on the dividing line: no cover by default, cover with the option', () => {
    const banes = (options = {}) => {
      const e = fight([seed('ana', 'party'), seed('orc', 'foes')], options, [map({ '4,5': 2 })]);
      e.apply(place('orc', 5, 5));
      e.apply(place('ana', 4, 9));
      e.apply(attack('ana', ['orc']));
      e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
      return contestDetails(e).attackBanes;
    };
    expect(banes()).toEqual([]);
    expect(banes({ dividingLineCover: 'cover' })).toEqual(['cover']);
  });

  it('R-H16 the log names the ruling when an Incapacitated target defends, or takes the effect undefended', () => {
    const setup = (options = {}) => {
      const e = fight([seed('ana', 'party'), seed('orc', 'foes'), seed('gob', 'foes')], options);
      e.apply({ type: 'APPLY_LOAD', targetId: 'orc', load: 'fatigue', amount: 3, source: '' });
      e.apply({ type: 'OVERRIDE', targetId: 'orc', field: 'incapacitated', value: 1, note: '' });
      return e;
    };
    const e = setup();
    e.apply(attack('ana', ['orc']));
    const line = e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' })[0]!;
    expect(line).toMatchObject({ rulings: ['R-H16'] });
    expect(line.text).toContain('Though Incapacitated, Orc defends with Resilience');
    const off = setup({ incapacitatedDefend: false });
    const lines = off.apply(attack('ana', ['orc']));
    expect(lines[0]!.rulings).toContain('R-H16');
    expect(lines[0]!.text).toContain('Orc is Incapacitated and does not defend under this campaign\'s ruling: the effect lands');
  });

  it('without a map the GM marks which targets have cover; only targets can be marked', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes'), seed('gob', 'foes')]);
    expect(() => e.apply(attack('ana', ['orc'], { covered: ['gob'] }))).toThrow('Cover is marked on Gob, who is not a target of this attack.');
    e.apply(attack('ana', ['orc', 'gob'], { covered: ['gob'], area: true }));
    defend(e, 'resilience', 'failure');
    e.apply({ type: 'DEFENSE_CHOICE', defence: 'resilience' });
    expect(contestDetails(e).attackBanes).toEqual(['cover']);
  });
});

describe('the runner shows loads, statuses, stance, wounds and the order with delays', () => {
  it('rows carry Fatigue and Stress against tolerances, Frayed and Exhausted with why, statuses with stacks, stance, wounds, incapacity', () => {
    const e = fight([seed('ana', 'party', { fatigueTolerance: 2, stressTolerance: 1, wounds: 1 }), seed('bo', 'party'), seed('orc', 'foes')]);
    e.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'fatigue', amount: 3, source: '' });
    e.apply({ type: 'APPLY_LOAD', targetId: 'ana', load: 'stress', amount: 2, source: '' });
    e.apply({ type: 'APPLY_STATUS', targetId: 'ana', status: 'Slowed', stacks: 2, source: '' });
    e.apply({ type: 'SET_STANCE', stance: 'Guard' });
    const row = e.view().order.find((c) => c.id === 'ana')!;
    expect(row.health).toEqual({ label: 'Fatigue', current: 3, max: 2, rising: true });
    expect(row.stats).toEqual([
      { label: 'Stress', value: '2/1' }, { label: 'Wounds', value: '1/3' }, { label: 'Speed', value: '3' }, { label: 'Initiative', value: '12' },
    ]);
    expect(row.tags).toEqual(['Frayed (Stress 2 > 1)', 'Exhausted (Fatigue 3 > 2)', 'Slowed 2', 'Stance: Guard', 'Wounds 1/3', 'Fatigue Tolerance 2 (base 5)', 'Stress Tolerance 1 (base 5)']);
    e.apply({ type: 'OVERRIDE', targetId: 'ana', field: 'incapacitated', value: 1, note: '' });
    expect(e.view().order.find((c) => c.id === 'ana')!.tags[0]).toBe('Incapacitated');
  });

  it('the initiative order aside shows each total and who has delayed, this round and earlier', () => {
    const e = fight([seed('bob', 'party'), seed('alice', 'party'), seed('carol', 'foes')]);
    e.apply({ type: 'DELAY', combatantId: 'bob', afterId: 'alice' });
    expect(e.view().aside).toEqual([{ title: 'Initiative order', text: 'Alice 11 · Bob 12, delayed this round · Carol 10' }]);
    expect(e.view().order.find((c) => c.id === 'bob')!.tags).toContain('Delayed this round');
    while (e.view().round === 1) e.apply({ type: 'END_TURN' });
    expect(e.view().aside![0]!.text).toBe('Alice 11 · Bob 12, delayed · Carol 10');
    expect(e.view().order.find((c) => c.id === 'bob')!.tags).toContain('Delayed earlier: keeps the later slot');
  });
});
