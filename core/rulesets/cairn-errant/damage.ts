// Cairn-Errant's damage and health (RULES.md §4.4 steps 8–11, §4.6): HP then STR, the Critical Damage save and its
// tables, death, and wounds.
import { disarmedNow, present, slotsUsed, SLOTS, type Attribute, type CairnCombatant, type CairnContext, type HitInjury, type InjuryLocation, type Severity, type Step, type Wound, type WoundType,  } from './rules.ts';
import { saveResult } from './order.ts';
import { takeOut } from './roster.ts';
import type { CombatEvent, Roll } from './combat.ts';
import { rulingsOf } from './options.ts';
import { update } from '../../encounter/roster.ts';


// ---- damage, HP then STR, the Critical Damage save (§4.4 steps 8–11) ----

/** Puts steps at the front of the queue: follow-ups come before what was already waiting (a fight-back stays last). */
export const pushFront = (ctx: CairnContext, ...steps: Step[]): CairnContext => ({ ...ctx, moment: { ...ctx.moment, pending: [...steps, ...ctx.moment.pending] } });
export const pushBack = (ctx: CairnContext, ...steps: Step[]): CairnContext => ({ ...ctx, moment: { ...ctx.moment, pending: [...ctx.moment.pending, ...steps] } });
export const popStep = (ctx: CairnContext): CairnContext => ({ ...ctx, moment: { ...ctx.moment, pending: ctx.moment.pending.slice(1) } });

export function die(ctx: CairnContext, id: string, reason: string): CairnContext {
  const c = ctx.combatants[id]!;
  const next = update(ctx, id, { deathClock: null, incapacitated: false });
  return takeOut(next, id, 'dead', reason || `${c.name} dies`);
}

/** STR 0 is death (§4.4 step 11). */
export function settleStr(ctx: CairnContext, id: string): CairnContext {
  const c = ctx.combatants[id]!;
  return c.str <= 0 && present(c) ? die(update(ctx, id, { str: 0 }), id, 'STR 0') : ctx;
}

export interface DamageOptions {
  toStr: boolean;
  /** Calls for the Critical Damage save when STR is lost (not for a Parry, §4.4 step 4). */
  save: boolean;
  nonLethal: boolean;
}

/**
 * Damage already reduced by Armor: off HP; what would take HP below 0 comes off STR (R-C21: exactly 0 does nothing
 * more); straight to STR for an unaware or overburdened target. STR loss calls for the save (R-C13) unless
 * `save` is off; STR 0 kills.
 */
export function applyDamage(ctx: CairnContext, id: string, amount: number, how: DamageOptions): CairnContext {
  const c = ctx.combatants[id]!;
  if (!present(c) || amount <= 0) return ctx;
  let strLoss: number;
  let hp = c.hp;
  if (how.toStr) strLoss = amount;
  else {
    strLoss = Math.max(0, amount - c.hp);
    hp = Math.max(0, c.hp - amount);
  }
  const str = Math.max(0, c.str - strLoss);
  let next = update(ctx, id, { hp, str });
  next = settleStr(next, id);
  const saves = how.toStr ? how.save && rulingsOf(ctx.options).directStrDamageSaves : how.save;
  if (strLoss > 0 && present(next.combatants[id]) && saves) next = pushFront(next, { kind: 'critSave', id, nonLethal: how.nonLethal });
  return next;
}

export const impairAfterSave = (ctx: CairnContext, id: string) => update(ctx, id, { failedCriticalSave: true });

/** The STR save against Critical Damage: fail → the table (PC), unconscious (non-lethal), or R-C23 (enemy). */
export function resolveCritSave(ctx: CairnContext, step: Extract<Step, { kind: 'critSave' }>, roll: Roll): CairnContext {
  const c = ctx.combatants[step.id]!;
  const { passed } = saveResult(roll.faces, c.str);
  let next = popStep(ctx);
  if (passed) return next;
  if (step.nonLethal) return update(next, step.id, { unconscious: true, failedCriticalSave: true });
  if (c.side === 'party') return pushFront(next, { kind: 'critTable', id: step.id });
  if (rulingsOf(ctx.options).npcCriticalDamage === 'fightsOnImpaired') return impairAfterSave(next, step.id);
  next = pushFront(next, { kind: 'npcCrit', id: step.id });
  return next;
}

