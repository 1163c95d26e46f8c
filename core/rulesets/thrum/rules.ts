// Thrum's encounter bookkeeping as pure functions (RULES.md §5.2): combatants and their loads, initiative (2d6 +
// modifier, descending, ties by R-H1), Round Zero, Delay (once per round, permanent, R-H3), removals (R-H4), late
// arrivals and the end condition. The machine calls these; refusal sentences come from the same checks.
import * as roster from '../../encounter/roster.ts';
import { nameOf, type RosterSpec } from '../../encounter/roster.ts';
import type { CombatantSeed, EncounterInput } from '../../encounter/types.ts';
import type { OptionValues } from '../options.ts';
import { emptyBoard, type Board, type Square } from './grid.ts';
import { counted } from '../../words.ts';
import { rulingsOf, type ThrumRulings } from './options.ts';
import { eachCombatant, withCombatant } from '../../encounter/combatant-table.ts';

export type Side = 'party' | 'foes';
export const SIDES: readonly { key: Side; label: string }[] = [
  { key: 'party', label: 'Party' },
  { key: 'foes', label: 'Foes' },
];

/** A roll inside an event: the faces (rolled by the app or read off physical dice). */
export interface Roll {
  faces: number[];
  source: 'app' | 'manual';
}

export interface Status {
  stacks: number;
  /** Loses a stack at the end of the bearer's turns (R-H15). */
  ticks: boolean;
}

/** What a party member brings from the campaign: tolerances lowered in earlier fights and wounds (§5.6). */
export interface ThrumCarried {
  fatigueTolerance?: number;
  stressTolerance?: number;
  wounds?: number;
  stillIncapacitated?: boolean;
  outOfAction?: boolean;
}

export interface ThrumCombatant {
  id: string;
  name: string;
  side: Side;
  /** A player character (added on the party side); only PCs carry their condition back (§5.6). */
  pc: boolean;
  characterId: string | null;
  sheet: Record<string, string | number | boolean>;
  resilience: number;
  evasion: number;
  resolve: number;
  /** A Basic Attack rolls the highest Art modifier (§5.4 step 4). */
  highestArt: number;
  initiativeModifier: number;
  speed: number;
  /** 2d6 + modifier; null until rolled. */
  initiative: { faces: number[]; total: number } | null;
  position: Square | null;
  stance: string | null;
  fatigueLoad: number;
  stressLoad: number;
  fatigueTolerance: number;
  stressTolerance: number;
  baseFatigueTolerance: number;
  baseStressTolerance: number;
  /** Wounds carried in plus those taken here. */
  wounds: number;
  /** Wounds taken in this encounter, each with the round it came in (recorded on the campaign as it happens). */
  woundsHere: { n: number; round: number }[];
  incapacitated: boolean;
  statuses: Record<string, Status>;
  /** The one buff it benefits from, and who created it (§5.3 Buffs). */
  buff: { name: string; fromId: string } | null;
  /** The one Terrain Effect it has placed (§5.3). */
  terrainEffect: string | null;
  /** R-H3: Delay is allowed once per round. */
  delayedThisRound: boolean;
  /** Has delayed in some round: its slot is no longer where its initiative put it (the runner shows it). */
  hasDelayed: boolean;
  /** Out of the order: removed by the GM, or by three Wounds (§5.5). */
  removed: { reason: string; round: number; kind: 'removed' | 'wounds' } | null;
}

/** What the active combatant has done in its turn (§5.2 rule 4, §5.3). */
export interface TurnState {
  /** Squares of movement spent. */
  moved: number;
  /** Movement is closed: the Action was taken (unless it allows moving on) or the movement was cut short. */
  movementClosed: boolean;
  acted: boolean;
  stanceTaken: boolean;
  /** Something happened in this turn (a Delay is only allowed before anything happens, R-H3). */
  begun: boolean;
}

/** A decision that needs a person or a roll; the top of the stack blocks everything else (§6.8). */
export type Frame =
  | { kind: 'attack'; attack: PendingAttack }
  | { kind: 'trigger'; ownerId: string; trigger: string; effect: string }
  | { kind: 'roll'; roll: 'panic' | 'incapacity'; id: string; reason: 'startOfTurn' | 'afterAction' | 'finisher' }
  | { kind: 'buff'; targetId: string; fromId: string; name: string };

