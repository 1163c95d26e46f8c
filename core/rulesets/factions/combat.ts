// Factions' combat events (RULES.md §3.3–§3.6; the game is Murdham): their shapes, why the rules refuse one now,
// and the GM's tools (statuses, zones, chases, overrides, the end). The pipeline's parts are in their own files, by
// concern: attack-spec.ts (dice, derived numbers, legality), attack.ts (declaration, stunt, damage), reactions.ts,
// health.ts (the health model, gear, durability), turn.ts (the turn budget and the other actions) and morale.ts;
// they are re-exported here, so the machine and the encounter read one namespace.
import { lastAnswer } from '../../encounter/last-answer.ts';
import { nameOf, update } from '../../encounter/roster.ts';
import { attackProblem, finalBlowProblem, resolveProblem, stuntOfferProblem, cancelAttack } from './attack.ts';
import { d20Problem, faces } from './attack-spec.ts';
import { type CounterPreset, type Reaction, reactProblem } from './reactions.ts';
import * as rules from './rules.ts';
import * as turnOrder from './order.ts';
import type { FactionsContext, GearState, Roll } from './rules.ts';
import { canAct, gone, releaseGrabs, say, updateEach } from './rules.ts';
import { groupSave } from './recovery.ts';
import { activeName, bonusProblem, mainProblem, nothingDoneYet } from './turn.ts';

export * from './attack-spec.ts';
export * from './attack.ts';
export * from './health.ts';
export * from './morale.ts';
export * from './reactions.ts';
export * from './turn.ts';

export type BonusKind = 'pickUp' | 'drop' | 'equip' | 'unequip' | 'swap' | 'consumable' | 'interact' | 'speak';
export type StatusKey = 'concealed' | 'unaware' | 'fearImmune';
export type OverrideField =
  | 'health' | 'incapacitated' | 'dying' | 'dead' | 'acted' | 'surrendered' | 'concealed' | 'unaware' | 'moraleImmune'
  | 'moraleFailed' | 'disarmed' | 'released' | 'weapon' | 'shield' | 'armour' | 'cancelAttack' | 'skipMorale';

/** The attack as the GM describes it (RULES.md §3.4); rolls ride along. */
export interface AttackInput {
  kind: 'melee' | 'ranged' | 'indirect';
  blast?: boolean;
  effect?: 'damage' | 'disarm' | 'grapple';
  weapon?: 'weapon' | 'unarmed' | 'improvised' | 'shield';
  die?: number | null;
  range?: 'withinHalf' | 'beyondHalf';
  unseen?: boolean;
  moving?: boolean;
  challenging?: boolean;
  holdBack?: boolean;
  concealment?: boolean;
  enhanced?: boolean;
  protection?: 'none' | 'cover' | 'barrier';
  pierces?: boolean;
  border?: boolean;
  attackRoll?: Roll | null;
}

export type CombatEvent =
  | (AttackInput & {
      type: 'ATTACK'; attackerId: string; targetIds: string[]; zone?: string | null; reaction?: 'opportunity' | null;
      stunt?: string | null; neighbourZones?: string[] | null; deviationRoll?: Roll | null;
    })
  | { type: 'FINAL_BLOW'; attackerId: string; targetId: string; border?: boolean }
  | { type: 'OFFER_STUNT'; text: string }
  | { type: 'STUNT_ANSWER'; decision: 'accept' | 'decline' }
  | { type: 'REACT'; reaction: Reaction; counterPreset?: CounterPreset; behindId?: string; guardId?: string; roll?: Roll | null; counter?: AttackInput | null }
  | { type: 'RESOLVE_ATTACK'; damageRoll?: Roll | null; saveRoll?: Roll | null; counterDamageRoll?: Roll | null; counterSaveRoll?: Roll | null }
  | { type: 'MOVE_ZONE'; to: string; sneaking?: boolean }
  | { type: 'BONUS_ACTION'; kind: BonusKind; item?: 'weapon' | 'shield' | 'armour' | 'other' | null; note?: string }
  | { type: 'MAIN_ACTION'; kind: 'interact' | 'power' | 'other'; note?: string }
  | { type: 'SHOVE'; to?: string | null; hazard?: string | null }
  | { type: 'SURRENDER' }
  | { type: 'DECLARATION_TIMEOUT' }
  | { type: 'APPLY_DAMAGE'; targetId: string; amount: number; source: string; byId?: string | null }
  | { type: 'HEAL'; targetId: string; amount: number; source: string }
  | { type: 'SET_STATUS'; combatantId: string; status: StatusKey; on: boolean; note?: string }
  | { type: 'SET_ZONE'; combatantId: string; zone: string | null }
  | { type: 'CHASE'; fleeingIds: string[]; edge: 'none' | 'fleeingFaster' | 'pursuersFaster'; roll?: Roll | null }
  | { type: 'OVERRIDE'; targetId?: string | null; field: OverrideField; value?: number | boolean | string | null; note: string };

