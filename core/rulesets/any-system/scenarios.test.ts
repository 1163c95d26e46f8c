// Fights played through the engine (core/encounter/kernel.ts): initiative, turns, damage and healing, death saves,
// reactions, concentration, delay and ready, late arrivals, conditions, several targets, undo by replay.
import { describe, expect, it } from 'vitest';
import { EncounterEngine } from '../../encounter/kernel.ts';
import type { GmEvent } from '../../encounter/types.ts';
import { anySystemEncounter } from './encounter.ts';
import { ctx, encounter, fight, refused, row, seed, texts, typed, who } from './testing.ts';

const party = () => [seed('ana', 'party', { hp: 12, initiativeModifier: 2 }), seed('bo', 'party', { hp: 9 })];
const goblins = () => [seed('gob1', 'enemies', { hp: 7, initiativeModifier: 2 }), seed('gob2', 'enemies', { hp: 7, initiativeModifier: 2 })];

describe('initiative', () => {
  it('rolls, sorts with the tie-break and begins round 1 with the first in order', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [...party(), ...goblins()] });
    e.apply({ type: 'ADD_FIXED', name: 'Lair action', initiative: 20 });
    expect(texts(e.apply({ type: 'START' }))).toEqual(['The encounter starts: roll initiative (d20 + modifier).']);
    expect(texts(e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'ana', roll: typed(18) }))).toEqual(['Ana rolls initiative: 18 + 2 = 20 (d20) (typed in).']);
    expect(texts(e.apply({ type: 'ROLL_ALL_INITIATIVE', rolls: { gob1: typed(9), gob2: typed(9) } }))).toEqual([
      'Gob1 rolls initiative: 9 + 2 = 11 (d20) (typed in).', 'Gob2 rolls initiative: 9 + 2 = 11 (d20) (typed in).',
    ]);
    expect(refused(e, { type: 'START_COMBAT' })).toBe('Bo has no initiative yet: roll or type it, or begin with those missing going last.');
    e.apply({ type: 'SET_INITIATIVE', combatantId: 'bo', total: 11 });
    // Gob1 and Gob2: same total, same modifier → the GM orders them; Bo has a lower modifier.
    expect(refused(e, { type: 'REORDER', combatantId: 'bo', beforeId: 'gob1' })).toMatch(/are not tied/);
    e.apply({ type: 'REORDER', combatantId: 'gob2', beforeId: 'gob1' });
    const lines = texts(e.apply({ type: 'START_COMBAT' }));
    expect(lines).toEqual(['Round 1 begins. Order: Ana 20, Lair action 20, Gob2 11, Gob1 11, Bo 11.', "Ana's turn."]);
    expect(e.view().order.map((c) => [c.name, c.slot, c.stats?.[0]?.value])).toEqual([
      ['Ana', 1, '20'], ['Lair action', 2, '20'], ['Gob2', 3, '11'], ['Gob1', 4, '11'], ['Bo', 5, '11'],
    ]);
    expect(e.view().activeId).toBe('ana');
  });

  it('asks the app for a d20 per combatant and refuses a face the die does not have', () => {
    const e = encounter({ initiativeDie: 'd10' });
    e.apply({ type: 'ADD_COMBATANTS', combatants: [...party(), ...goblins()] });
    e.apply({ type: 'START' });
    expect(e.rollsFor({ type: 'ROLL_ALL_INITIATIVE' }).map((r) => [r.path, r.notation])).toEqual([[['rolls', 'gob1'], '1d10'], [['rolls', 'gob2'], '1d10']]);
    expect(refused(e, { type: 'ROLL_INITIATIVE', combatantId: 'ana', roll: typed(12) })).toBe('A d10 shows 1 to 10: 12 is not one of its faces.');
  });

  it('typed initiative refuses rolls and lets those missing go last', () => {
    const e = encounter({ initiative: 'typed' });
    e.apply({ type: 'ADD_COMBATANTS', combatants: [...party(), ...goblins()] });
    e.apply({ type: 'START' });
    expect(refused(e, { type: 'ROLL_INITIATIVE', combatantId: 'ana' })).toBe('This campaign types each initiative total (R-A1): use Type initiative.');
    e.apply({ type: 'SET_INITIATIVE', combatantId: 'gob1', total: 3 });
    e.apply({ type: 'START_COMBAT', missingLast: true });
    expect(ctx(e).order).toEqual(['gob1', 'ana', 'bo', 'gob2']);
  });
});

