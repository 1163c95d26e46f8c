// Conditions with durations (issue 28, point 3): a layer of the kernel beside the ruleset's machine, the same for
// every ruleset. A condition is a name the GM puts on a combatant (the ruleset's own, or one typed) with a duration;
// the kernel counts it down by comparing the ruleset's roster before and after each event (who is acting, the
// round), so no machine knows about it. Its state travels with the machine snapshot (kernel.ts EngineState):
// undo marks, stored snapshots, resume and replays all carry it. Decisions: docs/conditions.md.
import * as z from 'zod';
import { counted } from '../words.ts';
import { idSchema, nameSchema } from './schemas.ts';
import type { CombatantView, EncounterRoster, GmEvent, LogLine } from './types.ts';

/** The events of the layer, recognised by the kernel before the ruleset's own schema. */
export const CONDITION_EVENTS: ReadonlySet<string> = new Set(['CONDITION_ADD', 'CONDITION_REMOVE']);

/** The most rounds a condition can be given (an hour of 6-second rounds). */
export const MAX_CONDITION_ROUNDS = 600;

// The layer's schemas are built on first use (server/start-schemas.test.ts).
export const conditionDurationSchema = z.lazy(() => z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('rounds'),
    rounds: z.number({ error: 'The number of rounds must be a number.' }).int({ error: 'The number of rounds must be a whole number.' })
      .min(1, { error: 'A condition lasts at least 1 round.' }).max(MAX_CONDITION_ROUNDS, { error: `A condition lasts at most ${MAX_CONDITION_ROUNDS} rounds.` }),
  }),
  z.strictObject({ kind: z.literal('turnStart'), whoId: idSchema }),
  z.strictObject({ kind: z.literal('turnEnd'), whoId: idSchema }),
  z.strictObject({ kind: z.literal('untilRemoved') }),
], { error: 'A duration is a number of rounds, until the start or the end of someone\'s next turn, or until removed.' }));

export type ConditionDuration = z.infer<typeof conditionDurationSchema>;

export const conditionEventSchema = z.lazy(() => z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('CONDITION_ADD'),
    targetIds: z.array(idSchema, { error: 'The targets must be a list of combatants.' }).min(1, { error: 'Choose at least one combatant for the condition.' }).max(200, { error: 'A condition is put on at most 200 combatants at once.' }),
    name: nameSchema,
    duration: conditionDurationSchema,
  }),
  z.strictObject({ type: z.literal('CONDITION_REMOVE'), targetId: idSchema, conditionId: idSchema }),
]));

export type ConditionEvent = z.infer<typeof conditionEventSchema>;

/** One condition on one combatant. */
export interface Condition {
  id: string;
  targetId: string;
  name: string;
  duration: ConditionDuration;
  /**
   * For a duration in rounds: the round it counts from (the round it was put on; put on before combat, the round of
   * the first turn), null while combat has not started. It ends at round `from + rounds`: at the start of the
   * anchor's turn in that round, or at the start of that round when there is no anchor.
   */
  from: number | null;
  /** For a duration in rounds: whoever was acting when it was put on (the first of them), or null. */
  anchorId: string | null;
  /** For "until the end of X's next turn": X's next turn has started since it was put on. */
  armed: boolean;
}

/** The layer's state: immutable, replaced on every change (undo marks hold it as they hold the snapshot). */
export interface ConditionsState {
  /** The number the next condition's id takes: ids stay the same on every replay. */
  next: number;
  list: readonly Condition[];
}

export const NO_CONDITIONS: ConditionsState = Object.freeze({ next: 0, list: Object.freeze([]) as readonly Condition[] });

/** The layer's state as stored beside the machine's snapshot; anything else (an old snapshot) reads as none. */
const storedSchema = z.lazy(() => z.object({
  next: z.number().int().min(0),
  list: z.array(z.object({
    id: z.string(), targetId: z.string(), name: z.string(), duration: conditionDurationSchema,
    from: z.number().int().nullable(), anchorId: z.string().nullable(), armed: z.boolean(),
  })),
}));

export function readStoredConditions(stored: unknown): ConditionsState {
  const read = storedSchema.safeParse(stored);
  return read.success ? read.data : NO_CONDITIONS;
}

/** What a roster tells the layer: each combatant's name and whether it is acting, the round and the phase. */
type Roster = Pick<EncounterRoster, 'phase' | 'round' | 'order'>;

const nameIn = (roster: Roster, id: string) => roster.order.find((c) => c.id === id)?.name ?? 'someone who has left';
const inFight = (roster: Roster, id: string) => roster.order.some((c) => c.id === id && c.status !== 'removed');
const acting = (roster: Roster) => roster.order.filter((c) => c.status === 'active').map((c) => c.id);

