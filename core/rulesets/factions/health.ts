// Damage and health in Factions: the health model (R-F20), gear that breaks (§3.4 step 8, R-F18, R-F18b), gear used
// in the fight, healing, and the durability rolls after it (§3.6, R-F21, R-F22).
import { nameOf, update } from '../../encounter/roster.ts';
import type { CombatEvent } from './combat.ts';
import * as rules from './rules.ts';
import type { AttackSpec, FactionsCombatant, FactionsContext, GearItem } from './rules.ts';
import { releaseGrabs, say } from './rules.ts';
import { worn } from './attack-spec.ts';
import { applyDurability } from './recovery.ts';
import { rulingsOf } from './options.ts';

// ---- the health model (R-F20) ----

/**
 * Damage lands on a character. Murdham (default): losing at least half of current health in one hit
 * incapacitates, losing all of it means dying, damage of at least maximum health kills outright. The alternative
 * is plain HP, incapacitated at 0. An enemy harming a surrendered character lifts the surrender (R-F9).
 */
export function applyHarm(ctx: FactionsContext, id: string, amount: number, fromId: string | null, source: string, extraRulings: string[] = []): FactionsContext {
  const c = ctx.combatants[id]!;
  if (amount <= 0 || c.dead) return ctx;
  const murdham = rulingsOf(ctx.options).healthModel !== 'hpZeroIncapacitates';
  const lost = Math.min(amount, c.health);
  const health = c.health - lost;
  let patch: Partial<FactionsCombatant> = { health, damagedHere: true };
  let outcome = `${c.name} ${c.health} → ${health} health`;
  if (murdham && amount >= c.healthMax) {
    patch = { ...patch, dead: true, incapacitated: true, dying: false };
    outcome += `: ${amount} is at least the maximum ${c.healthMax}, killed outright`;
  } else if (murdham && health === 0) {
    patch = { ...patch, incapacitated: true, dying: true };
    outcome += ': all health lost, dying';
  } else if (murdham && lost * 2 >= c.health && !c.incapacitated) {
    patch = { ...patch, incapacitated: true };
    outcome += `: lost half or more of ${c.health} in one hit, incapacitated`;
  } else if (!murdham && health === 0 && !c.incapacitated) {
    patch = { ...patch, incapacitated: true };
    outcome += ': incapacitated at 0';
  }
  const from = fromId ? ctx.combatants[fromId] : undefined;
  const rulings = [...extraRulings, 'R-F20'];
  if (c.surrendered && from && from.faction !== c.faction) {
    patch = { ...patch, surrendered: false, moraleFailed: false };
    outcome += '; harmed while surrendered, may fight on';
    rulings.push('R-F9');
  }
  let next = update(ctx, id, patch);
  if (patch.incapacitated || patch.dead) next = releaseGrabs(next, id);
  return say(next, 'damage', `${source}: ${amount} damage. ${outcome}.`, rulings, id);
}

// ---- gear (§3.4 step 8, §3.6) ----

const ITEM_LABEL: Record<GearItem, string> = { weapon: 'weapon', shield: 'shield', armour: 'armour' };

function destroy(ctx: FactionsContext, id: string, item: GearItem, why: string, rulings: string[]): FactionsContext {
  const c = ctx.combatants[id]!;
  return say(update(ctx, id, { gear: { ...c.gear, [item]: 'destroyed' } }), 'damage', `${c.name}'s damaged ${ITEM_LABEL[item]} is destroyed: ${why}.`, rulings, id);
}

/** A hit of 8 or more before armour destroys a damaged shield, else damaged armour (R-F18b). */
export function heavyHit(ctx: FactionsContext, id: string, raw: number): FactionsContext {
  if (raw < 8) return ctx;
  const c = ctx.combatants[id]!;
  const why = `a hit of ${raw} before armour`;
  if (c.gear.shield === 'damaged' && !c.shieldDown) {
    const next = destroy(ctx, id, 'shield', why, ['R-F18b']);
    if (rulingsOf(ctx.options).heavyHitDestroys !== 'shieldAndArmour' || c.gear.armour !== 'damaged') return next;
    return destroy(next, id, 'armour', why, ['R-F18b']);
  }
  return c.gear.armour === 'damaged' ? destroy(ctx, id, 'armour', why, ['R-F18b']) : ctx;
}

