// Enigma's order of battle (RULES.md §1.2) through the event-sourced kernel, starting with scenario ENIGMA-01.
import { describe, expect, it } from 'vitest';
import { EncounterEngine, RuleRefusal, parseEvent } from '../../encounter/kernel.ts';
import type { CombatantSeed, GmEvent } from '../../encounter/types.ts';
import { defaultOptions } from '../options.ts';
import { enigmaEncounter } from './encounter.ts';
import { enigmaOptions, rulingsOf } from './options.ts';
import { generateFight } from '../../../bench/fight.ts';
import { other, projectRoundOne, unplaced, type EnigmaContext, type Side } from './rules.ts';

const seed = (id: string, name: string, side: 'party' | 'gm', endure = 8): CombatantSeed => ({
  id, name, side, characterId: null, sheet: { endure, navigate: 8, glean: 8, attack: 8, influence: 8, manifest: 8, namedNpc: false, notes: '' },
});

function encounter(options: Record<string, string | number | boolean> = {}, carried: number | null = null) {
  return EncounterEngine.create(enigmaEncounter, { options: { ...defaultOptions(enigmaOptions), ...options }, carried: { escalation: carried } });
}

const party = ['Null', 'Berrik', 'Lotty', 'Flynn'];
const soldiers = [1, 2, 3, 4, 5, 6].map((n) => `Soldier ${n}`);

function enigma01(gmOrderUpFront: boolean) {
  const e = encounter();
  e.apply({ type: 'ADD_COMBATANTS', combatants: party.map((n) => seed(n.toLowerCase(), n, 'party')) });
  e.apply({ type: 'ADD_COMBATANTS', combatants: soldiers.map((n, i) => seed(`s${i + 1}`, n, 'gm')) });
  if (gmOrderUpFront) e.apply({ type: 'SET_GM_ORDER', ids: ['s1', 's2', 's3', 's4', 's5', 's6'] });
  e.apply({ type: 'START' });
  return e;
}

const activeName = (e: EncounterEngine) => e.view().order.find((c) => c.id === e.view().activeId)?.name ?? null;

/** Plays a whole round: END_TURN each turn, answering GM slots with the first waiting soldier in number order. */
function playRound(e: EncounterEngine): string[] {
  const sequence: string[] = [];
  const round = e.view().round;
  while (e.view().round === round) {
    const view = e.view();
    if (view.prompt) {
      e.apply({ type: 'CHOOSE_NPC', combatantId: view.prompt.choices[0]!.id });
      continue;
    }
    sequence.push(activeName(e)!);
    e.apply({ type: 'END_TURN' });
  }
  return sequence;
}

describe('ENIGMA-01 order of battle, uneven sides', () => {
  const expected = ['Null', 'Soldier 1', 'Berrik', 'Soldier 2', 'Lotty', 'Soldier 3', 'Flynn', 'Soldier 4', 'Soldier 5', 'Soldier 6'];

  it('alternates party and GM slots, then runs on, with the NPC order given up front (R-E1)', () => {
    const e = enigma01(true);
    expect(e.view().round).toBe(1);
    expect(e.view().counters).toEqual([{ key: 'escalation', label: 'Escalation', value: 1 }]);
    expect(playRound(e)).toEqual(expected);
  });

  it('asks the GM at each GM slot when no order was given, and freezes the result (R-E1)', () => {
    const e = enigma01(false);
    e.apply({ type: 'END_TURN' }); // Null
    const prompt = e.view().prompt!;
    expect(prompt.answer).toBe('CHOOSE_NPC');
    expect(prompt.choices.map((c) => c.label)).toEqual(soldiers);
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('Choose which enemy takes this GM slot first.');
    e.apply({ type: 'CHOOSE_NPC', combatantId: 's1' });
    expect(activeName(e)).toBe('Soldier 1');
    const rest = playRound(e);
    expect(['Null', ...rest]).toEqual(expected);
  });

  it('replays the exact same sequence in round 2 with Escalation 2', () => {
    const e = enigma01(false);
    playRound(e);
    expect(e.view().round).toBe(2);
    expect(e.view().counters[0]!.value).toBe(2);
    expect(playRound(e)).toEqual(expected);
    expect(e.view().counters[0]!.value).toBe(3);
  });
});