describe('turns', () => {
  it('goes round the order, and the round turns over after the last', () => {
    const e = fight([...party(), ...goblins()]);
    expect(texts(e.apply({ type: 'END_TURN' }))).toEqual(["Bo's turn."]);
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'END_TURN' });
    expect(texts(e.apply({ type: 'END_TURN' }))).toEqual(['Round 2 begins.', "Ana's turn."]);
    expect(e.view().round).toBe(2);
  });

  it('delay leaves the order; resume acts after the current turn at its initiative', () => {
    const e = fight([...party(), ...goblins()]);
    expect(texts(e.apply({ type: 'DELAY', combatantId: 'ana' }))).toEqual(['Ana delays.', "Bo's turn."]);
    expect(row(e, 'ana').tags).toContain('Delaying');
    e.apply({ type: 'END_TURN' });
    expect(texts(e.apply({ type: 'RESUME', combatantId: 'ana' }))).toEqual(['Ana stops delaying and acts after Gob1 (initiative 18).']);
    expect(texts(e.apply({ type: 'END_TURN' }))).toEqual(["Ana's turn."]);
    expect(ctx(e).order).toEqual(['bo', 'gob1', 'ana', 'gob2']);
  });

  it('ready spends a reaction; reactions refresh at the start of the own turn', () => {
    const e = fight([...party(), ...goblins()]);
    e.apply({ type: 'READY', combatantId: 'ana', trigger: 'if the door opens' });
    expect(row(e, 'ana').tags).toContain('Ready: "if the door opens"');
    e.apply({ type: 'END_TURN' });
    expect(texts(e.apply({ type: 'USE_READY', combatantId: 'ana' }))).toEqual(['Ana takes the readied action ("if the door opens") as a reaction.']);
    expect(refused(e, { type: 'USE_REACTION', combatantId: 'ana' })).toBe('Ana has used its reaction this round (R-A8).');
    expect(row(e, 'ana').tags).toContain('Reaction used');
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'END_TURN' });
    expect(refused(e, { type: 'USE_REACTION', combatantId: 'ana' })).toBeNull();
  });

  it('a late arrival rolls as it enters and takes its sorted place', () => {
    const e = fight([...party(), ...goblins()]);
    const lines = texts(e.apply({ type: 'ADD_LATE_COMBATANT', combatant: seed('wolf', 'enemies', { hp: 11, initiativeModifier: 1 }), roll: typed(18) }));
    expect(lines).toEqual(['Wolf joins the fight late at initiative 19 (18 + 1 (typed in)).']);
    // 19 like Bo, with the higher modifier (R-A3): before Bo, after Ana, whose turn it is — it acts this round.
    expect(ctx(e).order).toEqual(['ana', 'wolf', 'bo', 'gob1', 'gob2']);
    expect(texts(e.apply({ type: 'END_TURN' }))).toEqual(["Wolf's turn."]);
  });
});

