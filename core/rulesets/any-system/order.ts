// "Any system"'s roster and turn order: who joins (setup, fixed entries, late arrivals), initiative rolled or typed
// and sorted with its tie-break, the start of the rounds, the next turn (reactions refresh, readied actions lapse, a
// dying combatant's death save), delay and resume, ready. Each change is a pure function of the context; each check
// returns the sentence that refuses it, or null.
import * as roster from '../../encounter/roster.ts';
import type { RosterSpec } from '../../encounter/roster.ts';
import type { CombatantSeed } from '../../encounter/types.ts';
import type { EventOf } from './events.ts';
import { rulingsOf } from './options.ts';
import {
  acts, activeId, dieSides, initiativeTotal, present, sortedOrder, tied, typedInitiative, withoutInitiative,
  type AnyCombatant, type AnyContext, type Initiative, type Roll,
} from './rules.ts';

const { nameOf, update } = roster;

// ---- the roster (the shared rules, core/encounter/roster.ts) ----

const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

export function combatantFromSeed(seed: CombatantSeed): AnyCombatant {
  const hpMax = num(seed.sheet['hpMax'], 10);
  const carried = seed.carried ?? {};
  const dead = carried['dead'] === true;
  const hp = Math.min(hpMax, Math.max(0, num(carried['hp'], num(seed.sheet['hp'], hpMax))));
  return {
    id: seed.id, name: seed.name, side: seed.side === 'party' ? 'party' : 'enemies', characterId: seed.characterId, fixed: false,
    hp: dead ? 0 : hp, hpMax, tempHp: Math.max(0, num(carried['tempHp'], num(seed.sheet['tempHp'], 0))), ac: num(seed.sheet['ac'], 10),
    initiativeModifier: num(seed.sheet['initiativeModifier'], 0), initiative: null,
    vitality: dead ? 'dead' : 'up', saves: { successes: 0, failures: 0 }, reactionsUsed: 0,
    concentration: null, concentrationCheck: null, delaying: false, ready: null, removed: null, injuries: [], diedIn: null,
  };
}

export const ROSTER: RosterSpec<AnyContext, AnyCombatant> = {
  max: 200,
  sideProblem: (_ctx, seed) => (seed.side === 'party' || seed.side === 'enemies' ? null : `${seed.name} must join the party or the enemies.`),
  seedProblem: (_ctx, seed) => (seed.carried?.['dead'] === true ? `${seed.name} is dead: they cannot join a fight.` : null),
  fromSeed: (_ctx, seed) => combatantFromSeed(seed),
  hasLeft: (c) => c.removed !== null,
};

export const checkStart = (ctx: AnyContext): string | null =>
  roster.checkSidesPresent(ctx, [{ key: 'party', noun: 'party member' }, { key: 'enemies', noun: 'enemy' }]);

/** A fixed entry: a name at a fixed initiative, no HP, that only takes turns (a lair action at 20). */
export function checkFixed(ctx: AnyContext, event: EventOf<'ADD_FIXED'>): string | null {
  if (ctx.roster.length >= ROSTER.max) return `An encounter holds at most ${ROSTER.max} combatants.`;
  if (ctx.roster.some((id) => ctx.combatants[id]!.name === event.name && present(ctx.combatants[id]!))) return `${event.name} is already in this encounter: choose another name.`;
  return null;
}

export function addFixed(ctx: AnyContext, event: EventOf<'ADD_FIXED'>): AnyContext {
  const id = `fixed${ctx.fixedCount + 1}`;
  const entry: AnyCombatant = {
    ...combatantFromSeed({ id, name: event.name, side: 'enemies', characterId: null, sheet: { hpMax: 0, hp: 0 } }),
    side: 'fixed', fixed: true, initiative: { total: event.initiative, face: null },
  };
  const next = { ...ctx, fixedCount: ctx.fixedCount + 1, roster: [...ctx.roster, id], combatants: { ...ctx.combatants, [id]: entry } };
  return ctx.stage === 'running' ? placeInOrder(next, id) : next;
}