/** Why the layer refuses the event now, or null. */
export function conditionRefusal(state: ConditionsState, roster: Roster, event: ConditionEvent): string | null {
  if (roster.phase === 'ended') return 'This encounter has ended.';
  if (event.type === 'CONDITION_ADD') {
    const seen = new Set<string>();
    for (const id of event.targetIds) {
      if (seen.has(id)) return `${nameIn(roster, id)} is chosen twice for the condition.`;
      seen.add(id);
      if (!roster.order.some((c) => c.id === id)) return 'A combatant chosen for the condition is not in this fight.';
      if (!inFight(roster, id)) return `${nameIn(roster, id)} is out of the fight: a condition cannot be put on them.`;
    }
    const d = event.duration;
    if ((d.kind === 'turnStart' || d.kind === 'turnEnd') && !inFight(roster, d.whoId)) {
      return roster.order.some((c) => c.id === d.whoId) ? `${nameIn(roster, d.whoId)} is out of the fight and takes no more turns: choose someone else for the duration.` : 'The combatant whose turn the duration follows is not in this fight.';
    }
    return null;
  }
  const condition = state.list.find((c) => c.id === event.conditionId && c.targetId === event.targetId);
  if (!condition) return `${nameIn(roster, event.targetId)} has no such condition (it may have ended already).`;
  return null;
}

/** What a duration says in words, for a log line when it is put on. */
function durationWords(d: ConditionDuration, roster: Roster): string {
  switch (d.kind) {
    case 'rounds': return `for ${counted(d.rounds, 'round')}`;
    case 'turnStart': return `until the start of ${nameIn(roster, d.whoId)}'s next turn`;
    case 'turnEnd': return `until the end of ${nameIn(roster, d.whoId)}'s next turn`;
    case 'untilRemoved': return 'until removed';
  }
}

