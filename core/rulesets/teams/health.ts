// Damage and health (§2.4 steps 5 and 8–14, §2.5): evasion and deflection, a hit on the pools, consciousness,
// death risk, damage from outside an attack, and healing.
import type { CombatEvent, HealedPool } from './combat-events.ts';
import { guardBonus, luckBonus, luckOf, reactionSpec, testResult } from './skill-tests.ts';
import { payReaction, reactionRefusal } from './reactions.ts';
import { CHEAT_DEATH_STEP, damageClass, inFight, type DamageType, type Item, type ItemSlot, type PendingAttack, type Roll, type TeamsCombatant, type TeamsContext } from './rules.ts';
import { nameOf, update } from '../../encounter/roster.ts';
import { rulingsOf } from './options.ts';

/** Size (§2.4 step 5): a larger attacker raises the target's evasion and lowers its deflection by the difference. */
export const sizeShift = (attacker: TeamsCombatant, target: TeamsCombatant) => attacker.size - target.size;

export function evasionAgainst(attacker: TeamsCombatant, target: TeamsCombatant): number {
  return Math.max(0, target.evasion + sizeShift(attacker, target) + guardBonus(target));
}

/** Deflection against one damage class, with size, Guard (R-T12) and a parry (R-T21). Typeless is never reduced. */
export function deflectionAgainst(ctx: TeamsContext, attacker: TeamsCombatant | null, target: TeamsCombatant, type: DamageType, parry: number): number | null {
  const cls = damageClass(type);
  if (cls === 'typeless') return null;
  const base = cls === 'physical' ? target.physicalDeflection : target.elementalDeflection;
  const parries = cls === 'physical' || rulingsOf(ctx.options).parryScope === 'allDeflection' ? parry : 0;
  return Math.max(0, base - (attacker ? sizeShift(attacker, target) : 0) + guardBonus(target) + parries);
}

export interface HitResult {
  raw: number;
  taken: number;
  reduction: number | null;
  blocked: { item: string; itemDamage: number; durability: number; overflow: number } | null;
  parried: { item: string; value: number } | null;
}

/** Raw damage (R-T20), then block or deflection with the minimum of 1, parry wear, and the hit on the pools. */
export function hitDamage(ctx: TeamsContext, pa: PendingAttack, defence: string): HitResult {
  const attacker = ctx.combatants[pa.attackerId] ?? null;
  const target = ctx.combatants[pa.targetId]!;
  const test = rulingsOf(ctx.options).damageUsesPenalisedTest ? pa.total : pa.unpenalised;
  const raw = Math.max(0, test) + (pa.crit ? pa.weapon.critDamage : pa.weapon.damage);
  if (defence === 'block') {
    const shield = target.items.shield!;
    const itemDamage = Math.max(1, raw - shield.blockValue);
    if (itemDamage <= shield.durability) return { raw, taken: 0, reduction: null, blocked: { item: shield.name, itemDamage, durability: shield.durability - itemDamage, overflow: 0 }, parried: null };
    const overflow = itemDamage - shield.durability;
    // R-T22: the excess hits as a normal hit without the character's deflection (unless the campaign applies it).
    const dr = rulingsOf(ctx.options).blockOverflowDeflection === 'applied' ? deflectionAgainst(ctx, attacker, target, pa.weapon.damageType, 0) : null;
    const taken = dr === null ? overflow : Math.max(1, overflow - dr);
    return { raw, taken, reduction: dr, blocked: { item: shield.name, itemDamage, durability: 0, overflow }, parried: null };
  }
  const parrySlot = defence.startsWith('parry:') ? (defence.slice(6) as ItemSlot) : null;
  const parryItem = parrySlot ? target.items[parrySlot]! : null;
  const parry = parryItem ? parryItem.parryValue || 1 : 0;
  const dr = deflectionAgainst(ctx, attacker, target, pa.weapon.damageType, parry);
  const taken = dr === null ? raw : Math.max(1, raw - dr);
  return { raw, taken, reduction: dr, blocked: null, parried: parryItem ? { item: parryItem.name, value: parry } : null };
}