export type CritD6Result = 'dies' | 'incapacitated' | 'notToday';
export const critD6Result = (face: number): CritD6Result => (face === 1 ? 'dies' : face === 6 ? 'notToday' : 'incapacitated');

export const DEATH_CLOCK_MINUTES = 60;

export function resolveCritD6(ctx: CairnContext, id: string, face: number, d4: number): CairnContext {
  const next = popStep(ctx);
  const c = next.combatants[id]!;
  switch (critD6Result(face)) {
    case 'dies': return die(next, id, 'critical damage (d6: 1)');
    case 'incapacitated': return update(next, id, { incapacitated: true, deathClock: DEATH_CLOCK_MINUTES, treated: false, failedCriticalSave: true });
    case 'notToday': return update(next, id, { hp: Math.min(c.hpMax, c.hp + d4), failedCriticalSave: true });
  }
}

export const LOCATIONS: { from: number; to: number; location: InjuryLocation; name: string }[] = [
  { from: 1, to: 5, location: 'torso', name: 'Torso injury' },
  { from: 6, to: 6, location: 'leftLeg', name: 'Left leg injury' },
  { from: 7, to: 7, location: 'rightLeg', name: 'Right leg injury' },
  { from: 8, to: 8, location: 'leftArm', name: 'Left arm injury' },
  { from: 9, to: 9, location: 'rightArm', name: 'Right arm injury' },
  { from: 10, to: 10, location: 'head', name: 'Head injury' },
];
export const locationOf = (face: number) => LOCATIONS.find((l) => face >= l.from && face <= l.to)!;

/** The d10 hit-location table: every result adds an Injury item; legs feed R-C6; the head is death (R-C22). */
export function resolveHitLocation(ctx: CairnContext, id: string, face: number, d4: number): CairnContext {
  let next = popStep(ctx);
  const c = next.combatants[id]!;
  const where = locationOf(face);
  const injury: HitInjury = { id: `${id}.injury${c.injuries.length + 1}.r${ctx.round}`, kind: 'injury', location: where.location, name: where.name, gainedHere: true };
  const change: Partial<CairnCombatant> = { injuries: [...c.injuries, injury], failedCriticalSave: true };
  if (where.location === 'leftLeg' || where.location === 'rightLeg') change.nextInitiativeDisadvantage = true; // R-C6
  next = update(next, id, change);
  // Source: "Left arm / Right arm: Disarmament; lose use of arm": empty hands for the rest of the round.
  if ((where.location === 'leftArm' || where.location === 'rightArm') && !disarmedNow(next, id)) next = { ...next, disarmed: [...(next.disarmed ?? []), id] };
  if (where.location === 'torso') return settleStr(update(next, id, { str: Math.max(0, c.str - d4) }), id);
  if (where.location === 'head') {
    if (rulingsOf(ctx.options).headResult === 'gmDecides') return pushFront(next, { kind: 'head', id });
    return die(next, id, 'critical damage to the head (R-C22)');
  }
  return next;
}

// ---- wounds (§4.6) ----

export const WOUND_TYPES: { key: WoundType; label: string; attribute: Attribute | null }[] = [
  { key: 'burns', label: 'burns', attribute: null },
  { key: 'nerveDamage', label: 'nerve damage', attribute: 'wil' },
  { key: 'frostbite', label: 'frostbite', attribute: null },
  { key: 'poisoning', label: 'poisoning', attribute: null },
  { key: 'other', label: 'wound', attribute: null },
];
const SEVERITY_UP: Record<Severity, Severity | null> = { light: 'severe', severe: 'permanent', permanent: null };