/** A combatant leaves the fight for good: out of the order, its question (a death save) dropped. */
export function takeOut(ctx: AnyContext, id: string, reason: string): AnyContext {
  const wasActive = activeId(ctx) === id;
  const index = ctx.order.indexOf(id);
  let next = update(ctx, id, { removed: { reason, round: ctx.round }, delaying: false, ready: null });
  if (index !== -1) {
    const order = next.order.filter((x) => x !== id);
    // The one after it keeps its place; when the active one leaves, the next in order acts now.
    const cursor = index < next.cursor ? next.cursor - 1 : next.cursor;
    next = { ...next, order, cursor };
    if (wasActive) next = beginTurn(next);
  }
  return next.pendingSave === id ? { ...next, pendingSave: null } : next;
}

// ---- initiative ----

const stageRefusal = (ctx: AnyContext): string | null =>
  ctx.stage === 'setup' ? 'Start the encounter first: initiative comes once everyone is in.' : ctx.stage === 'ended' ? 'This encounter has ended.' : null;

function rolledInitiative(ctx: AnyContext, c: AnyCombatant, roll: Roll | null | undefined): Initiative {
  const face = roll?.faces[0] ?? 1;
  return { total: initiativeTotal(face, c.initiativeModifier), face };
}

export function checkRoll(ctx: AnyContext, id: string, roll: Roll | null | undefined): string | null {
  const stage = stageRefusal(ctx);
  if (stage) return stage;
  if (typedInitiative(ctx.options)) return 'This campaign types each initiative total (R-A1): use Type initiative.';
  const c = ctx.combatants[id];
  if (!c || !present(c)) return 'That combatant is not in this fight.';
  if (c.fixed) return `${c.name} is a fixed entry at ${c.initiative?.total ?? '—'}: it does not roll.`;
  if (c.initiative) return `${c.name} has already rolled initiative (${c.initiative.total}): type a new total to change it.`;
  const sides = dieSides(ctx.options);
  const face = roll?.faces[0];
  if (face !== undefined && face > sides) return `A d${sides} shows 1 to ${sides}: ${face} is not one of its faces.`;
  return null;
}

export function setInitiative(ctx: AnyContext, id: string, initiative: Initiative): AnyContext {
  const next = update(ctx, id, { initiative });
  return next.stage === 'running' ? placeInOrder(next, id) : next;
}

export const rollInitiative = (ctx: AnyContext, id: string, roll: Roll | null | undefined): AnyContext =>
  setInitiative(ctx, id, rolledInitiative(ctx, ctx.combatants[id]!, roll));

/** Those "roll for everyone else" rolls for: the combatants outside the party still without initiative. */
export const npcsToRoll = (ctx: AnyContext): string[] => withoutInitiative(ctx).filter((id) => ctx.combatants[id]!.side === 'enemies');

export function checkRollAll(ctx: AnyContext, rolls: Record<string, Roll | null> | undefined): string | null {
  const stage = stageRefusal(ctx);
  if (stage) return stage;
  if (typedInitiative(ctx.options)) return 'This campaign types each initiative total (R-A1): use Type initiative.';
  const waiting = npcsToRoll(ctx);
  if (waiting.length === 0) return 'Every combatant outside the party already has an initiative.';
  for (const id of Object.keys(rolls ?? {})) if (!waiting.includes(id)) return `${nameOf(ctx, id)} is not waiting for an initiative roll.`;
  for (const id of waiting) {
    const problem = checkRoll(ctx, id, rolls?.[id]);
    if (problem) return problem;
  }
  return null;
}

export function rollAll(ctx: AnyContext, rolls: Record<string, Roll | null> | undefined): AnyContext {
  return npcsToRoll(ctx).reduce((next, id) => rollInitiative(next, id, rolls?.[id]), ctx);
}

export function checkSetInitiative(ctx: AnyContext, id: string): string | null {
  const stage = stageRefusal(ctx);
  if (stage) return stage;
  const c = ctx.combatants[id];
  if (!c || !present(c)) return 'That combatant is not in this fight.';
  if (ctx.stage === 'running' && c.initiative) return `${c.name} already has its place in the order (${c.initiative.total}): delay to act later.`;
  return null;
}