export function setItem(ctx: TeamsContext, id: string, slot: ItemSlot, change: Partial<Item>): TeamsContext {
  const c = ctx.combatants[id]!;
  const item = c.items[slot];
  if (!item) return ctx;
  return update(ctx, id, { items: { ...c.items, [slot]: { ...item, ...change } } });
}

export function applyHit(ctx: TeamsContext, pa: PendingAttack, defence: string): TeamsContext {
  const result = hitDamage(ctx, pa, defence);
  let next = ctx;
  if (result.blocked) next = setItem(next, pa.targetId, 'shield', { durability: result.blocked.durability });
  if (defence.startsWith('parry:')) {
    const slot = defence.slice(6) as ItemSlot;
    next = setItem(next, pa.targetId, slot, { durability: Math.max(0, next.combatants[pa.targetId]!.items[slot]!.durability - 1) });
  }
  return takeDamage(next, pa.targetId, result.taken, { nonlethal: pa.weapon.nonlethal, source: `${nameOf(ctx, pa.attackerId)}'s ${pa.weapon.name}` });
}

// ---- health (§2.4 steps 11–14, §2.5) ----

export const isHarmed = (c: TeamsCombatant) => c.enduranceMax > 0 && c.endurance <= c.enduranceMax / 2;
export const isBloodied = (c: TeamsCombatant) => c.health < c.healthMax;
export const missingHealth = (c: TeamsCombatant) => c.healthMax - c.health;

/** Falling unconscious: the turn is lost (R-T3) and any extended action is abandoned (R-T10). */
export function fallUnconscious(ctx: TeamsContext, id: string): TeamsContext {
  return update(ctx, id, { conscious: false, inProgress: null, readied: null, guarding: false, inCover: false, waitExtra: false });
}

const queue = (ctx: TeamsContext, entry: TeamsContext['pending'][number]) => ({ ...ctx, pending: [...ctx.pending, entry] });
const hasDeathPending = (ctx: TeamsContext, id: string) => ctx.pending.some((p) => p.kind === 'death' && p.id === id);

/**
 * Damage taken (after reduction): endurance first, then health. Losing health past constitution calls for the
 * consciousness check (R-T23: without a reaction or stamina the character falls unconscious); zero health means
 * unconscious (R-T24) and, on overkill (R-T27) or any damage while already at zero, a luck test against death —
 * except overkill from a nonlethal source (§2.4 step 14).
 */
export function takeDamage(ctx: TeamsContext, id: string, amount: number, source: { nonlethal: boolean; source: string }): TeamsContext {
  const c = ctx.combatants[id]!;
  if (amount <= 0 || !inFight(c)) return ctx;
  const toEndurance = Math.min(c.endurance, amount);
  const spill = amount - toEndurance;
  let next = update(ctx, id, { endurance: c.endurance - toEndurance });
  if (c.health === 0) {
    // Any more damage while at zero health risks death, nonlethal included. Someone resuscitated at zero health is
    // knocked out again: source: "When a character is reduced to zero health, they immediately become unconscious."
    next = fallUnconscious(next, id);
    return hasDeathPending(next, id) ? next : queue(next, { kind: 'death', id, cause: source.source });
  }
  if (spill === 0) return next;
  const health = Math.max(0, c.health - spill);
  next = update(next, id, { health });
  if (health === 0) {
    next = fallUnconscious(next, id);
    const basis = rulingsOf(ctx.options).overkillBasis === 'spilloverOnly' ? spill : amount;
    if (basis <= c.health) return next;
    if (source.nonlethal) return update(next, id, { nonlethalZeroed: true });
    return queue(next, { kind: 'death', id, cause: source.source });
  }
  const missing = c.healthMax - health;
  if (!c.conscious || missing <= c.constitution) return next;
  if (reactionRefusal(next, next.combatants[id]!, 'stamina') !== null) return fallUnconscious(next, id); // R-T23
  return queue(next, { kind: 'consciousness', id, missing });
}