describe('order of battle rules', () => {
  it('starts with the GM side in an ambush (R-E2)', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('a', 'Ana', 'party'), seed('b', 'Bo', 'party'), seed('g', 'Goblin', 'gm')] });
    e.apply({ type: 'SET_FIRST_SIDE', side: 'gm' });
    e.apply({ type: 'START' });
    expect(playRound(e)).toEqual(['Goblin', 'Ana', 'Bo']);
  });

  it('slides everyone up when a creature is removed, even when two of a side become adjacent (rule 6, R-E3)', () => {
    const e = enigma01(true);
    playRound(e); // freeze the order
    // Round 2: Null (active), S1, Berrik, ...
    e.apply({ type: 'REMOVE_COMBATANT', combatantId: 'berrik', reason: 'fled' });
    expect(playRound(e)).toEqual(['Null', 'Soldier 1', 'Soldier 2', 'Lotty', 'Soldier 3', 'Flynn', 'Soldier 4', 'Soldier 5', 'Soldier 6']);
  });

  it('keeps the cursor on the same turn when an earlier slot is removed, and passes the turn when the active one is (R-E3)', () => {
    const e = enigma01(true);
    playRound(e);
    e.apply({ type: 'END_TURN' }); // Null
    e.apply({ type: 'END_TURN' }); // Soldier 1
    expect(activeName(e)).toBe('Berrik');
    e.apply({ type: 'REMOVE_COMBATANT', combatantId: 'null', reason: 'dead' });
    expect(activeName(e)).toBe('Berrik');
    e.apply({ type: 'REMOVE_COMBATANT', combatantId: 'berrik', reason: 'dead' });
    expect(activeName(e)).toBe('Soldier 2');
    expect(e.view().order.filter((c) => c.status === 'removed').map((c) => c.name)).toEqual(['Null', 'Berrik']);
  });

  it('removes an unplaced creature from round 1 without disturbing the alternation', () => {
    const e = enigma01(true);
    e.apply({ type: 'REMOVE_COMBATANT', combatantId: 's2', reason: 'surrendered' });
    expect(playRound(e)).toEqual(['Null', 'Soldier 1', 'Berrik', 'Soldier 3', 'Lotty', 'Soldier 4', 'Flynn', 'Soldier 5', 'Soldier 6']);
  });

  it('appends a late arrival at the end of the frozen order, or where the GM puts it (R-E4)', () => {
    const e = enigma01(true);
    playRound(e);
    e.apply({ type: 'ADD_LATE_COMBATANT', combatant: seed('s7', 'Soldier 7', 'gm') });
    e.apply({ type: 'ADD_LATE_COMBATANT', combatant: seed('ivy', 'Ivy', 'party'), position: 1 });
    expect(playRound(e)).toEqual(['Null', 'Ivy', 'Soldier 1', 'Berrik', 'Soldier 2', 'Lotty', 'Soldier 3', 'Flynn', 'Soldier 4', 'Soldier 5', 'Soldier 6', 'Soldier 7']);
  });

  it('carries a raised party Escalation into round 1 and adds 1 from round 2 (R-E20)', () => {
    const carry = encounter({}, 3);
    carry.apply({ type: 'ADD_COMBATANTS', combatants: [seed('a', 'Ana', 'party'), seed('g', 'Goblin', 'gm')] });
    carry.apply({ type: 'START' });
    expect(carry.view().counters[0]!.value).toBe(3);
    playRound(carry);
    expect(carry.view().counters[0]!.value).toBe(4);
    const reset = encounter({ escalationAtStart: 'alwaysOne' }, 3);
    reset.apply({ type: 'ADD_COMBATANTS', combatants: [seed('a', 'Ana', 'party'), seed('g', 'Goblin', 'gm')] });
    reset.apply({ type: 'START' });
    expect(reset.view().counters[0]!.value).toBe(1);
  });

  it('raises Escalation through a power and logs it', () => {
    const e = enigma01(true);
    const lines = e.apply({ type: 'RAISE_ESCALATION', by: 2, source: 'War cry' });
    expect(e.view().counters[0]!.value).toBe(3);
    expect(lines[0]!.text).toBe('Escalation rises by 2 to 3 (War cry).');
  });

  it('stalls when everyone has left, and ends on END_COMBAT', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('a', 'Ana', 'party'), seed('g', 'Goblin', 'gm')] });
    e.apply({ type: 'START' });
    e.apply({ type: 'REMOVE_COMBATANT', combatantId: 'a', reason: '' });
    e.apply({ type: 'REMOVE_COMBATANT', combatantId: 'g', reason: '' });
    expect(e.view().activeId).toBeNull();
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('Nobody is left who can act.');
    e.apply({ type: 'END_COMBAT', outcome: 'Rout' });
    expect(e.view().phase).toBe('ended');
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('This encounter has ended.');
  });

  it('derives max LP from the base Endure die (R-E21)', () => {
    const e = encounter();
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('a', 'Ana', 'party', 10)] });
    expect(e.view().order[0]!.health).toEqual({ label: 'LP', current: 10, max: 10 });
  });
});