/** REORDER: the GM puts one of two tied combatants first (a roll-off at the table, or a choice). */
export function checkReorder(ctx: AnyContext, id: string, beforeId: string): string | null {
  if (ctx.stage !== 'initiative') return 'Ties are ordered before the first round.';
  const a = ctx.combatants[id];
  const b = ctx.combatants[beforeId];
  if (!a || !b || !present(a) || !present(b)) return 'That combatant is not in this fight.';
  if (id === beforeId) return 'Choose two different combatants.';
  if (!tied(ctx, a, b)) {
    const show = (c: AnyCombatant) => `${c.name} (${c.initiative?.total ?? 'no initiative'}${c.initiative ? `, modifier ${c.initiativeModifier}` : ''})`;
    return `${show(a)} and ${show(b)} are not tied under the campaign's tie-break (R-A3): only ties are ordered by hand.`;
  }
  return null;
}

export function reorder(ctx: AnyContext, id: string, beforeId: string): AnyContext {
  const rest = sortedOrder(ctx).filter((x) => x !== id);
  const at = rest.indexOf(beforeId);
  return { ...ctx, tiesOrdered: [...rest.slice(0, at), id, ...rest.slice(at)] };
}

export function checkStartCombat(ctx: AnyContext, missingLast: boolean): string | null {
  if (ctx.stage !== 'initiative') return ctx.stage === 'setup' ? 'Start the encounter first: initiative comes once everyone is in.' : 'The rounds have already begun.';
  const missing = withoutInitiative(ctx);
  if (missing.length && !missingLast) {
    return `${roster.names(ctx, missing)} ${missing.length === 1 ? 'has' : 'have'} no initiative yet: roll or type ${missing.length === 1 ? 'it' : 'them'}, or begin with those missing going last.`;
  }
  if (!ctx.roster.some((id) => acts(ctx.combatants[id]!))) return 'Nobody is left to take a turn.';
  return null;
}

/** Round 1 begins: the order is sorted once, the first combatant able to act has the turn. */
export function startCombat(ctx: AnyContext): AnyContext {
  const order = sortedOrder(ctx).filter((id) => !ctx.combatants[id]!.delaying);
  return beginTurn({ ...ctx, stage: 'running', order, cursor: 0, round: 1 });
}

/** A combatant with a new initiative during the rounds takes its sorted place; the active one keeps the turn. */
function placeInOrder(ctx: AnyContext, id: string): AnyContext {
  const active = activeId(ctx);
  const without = ctx.order.filter((x) => x !== id);
  const sorted = sortedOrder(ctx, [...without, id]);
  const at = sorted.indexOf(id);
  // Those already placed keep their order (a delay moved some); the newcomer goes before the first it outranks.
  const before = without.findIndex((x) => sorted.indexOf(x) > at);
  const order = before === -1 ? [...without, id] : [...without.slice(0, before), id, ...without.slice(before)];
  return { ...ctx, order, cursor: active ? order.indexOf(active) : ctx.cursor };
}

// ---- turns ----

/**
 * The turn at the cursor starts: the first one from the cursor on who can act (the dead are skipped; past the end a
 * new round). Its reactions refresh, a readied action lapses, and a dying one owes its death save first (R-A7).
 */
function beginTurn(ctx: AnyContext): AnyContext {
  if (!ctx.order.some((id) => acts(ctx.combatants[id]!))) return { ...ctx, pendingSave: null };
  let next = ctx;
  for (;;) {
    if (next.cursor >= next.order.length) next = { ...next, cursor: 0, round: next.round + 1 };
    if (acts(next.combatants[next.order[next.cursor]!]!)) break;
    next = { ...next, cursor: next.cursor + 1 };
  }
  const id = next.order[next.cursor]!;
  next = update(next, id, { reactionsUsed: 0, ready: null });
  const owesSave = next.combatants[id]!.vitality === 'dying' && rulingsOf(next.options).deathSaves;
  return { ...next, pendingSave: owesSave ? id : null };
}

