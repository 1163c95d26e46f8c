// Thrum's turn order (RULES.md §5.2) through the event-sourced kernel: initiative and ties (R-H1), Round Zero
// (R-H2), Delay (R-H3, THRUM-02), removals and late arrivals (R-H4), refusals, and event sourcing.
import { describe, expect, it } from 'vitest';
import { EncounterEngine, RuleRefusal, parseEvent } from '../../encounter/kernel.ts';
import type { GmEvent } from '../../encounter/types.ts';
import { defaultOptions } from '../options.ts';
import { thrumEncounter } from './encounter.ts';
import { thrumOptions } from './options.ts';
import { app, ctx, encounter, fight, rolled, seed } from './testing.ts';

const activeName = (e: EncounterEngine) => e.view().order.find((c) => c.id === e.view().activeId)?.name ?? null;

/** Plays the rest of the round with END_TURN, returning who acted. */
function playRound(e: EncounterEngine): string[] {
  const names: string[] = [];
  const round = e.view().round;
  while (e.view().round === round && e.view().phase === 'running') {
    names.push(activeName(e)!);
    e.apply({ type: 'END_TURN' });
  }
  return names;
}

describe('initiative (§5.2 rules 1–2, R-H1)', () => {
  it('every combatant rolls 2d6 + modifier; turns go in descending order', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('ana', 'party', { initiativeModifier: 2 }), seed('bo', 'party'), seed('orc', 'foes', { initiativeModifier: 1 })] });
    e.apply({ type: 'START' });
    expect(e.view().prompt).toMatchObject({ kind: 'initiative', answer: 'ROLL_INITIATIVE' });
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('Roll initiative first: Ana, Bo, Orc still to roll.');
    const lines = e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'ana', roll: app(3, 2) });
    expect(lines[0]!.text).toBe('Ana rolls initiative: [3, 2] + 2 = 7.');
    expect(() => e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'ana', roll: app(6, 6) })).toThrow('Ana has already rolled initiative (7).');
    expect(() => e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'bo', roll: app(6) })).toThrow("Bo's initiative is 2d6: 1 die given.");
    expect(() => e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'bo', roll: app(6, 7) })).toThrow('7 is not a face of a d6.');
    e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'bo', roll: app(6, 5) });
    const last = e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'orc', roll: app(4, 4) });
    expect(last.map((l) => l.text)).toContain('Initiative order: Bo 11, Orc 9, Ana 7.');
    expect(e.view().counters).toEqual([{ key: 'stage', label: 'Stage', value: 'Round Zero' }]);
    expect(activeName(e)).toBe('Bo');
  });

  it('R-H1 ties: the higher modifier first, then PCs before NPCs, then the GM chooses (logged)', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('orc', 'foes', { initiativeModifier: 2 }), seed('ana', 'party', { initiativeModifier: 2 }), seed('bo', 'party', { initiativeModifier: 3 }), seed('cy', 'party', { initiativeModifier: 2 }), seed('gob', 'foes')] });
    e.apply({ type: 'START' });
    e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'orc', roll: app(4, 4) }); // 10
    e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'ana', roll: app(4, 4) }); // 10
    e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'bo', roll: app(4, 3) }); // 10, higher modifier
    e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'cy', roll: app(5, 3) }); // 10, ties Ana exactly
    e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'gob', roll: app(1, 1) });
    expect(e.view().prompt).toMatchObject({ kind: 'initiativeTie', answer: 'BREAK_TIE', choices: [{ id: 'ana' }, { id: 'cy' }] });
    expect(() => e.apply({ type: 'BREAK_TIE', combatantId: 'orc' })).toThrow('Orc is not among the tied combatants (Ana, Cy).');
    const lines = e.apply({ type: 'BREAK_TIE', combatantId: 'cy' });
    expect(lines[0]).toMatchObject({ rulings: ['R-H1'], text: 'The GM breaks the tie: Cy goes first among Ana, Cy.' });
    expect(ctx(e).order).toEqual(['bo', 'cy', 'ana', 'orc', 'gob']);
  });

  it('R-H1 alternatives: modifier then GM (no PC priority), or the GM chooses every tie', () => {
    const tie = (options: Record<string, string>) => {
      const e = encounter(options);
      e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('orc', 'foes', { initiativeModifier: 1 }), seed('ana', 'party', { initiativeModifier: 1 }), seed('bo', 'party', { initiativeModifier: 2 })] });
      e.apply({ type: 'START' });
      e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'orc', roll: app(4, 4) });
      e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'ana', roll: app(4, 4) });
      e.apply({ type: 'ROLL_INITIATIVE', combatantId: 'bo', roll: app(4, 3) });
      return e;
    };
    expect(tie({ initiativeTies: 'modifierThenGm' }).view().prompt?.choices.map((c) => c.id)).toEqual(['orc', 'ana']);
    expect(tie({ initiativeTies: 'gmChooses' }).view().prompt?.choices.map((c) => c.id)).toEqual(['orc', 'ana', 'bo']);
    expect(ctx(tie({})).order).toEqual(['bo', 'ana', 'orc']);
  });
});