const STATUS_LABEL: Record<StatusKey, string> = { concealed: 'concealed', unaware: 'unaware', fearImmune: 'immune to fear' };

/**
 * Why the rules refuse a combat event now, or null. `turnOpen`: the active character's turn is running. Asked several
 * times per event (core/encounter/last-answer.ts).
 */
export const combatRefusal = lastAnswer((ctx: FactionsContext, e: CombatEvent, turnOpen: boolean): string | null => refusalNow(ctx, e, turnOpen));

function refusalNow(ctx: FactionsContext, e: CombatEvent, turnOpen: boolean): string | null {
  const onTurn = (what: string) => (turnOpen && ctx.activeId ? null : `${what} happens on a character's turn.`);
  switch (e.type) {
    case 'ATTACK':
      if (ctx.pending) return 'Finish resolving the attack under way first.';
      if (!turnOpen && e.reaction !== 'opportunity') return onTurn('Attacking');
      return attackProblem(ctx, e);
    case 'FINAL_BLOW':
      return onTurn('A final blow') ?? finalBlowProblem(ctx, e);
    case 'OFFER_STUNT':
      return stuntOfferProblem(ctx);
    case 'STUNT_ANSWER':
      return ctx.pending?.stage === 'stunt' ? null : 'No stunt is waiting for an answer.';
    case 'REACT':
      return reactProblem(ctx, e);
    case 'RESOLVE_ATTACK':
      return resolveProblem(ctx, e);
    case 'MOVE_ZONE': {
      const problem = onTurn('Moving');
      if (problem) return problem;
      if (ctx.turn.moved) return `${activeName(ctx)} has already moved a zone this turn.`;
      if (ctx.turn.stillShot) return `${activeName(ctx)} attacked at range this turn without moving; moving now would make it an attack while moving (R-F11).`;
      return null;
    }
    case 'BONUS_ACTION': {
      const problem = onTurn('A bonus action');
      if (problem) return problem;
      // source: "Armour can't be changed during a fight": putting the worn armour down is taking it off.
      if ((e.kind === 'equip' || e.kind === 'unequip' || e.kind === 'swap' || e.kind === 'drop') && e.item === 'armour') return 'Armour cannot be put on, taken off or swapped during a fight.';
      return bonusProblem(ctx, e.kind === 'swap' ? 2 : 1);
    }
    case 'MAIN_ACTION':
      return onTurn('A main action') ?? mainProblem(ctx);
    case 'SHOVE': {
      const problem = onTurn('A shove') ?? mainProblem(ctx);
      if (problem) return problem;
      return rules.grabbing(ctx, ctx.activeId!) ? null : `${activeName(ctx)} is not holding anyone to shove.`;
    }
    case 'SURRENDER':
      if (onTurn('Surrendering')) return onTurn('Surrendering');
      return nothingDoneYet(ctx) ? null : `Surrendering takes the whole turn, and ${activeName(ctx)} has already acted this turn (R-F9).`;
    case 'DECLARATION_TIMEOUT':
      if (!ctx.chaos) return 'The chaos of combat is not in play in this fight.';
      if (onTurn('The declaration countdown')) return onTurn('The declaration countdown');
      // source: "Each Player has 15 seconds to declare": the GM's characters are not timed.
      if (!ctx.combatants[ctx.activeId!]!.pc) return `Only players have 15 seconds to declare: ${activeName(ctx)} is the GM's.`;
      return nothingDoneYet(ctx) ? null : `${activeName(ctx)} has already declared and acted this turn.`;
    case 'APPLY_DAMAGE': {
      const target = ctx.combatants[e.targetId];
      if (!target || gone(target)) return 'That character is not in the fight.';
      if (e.byId && !ctx.combatants[e.byId]) return 'The one dealing the damage is not in this encounter.';
      return null;
    }
    case 'HEAL': {
      const target = ctx.combatants[e.targetId];
      if (!target || gone(target)) return 'That character is not in the fight.';
      return target.health >= target.healthMax ? `${target.name} is already at full health.` : null;
    }
    case 'SET_STATUS': {
      const c = ctx.combatants[e.combatantId];
      if (!c) return 'That combatant is not in this encounter.';
      if (Boolean(c[e.status]) === e.on) return `${c.name} is ${e.on ? 'already' : 'not'} ${STATUS_LABEL[e.status]}.`;
      return null;
    }
    case 'SET_ZONE':
      return ctx.combatants[e.combatantId] ? null : 'That combatant is not in this encounter.';
    case 'CHASE': {
      if (e.fleeingIds.length === 0) return 'Choose who is fleeing.';
      if (new Set(e.fleeingIds).size !== e.fleeingIds.length) return 'Each fleeing character is listed once.';
      const missing = e.fleeingIds.find((id) => !ctx.combatants[id] || ctx.combatants[id]!.dead);
      if (missing) return `${nameOf(ctx, missing)} cannot flee.`;
      return e.edge === 'none' ? d20Problem(e.roll, 'The group AGI save to escape') : null;
    }
    case 'OVERRIDE':
      return overrideProblem(ctx, e);
  }
}