export function woundRefusal(ctx: CairnContext, e: Extract<CombatEvent, { type: 'GAIN_WOUND' }>): string | null {
  if (!rulingsOf(ctx.options).wounds) return 'This campaign does not use the wounds module.';
  const c = ctx.combatants[e.combatantId];
  if (!c || !present(c)) return 'That combatant is not in the fight.';
  const existing = c.wounds.filter((w) => w.type === e.woundType);
  const free = slotsUsed(c) < SLOTS;
  const label = WOUND_TYPES.find((t) => t.key === e.woundType)!.label;
  if (existing.length === 0 || e.choice === 'newSlot') {
    if (existing.length > 0 && !free && existing.some((w) => w.severity !== 'permanent')) return `${c.name} has no free slot: the ${label} must worsen (R-C26).`;
    if (!free && !e.dropItem) return `${c.name} has no free slot for the ${label}: drop an item to make room (R-C26).`;
    if (!free && c.gearSlots === 0) return `${c.name} carries no item to drop: the ${label} must worsen an existing wound.`;
    if ((e.severity ?? 'light') === 'permanent' && !e.attribute) return 'Say which attribute the permanent wound lowers.';
    return null;
  }
  if (!e.choice) return `${c.name} already has ${label}: the player chooses to worsen it or take a new Light wound.`;
  const worst = existing.find((w) => w.severity !== 'permanent');
  if (!worst) return `${c.name}'s ${label} is already permanent: take a new Light wound instead.`;
  if (worst.severity === 'severe' && !e.attribute) return 'The wound becomes permanent: say which attribute it lowers.';
  return null;
}

function lowerAttribute(c: CairnCombatant, attribute: Attribute): Partial<CairnCombatant> {
  const maxKey = `${attribute}Max` as const;
  return { [maxKey]: Math.max(1, c[maxKey] - 1), [attribute]: Math.max(0, c[attribute] - 1) } as Partial<CairnCombatant>;
}

export function gainWound(ctx: CairnContext, e: Extract<CombatEvent, { type: 'GAIN_WOUND' }>): CairnContext {
  const c = ctx.combatants[e.combatantId]!;
  const existing = c.wounds.filter((w) => w.type === e.woundType);
  const worsen = existing.length > 0 && e.choice === 'worsen';
  if (worsen) {
    const old = existing.find((w) => w.severity !== 'permanent')!;
    const severity = SEVERITY_UP[old.severity]!;
    // A wound carried in from another fight is replaced by a new record that supersedes it, so undo stays exact.
    const replaced: Wound = old.gainedHere
      ? { ...old, severity, attribute: severity === 'permanent' ? e.attribute ?? null : old.attribute }
      : { ...old, id: `${e.combatantId}.wound${c.wounds.length + 1}.r${ctx.round}`, severity, attribute: severity === 'permanent' ? e.attribute ?? null : old.attribute, supersedes: old.id, gainedHere: true };
    let next = update(ctx, e.combatantId, { wounds: c.wounds.map((w) => (w.id === old.id ? replaced : w)) });
    if (severity === 'permanent') next = settleStr(update(next, e.combatantId, lowerAttribute(c, e.attribute!)), e.combatantId);
    return next;
  }
  const severity = e.severity ?? 'light';
  const wound: Wound = { id: `${e.combatantId}.wound${c.wounds.length + 1}.r${ctx.round}`, kind: 'wound', type: e.woundType, severity, attribute: severity === 'permanent' ? e.attribute ?? null : null, source: e.source, trainedBack: false, gainedHere: true };
  const dropped = slotsUsed(c) >= SLOTS ? 1 : 0;
  let next = update(ctx, e.combatantId, { wounds: [...c.wounds, wound], gearSlots: c.gearSlots - dropped });
  if (severity === 'permanent') next = settleStr(update(next, e.combatantId, lowerAttribute(next.combatants[e.combatantId]!, e.attribute!)), e.combatantId);
  return next;
}
