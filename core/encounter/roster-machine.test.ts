// The shared roster guards and actions (core/encounter/roster-machine.ts) composed into a tiny XState machine.
import { describe, expect, it } from 'vitest';
import { createActor, setup } from 'xstate';
import type { RosterSpec } from './roster.ts';
import { lateRefusal, rosterActions, rosterGuards, type RosterEvent, type RosterMachineSpec, SETUP_ROSTER } from './roster-machine.ts';
import type { CombatantSeed } from './types.ts';

interface Piece { name: string; side: string; out: string | null }
interface Ctx { roster: string[]; combatants: Record<string, Piece>; question: string | null; outcome: string | null }
type Ev = RosterEvent | { type: 'START' } | { type: 'ASK'; text: string } | { type: 'ANSWER' };

const base: RosterSpec<Ctx, Piece> = {
  max: 4,
  sideProblem: (_ctx, seed) => (seed.side === 'us' || seed.side === 'them' ? null : `${seed.name} must join us or them.`),
  fromSeed: (_ctx, seed) => ({ name: seed.name, side: seed.side, out: null }),
  hasLeft: (piece) => piece.out !== null,
};

const spec: RosterMachineSpec<Ctx, Piece> = {
  ...base,
  blocked: (ctx) => ctx.question !== null,
  takeOut: (ctx, id, reason) => ({ ...ctx, combatants: { ...ctx.combatants, [id]: { ...ctx.combatants[id]!, out: reason || 'left' } } }),
  close: (ctx, outcome) => ({ ...ctx, outcome: outcome || 'Ended.' }),
};

const machine = setup({
  types: { context: {} as Ctx, events: {} as Ev },
  guards: { ...rosterGuards(spec) },
  actions: { ...rosterActions<Ctx, Piece, Ev>(spec) },
}).createMachine({
  context: { roster: [], combatants: {}, question: null, outcome: null },
  initial: 'setup',
  states: {
    setup: {
      on: {
        ...SETUP_ROSTER,
        START: { target: 'running' },
      },
    },
    running: {
      on: {
        REMOVE_COMBATANT: { guard: 'canRemove', actions: 'removeCombatant' },
        ADD_LATE_COMBATANT: { guard: 'canAddLate', actions: 'addLate' },
        END_COMBAT: { guard: 'notBlocked', target: 'ended', actions: 'recordOutcome' },
        ASK: { actions: ({ context, event }) => { context.question = event.text; } },
        ANSWER: { actions: ({ context }) => { context.question = null; } },
      },
    },
    ended: { type: 'final' },
  },
});

const seed = (id: string, side = 'us'): CombatantSeed => ({ id, name: id.toUpperCase(), side, characterId: null, sheet: {} });

function started(...ids: string[]) {
  const actor = createActor(machine).start();
  actor.send({ type: 'ADD_COMBATANTS', combatants: ids.map((id, i) => seed(id, i % 2 ? 'them' : 'us')) });
  return actor;
}

describe('setup: canAdd → addCombatants, canDrop → dropFromRoster', () => {
  it('adds what the rules allow and ignores what they refuse', () => {
    const actor = started('a', 'b');
    actor.send({ type: 'ADD_COMBATANTS', combatants: [seed('c', 'nobody')] });
    actor.send({ type: 'ADD_COMBATANTS', combatants: [seed('a')] });
    expect(actor.getSnapshot().context.roster).toEqual(['a', 'b']);
  });
  it('drops a combatant without a trace, and only one who is there', () => {
    const actor = started('a', 'b');
    actor.send({ type: 'REMOVE_COMBATANT', combatantId: 'zz', reason: '' });
    actor.send({ type: 'REMOVE_COMBATANT', combatantId: 'a', reason: '' });
    expect(actor.getSnapshot().context.roster).toEqual(['b']);
    expect(actor.getSnapshot().context.combatants['a']).toBeUndefined();
  });
});