/** A form sends text: "7" for health, on/off (yes/no, true/false, 1/0) for flags, intact/damaged/destroyed for gear. */
export function overrideValue(field: OverrideField, value: unknown): number | boolean | GearState | null {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (field === 'health') {
    const n = typeof text === 'number' ? text : typeof text === 'string' && /^\d+$/.test(text) ? Number(text) : NaN;
    return Number.isInteger(n) ? n : null;
  }
  if (field === 'weapon' || field === 'shield' || field === 'armour') return text === 'intact' || text === 'damaged' || text === 'destroyed' ? text : null;
  if (typeof text === 'boolean') return text;
  if (text === 1 || text === 'on' || text === 'yes' || text === 'true' || text === '1') return true;
  if (text === 0 || text === 'off' || text === 'no' || text === 'false' || text === '0') return false;
  return null;
}

function overrideProblem(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'OVERRIDE' }>): string | null {
  if (e.field === 'cancelAttack') return ctx.pending ? null : 'No attack is under way.';
  if (e.field === 'skipMorale') return ctx.morale?.checks.length || ctx.morale?.failures.length ? null : 'No morale check is waiting.';
  const c = e.targetId ? ctx.combatants[e.targetId] : undefined;
  if (!c) return 'Choose whom the override is about.';
  if (e.field === 'released') return c.grabbedBy ? null : `${c.name} is not held.`;
  const value = overrideValue(e.field, e.value);
  if (e.field === 'health') return typeof value === 'number' && value >= 0 && value <= c.healthMax ? null : `Health is a whole number from 0 to ${c.healthMax}.`;
  if (e.field === 'weapon' || e.field === 'shield' || e.field === 'armour') return value === null ? 'Gear is intact, damaged or destroyed.' : null;
  return typeof value === 'boolean' ? null : 'This override is on or off.';
}

