// The Replay baselines: a bare XState 5 machine of about the size of a ruleset's machine (the shared skeleton
// setup → rounds (roundStart → selecting → turn → roundEnd) → ended, a context of every combatant keyed by id,
// guards), written the plainest way, with no rules, log lines or views around it, run as an actor
// (createActor, send) over the same number of transitions as the ruleset's fight. Two ways to keep the combatants:
//  - 'in place' (the baseline the Replay targets hold to): one Map of combatants, the changed combatant replaced in
//    it, no copy of the others. This is XState's own cost per transition with the least context work around it.
//  - 'copied' (reported beside it): a record copied whole on each change, as every ruleset's `update` did before
//    the combatant tables (core/encounter/combatant-table.ts). At 200 combatants the copy costs more than XState's
//    step, so this one runs well below a bare actor; it was the only baseline before, and ratios against it read
//    2–3× better than against the actor.
import { assign, createActor, setup } from 'xstate';

interface BareCombatant {
  id: string;
  side: 'party' | 'gm';
  health: number;
  max: number;
  acted: boolean;
  tags: string[];
}

/** How the bare machine keeps its combatants: read one, put one back changed, reset everyone. */
interface CombatantTable<T> {
  of(count: number): T;
  get(table: T, id: string): BareCombatant | undefined;
  /** The table with `id` changed (the same table when it is kept in place). */
  put(table: T, id: string, change: Partial<BareCombatant>): T;
  /** Everyone has not acted yet (a new round). */
  resetActed(table: T): T;
}

export type BareTableKind = 'in place' | 'copied';

function firstCombatants(count: number): BareCombatant[] {
  return Array.from({ length: count }, (_, i) => ({ id: `c${i}`, side: i % 2 === 0 ? 'party' : 'gm', health: 12, max: 12, acted: false, tags: [] }));
}

const inPlace: CombatantTable<Map<string, BareCombatant>> = {
  of: (count) => new Map(firstCombatants(count).map((c) => [c.id, c])),
  get: (table, id) => table.get(id),
  put: (table, id, change) => table.set(id, { ...table.get(id)!, ...change }),
  resetActed: (table) => {
    for (const [id, c] of table) table.set(id, { ...c, acted: false });
    return table;
  },
};

const copied: CombatantTable<Record<string, BareCombatant>> = {
  of: (count) => Object.fromEntries(firstCombatants(count).map((c) => [c.id, c])),
  get: (table, id) => table[id],
  put: (table, id, change) => ({ ...table, [id]: { ...table[id]!, ...change } }),
  resetActed: (table) => Object.fromEntries(Object.entries(table).map(([id, c]) => [id, { ...c, acted: false }])),
};

export type BareEvent =
  | { type: 'START' }
  | { type: 'SELECT'; id: string }
  | { type: 'ATTACK'; targetId: string; amount: number }
  | { type: 'HEAL'; targetId: string; amount: number }
  | { type: 'TAG'; targetId: string; tag: string }
  | { type: 'END_TURN' };

function bareMachineOf<T>(table: CombatantTable<T>) {
  interface BareContext {
    combatants: T;
    order: string[];
    activeIndex: number;
    round: number;
    actionsLeft: number;
  }
  const target = (context: BareContext, event: BareEvent): BareCombatant | undefined => ('targetId' in event ? table.get(context.combatants, event.targetId) : undefined);
  return setup({
    types: { context: {} as BareContext, events: {} as BareEvent, input: {} as { count: number } },
    guards: {
      canAct: ({ context }) => context.actionsLeft > 0,
      known: ({ context, event }) => target(context, event) !== undefined,
      roundOver: ({ context }) => context.activeIndex + 1 >= context.order.length,
    },
    actions: {
      damage: assign(({ context, event }) => {
        if (event.type !== 'ATTACK') return {};
        const health = Math.max(0, target(context, event)!.health - event.amount);
        return { combatants: table.put(context.combatants, event.targetId, { health }), actionsLeft: context.actionsLeft - 1 };
      }),
      heal: assign(({ context, event }) => {
        if (event.type !== 'HEAL') return {};
        const healed = target(context, event)!;
        return { combatants: table.put(context.combatants, event.targetId, { health: Math.min(healed.max, healed.health + event.amount) }) };
      }),
      tag: assign(({ context, event }) => {
        if (event.type !== 'TAG') return {};
        const tagged = target(context, event)!;
        return { combatants: table.put(context.combatants, event.targetId, { tags: [...tagged.tags.filter((t) => t !== event.tag), event.tag] }) };
      }),
      endTurn: assign(({ context }) => ({
        combatants: table.put(context.combatants, context.order[context.activeIndex]!, { acted: true }),
        activeIndex: context.activeIndex + 1,
        actionsLeft: 2,
      })),
      nextRound: assign(({ context }) => ({ combatants: table.resetActed(context.combatants), activeIndex: 0, round: context.round + 1, actionsLeft: 2 })),
    },
  }).createMachine({
    id: 'bare',
    context: ({ input }) => ({ combatants: table.of(input.count), order: firstCombatants(input.count).map((c) => c.id), activeIndex: 0, round: 0, actionsLeft: 2 }),
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
}

const machines = { 'in place': bareMachineOf(inPlace), copied: bareMachineOf(copied) };

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
 * Sends the events to a new actor of the bare machine, its combatants kept `kind`; returns the number of events
 * after which the actor's snapshot was a new one (every event here changes it: a check that all were taken).
 */
export function replayBare(kind: BareTableKind, count: number, events: readonly BareEvent[]): number {
  const actor = createActor(machines[kind], { input: { count } }).start();
  let before = actor.getSnapshot();
  let changed = 0;
  for (const event of events) {
    actor.send(event);
    const after = actor.getSnapshot();
    if (after !== before) changed++;
    before = after;
  }
  actor.stop();
  return changed;
}
