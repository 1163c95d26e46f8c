// Enigma's order of battle and encounter bookkeeping as pure functions (RULES.md §1.2).
// The machine calls these; the refusal sentences come from the same checks so the UI and the rules never disagree.
import * as roster from '../../encounter/roster.ts';
import type { RosterSpec } from '../../encounter/roster.ts';
import type { AddCombatantsEvent, AddLateCombatantEvent, EndCombatEvent, RemoveCombatantEvent } from '../../encounter/roster-machine.ts';
import type { CombatantSeed, EncounterInput, GmEvent } from '../../encounter/types.ts';
import type { OptionValues } from '../options.ts';
import { injuryEffects, maxLp, type Injury } from './injuries.ts';
import { CAPACITIES, type Capacity } from './sheet.ts';
import type { CombatEvent } from './combat.ts';
import { rulingsOf } from './options.ts';
import { withCombatant } from '../../encounter/combatant-table.ts';

export type Side = 'party' | 'gm';
export const SIDES: readonly { key: Side; label: string }[] = [
  { key: 'party', label: 'Party' },
  { key: 'gm', label: 'GM' },
];

export type Dice = Record<Capacity, number>;
export type HealingRestriction = 'fixesOnly' | null;

/** What a combatant brings from the campaign: its condition after earlier fights and its running injuries. */
export interface EnigmaCarried {
  lp?: number;
  dice?: Partial<Dice>;
  injuries?: Injury[];
  healingRestriction?: HealingRestriction;
}

export interface EnigmaCombatant {
  id: string;
  name: string;
  side: Side;
  characterId: string | null;
  sheet: Record<string, string | number | boolean>;
  /** Base capacity dice from the sheet. */
  base: Dice;
  /** Current capacity dice (a die can be diminished below its base). */
  dice: Dice;
  lp: number;
  /** Injuries running on this combatant: carried in, and gained in this encounter (`gainedHere`). */
  injuries: (Injury & { gainedHere?: boolean })[];
  healingRestriction: HealingRestriction;
  /** Actions owed to reactions taken since its last turn (R-E6). */
  reactionDebt: number;
  /** Observers this combatant is hidden from (per observer, §1.4 step 9). */
  hiddenFrom: string[];
  /** R-E5: alive but unable to act keeps its slot and is skipped. */
  canAct: boolean;
  /** Survives chosen in this encounter: n for injury durations (R-E25). */
  survivals: number;
  /** Set when the creature leaves the order (R-E3); it stays listed for the log. */
  removed: { reason: string; round: number; kind: 'removed' | 'dead' | 'defeated' } | null;
  /** Sacrifice: the legacy text. */
  legacy: string | null;
}

export interface EnigmaContext {
  options: OptionValues;
  combatants: Record<string, EnigmaCombatant>;
  /** Every combatant id in the order it was added. */
  roster: string[];
  /** Fixed by the players before round 1 (§1.2 rule 1). */
  partyOrder: string[];
  /** R-E1: the NPC order given up front, or null to pick at each GM slot. */
  gmOrder: string[] | null;
  firstSide: Side;
  /** The order of battle: built in round 1, replayed every later round (rule 5). */
  order: string[];
  /** True once round 1 is complete: the order is frozen. */
  frozen: boolean;
  /** Index of the active slot in `order`. */
  cursor: number;
  round: number;
  escalation: number;
  /** R-E20: the party's escalation carried in from the campaign; null after a reset. */
  carriedEscalation: number | null;
  /** Side of the slot placed last in round 1, for the alternation (rule 3). */
  lastPlacedSide: Side | null;
  outcome: string | null;
  /** Actions left to the active combatant this turn (two minus the debt it carried in). */
  actionsLeft: number;
  /** PCs at 0 LP waiting for Sacrifice or Survive, in order-of-battle order (R-E9). Blocks everything else. */
  pendingPeril: string[];
}

export type EnigmaEvent =
  | CombatEvent
  | AddCombatantsEvent
  | RemoveCombatantEvent
  | { type: 'SET_PARTY_ORDER'; ids: string[] }
  | { type: 'SET_GM_ORDER'; ids: string[] | null }
  | { type: 'SET_FIRST_SIDE'; side: Side }
  | { type: 'START' }
  | { type: 'CHOOSE_NPC'; combatantId: string }
  | { type: 'END_TURN' }
  | { type: 'RAISE_ESCALATION'; by: number; source: string }
  | AddLateCombatantEvent
  | EndCombatEvent;

export const other = (side: Side): Side => (side === 'party' ? 'gm' : 'party');

export function initialContext(input: EncounterInput): EnigmaContext {
  return {
    options: input.options,
    combatants: {},
    roster: [],
    partyOrder: [],
    gmOrder: null,
    firstSide: 'party',
    order: [],
    frozen: false,
    cursor: 0,
    round: 0,
    escalation: 0,
    carriedEscalation: input.carried['escalation'] ?? null,
    lastPlacedSide: null,
    outcome: null,
    actionsLeft: 0,
    pendingPeril: [],
  };
}

