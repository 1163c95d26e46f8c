// The per-round summary of an encounter, computed for every ruleset the same way: replay the stored events through
// the kernel and compare each combatant's health track between consecutive states. Nothing ruleset-specific is
// read except what the ruleset's rules declare of the track (`EncounterRules.summary`: which numbers of the view make
// it up, and which tags mean "down").
import { EncounterEngine, RuleRefusal, upcastStored } from '../encounter/kernel.ts';
import type { CombatantView, EncounterInput, EncounterRoster, EncounterRules, EncounterView, GmEvent, LogLine, SummaryTrack } from '../encounter/types.ts';
import type { RoundFigures, RoundSummary } from './types.ts';

/** One stored event with the log lines written when it was applied (replayed lines are used when absent). */
export interface ReplayStep {
  event: GmEvent;
  lines?: readonly LogLine[];
  /** What the event changed in the roster, as stored with it (absent for events stored before there was one). */
  roster?: RosterChange | undefined;
}

/**
 * What one event changed in the roster the summary follows, stored with the event: the phase, round and awaited
 * answer after it, the order's ids when they moved, and each row whose summary-relevant parts (name, side, status,
 * tags, health, the ruleset's pools) differ from the row before. With these, the summary adds up stored changes
 * instead of replaying the fight through the ruleset's machine.
 */
export interface RosterChange {
  phase: EncounterRoster['phase'];
  round: number;
  awaiting: string | null;
  /** The order's ids, when they differ from the order before. */
  ids?: string[];
  rows: RosterRow[];
}

/** A row cut down to what the summary reads of it. */
export interface RosterRow {
  id: string;
  name: string;
  sideLabel: string;
  status: CombatantView['status'];
  tags: string[];
  health?: number;
  /** The ruleset's pools (its summary track's) among the row's stats, as [label, value]. */
  pools?: [string, string][];
  /**
   * For a row out of the fight: whether harm took it out (dead or defeated) and why the runner says it left. Rows
   * stored before this was kept have none and count as down, as the summary counted them then.
   */
  out?: { down: boolean; reason?: string };
}

/** A ruleset without a summary track of its own: damage to health alone, down by the common words. */
const DEFAULT_TRACK: SummaryTrack = { measure: 'damage', pools: [] };

const trackOf = (rules: EncounterRules): SummaryTrack => rules.summary ?? DEFAULT_TRACK;

/** The roster the summary follows, from a view. */
const rosterOfView = (view: EncounterView): EncounterRoster => ({ phase: view.phase, round: view.round, order: view.order, awaiting: view.prompt?.answer ?? null });

function rosterRow(c: CombatantView, pools: readonly string[]): RosterRow {
  const row: RosterRow = { id: c.id, name: c.name, sideLabel: c.sideLabel, status: c.status, tags: [...c.tags] };
  if (c.health) row.health = c.health.current;
  const kept = pools.length ? (c.stats ?? []).filter((s) => pools.includes(s.label)).map((s): [string, string] => [s.label, s.value]) : [];
  if (kept.length) row.pools = kept;
  if (c.status === 'removed') row.out = { down: Boolean(c.dead || c.defeated), ...(c.removedReason ? { reason: c.removedReason } : {}) };
  return row;
}

const statValue = (c: CombatantView, label: string): string | undefined => c.stats?.find((s) => s.label === label)?.value;

/** Whether two rows agree on every part the summary reads (see RosterRow): compared in place, nothing built. */
function sameParts(a: CombatantView, b: CombatantView, pools: readonly string[]): boolean {
  if (a.name !== b.name || a.sideLabel !== b.sideLabel || a.status !== b.status || a.health?.current !== b.health?.current) return false;
  if ((a.health === undefined) !== (b.health === undefined) || a.tags.length !== b.tags.length) return false;
  if (a.dead !== b.dead || a.defeated !== b.defeated || a.removedReason !== b.removedReason) return false;
  for (let i = 0; i < a.tags.length; i++) if (a.tags[i] !== b.tags[i]) return false;
  for (const label of pools) if (statValue(a, label) !== statValue(b, label)) return false;
  return true;
}

/** What the step from the view `beforeView` to `afterView` changed, for storing with the event (see RosterChange). */
export function rosterChange(rules: EncounterRules, beforeView: EncounterView, afterView: EncounterView): RosterChange {
  const { pools } = trackOf(rules);
  const before = rosterOfView(beforeView);
  const after = rosterOfView(afterView);
  const change: RosterChange = { phase: after.phase, round: after.round, awaiting: after.awaiting, rows: [] };
  const sameIds = after.order.length === before.order.length && after.order.every((c, i) => before.order[i]!.id === c.id);
  if (!sameIds) change.ids = after.order.map((c) => c.id);
  const previous = sameIds ? null : new Map(before.order.map((c) => [c.id, c]));
  for (let slot = 0; slot < after.order.length; slot++) {
    const now = after.order[slot]!;
    const was = previous ? previous.get(now.id) : before.order[slot];
    if (was === now) continue;
    if (!was || !sameParts(was, now, pools)) change.rows.push(rosterRow(now, pools));
  }
  return change;
}

