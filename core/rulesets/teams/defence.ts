// The defence window (§2.4 step 7): Block, Parry, Dodge or Intercept against a hit, or none.
import type { Defence, DefendEvent } from './combat-events.ts';
import { luckBonus, luckOf, luckProblem, reactionSpec, testProblem, testResult } from './skill-tests.ts';
import { dodgeBeats, payReaction, reactionAvailable, reactionRefusal } from './reactions.ts';
import { applyHit, evasionAgainst } from './health.ts';
import { type ItemSlot, type PendingAttack, type TeamsContext } from './rules.ts';
import { nameOf } from '../../encounter/roster.ts';
import { rulingsOf } from './options.ts';

// ---- the defence window (§2.4 step 7) ----

/** What a defence choice sends with DEFEND: the defence, and the item that parries or the ally who intercepts. */
export type DefenceAnswer = { defence: Defence; slot?: ItemSlot; interceptorId?: string };

export interface DefenceChoice {
  /** The choice's key: `block`, `parry:weapon`, `intercept:<id>`... (the hit's own name for it; never sent). */
  id: string;
  label: string;
  answer: DefenceAnswer;
}

/** The choice key of a DEFEND answer (`parry:weapon`, `intercept:<id>`), as defenceChoices names its choices. */
export function defenceKey(e: Pick<DefendEvent, 'defence' | 'slot' | 'interceptorId'>): string {
  if (e.defence === 'parry') return `parry:${e.slot ?? ''}`;
  if (e.defence === 'intercept') return `intercept:${e.interceptorId ?? ''}`;
  return e.defence;
}

/** The defensive reactions the target (or an interceptor) may take against a hit, besides taking it. */
export function defenceChoices(ctx: TeamsContext, pa: PendingAttack): DefenceChoice[] {
  const target = ctx.combatants[pa.targetId]!;
  const choices: DefenceChoice[] = [];
  if (reactionRefusal(ctx, target, 'stamina', pa.freeReaction) === null) {
    const shield = target.items.shield;
    // Only a wielded item blocks or parries (§2.4 Block, Parry); a broken one cannot.
    if (shield && target.held.shield && shield.blockValue > 0 && shield.durability > 0) choices.push({ id: 'block', label: `Block with ${shield.name} (block ${shield.blockValue}, 1 stamina)`, answer: { defence: 'block' } });
    // R-T19 off: a parry is declared with the attack, before the hit is known, so the hit window offers none.
    if (rulingsOf(ctx.options).parryAfterHit) {
      for (const slot of ['weapon', 'shield'] as const) {
        const item = target.items[slot];
        if (item && target.held[slot] && item.durability > 0) choices.push({ id: `parry:${slot}`, label: `Parry with ${item.name} (+${item.parryValue || 1}, 1 stamina)`, answer: { defence: 'parry', slot } });
      }
    }
    if (!pa.crit && !pa.dodged) choices.push({ id: 'dodge', label: 'Dodge (test, 1 stamina)', answer: { defence: 'dodge' } });
  }
  if (pa.interceptedFrom === null && !pa.dodged) {
    for (const id of ctx.roster) {
      const ally = ctx.combatants[id]!;
      if (id === target.id || id === pa.attackerId || ally.team !== target.team) continue;
      if (pa.interceptorIds !== null && !pa.interceptorIds.includes(id)) continue; // the GM said who is close enough
      if (reactionRefusal(ctx, ally, 'stamina') === null) choices.push({ id: `intercept:${id}`, label: `${ally.name} intercepts (1 stamina)`, answer: { defence: 'intercept', interceptorId: id } });
    }
  }
  return choices;
}