describe('Round Zero (§5.2, R-H2)', () => {
  const map: GmEvent = { type: 'SET_MAP', map: { width: 10, height: 10, elevation: {}, difficult: [], startingArea: ['0,0', '1,0', '0,1'] } };

  it('PCs take a square inside the Starting Area and a stance; no moves or actions; NPCs only a stance', () => {
    const e = rolled([seed('ana', 'party'), seed('orc', 'foes')], {}, [map, { type: 'PLACE_NPC', combatantId: 'orc', square: { x: 8, y: 8 } }]);
    expect(e.view().allowed).toEqual(expect.arrayContaining(['POSITION', 'SET_STANCE', 'DELAY', 'END_TURN']));
    expect(() => e.apply({ type: 'POSITION', square: { x: 5, y: 5 } })).toThrow('(5,5) is outside the Starting Area.');
    expect(() => e.apply({ type: 'MOVE', squares: 1 })).toThrow('Round Zero has no movement');
    expect(() => e.apply({ type: 'ATTACK', attackerId: 'ana', ability: 'Strike', attackType: 'physical', targets: [{ targetId: 'orc' }], fatigue: 1, stress: 0 })).toThrow('Round Zero has no actions');
    e.apply({ type: 'POSITION', square: { x: 1, y: 0 } });
    e.apply({ type: 'SET_STANCE', stance: 'Guard' });
    expect(() => e.apply({ type: 'SET_STANCE', stance: 'Rush' })).toThrow('Ana has already taken a stance this turn');
    e.apply({ type: 'END_TURN' });
    expect(() => e.apply({ type: 'POSITION', square: { x: 0, y: 0 } })).toThrow('in Round Zero NPCs only choose a stance (R-H2)');
    e.apply({ type: 'SET_STANCE', stance: 'Brace' });
    e.apply({ type: 'END_TURN' });
    expect(e.view().round).toBe(1);
    expect(ctx(e).combatants['ana']!).toMatchObject({ position: { x: 1, y: 0 }, stance: 'Guard' });
    expect(ctx(e).combatants['orc']!.stance).toBe('Brace');
  });

  it('R-H2 alternative: NPCs may reposition too', () => {
    const e = rolled([seed('orc', 'foes'), seed('ana', 'party')], { roundZeroNpcs: 'positionToo' }, [map]);
    e.apply({ type: 'POSITION', square: { x: 7, y: 7 } });
    expect(ctx(e).combatants['orc']!.position).toEqual({ x: 7, y: 7 });
  });

  it('R-H3 a Delay in Round Zero is permanent too', () => {
    const e = rolled([seed('ana', 'party'), seed('bo', 'party'), seed('orc', 'foes')]);
    e.apply({ type: 'DELAY', combatantId: 'ana', afterId: null });
    expect(playRound(e)).toEqual(['Bo', 'Orc', 'Ana']);
    expect(playRound(e)).toEqual(['Bo', 'Orc', 'Ana']);
  });
});