/** A view row rebuilt from a stored row: the parts the summary reads, nothing else. */
function rowView(row: RosterRow): CombatantView {
  return {
    id: row.id, name: row.name, side: '', sideLabel: row.sideLabel, status: row.status, slot: null, tags: row.tags,
    ...(row.health !== undefined ? { health: { label: '', current: row.health, max: 0 } } : {}),
    ...(row.pools ? { stats: row.pools.map(([label, value]) => ({ label, value })) } : {}),
    ...(row.status === 'removed' ? { defeated: row.out?.down ?? true, ...(row.out?.reason ? { removedReason: row.out.reason } : {}) } : {}),
  };
}

/** The roster after a stored change: unchanged rows stay the same objects, as a replay's do. */
function applyChange(before: EncounterRoster, change: RosterChange): EncounterRoster {
  let order = before.order;
  // Most events change a row or two, many none: nothing is built for an event that changed nothing.
  if (change.ids || change.rows.length) {
    const changed = new Map(change.rows.map((row) => [row.id, rowView(row)]));
    if (change.ids) {
      const previous = new Map(before.order.map((c) => [c.id, c]));
      order = change.ids.map((id) => changed.get(id) ?? previous.get(id)!);
    } else order = before.order.map((c) => changed.get(c.id) ?? c);
  }
  return { phase: change.phase, round: change.round, order, awaiting: change.awaiting };
}

/** Tags that mean a combatant is out of the fight, in the common words (a ruleset's track may say its own). */
const DOWN_TAG = /^(dead|dying|unconscious|incapacitated|defeated|out of action)\b/i;

/** The leading whole number of a stat's value: "7/12" → 7, "9" → 9; null when it does not start with one. */
function leadingNumber(value: string): number | null {
  const match = /^\s*(-?\d+)/.exec(value);
  return match ? Number(match[1]) : null;
}

function trackValue(c: CombatantView, track: SummaryTrack): number | null {
  let total: number | null = c.health ? c.health.current : null;
  for (const label of track.pools) {
    const stat = statValue(c, label);
    const value = stat === undefined ? null : leadingNumber(stat);
    if (value !== null) total = (total ?? 0) + value;
  }
  return total;
}

/** Out of the fight by harm: dead, defeated, dying, unconscious, or at 0 health. One who fled or escaped is not. */
const isDown = (c: CombatantView, { measure, down = DOWN_TAG }: SummaryTrack): boolean =>
  (c.status === 'removed' && Boolean(c.dead || c.defeated)) || c.tags.some((tag) => down.test(tag)) || (measure === 'damage' && c.health !== undefined && c.health.current <= 0);

/** What the summary says of one who left the fight alive in a round: "left the fight (fled)". */
function leftWords(c: CombatantView): string {
  const reason = c.removedReason?.trim();
  return !reason || /^left the fight$/i.test(reason) ? 'left the fight' : `left the fight (${reason})`;
}

/** An event payload's own word for who acts: the attacker, or whoever a GM's damage is credited to. */
function namedActor(event: GmEvent): string | null {
  for (const key of ['attackerId', 'byId'] as const) {
    const value = event[key];
    if (typeof value === 'string' && value) return value;
  }
  return null;
}

/**
 * Applies a stored event; a refusal names the event, since stored events should always replay. The log lines are
 * written only when the stored ones are missing.
 */
function applyStored(engine: EncounterEngine, step: ReplayStep, index: number): readonly LogLine[] {
  const event = step.event;
  try {
    if (step.lines) {
      engine.step(event);
      return step.lines;
    }
    return engine.apply(event);
  } catch (error) {
    if (error instanceof RuleRefusal) throw new RuleRefusal(`Event ${index + 1} (${String(event.type).slice(0, 40)}) no longer replays: ${error.message}`);
    throw error;
  }
}

/** What the summary follows after every event: the ruleset's cheap roster when it has one, else the view's part. */
function rosterOf(engine: EncounterEngine): EncounterRoster {
  return engine.rules.roster ? engine.rules.roster(engine.snapshot) : rosterOfView(engine.view());
}

export interface EncounterReplay {
  summary: RoundSummary[];
  /** The view after the last event: what the stored encounter shows now. */
  view: EncounterView;
}