describe('damage, healing and death saves', () => {
  it('temporary HP absorb first; an enemy at 0 HP is dead and skipped', () => {
    const e = fight([...party(), ...goblins()]);
    e.apply({ type: 'SET_TEMP_HP', targetId: 'gob1', amount: 3 });
    expect(texts(e.apply({ type: 'APPLY_DAMAGE', targetId: 'gob1', amount: 5 }))).toEqual(['Gob1 takes 5 damage: temp HP 3 → 0, HP 7 → 5.']);
    expect(texts(e.apply({ type: 'APPLY_DAMAGE', targetId: 'gob1', amount: 9 }))).toEqual(['Gob1 takes 9 damage: HP 5 → 0.', 'Gob1 drops to 0 HP: dead.']);
    expect(row(e, 'gob1')).toMatchObject({ dead: true, tags: ['Dead'], health: { current: 0, max: 7 } });
    e.apply({ type: 'END_TURN' });
    expect(texts(e.apply({ type: 'END_TURN' }))).toEqual(["Gob2's turn."]);
  });

  it('a party member at 0 HP is dying: the death save opens its turn and blocks the rest', () => {
    const e = fight([...party(), ...goblins()]);
    expect(texts(e.apply({ type: 'APPLY_DAMAGE', targetId: 'bo', amount: 12 }))).toEqual(['Bo takes 12 damage: HP 9 → 0.', 'Bo drops to 0 HP: down and dying.']);
    const lines = texts(e.apply({ type: 'END_TURN' }));
    expect(lines).toEqual(["Bo's turn.", 'Bo is dying (0✓ 0✗): a death save opens the turn.']);
    expect(e.view().prompt).toMatchObject({ kind: 'deathSave', answer: 'DEATH_SAVE', choices: [{ id: 'bo' }] });
    expect(refused(e, { type: 'END_TURN' })).toBe('Bo rolls a death save before the turn goes on.');
    expect(e.rollsFor({ type: 'DEATH_SAVE', combatantId: 'bo' })[0]).toMatchObject({ path: ['roll'], notation: '1d20' });
    expect(texts(e.apply({ type: 'DEATH_SAVE', combatantId: 'bo', roll: typed(1) }))).toEqual(["Bo's death save: 1 (typed in), a 1: two failures (0✓ 2✗)."]);
    expect(row(e, 'bo').tags).toEqual(['Dying 0✓ 2✗']);
    expect(texts(e.apply({ type: 'APPLY_DAMAGE', targetId: 'bo', amount: 2 }))).toEqual(['Bo takes 2 damage: HP 0 → 0.', 'Bo dies (0✓ 3✗).']);
    expect(row(e, 'bo').dead).toBe(true);
  });

  it('healing wakes a dying one; three successes make it stable', () => {
    const e = fight([seed('bo', 'party', { hp: 9 }), ...goblins()]);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'bo', amount: 9 });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'DEATH_SAVE', combatantId: 'bo', roll: typed(15) });
    for (let i = 0; i < 3; i += 1) e.apply({ type: 'END_TURN' });
    e.apply({ type: 'DEATH_SAVE', combatantId: 'bo', roll: typed(12) });
    for (let i = 0; i < 3; i += 1) e.apply({ type: 'END_TURN' });
    expect(texts(e.apply({ type: 'DEATH_SAVE', combatantId: 'bo', roll: typed(10) }))).toEqual(["Bo's death save: 10 (typed in), a third success: stable (3✓ 0✗)."]);
    expect(texts(e.apply({ type: 'HEAL', targetId: 'bo', amount: 20 }))).toEqual(['Bo heals 20: HP 0 → 9, capped at the maximum 9.', 'Bo is back up.']);
    expect(who(e, 'bo')).toMatchObject({ vitality: 'up', hp: 9, saves: { successes: 0, failures: 0 } });
  });

  it('death saves off: a party member at 0 is down', () => {
    const e = fight([...party(), ...goblins()], { deathSaves: false });
    expect(texts(e.apply({ type: 'APPLY_DAMAGE', targetId: 'ana', amount: 12 }))[1]).toBe('Ana drops to 0 HP: down.');
    expect(row(e, 'ana')).toMatchObject({ tags: ['Down'], defeated: true });
  });

  it('concentration: damage reminds the GM of the DC; a failed check ends it', () => {
    const e = fight([...party(), ...goblins()]);
    e.apply({ type: 'CONCENTRATE', combatantId: 'ana', on: true, spell: 'Bless' });
    expect(texts(e.apply({ type: 'APPLY_DAMAGE', targetId: 'ana', amount: 4 }))).toEqual([
      'Ana takes 4 damage: HP 12 → 8.', 'Concentration check for Ana: DC 10 (Bless). Record whether it holds.',
    ]);
    expect(row(e, 'ana').tags).toEqual(['Concentrating: Bless', 'Concentration check: DC 10']);
    expect(row(e, 'ana').alertTags).toEqual(['Concentration check: DC 10']);
    expect(texts(e.apply({ type: 'CONCENTRATION_CHECK', combatantId: 'ana', passed: false }))).toEqual(['Ana loses concentration on Bless (DC 10).']);
    expect(row(e, 'ana').tags).toEqual([]);
  });

  it('several targets at once: one batch, each line logged, all or none', () => {
    const e = fight([...party(), ...goblins()]);
    const batch = (amount: number): GmEvent => ({ type: 'BATCH', events: ['gob1', 'gob2'].map((targetId) => ({ type: 'APPLY_DAMAGE', targetId, amount })) });
    expect(texts(e.apply(batch(3)))).toEqual(['Gob1 takes 3 damage: HP 7 → 4.', 'Gob2 takes 3 damage: HP 7 → 4.']);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'gob2', amount: 4 });
    expect(refused(e, batch(1))).toBe('Nothing was applied: the part for Gob2 is refused. Gob2 is already dead.');
    expect(who(e, 'gob1').hp).toBe(4);
  });

  it('conditions from the 5e list count down with the turns', () => {
    const e = fight([...party(), ...goblins()]);
    e.apply({ type: 'CONDITION_ADD', targetIds: ['gob1'], name: anySystemEncounter.conditionNames![11]!, duration: { kind: 'turnEnd', whoId: 'gob1' } });
    expect(row(e, 'gob1').conditions?.[0]?.name).toBe('Prone');
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'END_TURN' });
    expect(texts(e.apply({ type: 'END_TURN' }))).toContain("Prone on Gob1 ends (the end of Gob1's turn).");
  });
});

