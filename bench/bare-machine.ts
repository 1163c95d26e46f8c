// The Replay baseline: a bare XState 5 machine of about the size of a ruleset's machine (the shared skeleton
// setup → rounds (roundStart → selecting → turn → roundEnd) → ended, a context of every combatant keyed by id,
// immutable updates, guards), written the plainest way, with no rules, log lines or views around it.
import { assign, initialTransition, setup } from 'xstate';
import { pureStep } from '../core/encounter/kernel.ts';

interface BareCombatant {
  id: string;
  side: 'party' | 'gm';
  health: number;
  max: number;
  acted: boolean;
  tags: string[];
}

interface BareContext {
  combatants: Record<string, BareCombatant>;
  order: string[];
  activeIndex: number;
  round: number;
  actionsLeft: number;
}

export type BareEvent =
  | { type: 'START' }
  | { type: 'SELECT'; id: string }
  | { type: 'ATTACK'; targetId: string; amount: number }
  | { type: 'HEAL'; targetId: string; amount: number }
  | { type: 'TAG'; targetId: string; tag: string }
  | { type: 'END_TURN' };

const withCombatant = (ctx: BareContext, id: string, change: Partial<BareCombatant>): Record<string, BareCombatant> => ({
  ...ctx.combatants,
  [id]: { ...ctx.combatants[id]!, ...change },
});

export const bareMachine = setup({
  types: { context: {} as BareContext, events: {} as BareEvent, input: {} as { count: number } },
  guards: {
    canAct: ({ context }) => context.actionsLeft > 0,
    known: ({ context, event }) => 'targetId' in event && event.targetId in context.combatants,
    roundOver: ({ context }) => context.activeIndex + 1 >= context.order.length,
  },
  actions: {
    damage: assign(({ context, event }) => {
      if (event.type !== 'ATTACK') return {};
      const target = context.combatants[event.targetId]!;
      return { combatants: withCombatant(context, event.targetId, { health: Math.max(0, target.health - event.amount) }), actionsLeft: context.actionsLeft - 1 };
    }),
    heal: assign(({ context, event }) => {
      if (event.type !== 'HEAL') return {};
      const target = context.combatants[event.targetId]!;
      return { combatants: withCombatant(context, event.targetId, { health: Math.min(target.max, target.health + event.amount) }) };
    }),
    tag: assign(({ context, event }) => {
      if (event.type !== 'TAG') return {};
      const target = context.combatants[event.targetId]!;
      return { combatants: withCombatant(context, event.targetId, { tags: [...target.tags.filter((t) => t !== event.tag), event.tag] }) };
    }),
    endTurn: assign(({ context }) => ({
      combatants: withCombatant(context, context.order[context.activeIndex]!, { acted: true }),
      activeIndex: context.activeIndex + 1,
      actionsLeft: 2,
    })),
    nextRound: assign(({ context }) => ({
      combatants: Object.fromEntries(Object.entries(context.combatants).map(([id, c]) => [id, { ...c, acted: false }])),
      activeIndex: 0,
      round: context.round + 1,
      actionsLeft: 2,
    })),
  },
}).createMachine({
  id: 'bare',
  context: ({ input }) => {
    const combatants: Record<string, BareCombatant> = {};
    for (let i = 0; i < input.count; i++) {
      const id = `c${i}`;
      combatants[id] = { id, side: i % 2 === 0 ? 'party' : 'gm', health: 12, max: 12, acted: false, tags: [] };
    }
    return { combatants, order: Object.keys(combatants), activeIndex: 0, round: 0, actionsLeft: 2 };
  },
  initial: 'setup',
  states: {
    setup: { on: { START: { target: 'rounds', actions: assign({ round: 1 }) } } },
    rounds: {
      initial: 'selecting',
      on: {
        HEAL: { guard: 'known', actions: 'heal' },
        TAG: { guard: 'known', actions: 'tag' },
      },
      states: {
        roundStart: { always: 'selecting' },
        selecting: { on: { SELECT: 'turn' } },
        turn: {
          on: {
            ATTACK: { guard: 'canAct', actions: 'damage' },
            END_TURN: [{ guard: 'roundOver', target: 'roundEnd', actions: 'endTurn' }, { target: 'selecting', actions: 'endTurn' }],
          },
        },
        roundEnd: { always: { target: 'roundStart', actions: 'nextRound' } },
      },
    },
    ended: { type: 'final' },
  },
});

/** `length` events a GM could send the bare machine: START, then turns of select, two actions and END_TURN. */
export function bareEvents(count: number, length: number): BareEvent[] {
  const events: BareEvent[] = [{ type: 'START' }];
  let i = 0;
  while (events.length < length) {
    const target = `c${(i * 7 + 3) % count}`;
    const step = i % 6;
    events.push(
      step === 0 ? { type: 'SELECT', id: `c${i % count}` }
        : step === 1 ? { type: 'ATTACK', targetId: target, amount: 2 }
          : step === 2 ? { type: 'HEAL', targetId: target, amount: 1 }
            : step === 3 ? { type: 'TAG', targetId: target, tag: 'prone' }
              : step === 4 ? { type: 'ATTACK', targetId: target, amount: 1 }
                : { type: 'END_TURN' },
    );
    i++;
  }
  return events;
}

/**
 * Replays the events from the initial state with the same pure step the engine uses for the rulesets (XState's
 * machine.transition in one inert actor scope); returns the number of events whose snapshot changed.
 */
export function replayBare(count: number, events: readonly BareEvent[]): number {
  let [before] = initialTransition(bareMachine, { count });
  let changed = 0;
  for (const event of events) {
    const after = pureStep(bareMachine, { count }, before, event);
    if (after !== before) changed++;
    before = after;
  }
  return changed;
}