function sheetDice(sheet: CombatantSeed['sheet']): Dice {
  return Object.fromEntries(CAPACITIES.map((c) => [c, Number(sheet[c] ?? 8)])) as Dice;
}

export function combatantFromSeed(seed: CombatantSeed, ctx: Pick<EnigmaContext, 'options'>): EnigmaCombatant {
  const carried = (seed.carried ?? {}) as EnigmaCarried;
  const base = sheetDice(seed.sheet);
  const dice = { ...base, ...carried.dice };
  const combatant: EnigmaCombatant = {
    id: seed.id,
    name: seed.name,
    side: seed.side as Side,
    characterId: seed.characterId,
    sheet: seed.sheet,
    base,
    dice,
    lp: 0,
    injuries: (carried.injuries ?? []).map((injury) => ({ ...injury })),
    healingRestriction: carried.healingRestriction ?? null,
    reactionDebt: 0,
    hiddenFrom: [],
    canAct: true,
    survivals: 0,
    removed: null,
    legacy: null,
  };
  const max = lpMaxOf(combatant, ctx.options);
  return { ...combatant, lp: Math.min(carried.lp ?? max, max) };
}

/** Max LP now: the base Endure die less injury reductions (R-E21). Derived, never stored. */
export function lpMaxOf(c: EnigmaCombatant, options: OptionValues): number {
  return maxLp(c.base.endure, c.dice.endure, injuryEffects(c.injuries, Boolean(c.sheet['armoured']), options), options);
}

const living = (ctx: EnigmaContext, id: string): boolean => {
  const c = ctx.combatants[id];
  return c !== undefined && c.removed === null;
};

export const nameOf: (ctx: EnigmaContext, id: string | null | undefined) => string = roster.nameOf;

/** The NPC order used for placement: the up-front order, else the order they were added (R-E1). */
function gmSequence(ctx: EnigmaContext): string[] {
  return ctx.gmOrder ?? ctx.roster.filter((id) => ctx.combatants[id]?.side === 'gm');
}

/**
 * Each side's round-1 list of those not yet placed, per context: a step's guards, its actions and the view after
 * it ask for it a dozen times, and a 200-combatant round 1 builds it from 200 ids. Sound because a context is
 * never changed in place (core/encounter/kernel.test.ts holds every ruleset to it); the lists are frozen.
 */
const unplacedOf = new WeakMap<EnigmaContext, { party?: readonly string[]; gm?: readonly string[] }>();

/** Living members of a side not yet placed in round 1, in their side's order. */
export function unplaced(ctx: EnigmaContext, side: Side): readonly string[] {
  if (ctx.frozen) return [];
  let known = unplacedOf.get(ctx);
  if (!known) unplacedOf.set(ctx, (known = {}));
  let list = known[side];
  if (!list) {
    // A set, not order.includes: a 200-combatant round 1 made it quadratic.
    const placed = new Set(ctx.order);
    const sequence = side === 'party' ? ctx.partyOrder : gmSequence(ctx);
    known[side] = list = Object.freeze(sequence.filter((id) => !placed.has(id) && living(ctx, id)));
  }
  return list;
}

/** Whether a side still has someone to place. */
const hasUnplaced = (ctx: EnigmaContext, side: Side): boolean => unplaced(ctx, side).length > 0;

/** Which side owns the next round-1 slot (rules 2–4), or null when everyone is placed. */
export function nextSlotSide(ctx: EnigmaContext): Side | null {
  const preferred = ctx.lastPlacedSide === null ? ctx.firstSide : other(ctx.lastPlacedSide);
  if (hasUnplaced(ctx, preferred)) return preferred;
  if (hasUnplaced(ctx, other(preferred))) return other(preferred);
  return null;
}

// ---- selection (what the `selecting` state decides) ----

export const hasSlotAtCursor = (ctx: EnigmaContext): boolean => ctx.cursor < ctx.order.length;

/** Round 1, next slot is the party's, or the GM's with a known next NPC (up-front order, or a single choice). */
export function nextPlacement(ctx: EnigmaContext): string | null {
  const side = nextSlotSide(ctx);
  if (side === null) return null;
  const candidates = unplaced(ctx, side);
  if (side === 'party') return candidates[0] ?? null;
  const upFront = ctx.gmOrder !== null && rulingsOf(ctx.options).npcChoice !== 'slotBySlot';
  if (upFront || candidates.length === 1) return candidates[0] ?? null;
  return null;
}

/**
 * The rest of round 1 as far as it is known: each future slot's side, and who fills it when that is already
 * decided (the party's order, or the GM's up-front order); null where the GM will pick at the slot.
 */