/**
 * Replays `steps` from `input` and sums, per round and combatant, the harm taken (a fall of the track, or a rise of
 * Thrum's loads), the harm dealt (credited to the event's actor when that is another combatant) and the healing.
 *
 * The round of an event is the round it was applied in (the round after START for START itself); events before
 * combat starts belong to no round. The actor of an event is the combatant its payload names as attacker (or
 * `byId`), else the first of its log lines that names one; when that is the harmed combatant itself and the event
 * answers a question the rules asked (a defence, a damage roll), the harm came from whoever acted last before it in
 * that round. Pools that the end of combat resets (Thrum's loads) are not counted as healing.
 */
export function replayEncounter(rules: EncounterRules, input: EncounterInput, steps: readonly ReplayStep[]): EncounterReplay {
  const fold = new SummaryFold(rules, input);
  for (const step of steps) fold.add(step);
  return fold.result();
}

/** Gives every combatant of `at` that the round's tally lacks a row of zeros; returns the tally. */
function addMissing(tally: Map<string, RoundFigures>, at: EncounterRoster): Map<string, RoundFigures> {
  for (const c of at.order) {
    if (!tally.has(c.id)) tally.set(c.id, { id: c.id, name: c.name, side: c.sideLabel, dealt: 0, taken: 0, healed: 0, statuses: [], down: false });
  }
  return tally;
}

/**
 * `replayEncounter` one event at a time: the app keeps a fold per encounter and gives it only the events appended
 * since, so the summary and the exports of a long fight do not replay it whole after every action. `result()`
 * changes nothing: more events can follow it, and the fold ends as one replay of all of them would.
 */
export class SummaryFold {
  private readonly track: SummaryTrack;
  private readonly engine: EncounterEngine;
  private view: EncounterRoster;
  private readonly rounds = new Map<number, Map<string, RoundFigures>>();
  private readonly finals = new Map<number, EncounterRoster>();
  /** Per round, who left the fight alive in it and the words for it (see leftWords). */
  private readonly left = new Map<number, Map<string, string>>();
  /** The actor of every log line so far with the round the line is in, newest last. */
  private readonly recentActors: { round: number; id: string }[] = [];
  /** The roster last counted into a round's tally: the next event's `before` is this event's roster. */
  private tallied: { round: number; at: EncounterRoster } | null = null;
  /** How many events the fold has taken. */
  count = 0;

  /**
   * `recorded`: the fold adds up the roster changes stored with the events (every step must carry one, with its
   * lines) instead of stepping the machine; its `result` then needs the final view from the caller.
   */
  constructor(rules: EncounterRules, input: EncounterInput, readonly recorded = false) {
    this.track = trackOf(rules);
    this.engine = EncounterEngine.create(rules, input);
    this.view = rosterOf(this.engine);
  }

  private roundTally(round: number, at: EncounterRoster): Map<string, RoundFigures> {
    let tally = this.rounds.get(round);
    if (!tally) {
      tally = new Map();
      this.rounds.set(round, tally);
    }
    if (this.tallied?.round === round && this.tallied.at === at) return tally;
    this.tallied = { round, at };
    addMissing(tally, at);
    return tally;
  }

  /** Applies the next stored event and counts what it did. */
  add(step: ReplayStep): void {
    const { engine, track, recentActors } = this;
    const before = this.view;
    let lines: readonly LogLine[];
    if (this.recorded) {
      if (!step.roster || !step.lines) throw new Error(`Event ${this.count + 1} has no stored roster change to add up.`);
      lines = step.lines;
      this.view = applyChange(before, step.roster);
    } else {
      lines = applyStored(engine, step, this.count);
      this.view = rosterOf(engine);
    }
    this.count += 1;
    const view = this.view;
    if (before.phase === 'setup' && view.phase === 'setup') return;
    const round = before.phase === 'setup' ? view.round : before.round;
    const tally = this.roundTally(round, before);
    this.roundTally(round, view);
    this.finals.set(round, view);

    // Rows by id, built only when a row is not where it was (an order has each combatant once: the runner keys on it).
    let previous: Map<string, CombatantView> | undefined;
    const byId = () => (previous ??= new Map(before.order.map((c) => [c.id, c])));
    const lineActor = lines.find((line) => line.actorId)?.actorId ?? null;
    // The payload as today's schema names its fields (a stored event of an older shape, upcast).
    const event = upcastStored(engine.rules, step.event);
    const actor = namedActor(event) ?? lineActor;
    const answersPrompt = before.awaiting === event.type;
    const ending = before.phase !== 'ended' && view.phase === 'ended';

    for (let slot = 0; slot < view.order.length; slot++) {
      const now = view.order[slot]!;
      // The same row object is the same row: nothing about this combatant changed.
      const atSlot = before.order[slot];
      if (atSlot === now) continue;
      // The row before is in the same slot unless the order moved.
      const was = atSlot?.id === now.id ? atSlot : byId().get(now.id);
      if (!was || was === now) continue;
      const figures = tally.get(now.id)!;
      if (!isDown(was, track) && isDown(now, track)) figures.down = true;
      else if (was.status !== 'removed' && now.status === 'removed' && !isDown(now, track)) {
        const leavers = this.left.get(round) ?? new Map<string, string>();
        leavers.set(now.id, leftWords(now));
        this.left.set(round, leavers);
      }
      const from = trackValue(was, track);
      const to = trackValue(now, track);
      if (from === null || to === null || from === to) continue;
      const harm = track.measure === 'loads' ? to - from : from - to;
      if (harm < 0) {
        if (!ending) figures.healed += -harm;
        continue;
      }
      figures.taken += harm;
      let source = actor;
      if (source === now.id && answersPrompt) source = recentActors.findLast((a) => a.round === round && a.id !== now.id)?.id ?? null;
      if (source && source !== now.id && (byId().has(source) || view.order.some((c) => c.id === source))) tally.get(source)!.dealt += harm;
    }
    for (const line of lines) if (line.actorId) recentActors.push({ round: line.round, id: line.actorId });
  }