describe('Delay (§5.2 rule 3, R-H3)', () => {
  const bac = () => fight([seed('bob', 'party'), seed('alice', 'party'), seed('carol', 'foes')]);

  it('THRUM-02 Bob and Alice delay: Bob must then act, then Alice, then Carol; round 2 keeps Bob, Alice, Carol', () => {
    const e = bac();
    expect(e.view().round).toBe(1);
    e.apply({ type: 'DELAY', combatantId: 'bob', afterId: 'alice' });
    expect(ctx(e).order).toEqual(['alice', 'bob', 'carol']);
    expect(activeName(e)).toBe('Alice');
    const lines = e.apply({ type: 'DELAY', combatantId: 'alice', afterId: 'bob' });
    expect(lines[0]).toMatchObject({ rulings: ['R-H3'], text: 'Alice delays until after Bob, and keeps that place for the rest of the combat. Order: Bob, Alice, Carol.' });
    expect(activeName(e)).toBe('Bob');
    expect(() => e.apply({ type: 'DELAY', combatantId: 'bob', afterId: 'carol' })).toThrow('Bob has already delayed this round and must act now (R-H3).');
    e.apply({ type: 'END_TURN' });
    expect(activeName(e)).toBe('Alice');
    expect(() => e.apply({ type: 'DELAY', combatantId: 'alice', afterId: 'carol' })).toThrow('Alice has already delayed this round and must act now (R-H3).');
    expect(playRound(e)).toEqual(['Alice', 'Carol']);
    expect(e.view().round).toBe(2);
    expect(ctx(e).order).toEqual(['bob', 'alice', 'carol']);
    e.apply({ type: 'DELAY', combatantId: 'bob', afterId: 'alice' });
    expect(activeName(e)).toBe('Alice');
  });

  it('refuses a Delay to someone who has acted, to oneself, or once the turn has begun', () => {
    const e = bac();
    e.apply({ type: 'END_TURN' });
    expect(() => e.apply({ type: 'DELAY', combatantId: 'alice', afterId: 'bob' })).toThrow('Bob has already acted this round: delay to someone still to act, or to the end of the round (R-H3).');
    expect(() => e.apply({ type: 'DELAY', combatantId: 'alice', afterId: 'alice' })).toThrow('Alice cannot delay until after themself.');
    expect(() => e.apply({ type: 'DELAY', combatantId: 'carol', afterId: null })).toThrow("Only the combatant whose turn is starting can Delay; it is Alice's turn.");
    e.apply({ type: 'MOVE', squares: 2 });
    expect(() => e.apply({ type: 'DELAY', combatantId: 'alice', afterId: null })).toThrow("Alice's turn has already begun: Delay is declared before start-of-turn effects (R-H3).");
  });

  it('a Delay to the end of the round stays inside the round', () => {
    const e = bac();
    e.apply({ type: 'DELAY', combatantId: 'bob', afterId: null });
    expect(playRound(e)).toEqual(['Alice', 'Carol', 'Bob']);
    expect(() => e.apply({ type: 'DELAY', combatantId: 'alice', afterId: null })).not.toThrow();
    expect(ctx(e).order).toEqual(['carol', 'bob', 'alice']);
  });
});

describe('removals and late arrivals (R-H4)', () => {
  it('a removed combatant leaves the order; the cursor keeps its turn position; removing the active passes the turn', () => {
    const e = fight([seed('ana', 'party'), seed('bo', 'party'), seed('orc', 'foes'), seed('gob', 'foes')]);
    e.apply({ type: 'END_TURN' });
    e.apply({ type: 'REMOVE_COMBATANT', combatantId: 'ana', reason: 'fled' });
    expect(activeName(e)).toBe('Bo');
    const lines = e.apply({ type: 'REMOVE_COMBATANT', combatantId: 'bo', reason: 'fled' });
    expect(lines[0]).toMatchObject({ rulings: ['R-H4'] });
    // The party is gone: the end check ends the fight (all PCs removed).
    expect(e.view().phase).toBe('ended');
    expect(e.view().outcome).toBe('Every member of the party is incapacitated or removed.');
  });

  it('an incapacitated combatant keeps its slot and its turn (start and end only)', () => {
    const e = fight([seed('ana', 'party'), seed('bo', 'party'), seed('orc', 'foes')]);
    e.apply({ type: 'APPLY_LOAD', targetId: 'bo', load: 'fatigue', amount: 4, source: 'rockfall' });
    e.apply({ type: 'OVERRIDE', targetId: 'bo', field: 'incapacitated', value: 1, note: 'knocked out' });
    e.apply({ type: 'END_TURN' });
    expect(activeName(e)).toBe('Bo');
    expect(e.view().allowed).not.toContain('MOVE');
    expect(() => e.apply({ type: 'MOVE', squares: 1 })).toThrow('Bo is Incapacitated: no movement, Action or Stance.');
    expect(() => e.apply({ type: 'SET_STANCE', stance: 'Guard' })).toThrow('Bo is Incapacitated and cannot take a stance.');
    e.apply({ type: 'END_TURN' });
    expect(activeName(e)).toBe('Orc');
  });

  it('a late arrival rolls initiative as it joins and takes its place by that roll', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes')]);
    expect(thrumEncounter.rollsFor!(e.snapshot, { type: 'ADD_LATE_COMBATANT', combatant: seed('cy', 'party') })).toEqual([
      { path: ['initiativeRoll'], label: 'Cy: initiative, 2d6 + 0', notation: '2d6', count: 2, sides: 6 },
    ]);
    expect(() => e.apply({ type: 'ADD_LATE_COMBATANT', combatant: seed('cy', 'party') })).toThrow("Cy's initiative needs 2d6.");
    e.apply({ type: 'ADD_LATE_COMBATANT', combatant: seed('cy', 'party'), initiativeRoll: app(6, 5) }); // 11: between Ana 12 and Orc 11? ties go by modifier then PCs
    expect(ctx(e).order).toEqual(['ana', 'cy', 'orc']);
    expect(playRound(e)).toEqual(['Ana', 'Cy', 'Orc']);
  });
});