export function answerConsciousness(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'CONSCIOUSNESS' }>): TeamsContext {
  const head = ctx.pending[0]!;
  if (head.kind !== 'consciousness') return ctx;
  const rest = { ...ctx, pending: ctx.pending.slice(1) };
  if (e.decision === 'unconscious') return fallUnconscious(rest, head.id);
  const total = consciousnessTotal(ctx.combatants[head.id]!, e);
  const paid = payReaction(rest, head.id, 'stamina');
  return total >= head.missing ? paid : fallUnconscious(paid, head.id);
}

/** Fortify against the missing health: strength + athletics + fortitude (+1 guarding, +4 on a luck roll of 20). */
export function consciousnessTotal(c: TeamsCombatant, e: { testRoll?: Roll | null; luckRoll?: Roll | null }): number {
  return testResult(reactionSpec(c, 'fortify')!, e.testRoll!).total + luckBonus(luckOf(e.luckRoll!));
}

/** Death risk (§2.4 step 13): a luck roll at or above the cheat-death difficulty survives and raises it by 5 for good. */
export function answerDeath(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'LUCK_TEST' }>): TeamsContext {
  const head = ctx.pending[0]!;
  if (head.kind !== 'death') return ctx;
  const rest = { ...ctx, pending: ctx.pending.slice(1) };
  const c = ctx.combatants[head.id]!;
  if (luckOf(e.luckRoll!) >= c.cheatDeathDifficulty) {
    return update(rest, c.id, { cheatDeathDifficulty: c.cheatDeathDifficulty + CHEAT_DEATH_STEP, cheatedDeath: c.cheatedDeath + 1 });
  }
  return killed(rest, c.id, head.cause);
}

export function killed(ctx: TeamsContext, id: string, cause: string): TeamsContext {
  const next = fallUnconscious(ctx, id);
  return { ...update(next, id, { dead: true, deathCause: cause }), pending: next.pending.filter((p) => p.kind === 'defence' || p.id !== id) };
}

/** Damage from outside an attack (a trap, a spell): deflection reduces physical and elemental damage, minimum 1. */
export function externalDamage(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'APPLY_DAMAGE' }>): { taken: number; reduction: number | null } {
  const target = ctx.combatants[e.targetId]!;
  const reduction = e.damageType ? deflectionAgainst(ctx, null, target, e.damageType, 0) : null;
  return { taken: reduction === null ? e.amount : Math.max(1, e.amount - reduction), reduction };
}

// ---- healing (the chapter has no healing rules: the GM says how much, the pools' maxima are the limit) ----

export function healRefusal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'HEAL' }>): string | null {
  const c = ctx.combatants[e.targetId];
  if (!c || c.removed) return 'That combatant is not in the fight.';
  if (c.dead) return `${c.name} is dead: healing cannot bring them back.`;
  const [current, max] = e.pool === 'endurance' ? [c.endurance, c.enduranceMax] : [c.health, c.healthMax];
  if (current >= max) return `${c.name}'s ${e.pool} is already full (${current}/${max}).`;
  return null;
}

/** What a heal restores: the amount, capped at the pool's maximum. */
export const healed = (c: TeamsCombatant, e: { pool: HealedPool; amount: number }): number =>
  Math.min(e.amount, e.pool === 'endurance' ? c.enduranceMax - c.endurance : c.healthMax - c.health);

/**
 * Endurance or health back, up to its maximum. Healing does not wake anyone: the chapter returns someone to
 * consciousness by Resuscitate. Health above zero ends the nonlethal grace (§2.4 step 14: that was "at zero health").
 */
export function heal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'HEAL' }>): TeamsContext {
  const c = ctx.combatants[e.targetId]!;
  const gain = healed(c, e);
  if (e.pool === 'endurance') return update(ctx, c.id, { endurance: c.endurance + gain });
  return update(ctx, c.id, { health: c.health + gain, nonlethalZeroed: false });
}