export type DefenceKind = 'resilience' | 'evasion' | 'resolve' | 'alternative';
export type Tier = 'critical' | 'success' | 'failure';

export interface AttackTarget {
  targetId: string;
  /** Cover on this target: computed from the board, or given by the GM without one. */
  cover: boolean;
  defence: DefenceKind | null;
  tier: Tier | null;
  /** R-H16 off: an Incapacitated target does not defend and takes the effect. */
  undefended: boolean;
}

export interface PendingAttack {
  attackerId: string;
  ability: string;
  attackType: 'physical' | 'mental';
  artModifier: number;
  ranged: boolean;
  finisher: boolean;
  fatigue: number;
  stress: number;
  statuses: { status: string; stacks: number }[];
  extraBoons: number;
  extraBanes: number;
  adjacentEnemies: number;
  targets: AttackTarget[];
  /** Index of the target deciding now. */
  current: number;
  /** A triggered effect (stance trigger) rather than the turn's Action. */
  triggered: boolean;
}

/** A Win or Defeat Condition the GM set in prep (§5.2 rule 1); marked met by the GM during the rounds. */
export interface CombatCondition {
  kind: 'win' | 'defeat';
  text: string;
  met: boolean;
}

export interface ThrumContext {
  options: OptionValues;
  /** "A specified Win Condition or Defeat Condition is met" ends the combat (§5.2 rule 1). */
  conditions: CombatCondition[];
  combatants: Record<string, ThrumCombatant>;
  /** Every combatant id in the order it was added. */
  roster: string[];
  board: Board | null;
  /** Initiative order, descending; Delay edits it permanently (§5.2 rules 2–3). */
  order: string[];
  cursor: number;
  /** 0 = Round Zero (and before it); 1+ = rounds. */
  round: number;
  /** R-H1: ids the GM put first among fully tied combatants, in the order chosen. */
  tieOrder: string[];
  turn: TurnState;
  /** The action being resolved: when it and its triggers are done, the end check and the post-action roll run. */
  action: { actorId: string; removesExhaustion: boolean } | null;
  /** Pending decisions, last = top (LIFO, §5.2 rule 6). */
  stack: Frame[];
  outcome: string | null;
  /** Set when combat ends: the combatants just before the end's reset, for the log line of the event that ended it. */
  closedFrom?: Record<string, ThrumCombatant>;
}

export const freshTurn = (): TurnState => ({ moved: 0, movementClosed: false, acted: false, stanceTaken: false, begun: false });

export function initialContext(input: EncounterInput): ThrumContext {
  return {
    options: input.options,
    conditions: [],
    combatants: {},
    roster: [],
    board: null,
    order: [],
    cursor: 0,
    round: 0,
    tieOrder: [],
    turn: freshTurn(),
    action: null,
    stack: [],
    outcome: null,
  };
}