describe('the end and the replay', () => {
  const play = (e: EncounterEngine) => {
    const events: GmEvent[] = [
      { type: 'ADD_COMBATANTS', combatants: [...party(), ...goblins()] },
      { type: 'START' },
      { type: 'ROLL_INITIATIVE', combatantId: 'ana', roll: typed(12) },
      { type: 'ROLL_INITIATIVE', combatantId: 'bo', roll: typed(4) },
      { type: 'ROLL_ALL_INITIATIVE', rolls: { gob1: typed(15), gob2: typed(3) } },
      { type: 'START_COMBAT' },
      { type: 'APPLY_DAMAGE', targetId: 'ana', amount: 5, source: 'a scimitar' },
      { type: 'END_TURN' },
      { type: 'INJURY', targetId: 'ana', name: 'Cracked rib', untilLongRest: true },
      { type: 'APPLY_DAMAGE', targetId: 'gob1', amount: 7 },
      { type: 'END_TURN' },
      { type: 'END_COMBAT', outcome: 'The goblins flee' },
    ];
    for (const event of events) e.apply(event);
    return events;
  };

  it('carries HP and injuries onto the characters once ended', () => {
    const e = encounter();
    play(e);
    expect(e.view().phase).toBe('ended');
    const after = anySystemEncounter.consequences!(e.snapshot);
    expect(after.injuries).toEqual([{ key: 'ana.injury1', characterId: 'char-ana', name: 'Cracked rib', category: 'injury', data: { untilLongRest: true, round: 1 } }]);
    expect(after.carry).toEqual([
      { characterId: 'char-ana', state: { hp: 7, tempHp: 0, dead: false } },
      { characterId: 'char-bo', state: { hp: 9, tempHp: 0, dead: false } },
    ]);
    expect(anySystemEncounter.carriedIn!({ hp: 7, tempHp: 2 }, [])).toEqual({ hp: 7, tempHp: 2 });
  });

  it('a replay of the events, and one cut short, give the same states as the live fight (undo)', () => {
    const live = encounter();
    const events = play(live);
    const replay = EncounterEngine.resume(anySystemEncounter, live.input, null, events);
    expect(replay.view()).toEqual(live.view());
    const undone = EncounterEngine.resume(anySystemEncounter, live.input, null, events.slice(0, -1));
    const step = encounter();
    for (const event of events.slice(0, -1)) step.apply(event);
    expect(undone.view()).toEqual(step.view());
    expect(undone.view().phase).toBe('running');
  });
});