export function projectRoundOne(ctx: EnigmaContext): { side: Side; id: string | null }[] {
  if (ctx.frozen) return [];
  const pools = { party: unplaced(ctx, 'party'), gm: unplaced(ctx, 'gm') };
  // How many of each side's pool the projection has placed so far (the pools are shared: read, never shifted).
  const taken = { party: 0, gm: 0 };
  const left = (side: Side) => pools[side].length - taken[side];
  const gmKnown = ctx.gmOrder !== null && rulingsOf(ctx.options).npcChoice !== 'slotBySlot';
  const slots: { side: Side; id: string | null }[] = [];
  let last = ctx.lastPlacedSide;
  // Whether every slot projected so far names its combatant.
  let allNamed = true;
  while (left('party') + left('gm') > 0) {
    const preferred = last === null ? ctx.firstSide : other(last);
    const side = left(preferred) > 0 ? preferred : other(preferred);
    const next = pools[side][taken[side]++]!;
    const named: boolean = side === 'party' || gmKnown || (left('gm') === 0 && allNamed);
    slots.push({ side, id: named ? next : null });
    allNamed &&= named;
    last = side;
  }
  return slots;
}

export const awaitsNpcChoice = (ctx: EnigmaContext): boolean => nextSlotSide(ctx) === 'gm' && nextPlacement(ctx) === null;

export function place(ctx: EnigmaContext, id: string): EnigmaContext {
  const side = ctx.combatants[id]!.side;
  return { ...ctx, order: [...ctx.order, id], lastPlacedSide: side };
}

export const nobodyLeft = (ctx: EnigmaContext): boolean => ctx.order.length === 0 && nextSlotSide(ctx) === null;

/** Opens a round: round 1 takes the carried escalation (R-E20), later rounds add 1 (§1.4 Escalation). */
export function openRound(ctx: EnigmaContext): EnigmaContext {
  if (ctx.round === 0) {
    const carried = ctx.carriedEscalation;
    const mode = rulingsOf(ctx.options).escalationAtStart;
    let escalation = 1;
    if (mode === 'carry') escalation = carried ?? 1;
    else if (mode === 'carryPlusOne') escalation = carried === null ? 1 : carried + 1;
    return { ...ctx, round: 1, escalation, cursor: 0 };
  }
  return { ...ctx, round: ctx.round + 1, escalation: ctx.escalation + 1, cursor: 0, frozen: true };
}

export const activeId = (ctx: EnigmaContext): string | null => ctx.order[ctx.cursor] ?? null;

// ---- removal and late arrivals ----

/** R-E3: delete from the order, slide everyone after it up, keep the cursor on the same turn position. */
export function removeCombatant(ctx: EnigmaContext, id: string, reason: string, kind: 'removed' | 'dead' | 'defeated' = 'removed'): EnigmaContext {
  const combatant = ctx.combatants[id]!;
  const { order, cursor } = roster.leaveOrder(ctx.order, ctx.cursor, id);
  return {
    ...ctx,
    order,
    cursor,
    combatants: withCombatant(ctx.combatants, id, { ...combatant, removed: { reason, round: ctx.round, kind } }),
    pendingPeril: ctx.pendingPeril.filter((x) => x !== id),
  };
}

/**
 * The shared roster rules (core/encounter/roster.ts): the party and the GM side; a newcomer joins its side's order
 * (the GM order only once the GM set one up front); one taken off the roster in setup leaves no trace in them.
 */
export const ROSTER: RosterSpec<EnigmaContext, EnigmaCombatant> = {
  max: 500,
  sideProblem: (_ctx, seed) => (seed.side === 'party' || seed.side === 'gm' ? null : `${seed.name} must join the party or the GM side.`),
  fromSeed: (ctx, seed) => combatantFromSeed(seed, ctx),
  hasLeft: (c) => c.removed !== null,
  leftWhat: 'order',
  afterAdd: (ctx, seeds) => {
    const partyIds = seeds.filter((s) => s.side === 'party').map((s) => s.id);
    const gmIds = seeds.filter((s) => s.side === 'gm').map((s) => s.id);
    return { ...ctx, partyOrder: [...ctx.partyOrder, ...partyIds], gmOrder: ctx.gmOrder === null ? null : [...ctx.gmOrder, ...gmIds] };
  },
  afterDrop: (ctx, id) => ({
    ...ctx,
    partyOrder: ctx.partyOrder.filter((x) => x !== id),
    gmOrder: ctx.gmOrder === null ? null : ctx.gmOrder.filter((x) => x !== id),
  }),
};

/** Setup only: a combatant taken off the roster before combat leaves no trace in the order. */
export const dropFromRoster = (ctx: EnigmaContext, id: string): EnigmaContext => roster.dropFromRoster(ROSTER, ctx, id);