describe('refusals change nothing and say why', () => {
  it('refuses setup mistakes with a sentence', () => {
    const e = encounter();
    expect(() => e.apply({ type: 'START' })).toThrow('Add at least one party member before starting.');
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('ana', 'party')] });
    expect(() => e.apply({ type: 'START' })).toThrow('Add at least one foe before starting.');
    expect(() => e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('ana', 'party')] })).toThrow('Ana is already in this encounter.');
    expect(() => e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('zed', 'party', {}, { carried: { wounds: 3 } })] })).toThrow('Zed has three Wounds');
    expect(() => e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('ivy', 'party', {}, { carried: { stillIncapacitated: true } })] })).toThrow('(R-H9)');
    expect(() => e.apply({ type: 'PLACE_NPC', combatantId: 'ana', square: { x: 1, y: 1 } })).toThrow('Set the map before placing NPCs.');
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('Start combat first.');
  });

  it('allied NPCs can join the party side', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('ana', 'party'), seed('guard', 'foes'), seed('orc', 'foes')] });
    e.apply({ type: 'SET_SIDE', combatantId: 'guard', side: 'party' });
    expect(e.view().order.find((c) => c.id === 'guard')!.side).toBe('party');
  });

  it('parses untrusted payloads into sentences', () => {
    const parse = (raw: unknown) => () => parseEvent(thrumEncounter, raw);
    expect(parse({ type: 'FIREBALL' })).toThrow('"FIREBALL" is not an action this ruleset knows.');
    expect(parse({ type: 'DEFENSE_RESULT', outcome: 'great' })).toThrow('The outcome is critical, success or failure.');
    expect(parse({ type: 'APPLY_LOAD', targetId: 'a', load: 'fatigue', amount: 50, source: '' })).toThrow('An amount is at most 20.');
    expect(parse({ type: 'SET_STANCE', stance: '  ' })).toThrow('Name the stance.');
    expect(parse({ type: 'END_TURN', extra: 1 })).toThrow(RuleRefusal);
  });

  it('a refused event leaves the state as it was', () => {
    const e = fight([seed('ana', 'party'), seed('orc', 'foes')]);
    const before = JSON.stringify(e.persisted());
    expect(() => e.apply({ type: 'RESOLVE_TRIGGER', ownerId: 'ana' })).toThrow('No triggered effect is waiting.');
    expect(() => e.apply({ type: 'DEFENSE_CHOICE', defence: 'evasion' })).toThrow('No attack is waiting for a defence.');
    expect(JSON.stringify(e.persisted())).toBe(before);
  });
});

describe('event sourcing', () => {
  it('rebuilds the same state from a persisted snapshot plus the tail of events', () => {
    const seeds = [seed('bob', 'party', { baseFatigueTolerance: 2, fatigueTolerance: 2 }), seed('alice', 'party'), seed('carol', 'foes')];
    const events: GmEvent[] = [
      { type: 'ADD_COMBATANTS', combatants: seeds },
      { type: 'START' },
      { type: 'ROLL_INITIATIVE', combatantId: 'bob', roll: app(6, 6) },
      { type: 'ROLL_INITIATIVE', combatantId: 'alice', roll: app(5, 6) },
      { type: 'ROLL_INITIATIVE', combatantId: 'carol', roll: app(5, 5) },
      { type: 'SET_STANCE', stance: 'Guard' },
      { type: 'END_TURN' },
      { type: 'END_TURN' },
      { type: 'END_TURN' },
      { type: 'DELAY', combatantId: 'bob', afterId: 'alice' },
      { type: 'ATTACK', attackerId: 'alice', ability: 'Bolt', attackType: 'mental', targets: [{ targetId: 'carol' }], fatigue: 0, stress: 2 },
      { type: 'DEFENSE_CHOICE', defence: 'evasion' },
      { type: 'DEFENSE_RESULT', attackRoll: app(6, 6), defenceRoll: app(1, 1, 1) },
      { type: 'END_TURN' },
      { type: 'APPLY_LOAD', targetId: 'bob', load: 'fatigue', amount: 3, source: 'poison' },
    ];
    const input = { options: defaultOptions(thrumOptions), carried: {} };
    const whole = EncounterEngine.resume(thrumEncounter, input, undefined, events);
    for (const cut of [3, 7, 11, 12]) {
      const head = EncounterEngine.resume(thrumEncounter, input, undefined, events.slice(0, cut));
      const stored = JSON.parse(JSON.stringify(head.persisted()));
      const resumed = EncounterEngine.resume(thrumEncounter, input, stored, events.slice(cut));
      expect(resumed.view()).toEqual(whole.view());
      expect(resumed.persisted()).toEqual(whole.persisted());
    }
    expect(whole.view().order.find((c) => c.id === 'carol')!.tags).toEqual(['Vulnerable 1']);
  });
});