export function checkNextTurn(ctx: AnyContext): string | null {
  if (ctx.stage !== 'running') return stageRefusal(ctx) ?? 'Begin the first round once initiative is set.';
  if (ctx.pendingSave) return `${nameOf(ctx, ctx.pendingSave)} rolls a death save before the turn goes on.`;
  if (!ctx.order.some((id) => acts(ctx.combatants[id]!))) return 'Nobody is left to take a turn: end the encounter.';
  return null;
}

export const nextTurn = (ctx: AnyContext): AnyContext => beginTurn({ ...ctx, cursor: ctx.cursor + 1 });

export function checkDelay(ctx: AnyContext, id: string): string | null {
  if (ctx.stage !== 'running') return stageRefusal(ctx) ?? 'A combatant delays once the rounds have begun.';
  if (ctx.pendingSave) return `${nameOf(ctx, ctx.pendingSave)} rolls a death save before the turn goes on.`;
  if (activeId(ctx) !== id) return `Only the combatant whose turn it is delays: it is ${nameOf(ctx, activeId(ctx))}'s turn.`;
  if (ctx.order.filter((x) => acts(ctx.combatants[x]!)).length < 2) return `${nameOf(ctx, id)} is the only one left to act: there is nobody to delay behind.`;
  return null;
}

/** The active one steps out of the order; the next one's turn starts. */
export function delay(ctx: AnyContext, id: string): AnyContext {
  const order = ctx.order.filter((x) => x !== id);
  return beginTurn({ ...update(ctx, id, { delaying: true }), order });
}

export function checkResume(ctx: AnyContext, id: string): string | null {
  if (ctx.stage !== 'running') return stageRefusal(ctx) ?? 'Nobody delays before the rounds have begun.';
  const c = ctx.combatants[id];
  if (!c || !present(c)) return 'That combatant is not in this fight.';
  if (!c.delaying) return `${c.name} is not delaying.`;
  return null;
}

/**
 * The delaying one re-enters now: it acts right after the current turn, and its initiative becomes the current one's
 * (so it keeps that place in later rounds).
 */
export function resume(ctx: AnyContext, id: string): AnyContext {
  const active = activeId(ctx);
  const total = active ? ctx.combatants[active]!.initiative?.total ?? null : null;
  const at = ctx.cursor + 1;
  const order = [...ctx.order.slice(0, at), id, ...ctx.order.slice(at)];
  const c = ctx.combatants[id]!;
  return { ...update(ctx, id, { delaying: false, initiative: total === null ? c.initiative : { total, face: c.initiative?.face ?? null } }), order };
}

// ---- ready and reactions ----

export function checkReady(ctx: AnyContext, id: string): string | null {
  if (ctx.stage !== 'running') return stageRefusal(ctx) ?? 'Actions are readied once the rounds have begun.';
  if (activeId(ctx) !== id) return `An action is readied on one's own turn: it is ${nameOf(ctx, activeId(ctx))}'s turn.`;
  return null;
}

export function checkReaction(ctx: AnyContext, id: string, readied: boolean): string | null {
  if (ctx.stage !== 'running') return stageRefusal(ctx) ?? 'Reactions come once the rounds have begun.';
  const c = ctx.combatants[id];
  if (!c || !present(c)) return 'That combatant is not in this fight.';
  if (c.fixed) return `${c.name} is a fixed entry: it takes no reactions.`;
  if (c.vitality !== 'up') return `${c.name} is ${c.vitality}: no reactions.`;
  if (readied && !c.ready) return `${c.name} has no readied action.`;
  const per = rulingsOf(ctx.options).reactionsPerRound;
  if (!readied && per === 0) return 'Reactions are not tracked in this campaign (R-A8).';
  if (per > 0 && c.reactionsUsed >= per) return `${c.name} has used ${per === 1 ? 'its reaction' : `all ${per} reactions`} this round (R-A8).`;
  return null;
}

export const useReaction = (ctx: AnyContext, id: string, readied: boolean): AnyContext =>
  update(ctx, id, { reactionsUsed: ctx.combatants[id]!.reactionsUsed + 1, ...(readied ? { ready: null } : {}) });