  /**
   * The summary and the view after the events so far (copies: the fold goes on unchanged). A recorded fold has not
   * stepped the machine: `finalView` is the view after its last event.
   */
  result(finalView?: EncounterView): EncounterReplay {
    if (this.recorded && !finalView) throw new Error('A fold of stored roster changes needs the final view.');
    const summary: RoundSummary[] = [];
    const numbers = [...this.rounds.keys()];
    if (numbers.length) {
      const first = Math.min(...numbers);
      const last = Math.max(...numbers);
      let atEnd: EncounterRoster | undefined;
      for (let round = first; round <= last; round += 1) {
        atEnd = this.finals.get(round) ?? atEnd;
        // A round without events of its own shows the roster the round before ended with, every figure at zero.
        const tally = addMissing(new Map(this.rounds.get(round)), atEnd!);
        const combatants: RoundFigures[] = [];
        const ordered = [...atEnd!.order.map((c) => c.id), ...[...tally.keys()].filter((id) => !atEnd!.order.some((c) => c.id === id))];
        for (const id of ordered) {
          const figures = tally.get(id)!;
          const shown = atEnd!.order.find((c) => c.id === id);
          const leaving = this.left.get(round)?.get(id);
          const statuses = shown ? [...shown.tags] : [...figures.statuses];
          if (leaving && !statuses.includes(leaving)) statuses.push(leaving);
          combatants.push(shown ? { ...figures, name: shown.name, side: shown.sideLabel, statuses } : { ...figures, statuses });
        }
        summary.push({ round, measure: this.track.measure, combatants });
      }
    }
    return { summary, view: finalView ?? this.engine.view() };
  }
}

/** The per-round summary alone. */
export function summarize(rules: EncounterRules, input: EncounterInput, steps: readonly ReplayStep[]): RoundSummary[] {
  return replayEncounter(rules, input, steps).summary;
}

/** Column headings of a summary table, in the words of its measure. */
export function measureWords(measure: RoundSummary['measure']): { dealt: string; taken: string; healed: string; chart: string } {
  return measure === 'loads'
    ? { dealt: 'Loads dealt', taken: 'Loads taken', healed: 'Loads shed', chart: 'Loads taken per round' }
    : { dealt: 'Damage dealt', taken: 'Damage taken', healed: 'Healed', chart: 'Damage taken per round' };
}

/** One combatant's figures over the whole fight, with the rounds in which it went down. */
export interface FightTotals extends Omit<RoundFigures, 'statuses' | 'down'> {
  downInRounds: number[];
}

/** Sums the rounds per combatant, in the order they first appear in the summary. */
export function totalsOf(summary: readonly RoundSummary[]): FightTotals[] {
  const totals = new Map<string, FightTotals>();
  for (const { round, combatants } of summary) {
    for (const c of combatants) {
      const total = totals.get(c.id) ?? { id: c.id, name: c.name, side: c.side, dealt: 0, taken: 0, healed: 0, downInRounds: [] };
      total.name = c.name;
      total.side = c.side;
      total.dealt += c.dealt;
      total.taken += c.taken;
      total.healed += c.healed;
      if (c.down) total.downInRounds.push(round);
      totals.set(c.id, total);
    }
  }
  return [...totals.values()];
}