export const addCombatants = (ctx: EnigmaContext, seeds: CombatantSeed[]): EnigmaContext => roster.addSeeds(ROSTER, ctx, seeds);

/**
 * R-E4: before the order is frozen a newcomer joins its side's pool for round 1; afterwards it is appended
 * (or inserted where the GM says) and acts from the next time its slot comes up.
 */
export function addLateCombatant(ctx: EnigmaContext, seed: CombatantSeed, position: number | null | undefined): EnigmaContext {
  const withNewcomer = addCombatants(ctx, [seed]);
  if (!ctx.frozen) return withNewcomer;
  const at = position === null || position === undefined ? ctx.order.length : Math.max(0, Math.min(position, ctx.order.length));
  const order = [...ctx.order.slice(0, at), seed.id, ...ctx.order.slice(at)];
  const cursor = at <= ctx.cursor ? ctx.cursor + 1 : ctx.cursor;
  return { ...withNewcomer, order, cursor };
}

// ---- checks: a sentence when the rules refuse, null when allowed ----

export const checkAddCombatants = (ctx: EnigmaContext, seeds: CombatantSeed[]): string | null => roster.checkAdd(ROSTER, ctx, seeds);

export const checkRemove = (ctx: EnigmaContext, id: string): string | null => roster.checkRemove(ROSTER, ctx, id);

export function checkPartyOrder(ctx: EnigmaContext, ids: string[]): string | null {
  const pcs = ctx.roster.filter((id) => ctx.combatants[id]?.side === 'party');
  const isPermutation = ids.length === pcs.length && new Set(ids).size === ids.length && ids.every((id) => pcs.includes(id));
  return isPermutation ? null : 'The party order must list every party member exactly once.';
}

export function checkGmOrder(ctx: EnigmaContext, ids: string[] | null): string | null {
  if (ids === null) return null;
  if (rulingsOf(ctx.options).npcChoice === 'slotBySlot') return 'This campaign picks each enemy at its GM slot (R-E1): no order up front.';
  const npcs = ctx.roster.filter((id) => ctx.combatants[id]?.side === 'gm');
  const isPermutation = ids.length === npcs.length && new Set(ids).size === ids.length && ids.every((id) => npcs.includes(id));
  return isPermutation ? null : 'The GM order must list every GM creature exactly once.';
}

export const checkStart = (ctx: EnigmaContext): string | null =>
  roster.checkSidesPresent(ctx, [{ key: 'party', noun: 'party member' }, { key: 'gm', noun: 'GM creature' }]);

export function checkChooseNpc(ctx: EnigmaContext, id: string): string | null {
  if (!unplaced(ctx, 'gm').includes(id)) return `${nameOf(ctx, id)} is not an enemy waiting for a slot this round.`;
  return null;
}

export function checkRaiseEscalation(by: number): string | null {
  return Number.isInteger(by) && by >= 1 && by <= 10 ? null : 'Escalation rises by a whole number from 1 to 10.';
}

export function checkLateCombatant(ctx: EnigmaContext, seed: CombatantSeed, position?: number | null): string | null {
  // R-E4: with 'end' a late arrival always joins at the end of the order; only 'gmChooses' lets the GM place it.
  if (position !== null && position !== undefined && rulingsOf(ctx.options).lateArrivalPosition === 'end')
    return 'This campaign adds late arrivals at the end of the order (R-E4): no position can be chosen.';
  return checkAddCombatants(ctx, [seed]);
}

/** R-E2: "player characters take the first turn unless there is a story reason for the GM to go first, such as in the case of an ambush." Off: the party always goes first. */
export function checkFirstSide(ctx: EnigmaContext, side: Side): string | null {
  if (side === 'gm' && !rulingsOf(ctx.options).ambushStartsWithGm) return 'This campaign always lets the party take the first slot (R-E2): no ambush.';
  return null;
}

/** Every check for an event in the state it arrives in; the machine's guards use the same answers. */
export function eventRefusal(ctx: EnigmaContext, event: GmEvent & EnigmaEvent): string | null {
  switch (event.type) {
    case 'ADD_COMBATANTS': return checkAddCombatants(ctx, event.combatants);
    case 'REMOVE_COMBATANT': return checkRemove(ctx, event.combatantId);
    case 'SET_PARTY_ORDER': return checkPartyOrder(ctx, event.ids);
    case 'SET_GM_ORDER': return checkGmOrder(ctx, event.ids);
    case 'START': return checkStart(ctx);
    case 'CHOOSE_NPC': return checkChooseNpc(ctx, event.combatantId);
    case 'RAISE_ESCALATION': return checkRaiseEscalation(event.by);
    case 'ADD_LATE_COMBATANT': return checkLateCombatant(ctx, event.combatant, event.position);
    case 'SET_FIRST_SIDE': return checkFirstSide(ctx, event.side);
    default: return null;
  }
}