describe('refusals change nothing and say why', () => {
  it('refuses setup mistakes with a sentence', () => {
    const e = encounter();
    expect(() => e.apply({ type: 'START' })).toThrow('Add at least one party member before starting.');
    e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('a', 'Ana', 'party'), seed('b', 'Bo', 'party')] });
    expect(() => e.apply({ type: 'START' })).toThrow('Add at least one GM creature before starting.');
    expect(() => e.apply({ type: 'SET_PARTY_ORDER', ids: ['a'] })).toThrow('The party order must list every party member exactly once.');
    expect(() => e.apply({ type: 'ADD_COMBATANTS', combatants: [seed('a', 'Ana again', 'party')] })).toThrow('Ana again is already in this encounter.');
    expect(() => e.apply({ type: 'END_TURN' })).toThrow('Start combat first.');
    expect(e.view().order.map((c) => c.name)).toEqual(['Ana', 'Bo']);
  });

  it('refuses order changes once combat has started', () => {
    const e = enigma01(true);
    const before = JSON.stringify(e.persisted());
    expect(() => e.apply({ type: 'SET_FIRST_SIDE', side: 'gm' })).toThrow(RuleRefusal);
    expect(() => e.apply({ type: 'CHOOSE_NPC', combatantId: 's1' })).toThrow('No GM slot is waiting for an enemy.');
    expect(() => e.apply({ type: 'REMOVE_COMBATANT', combatantId: 'nobody', reason: '' })).toThrow('That combatant is not in this encounter.');
    expect(JSON.stringify(e.persisted())).toBe(before);
  });

  it('parses untrusted payloads into sentences', () => {
    const parse = (raw: unknown) => () => parseEvent(enigmaEncounter, raw);
    expect(parse({ type: 'FIREBALL' })).toThrow('"FIREBALL" is not an action this ruleset knows.');
    expect(parse({})).toThrow('The action is missing its type.');
    expect(parse(null)).toThrow(RuleRefusal);
    expect(parse({ type: 'ADD_COMBATANTS', combatants: [{ ...seed('x', 'x'.repeat(10_000), 'gm') }] })).toThrow('A name is at most 80 characters.');
    expect(parse({ type: 'ADD_COMBATANTS', combatants: [{ ...seed('x', '   ', 'gm') }] })).toThrow('A name cannot be empty.');
    expect(parse({ type: 'END_TURN', extra: 1 })).toThrow(RuleRefusal);
    // A field of a shared schema is named in the sentence.
    expect(parse({ type: 'HEAL', targetId: 'x', amount: 2, kind: 'fix' })).toThrow(/^In HEAL, source must be text\.$/);
    expect(parse({ type: 'HEAL', targetId: 'x', amount: 2, kind: 'fix', source: 'y'.repeat(501) })).toThrow(/^In HEAL, source text is at most 500 characters\.$/);
    // A typed face that is not a number (the form checks first; a script or an old screen may not) is said in
    // words, with the form's name for the action, never a dotted path (issue 28, point 8).
    expect(parse({ type: 'ATTACK', attackerId: 'a', targetId: 'b', mode: 'melee', sight: 'clear', damage: 'full', defenceRoll: { faces: [null], source: 'manual' } }))
      .toThrow(/^The attack has a typed face for its defence roll that is not a face of the die: type whole numbers from 1 to the die's size\.$/);
    expect(parseEvent(enigmaEncounter, { type: 'END_TURN' })).toEqual({ type: 'END_TURN' });
    // A roll with many stacks of disadvantage (stacked injuries) holds more than a dozen dice, and must re-parse
    // when the stored event is replayed or imported.
    const hide = (n: number) => ({ type: 'HIDE', navigateRoll: { faces: Array.from({ length: n }, () => 3), source: 'app' }, observers: [] });
    expect(parseEvent(enigmaEncounter, hide(20))).toEqual(hide(20));
    expect(parse(hide(65))).toThrow('At most 64 dice in one roll.');
    // A long campaign's worst-hurt character walks in with many running injuries; past 200 the GM is told why.
    const injury = (n: number) => ({ id: `i${n}`, name: 'Cut', category: 'endure', baseRoll: 1, multiplier: 1, restsRemaining: 1, permanent: false, cureCondition: null, notes: '' });
    const carrying = (n: number) => ({ type: 'ADD_COMBATANTS', combatants: [{ ...seed('b', 'Berrik', 'party'), carried: { injuries: Array.from({ length: n }, (_, i) => injury(i)) } }] });
    expect(parse(carrying(200))).not.toThrow();
    expect(parse(carrying(201))).toThrow('A combatant carries at most 200 running injuries into a fight: heal some first.');
  });
});