describe('running: canRemove → removeCombatant, canAddLate → addLate, notBlocked → recordOutcome', () => {
  it('takes a combatant out the ruleset\'s way, once', () => {
    const actor = started('a', 'b');
    actor.send({ type: 'START' });
    actor.send({ type: 'REMOVE_COMBATANT', combatantId: 'a', reason: 'fled' });
    actor.send({ type: 'REMOVE_COMBATANT', combatantId: 'a', reason: 'twice' });
    expect(actor.getSnapshot().context.combatants['a']!.out).toBe('fled');
    expect(actor.getSnapshot().context.roster).toEqual(['a', 'b']);
  });
  it('lets a late arrival join under the same checks as in setup', () => {
    const actor = started('a', 'b');
    actor.send({ type: 'START' });
    actor.send({ type: 'ADD_LATE_COMBATANT', combatant: seed('a') });
    actor.send({ type: 'ADD_LATE_COMBATANT', combatant: seed('c', 'them') });
    expect(actor.getSnapshot().context.roster).toEqual(['a', 'b', 'c']);
  });
  it('refuses removals, late arrivals and the end while a question waits', () => {
    const actor = started('a', 'b');
    actor.send({ type: 'START' });
    actor.send({ type: 'ASK', text: 'Save?' });
    actor.send({ type: 'REMOVE_COMBATANT', combatantId: 'a', reason: '' });
    actor.send({ type: 'ADD_LATE_COMBATANT', combatant: seed('c') });
    actor.send({ type: 'END_COMBAT', outcome: 'Done.' });
    expect(actor.getSnapshot().value).toBe('running');
    expect(actor.getSnapshot().context.roster).toEqual(['a', 'b']);
    expect(actor.getSnapshot().context.combatants['a']!.out).toBeNull();
    actor.send({ type: 'ANSWER' });
    actor.send({ type: 'END_COMBAT', outcome: '' });
    expect(actor.getSnapshot().value).toBe('ended');
    expect(actor.getSnapshot().context.outcome).toBe('Ended.');
  });
  it('uses the spec\'s own late-arrival check and join when it has them', () => {
    const own: RosterMachineSpec<Ctx, Piece> = {
      ...spec,
      lateProblem: (_ctx, event) => (event.position ? 'No position here.' : null),
      addLate: (ctx, event) => ({ ...ctx, roster: [event.combatant.id, ...ctx.roster], combatants: { ...ctx.combatants, [event.combatant.id]: base.fromSeed(ctx, event.combatant) } }),
    };
    const ctx: Ctx = { roster: ['a'], combatants: { a: { name: 'A', side: 'us', out: null } }, question: null, outcome: null };
    expect(lateRefusal(own, ctx, { type: 'ADD_LATE_COMBATANT', combatant: seed('b'), position: 1 })).toBe('No position here.');
    expect(lateRefusal(spec, ctx, { type: 'ADD_LATE_COMBATANT', combatant: seed('a') })).toBe('A is already in this encounter.');
    const late = setup({ types: { context: {} as Ctx, events: {} as Ev }, guards: rosterGuards(own), actions: rosterActions<Ctx, Piece, Ev>(own) }).createMachine({
      context: ctx,
      on: { ADD_LATE_COMBATANT: { guard: 'canAddLate', actions: 'addLate' } },
    });
    const actor = createActor(late).start();
    actor.send({ type: 'ADD_LATE_COMBATANT', combatant: seed('b'), position: 1 });
    actor.send({ type: 'ADD_LATE_COMBATANT', combatant: seed('c') });
    expect(actor.getSnapshot().context.roster).toEqual(['c', 'a']);
  });
  it('throws, like assertEvent, when a roster guard is named for another event', () => {
    const wrong = setup({ types: { context: {} as Ctx, events: {} as Ev }, guards: rosterGuards(spec) }).createMachine({
      context: { roster: [], combatants: {}, question: null, outcome: null },
      on: { START: { guard: 'canAdd' } },
    });
    const actor = createActor(wrong);
    const errors: unknown[] = [];
    actor.subscribe({ error: (error) => errors.push(error) });
    actor.start();
    actor.send({ type: 'START' });
    expect(String(errors[0])).toContain('Expected event "ADD_COMBATANTS" but got "START".');
  });
});