export function defenceRefusal(ctx: TeamsContext, pa: PendingAttack, e: DefendEvent): string | null {
  if (e.defence === 'none') return null;
  if (e.defence === 'parry' && !e.slot) return 'Say which item parries: the weapon or the shield.';
  if (e.defence === 'intercept' && !e.interceptorId) return 'Say who intercepts.';
  const key = defenceKey(e);
  const target = ctx.combatants[pa.targetId]!;
  if (!defenceChoices(ctx, pa).some((c) => c.id === key)) {
    if (key === 'dodge' && pa.crit) return 'A critical hit cannot miss, so it cannot be dodged (R-T18).';
    if (key === 'block' && !target.items.shield?.blockValue) return `${target.name} wields nothing that can block.`;
    if (key === 'block' && !target.held.shield) return `${target.name} is not holding ${target.items.shield!.name}: only a wielded item can block.`;
    if (key.startsWith('parry:') && !rulingsOf(ctx.options).parryAfterHit) return 'In this campaign a parry is declared with the attack, before the hit is known (R-T19).';
    if (key.startsWith('parry:') && target.items[key.slice(6) as ItemSlot] && !target.held[key.slice(6) as ItemSlot]) {
      return `${target.name} is not holding ${target.items[key.slice(6) as ItemSlot]!.name}: only a wielded item can parry.`;
    }
    if (key.startsWith('intercept:') && pa.interceptorIds !== null && !pa.interceptorIds.includes(key.slice(10))) {
      return `${nameOf(ctx, key.slice(10))} is not close enough to intercept: the attack named who can.`;
    }
    if ((key === 'block' || key.startsWith('parry:')) && target.items[key === 'block' ? 'shield' : (key.slice(6) as ItemSlot)]?.durability === 0) {
      return 'A broken item cannot block or parry.';
    }
    const problem = key.startsWith('intercept:') ? reactionRefusal(ctx, ctx.combatants[key.slice(10)] ?? target, 'stamina') : reactionRefusal(ctx, target, 'stamina', pa.freeReaction);
    return problem ?? `${key} is not a defence ${target.name} can take against this attack.`;
  }
  if (key === 'dodge') {
    const spec = reactionSpec(target, 'dodge')!;
    return testProblem(spec, e.testRoll, target.name) ?? luckProblem(target, e.luckRoll);
  }
  return null;
}

/** Opens the defence window when the target can do anything about the hit; otherwise the damage lands at once. */
export function openDefence(ctx: TeamsContext, pa: PendingAttack): TeamsContext {
  if (defenceChoices(ctx, pa).length === 0) return applyHit(ctx, pa, 'none');
  return { ...ctx, pending: [{ kind: 'defence', attack: pa }, ...ctx.pending] };
}

export function answerDefence(ctx: TeamsContext, e: DefendEvent): TeamsContext {
  const head = ctx.pending[0]!;
  if (head.kind !== 'defence') return ctx;
  const pa = head.attack;
  const rest = { ...ctx, pending: ctx.pending.slice(1) };
  if (e.defence === 'none') return applyHit(rest, pa, 'none');
  if (e.defence === 'intercept') {
    // Intercept: the ally pays, swaps places and becomes the target; the attack is checked against it (§2.3).
    const allyId = e.interceptorId!;
    const paid = payReaction(rest, allyId, 'stamina');
    const ally = paid.combatants[allyId]!;
    const attacker = paid.combatants[pa.attackerId];
    const hits = pa.crit || !attacker || pa.total >= evasionAgainst(attacker, ally);
    if (!hits) return paid;
    return openDefence(paid, { ...pa, targetId: allyId, freeReaction: true, interceptedFrom: pa.targetId });
  }
  const paid = payReaction(rest, pa.targetId, 'stamina', pa.freeReaction);
  if (e.defence === 'dodge') {
    const target = paid.combatants[pa.targetId]!;
    const spec = reactionSpec(ctx.combatants[pa.targetId]!, 'dodge')!;
    const total = testResult(spec, e.testRoll!).total + luckBonus(luckOf(e.luckRoll!));
    if (dodgeBeats(ctx, total, pa.total)) return paid;
    // A failed dodge: the hit stands; another reaction (Wait's extra one) may still block or parry.
    const after = { ...pa, dodged: true, freeReaction: false };
    return reactionAvailable(paid, target) ? openDefence(paid, after) : applyHit(paid, after, 'none');
  }
  return applyHit(paid, pa, defenceKey(e));
}