describe('event sourcing', () => {
  it('rebuilds the same state from a persisted snapshot plus the tail of events', () => {
    const events: GmEvent[] = [
      { type: 'ADD_COMBATANTS', combatants: party.map((n) => seed(n.toLowerCase(), n, 'party')) },
      { type: 'ADD_COMBATANTS', combatants: soldiers.map((n, i) => seed(`s${i + 1}`, n, 'gm')) },
      { type: 'START' },
      { type: 'END_TURN' },
      { type: 'CHOOSE_NPC', combatantId: 's3' },
      { type: 'END_TURN' },
      { type: 'REMOVE_COMBATANT', combatantId: 'lotty', reason: 'down' },
      { type: 'END_TURN' },
    ];
    const input = { options: defaultOptions(enigmaOptions), carried: { escalation: null } };
    const whole = EncounterEngine.resume(enigmaEncounter, input, undefined, events);
    const head = EncounterEngine.resume(enigmaEncounter, input, undefined, events.slice(0, 4));
    const stored = JSON.parse(JSON.stringify(head.persisted()));
    const resumed = EncounterEngine.resume(enigmaEncounter, input, stored, events.slice(4));
    expect(resumed.view()).toEqual(whole.view());
    expect(resumed.persisted()).toEqual(whole.persisted());
    expect(resumed.view().prompt?.choices.map((c) => c.label)).toEqual(['Soldier 1', 'Soldier 2', 'Soldier 4', 'Soldier 5', 'Soldier 6']);
  });
});