const num = (sheet: CombatantSeed['sheet'], key: string, fallback: number): number => {
  const value = sheet[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
};

export function combatantFromSeed(seed: CombatantSeed): ThrumCombatant {
  const carried = (seed.carried ?? {}) as ThrumCarried;
  const baseFatigue = num(seed.sheet, 'baseFatigueTolerance', 5);
  const baseStress = num(seed.sheet, 'baseStressTolerance', 5);
  return {
    id: seed.id,
    name: seed.name,
    side: seed.side as Side,
    pc: seed.side === 'party',
    characterId: seed.characterId,
    sheet: seed.sheet,
    resilience: num(seed.sheet, 'resilience', 0),
    evasion: num(seed.sheet, 'evasion', 0),
    resolve: num(seed.sheet, 'resolve', 0),
    highestArt: num(seed.sheet, 'highestArtModifier', 0),
    initiativeModifier: num(seed.sheet, 'initiativeModifier', 0),
    speed: num(seed.sheet, 'speed', 5),
    initiative: null,
    position: null,
    stance: null,
    fatigueLoad: 0,
    stressLoad: 0,
    fatigueTolerance: carried.fatigueTolerance ?? num(seed.sheet, 'fatigueTolerance', baseFatigue),
    stressTolerance: carried.stressTolerance ?? num(seed.sheet, 'stressTolerance', baseStress),
    baseFatigueTolerance: baseFatigue,
    baseStressTolerance: baseStress,
    wounds: carried.wounds ?? num(seed.sheet, 'wounds', 0),
    woundsHere: [],
    incapacitated: false,
    statuses: {},
    buff: null,
    terrainEffect: null,
    delayedThisRound: false,
    hasDelayed: false,
    removed: null,
  };
}

export const activeId = (ctx: ThrumContext): string | null => ctx.order[ctx.cursor] ?? null;
export const inFight = (c: ThrumCombatant | undefined): c is ThrumCombatant => c !== undefined && c.removed === null;

// ---- derived statuses (computed, never stored: §5.5) ----

/** Frayed: Stress Load strictly above Stress Tolerance. */
export const isFrayed = (c: ThrumCombatant): boolean => c.stressLoad > c.stressTolerance;
/** Exhausted: Fatigue Load strictly above Fatigue Tolerance. */
export const isExhausted = (c: ThrumCombatant): boolean => c.fatigueLoad > c.fatigueTolerance;
export const stacksOf = (c: ThrumCombatant, status: string): number => c.statuses[status]?.stacks ?? 0;

// ---- initiative (§5.2 rule 1–2, R-H1) ----

export function initiativeTotal(c: ThrumCombatant, roll: Roll): number {
  return roll.faces.reduce((a, b) => a + b, 0) + c.initiativeModifier;
}

export function rollProblem(roll: Roll | null | undefined, what: string): string | null {
  if (!roll || roll.faces.length === 0) return `${what} needs 2d6.`;
  if (roll.faces.length !== 2) return `${what} is 2d6: ${counted(roll.faces.length, 'die', 'dice')} given.`;
  const bad = roll.faces.find((f) => !Number.isInteger(f) || f < 1 || f > 6);
  return bad === undefined ? null : `${bad} is not a face of a d6.`;
}

/** Descending total, then (R-H1) the higher modifier, then PCs before NPCs; the GM breaks what is left. */
function compareInitiative(ctx: ThrumContext, a: ThrumCombatant, b: ThrumCombatant): number {
  const ia = a.initiative?.total ?? -Infinity;
  const ib = b.initiative?.total ?? -Infinity;
  if (ia !== ib) return ib - ia;
  const mode = rulingsOf(ctx.options).initiativeTies;
  if (mode !== 'gmChooses' && a.initiativeModifier !== b.initiativeModifier) return b.initiativeModifier - a.initiativeModifier;
  if (mode === 'modifierThenPcs' && a.pc !== b.pc) return a.pc ? -1 : 1;
  return 0;
}

/**
 * What compareInitiative looks at, as one key: two combatants compare equal exactly when their keys are equal (the
 * same total, and the modifier and PC-ness where the R-H1 mode uses them); null for a total or modifier that is not a
 * number, which equals nothing.
 */
function tieKey(mode: InitiativeTies, c: ThrumCombatant): string | null {
  const total = c.initiative?.total ?? -Infinity;
  if (Number.isNaN(total) || (mode !== 'gmChooses' && Number.isNaN(c.initiativeModifier))) return null;
  let key = String(total);
  if (mode !== 'gmChooses') key += `|${c.initiativeModifier}`;
  if (mode === 'modifierThenPcs') key += `|${c.pc}`;
  return key;
}

/** R-H1's reading. */
type InitiativeTies = ThrumRulings['initiativeTies'];

interface Ties {
  roster: string[];
  mode: InitiativeTies;
  groups: string[][];
  /** openTie for one tieOrder (the GM's choices so far). */
  open?: { tieOrder: string[]; tie: string[] | null };
}

/** Per combatants record (replaced, never changed in place, on every change): the tied groups of the initiative. */
const tiesMemo = new WeakMap<ThrumContext['combatants'], Ties>();

function ties(ctx: ThrumContext): Ties {
  const mode = rulingsOf(ctx.options).initiativeTies;
  const known = tiesMemo.get(ctx.combatants);
  if (known && known.roster === ctx.roster && known.mode === mode) return known;
  // compareInitiative is zero exactly on equal keys, so one pass groups the rolled combatants in roster order.
  const byKey = new Map<string, string[]>();
  const all: string[][] = [];
  for (const id of ctx.roster) {
    const c = ctx.combatants[id]!;
    if (!inFight(c) || c.initiative === null) continue;
    const key = tieKey(mode, c);
    const group = key === null ? undefined : byKey.get(key);
    if (group) group.push(c.id);
    else {
      const fresh = [c.id];
      all.push(fresh);
      if (key !== null) byKey.set(key, fresh);
    }
  }
  const entry: Ties = { roster: ctx.roster, mode, groups: all.filter((g) => g.length > 1) };
  tiesMemo.set(ctx.combatants, entry);
  return entry;
}

/** Groups of combatants the rules cannot separate (R-H1: "the GM chooses"), with those already placed by the GM. */
export function tiedGroups(ctx: ThrumContext): string[][] {
  return ties(ctx).groups.map((group) => [...group]);
}

/** The first tie the GM still has to break: the members not yet put first, when two or more remain. */
export function openTie(ctx: ThrumContext): string[] | null {
  const entry = ties(ctx);
  if (entry.open?.tieOrder !== ctx.tieOrder) {
    const placed = new Set(ctx.tieOrder);
    let tie: string[] | null = null;
    for (const group of entry.groups) {
      const left = group.filter((id) => !placed.has(id));
      if (left.length > 1) {
        tie = left;
        break;
      }
    }
    entry.open = { tieOrder: ctx.tieOrder, tie };
  }
  return entry.open.tie ? [...entry.open.tie] : null;
}

/** The initiative order: sorted by the rules, the GM's tie choices first within a tie, then the roster order. */
export function initiativeOrder(ctx: ThrumContext): string[] {
  const rank = (id: string) => {
    const i = ctx.tieOrder.indexOf(id);
    return i === -1 ? ctx.tieOrder.length + ctx.roster.indexOf(id) : i;
  };
  return ctx.roster
    .map((id) => ctx.combatants[id]!)
    .filter((c) => inFight(c) && c.initiative !== null)
    .sort((a, b) => compareInitiative(ctx, a, b) || rank(a.id) - rank(b.id))
    .map((c) => c.id);
}

export const unrolled = (ctx: ThrumContext): string[] => ctx.roster.filter((id) => inFight(ctx.combatants[id]) && ctx.combatants[id]!.initiative === null);

export function rollInitiative(ctx: ThrumContext, id: string, roll: Roll): ThrumContext {
  const c = ctx.combatants[id]!;
  return roster.update(ctx, id, { initiative: { faces: roll.faces, total: initiativeTotal(c, roll) } });
}

/** Everyone has rolled and no tie waits for the GM: the order is set and Round Zero opens. */
export const initiativeSettled = (ctx: ThrumContext): boolean =>
  !ctx.roster.some((id) => inFight(ctx.combatants[id]) && ctx.combatants[id]!.initiative === null) && openTie(ctx) === null;

export function settleOrder(ctx: ThrumContext): ThrumContext {
  return { ...ctx, order: initiativeOrder(ctx), cursor: 0, round: 0, turn: freshTurn() };
}

// ---- rounds and Delay (§5.2 rule 3, R-H3) ----

export const hasSlotAtCursor = (ctx: ThrumContext): boolean => ctx.cursor < ctx.order.length;

export function openRound(ctx: ThrumContext): ThrumContext {
  const combatants = eachCombatant(ctx.combatants, (c) => ({ ...c, delayedThisRound: false }));
  return { ...ctx, combatants, round: ctx.round + 1, cursor: 0, turn: freshTurn() };
}

/** Round Zero's own pass starts the order over without counting a round. */
export function restartOrder(ctx: ThrumContext): ThrumContext {
  return { ...ctx, cursor: 0, turn: freshTurn() };
}

export function checkDelay(ctx: ThrumContext, id: string, afterId: string | null): string | null {
  const c = ctx.combatants[id];
  if (!inFight(c)) return 'That combatant is not in the fight.';
  if (activeId(ctx) !== id) return `Only the combatant whose turn is starting can Delay; it is ${nameOf(ctx, activeId(ctx))}'s turn.`;
  if (c.delayedThisRound) return `${c.name} has already delayed this round and must act now (R-H3).`;
  if (ctx.turn.begun) return `${c.name}'s turn has already begun: Delay is declared before start-of-turn effects (R-H3).`;
  if (afterId === null) return ctx.cursor === ctx.order.length - 1 ? `${c.name} is already last in the order.` : null;
  if (afterId === id) return `${c.name} cannot delay until after themself.`;
  const index = ctx.order.indexOf(afterId);
  if (index === -1) return `${nameOf(ctx, afterId)} is not in the initiative order.`;
  if (index <= ctx.cursor) return `${nameOf(ctx, afterId)} has already acted this round: delay to someone still to act, or to the end of the round (R-H3).`;
  return null;
}

/** The delayed combatant moves to just after `afterId` (or the end of the round) for the rest of the combat. */
export function delay(ctx: ThrumContext, id: string, afterId: string | null): ThrumContext {
  const without = ctx.order.filter((x) => x !== id);
  const at = afterId === null ? without.length : without.indexOf(afterId) + 1;
  const order = [...without.slice(0, at), id, ...without.slice(at)];
  return roster.update({ ...ctx, order, turn: freshTurn() }, id, { delayedThisRound: true, hasDelayed: true });
}

// ---- removal and late arrivals (R-H4) ----

/** R-H4: a removed combatant leaves the order; everyone after it slides up and the cursor keeps its turn position. */
export function removeCombatant(ctx: ThrumContext, id: string, reason: string, kind: 'removed' | 'wounds' = 'removed'): ThrumContext {
  const combatant = ctx.combatants[id]!;
  const { order, cursor, index } = roster.leaveOrder(ctx.order, ctx.cursor, id);
  const stack = ctx.stack.filter((f) => !(f.kind === 'roll' && f.id === id) && !(f.kind === 'buff' && f.targetId === id) && !(f.kind === 'trigger' && f.ownerId === id));
  const turn = index === ctx.cursor ? freshTurn() : ctx.turn;
  return {
    ...ctx,
    order,
    cursor,
    stack,
    turn,
    combatants: withCombatant(ctx.combatants, id, { ...combatant, removed: { reason, round: ctx.round, kind }, stance: null }),
  };
}



/**
 * A late arrival rolls initiative as it joins and takes its place in the order by that roll (or where the GM puts
 * it): ahead of the cursor it acts this round, behind it from the next round. Before the order is set it simply
 * joins the initiative roll.
 */
export function addLateCombatant(ctx: ThrumContext, seed: CombatantSeed, roll: Roll | null | undefined, position: number | null | undefined, orderSet: boolean): ThrumContext {
  let next = roster.addSeeds(ROSTER, ctx, [seed]);
  if (roll) next = rollInitiative(next, seed.id, roll);
  if (!orderSet) return next;
  const newcomer = next.combatants[seed.id]!;
  let at: number;
  if (position !== null && position !== undefined) at = Math.max(0, Math.min(position, next.order.length));
  else {
    const later = next.order.findIndex((id) => compareInitiative(next, newcomer, next.combatants[id]!) < 0);
    at = later === -1 ? next.order.length : later;
  }
  const order = [...next.order.slice(0, at), seed.id, ...next.order.slice(at)];
  const cursor = at <= next.cursor && next.order.length > 0 ? next.cursor + 1 : next.cursor;
  return { ...next, order, cursor };
}

export function setSide(ctx: ThrumContext, id: string, side: Side): ThrumContext {
  return roster.update(ctx, id, { side });
}

export function setBoard(ctx: ThrumContext, board: Board | null): ThrumContext {
  return { ...ctx, board };
}

export function place(ctx: ThrumContext, id: string, square: Square | null): ThrumContext {
  return roster.update(ctx, id, { position: square });
}

// ---- end of combat (§5.2 rule 1, THRUM-22) ----

const down = (c: ThrumCombatant) => c.removed !== null || c.incapacitated;

/** All of one side incapacitated or removed: the fight is over (checked after every action and trigger). */
export function endCondition(ctx: ThrumContext): string | null {
  if (ctx.round < 1) return null;
  // source: the rounds repeat until "A specified Win Condition or Defeat Condition is met".
  const met = (ctx.conditions ?? []).find((c) => c.met);
  if (met) return `${conditionLabel(met)} met: ${met.text.replace(/\.$/, '')}.`;
  const all = ctx.roster.map((id) => ctx.combatants[id]!);
  const party = all.filter((c) => c.side === 'party');
  const foes = all.filter((c) => c.side === 'foes');
  if (party.length > 0 && party.every(down)) return 'Every member of the party is incapacitated or removed.';
  // source: "All PCs are incapacitated or removed from combat": an allied NPC still standing does not go on alone.
  const pcs = party.filter((c) => c.pc);
  if (pcs.length > 0 && pcs.every(down)) return 'Every PC is incapacitated or removed.';
  if (foes.length > 0 && foes.every(down)) return 'Every foe is incapacitated or removed.';
  return null;
}

export const conditionLabel = (c: CombatCondition): string => (c.kind === 'win' ? 'Win Condition' : 'Defeat Condition');

export function addCondition(ctx: ThrumContext, kind: CombatCondition['kind'], text: string): ThrumContext {
  return { ...ctx, conditions: [...(ctx.conditions ?? []), { kind, text: text.trim(), met: false }] };
}

/** The GM marks condition n (1-based) met; the end check ends the fight once nothing is pending. */
export function markConditionMet(ctx: ThrumContext, n: number): ThrumContext {
  return { ...ctx, conditions: (ctx.conditions ?? []).map((c, i) => (i === n - 1 ? { ...c, met: true } : c)) };
}

export function checkConditionMet(ctx: ThrumContext, n: number): string | null {
  const conditions = ctx.conditions ?? [];
  if (conditions.length === 0) return 'This encounter has no Win or Defeat Condition: set them in prep, or end the combat with an outcome.';
  const condition = conditions[n - 1];
  if (!condition) return `There ${conditions.length === 1 ? 'is one condition' : `are ${conditions.length} conditions`}: choose 1${conditions.length === 1 ? '' : `–${conditions.length}`}.`;
  if (condition.met) return `The ${conditionLabel(condition)} "${condition.text}" is already met.`;
  if (ctx.round < 1) return 'Win and Defeat Conditions are checked from round 1.';
  return null;
}

// ---- checks: a sentence when the rules refuse, null when allowed ----

/** The shared roster rules (core/encounter/roster.ts) with Thrum's sides and the seeds it refuses. */
export const ROSTER: RosterSpec<ThrumContext, ThrumCombatant> = {
  max: 300,
  sideProblem: (_ctx, seed) => (seed.side === 'party' || seed.side === 'foes' ? null : `${seed.name} must join the party or the foes.`),
  seedProblem: (_ctx, seed) => {
    const carried = (seed.carried ?? {}) as ThrumCarried;
    const wounds = carried.wounds ?? Number(seed.sheet['wounds'] ?? 0);
    if (carried.outOfAction || wounds >= 3) return `${seed.name} has three Wounds and cannot take part in normal campaign activity (§5.5).`;
    if (carried.stillIncapacitated || seed.sheet['stillIncapacitated'] === true) {
      return `${seed.name} is still Incapacitated from an earlier fight (Fatigue Tolerance 0) until Downtime restores some (R-H9).`;
    }
    return null;
  },
  fromSeed: (_ctx, seed) => combatantFromSeed(seed),
  hasLeft: (c) => c.removed !== null,
};

export const checkStart = (ctx: ThrumContext): string | null =>
  roster.checkSidesPresent(ctx, [{ key: 'party', noun: 'party member' }, { key: 'foes', noun: 'foe' }]);

export { emptyBoard };

// ---- the stack of pending decisions ----

export const replaceTop = (ctx: ThrumContext, frame: Frame): ThrumContext => ({ ...ctx, stack: [...ctx.stack.slice(0, -1), frame] });
export const push = (ctx: ThrumContext, ...frames: Frame[]): ThrumContext => ({ ...ctx, stack: [...ctx.stack, ...frames] });
export const pop = (ctx: ThrumContext): ThrumContext => ({ ...ctx, stack: ctx.stack.slice(0, -1) });