/** A damaged weapon or shield that rolls a 1 on the damage die breaks after the attack (R-F18); improvised ones count as damaged. */
export function weaponBreaks(ctx: FactionsContext, id: string, spec: AttackSpec, face: number | null): FactionsContext {
  if (face !== 1) return ctx;
  const c = ctx.combatants[id]!;
  if (spec.weapon === 'improvised') return say(ctx, 'damage', `${c.name}'s improvised weapon breaks on a 1 (handled as already damaged).`, ['R-F18'], id);
  const item: GearItem | null = spec.weapon === 'weapon' ? 'weapon' : spec.weapon === 'shield' ? 'shield' : null;
  if (item && c.gear[item] === 'damaged') return destroy(ctx, id, item, 'it rolled a 1 on the damage die', ['R-F18']);
  return ctx;
}

export function markUsed(ctx: FactionsContext, id: string, items: GearItem[]): FactionsContext {
  const c = ctx.combatants[id]!;
  const used = { ...c.used };
  let changed = false;
  for (const item of items) {
    if (c.gear[item] === 'none' || (item === 'shield' && c.shieldDown)) continue;
    changed ||= used[item] !== true;
    used[item] = true;
  }
  // Nothing newly used: the combatant stays as it is (a copy of every combatant for nothing otherwise).
  return changed ? update(ctx, id, { used }) : ctx;
}

export function heal(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'HEAL' }>): FactionsContext {
  const c = ctx.combatants[e.targetId]!;
  const health = Math.min(c.healthMax, c.health + e.amount);
  const next = update(ctx, c.id, { health, dying: health > 0 ? false : c.dying });
  return say(next, 'damage', `${c.name} recovers ${health - c.health} health (${e.source || 'healing'}): ${health}/${c.healthMax}.${c.incapacitated ? ' Still incapacitated unless the GM says otherwise.' : ''}`, [], c.id);
}

// ---- after the fight: durability (§3.6, R-F21, R-F22) ----

/**
 * "All weapons and armour which were used at least once" roll durability (§3.6, R-F21): the party's first, then the
 * NPCs' (their gear can be looted; its state stays in this encounter, as NPC templates are shared and not written).
 */
export function openDurability(ctx: FactionsContext): FactionsContext {
  const queue: { combatantId: string; item: GearItem }[] = [];
  const byPcsFirst = [...ctx.roster.filter((id) => ctx.combatants[id]!.pc), ...ctx.roster.filter((id) => !ctx.combatants[id]!.pc)];
  for (const id of byPcsFirst) {
    const c = ctx.combatants[id]!;
    if (c.removed && !c.pc) continue; // an NPC the GM took off the field took its gear along
    for (const item of rules.GEAR_ITEMS) if (c.used[item] && worn(c.gear[item])) queue.push({ combatantId: id, item });
  }
  const next = { ...ctx, durability: queue, activeId: null, pending: null, morale: null };
  if (!queue.length) return next;
  return say(next, 'end', `After the fight: a durability roll for ${queue.map((q) => `${nameOf(ctx, q.combatantId)}'s ${q.item}`).join(', ')} (used at least once).`, ['R-F21']);
}

export function durabilityResult(ctx: FactionsContext, result: 'ok' | 'damaged'): FactionsContext {
  const [head, ...rest] = ctx.durability!;
  const c = ctx.combatants[head!.combatantId]!;
  const before = c.gear[head!.item];
  const after = applyDurability(before, result, ctx.options);
  const next = update({ ...ctx, durability: rest }, c.id, { gear: { ...c.gear, [head!.item]: after } });
  const text = result === 'ok'
    ? `${c.name}'s ${head!.item} holds.`
    : before === 'damaged'
      ? `${c.name}'s ${head!.item} fails again: ${after === 'destroyed' ? 'destroyed' : 'it stays damaged'}.`
      : `${c.name}'s ${head!.item} fails its durability roll: damaged.`;
  return say(next, 'end', text, before === 'damaged' && result === 'damaged' ? ['R-F22'] : [], c.id);
}