describe('round-1 projection', () => {
  it('plans the party slots in advance and leaves GM slots open when the GM picks slot by slot', () => {
    const e = enigma01(false);
    const planned = () => Object.fromEntries(e.view().order.filter((c) => c.status === 'unplaced').map((c) => [c.name, c.plannedSlot]));
    expect(planned()).toMatchObject({ Berrik: 3, Lotty: 5, Flynn: 7, 'Soldier 1': null });
    const fixed = enigma01(true);
    expect(Object.fromEntries(fixed.view().order.filter((c) => c.status === 'unplaced').map((c) => [c.name, c.plannedSlot])))
      .toMatchObject({ 'Soldier 1': 2, Berrik: 3, 'Soldier 4': 8, 'Soldier 6': 10 });
  });
});

/** The round-1 projection written out plainly (each side's list shifted, every earlier slot looked at again): the oracle. */
function projectedPlainly(ctx: EnigmaContext): { side: Side; id: string | null }[] {
  if (ctx.frozen) return [];
  const pools = { party: [...unplaced(ctx, 'party')], gm: [...unplaced(ctx, 'gm')] };
  const gmKnown = ctx.gmOrder !== null && rulingsOf(ctx.options).npcChoice !== 'slotBySlot';
  const slots: { side: Side; id: string | null }[] = [];
  let last = ctx.lastPlacedSide;
  while (pools.party.length + pools.gm.length > 0) {
    const preferred = last === null ? ctx.firstSide : other(last);
    const side = pools[preferred].length > 0 ? preferred : other(preferred);
    const next = pools[side].shift()!;
    slots.push({ side, id: side === 'party' || gmKnown || (pools.gm.length === 0 && slots.every((s) => s.id !== null)) ? next : null });
    last = side;
  }
  return slots;
}

describe('round-1 projection over generated fights', () => {
  it('equals the rule written out plainly in every state, GM slots named or open', () => {
    // States where the rule's two GM cases show: the one enemy left named, and the last of several left open.
    let soleNamed = 0;
    let lastOpen = 0;
    for (const npcChoice of ['either', 'slotBySlot']) {
      for (const [size, seedNumber] of [[3, 1], [6, 2], [9, 3], [14, 4], [25, 5]] as const) {
        const input = { options: { ...defaultOptions(enigmaOptions), npcChoice }, carried: { escalation: null } };
        const fight = generateFight('enigma', size, 120, seedNumber, [], undefined, input);
        const e = EncounterEngine.create(enigmaEncounter, input);
        for (const event of fight.events) {
          e.step(event);
          const ctx = e.snapshot.context as EnigmaContext;
          const plain = projectedPlainly(ctx);
          expect(projectRoundOne(ctx)).toEqual(plain);
          const gmSlots = plain.filter((slot) => slot.side === 'gm');
          if (npcChoice === 'slotBySlot' && gmSlots.length === 1 && gmSlots[0]!.id !== null) soleNamed += 1;
          if (gmSlots.length > 1 && gmSlots.at(-1)!.id === null) lastOpen += 1;
        }
      }
    }
    expect(soleNamed).toBeGreaterThan(0);
    expect(lastOpen).toBeGreaterThan(0);
  });
});

describe('spotlight order (R-E10)', () => {
  it('offers the party order of battle as a spotlight order, unless switched off', () => {
    const e = enigma01(true);
    expect(e.view().aside).toEqual([{ title: 'Spotlight order (R-E10)', text: 'Null → Berrik → Lotty → Flynn' }]);
    const off = EncounterEngine.create(enigmaEncounter, { options: { ...defaultOptions(enigmaOptions), spotlightOrder: false }, carried: { escalation: null } });
    off.apply({ type: 'ADD_COMBATANTS', combatants: [seed('a', 'Ana', 'party'), seed('g', 'Goblin', 'gm')] });
    off.apply({ type: 'START' });
    expect(off.view().aside).toBeUndefined();
  });
});