/** Applies a layer event the refusal allowed; returns the new state and its log lines. */
export function applyCondition(state: ConditionsState, roster: Roster, event: ConditionEvent): { state: ConditionsState; lines: LogLine[] } {
  const round = roster.round;
  if (event.type === 'CONDITION_REMOVE') {
    const gone = state.list.find((c) => c.id === event.conditionId)!;
    return {
      state: { next: state.next, list: state.list.filter((c) => c !== gone) },
      lines: [{ round, kind: 'condition', text: `The GM removes ${gone.name} from ${nameIn(roster, gone.targetId)}.` }],
    };
  }
  const running = roster.phase === 'running';
  const anchorId = running ? (acting(roster)[0] ?? null) : null;
  let next = state.next;
  let list = [...state.list];
  const renewed: string[] = [];
  for (const targetId of event.targetIds) {
    // The same condition again on the same combatant replaces it: a GM puts it on again to renew it.
    const old = list.findIndex((c) => c.targetId === targetId && c.name.toLowerCase() === event.name.toLowerCase());
    if (old >= 0) {
      renewed.push(nameIn(roster, targetId));
      list.splice(old, 1);
    }
    list.push({
      id: `k${next}`, targetId, name: event.name, duration: event.duration,
      from: event.duration.kind === 'rounds' && running ? round : null,
      anchorId: event.duration.kind === 'rounds' ? anchorId : null,
      armed: false,
    });
    next += 1;
  }
  const who = event.targetIds.map((id) => nameIn(roster, id));
  const lines: LogLine[] = [{ round, kind: 'condition', text: `The GM puts ${event.name} on ${listed(who)}, ${durationWords(event.duration, roster)}${anchorId && event.duration.kind === 'rounds' ? ` (counted from ${nameIn(roster, anchorId)}'s turn)` : ''}.` }];
  if (renewed.length) lines.push({ round, kind: 'condition', text: `${event.name} is renewed on ${listed(renewed)}: the new duration replaces the old.` });
  return { state: { next, list }, lines };
}

function listed(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** What remains of a condition, in words, in the roster `roster` (shown on its chip). */
export function remains(c: Condition, roster: Roster): string {
  const d = c.duration;
  switch (d.kind) {
    case 'rounds': {
      if (c.from === null) return `${counted(d.rounds, 'round')} from the first turn`;
      const left = c.from + d.rounds - roster.round;
      if (left >= 1) return `${counted(left, 'round')} left`;
      return c.anchorId && inFight(roster, c.anchorId) ? `ends at the start of ${nameIn(roster, c.anchorId)}'s turn` : 'ends at the start of the next round';
    }
    case 'turnStart': return `until the start of ${nameIn(roster, d.whoId)}'s next turn`;
    case 'turnEnd': {
      const now = c.armed && roster.order.some((x) => x.id === d.whoId && x.status === 'active');
      return now ? `until the end of ${nameIn(roster, d.whoId)}'s current turn` : `until the end of ${nameIn(roster, d.whoId)}'s next turn`;
    }
    case 'untilRemoved': return 'until removed';
  }
}

/** The conditions shown on a combatant's row: name, what remains, and the id a removal names. */
export interface ConditionChip {
  id: string;
  name: string;
  remains: string;
}

export function chipsOf(state: ConditionsState, roster: Roster, targetId: string): ConditionChip[] {
  return state.list.filter((c) => c.targetId === targetId).map((c) => ({ id: c.id, name: c.name, remains: remains(c, roster) }));
}

/**
 * The layer after one of the ruleset's events took the fight from `before` to `after`: conditions that end now are
 * taken off with a line, and a combatant whose turn starts or ends with conditions on it gets a reminder line.
 *
 * A turn is read from the roster alone: a combatant's turn starts when its status becomes 'active' (or it stays
 * active into a new round) and ends when it stops being active (or the round changes under it). This holds for
 * one actor at a time (Enigma, Thrum), a member picked per go (Teams, Factions: nobody acts between turns) and
 * several at once (Cairn-Errant's moments). Nothing counts before combat starts or after it ends.
 */
export function follow(state: ConditionsState, before: Roster, after: Roster): { state: ConditionsState; lines: LogLine[] } {
  if (state.list.length === 0 || after.phase === 'setup' || before.phase === 'ended') return { state, lines: [] };
  const wasActive = new Set(before.phase === 'running' ? acting(before) : []);
  const isActive = new Set(after.phase === 'running' ? acting(after) : []);
  const newRound = before.phase === 'running' && after.phase === 'running' && after.round !== before.round;
  const ended = [...wasActive].filter((id) => newRound || !isActive.has(id));
  const started = after.phase === 'running' ? [...isActive].filter((id) => newRound || !wasActive.has(id)) : [];
  // The end of the fight ends the counting; the conditions stay on the rows as they were.
  if (after.phase === 'ended') return { state, lines: [] };

  const lines: LogLine[] = [];
  let list = state.list;
  const expire = (c: Condition, why: string, round: number) => {
    lines.push({ round, kind: 'condition', text: `${c.name} on ${nameIn(after, c.targetId)} ends${why}.` });
    list = list.filter((x) => x !== c);
  };
  const update = (c: Condition, change: Partial<Condition>) => {
    list = list.map((x) => (x === c ? { ...x, ...change } : x));
  };

  // 1. Turns that end: "until the end of X's next turn" ends with X's turn once that turn has started.
  for (const id of ended) {
    for (const c of list) if (c.duration.kind === 'turnEnd' && c.duration.whoId === id && c.armed) expire(c, ` (the end of ${nameIn(after, id)}'s turn)`, before.round);
    const still = list.filter((c) => c.targetId === id);
    if (still.length && inFight(after, id)) {
      lines.push({ round: before.round, kind: 'condition', text: `Reminder — ${nameIn(after, id)}'s turn ends: still ${still.map((c) => `${c.name} (${remains(c, after)})`).join('; ')}.` });
    }
  }
  // 2. A new round: rounds without an anchor end at the start of their last round + 1; an anchored one whose anchor
  // left the fight, or did not act in its last round, ends here too.
  if (newRound) {
    for (const c of list) {
      if (c.duration.kind !== 'rounds' || c.from === null) continue;
      const end = c.from + c.duration.rounds;
      if (after.round < end) continue;
      if (!c.anchorId || !inFight(after, c.anchorId) || after.round > end) expire(c, ` after ${counted(c.duration.rounds, 'round')}`, after.round);
    }
  }
  // 3. Turns that start.
  for (const id of started) {
    for (const c of list) {
      if (c.duration.kind === 'rounds' && c.from === null) update(c, { from: after.round });
    }
    for (const c of list) {
      const d = c.duration;
      if (d.kind === 'turnStart' && d.whoId === id) expire(c, ` (the start of ${nameIn(after, id)}'s turn)`, after.round);
      else if (d.kind === 'rounds' && c.anchorId === id && c.from !== null && after.round >= c.from + d.rounds) expire(c, ` after ${counted(d.rounds, 'round')}`, after.round);
      else if (d.kind === 'turnEnd' && d.whoId === id && !c.armed) update(c, { armed: true });
    }
    const on = list.filter((c) => c.targetId === id);
    if (on.length) lines.push({ round: after.round, kind: 'condition', text: `Reminder — ${nameIn(after, id)}'s turn starts: ${on.map((c) => `${c.name} (${remains(c, after)})`).join('; ')}.` });
  }
  // Someone whose turn a duration follows has left the fight: that turn never comes.
  for (const c of list) {
    const d = c.duration;
    if ((d.kind === 'turnStart' || d.kind === 'turnEnd') && !inFight(after, d.whoId)) expire(c, ` (${nameIn(after, d.whoId)} has left the fight)`, after.round);
  }
  return list === state.list ? { state, lines } : { state: { next: state.next, list }, lines };
}

export function isConditionEvent(event: GmEvent | { type?: unknown }): boolean {
  return typeof event.type === 'string' && CONDITION_EVENTS.has(event.type);
}

/** Rows of a view with their conditions; rows without any stay the same objects. */
export function withChips(order: readonly CombatantView[], state: ConditionsState, roster: Roster): CombatantView[] {
  if (state.list.length === 0) return order as CombatantView[];
  const targets = new Set(state.list.map((c) => c.targetId));
  return order.map((c) => (targets.has(c.id) ? { ...c, conditions: chipsOf(state, roster, c.id) } : c));
}