export function setStatus(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'SET_STATUS' }>): FactionsContext {
  const c = ctx.combatants[e.combatantId]!;
  const text = e.status === 'concealed' ? (e.on ? `${c.name} hides again, concealed` : `${c.name} is revealed`) : `${c.name} is ${e.on ? '' : 'no longer '}${STATUS_LABEL[e.status]}`;
  return say(update(ctx, c.id, { [e.status]: e.on }), 'decision', `${text}${e.note ? ` (${e.note})` : ''}.`, [], c.id);
}

export function setZone(ctx: FactionsContext, id: string, zone: string | null): FactionsContext {
  return say(update(ctx, id, { zone }), 'setup', zone ? `${nameOf(ctx, id)} is placed in ${zone}.` : `${nameOf(ctx, id)} has no zone.`, [], id);
}

export function chase(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'CHASE' }>): FactionsContext {
  const fleeing = e.fleeingIds.map((id) => ctx.combatants[id]!);
  if (e.edge !== 'none') {
    const result: 'escaped' | 'caught' = e.edge === 'fleeingFaster' ? 'escaped' : 'caught';
    const next = updateEach(ctx, fleeing.map((c) => [c.id, { chase: result }] as const));
    return say(next, 'decision', `Chase: ${fleeing.map((c) => c.name).join(', ')} ${e.edge === 'fleeingFaster' ? 'are faster or last longer: they get away without a save' : 'cannot escape: the pursuers are faster or last longer'}.`);
  }
  const face = e.roll!.faces[0]!;
  const results = groupSave(face, fleeing.map((c) => ({ id: c.id, score: c.agi })));
  const next = updateEach(ctx, results.map((r) => [r.id, { chase: r.passed ? 'escaped' : 'caught' }] as const));
  const text = results.map((r) => `${nameOf(ctx, r.id)} (AGI ${r.score}) ${r.passed ? 'escapes' : 'is caught'}`).join(', ');
  return say(next, 'decision', `Chase: group AGI save d20 ${faces(e.roll)}: ${text}.`, ['R-F8']);
}

export function override(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'OVERRIDE' }>): FactionsContext {
  if (e.field === 'cancelAttack') return cancelAttack(ctx, e.note);
  if (e.field === 'skipMorale') return say({ ...ctx, morale: { checks: [], failures: [] } }, 'decision', `GM override: the rest of the morale phase is skipped${e.note ? ` (${e.note})` : ''}.`);
  const c = ctx.combatants[e.targetId!]!;
  const value = overrideValue(e.field, e.value);
  let next = ctx;
  let what: string;
  if (e.field === 'health') {
    next = update(ctx, c.id, { health: value as number });
    what = `health set to ${value}`;
  } else if (e.field === 'weapon' || e.field === 'shield' || e.field === 'armour') {
    next = update(ctx, c.id, { gear: { ...c.gear, [e.field]: value as GearState } });
    what = `${e.field} set to ${value}`;
  } else if (e.field === 'released') {
    next = update(ctx, c.id, { grabbedBy: null });
    what = 'released from the grab';
  } else {
    const on = value as boolean;
    next = update(ctx, c.id, { [e.field]: on, ...(e.field === 'dead' && on ? { incapacitated: true } : {}) });
    if ((e.field === 'dead' || e.field === 'incapacitated' || e.field === 'surrendered') && on) next = releaseGrabs(next, c.id);
    what = `${e.field} ${on ? 'on' : 'off'}`;
  }
  next = say(next, 'decision', `GM override: ${c.name}'s ${what}${e.note ? ` (${e.note})` : ''}.`, [], c.id);
  // An override that takes the active character out ends its turn.
  if (next.activeId === c.id && !canAct(next.combatants[c.id]!) && !next.pending) next = turnOrder.endTurn(next, `${c.name}'s turn ends.`);
  return next;
}

// ---- the end ----

export function closeFight(ctx: FactionsContext, outcome: string): FactionsContext {
  return say({ ...ctx, outcome, activeId: null, pending: null, morale: null }, 'end', `The GM ends the fight${outcome ? `: ${outcome}` : ''}.`, ['R-F10']);
}
