// "Any system"'s damage and health: damage through temporary HP, 0 HP as the campaign rules it (dying, down, dead),
// healing up to the maximum and waking the fallen, temporary HP that do not stack, the GM setting HP outright, death
// saves, concentration reminders, and injuries recorded on a character. Pure: each check returns the refusing
// sentence or null; each change returns a new context.
import { nameOf } from '../../encounter/roster.ts';
import type { EventOf } from './events.ts';
import { update } from '../../encounter/roster.ts';
import { absorb, atZero, concentrationDc, deathSave, failuresFromDamage, grantTempHp, heal, present, type AnyCombatant, type AnyContext, type Roll } from './rules.ts';
import { rulingsOf } from './options.ts';

/** Why the target cannot take damage, healing or HP now, or null. */
export function targetRefusal(ctx: AnyContext, id: string): string | null {
  if (ctx.stage === 'ended') return 'This encounter has ended.';
  if (ctx.stage === 'setup') return 'Start the encounter first: HP change once the fight is on.';
  const c = ctx.combatants[id];
  if (!c || !present(c)) return 'That combatant is not in this fight.';
  if (c.fixed) return `${c.name} is a fixed entry: it has no HP.`;
  if (ctx.pendingSave && ctx.pendingSave !== id) return `${nameOf(ctx, ctx.pendingSave)} rolls a death save before the turn goes on.`;
  return null;
}

const dies = (ctx: AnyContext, c: AnyCombatant): Partial<AnyCombatant> => ({ vitality: 'dead', diedIn: ctx.round, concentration: null, concentrationCheck: null, ready: null });

// ---- damage ----

export function checkDamage(ctx: AnyContext, event: EventOf<'APPLY_DAMAGE'>): string | null {
  const target = targetRefusal(ctx, event.targetId);
  if (target) return target;
  if (ctx.pendingSave) return `${nameOf(ctx, ctx.pendingSave)} rolls a death save before the turn goes on.`;
  const c = ctx.combatants[event.targetId]!;
  if (c.vitality === 'dead') return `${c.name} is already dead.`;
  if (event.amount === 0) return 'Damage of 0 changes nothing: type the damage dealt.';
  return null;
}

/**
 * Damage: temporary HP first, then HP. Dropping to 0 is what the rulings say (R-A5, R-A6); damage at 0 HP while
 * dying or stable is a failed death save (two on a critical hit, R-A7), and three are death. A concentrating
 * combatant owes a concentration check (R-A9), never decided by the app.
 */
export function damage(ctx: AnyContext, event: EventOf<'APPLY_DAMAGE'>): AnyContext {
  const c = ctx.combatants[event.targetId]!;
  const hit = absorb(c, event.amount);
  const change: Partial<AnyCombatant> = { hp: hit.hp, tempHp: hit.tempHp };
  if (c.hp === 0 && (c.vitality === 'dying' || c.vitality === 'stable') && rulingsOf(ctx.options).deathSaves) {
    const failed = failuresFromDamage(c.saves, event.critical === true);
    Object.assign(change, failed.dead ? { ...dies(ctx, c), saves: failed.saves } : { vitality: 'dying', saves: failed.saves });
  } else if (c.hp > 0 && hit.hp === 0) {
    const fall = atZero(ctx.options, c);
    Object.assign(change, fall === 'dead' ? dies(ctx, c) : { vitality: fall, saves: { successes: 0, failures: 0 } });
  }
  if (c.concentration && rulingsOf(ctx.options).concentration && change.vitality !== 'dead') {
    change.concentrationCheck = Math.max(c.concentrationCheck ?? 0, concentrationDc(event.amount));
  }
  return update(ctx, c.id, change);
}

// ---- healing and HP ----

export function checkHeal(ctx: AnyContext, event: EventOf<'HEAL'>): string | null {
  const target = targetRefusal(ctx, event.targetId);
  if (target) return target;
  const c = ctx.combatants[event.targetId]!;
  if (c.vitality === 'dead') return `${c.name} is dead: healing does not bring them back (set their HP to revive them).`;
  if (event.amount === 0) return 'Healing of 0 changes nothing: type the HP healed.';
  if (c.hp >= c.hpMax) return `${c.name} is already at full HP (${c.hp}/${c.hpMax}).`;
  return null;
}

/** Healing up to the maximum; any healing wakes one at 0 HP (dying, stable or down) and clears its saves. */
export function healing(ctx: AnyContext, event: EventOf<'HEAL'>): AnyContext {
  const c = ctx.combatants[event.targetId]!;
  const healed = heal(c, event.amount);
  const next = update(ctx, c.id, { hp: healed.hp, ...(healed.hp > 0 ? { vitality: 'up', saves: { successes: 0, failures: 0 } } : {}) });
  return next.pendingSave === c.id ? { ...next, pendingSave: null } : next;
}

export function checkTempHp(ctx: AnyContext, event: EventOf<'SET_TEMP_HP'>): string | null {
  const target = targetRefusal(ctx, event.targetId);
  if (target) return target;
  const c = ctx.combatants[event.targetId]!;
  if (c.vitality === 'dead') return `${c.name} is dead.`;
  if (event.amount <= c.tempHp) return `${c.name} already has ${c.tempHp} temporary HP: the higher stays, so ${event.amount} changes nothing.`;
  return null;
}

export const tempHp = (ctx: AnyContext, event: EventOf<'SET_TEMP_HP'>): AnyContext =>
  update(ctx, event.targetId, { tempHp: grantTempHp(ctx.combatants[event.targetId]!.tempHp, event.amount) });

export function checkSetHp(ctx: AnyContext, event: EventOf<'SET_HP'>): string | null {
  const target = targetRefusal(ctx, event.targetId);
  if (target) return target;
  const c = ctx.combatants[event.targetId]!;
  if (event.hp > c.hpMax) return `${c.name}'s maximum is ${c.hpMax} HP: ${event.hp} is above it.`;
  if (event.hp === c.hp && c.vitality !== 'dead') return `${c.name} already has ${c.hp} HP.`;
  return null;
}

/** The GM sets HP outright: above 0 the combatant is up (a dead one revived), at 0 it falls as damage would. */
export function setHp(ctx: AnyContext, event: EventOf<'SET_HP'>): AnyContext {
  const c = ctx.combatants[event.targetId]!;
  if (event.hp > 0) {
    const next = update(ctx, c.id, { hp: event.hp, vitality: 'up', saves: { successes: 0, failures: 0 }, diedIn: null });
    return next.pendingSave === c.id ? { ...next, pendingSave: null } : next;
  }
  if (c.vitality === 'dead') return update(ctx, c.id, { hp: 0 });
  const fall = atZero(ctx.options, c);
  return update(ctx, c.id, fall === 'dead' ? { hp: 0, ...dies(ctx, c) } : { hp: 0, vitality: fall, saves: { successes: 0, failures: 0 } });
}

// ---- death saves ----

export function checkDeathSave(ctx: AnyContext, id: string, roll: Roll | null | undefined): string | null {
  if (ctx.stage !== 'running') return ctx.stage === 'ended' ? 'This encounter has ended.' : 'Death saves come once the rounds have begun.';
  if (ctx.pendingSave !== id) {
    const c = ctx.combatants[id];
    return c?.vitality === 'dying' ? `${c.name} rolls a death save at the start of their turn.` : `${nameOf(ctx, id)} is not dying: no death save.`;
  }
  const face = roll?.faces[0];
  if (face !== undefined && face > 20) return `A d20 shows 1 to 20: ${face} is not one of its faces.`;
  return null;
}

export function deathSaveRolled(ctx: AnyContext, id: string, roll: Roll | null | undefined): AnyContext {
  const c = ctx.combatants[id]!;
  const save = deathSave(c.saves, roll?.faces[0] ?? 1);
  const change: Partial<AnyCombatant> =
    save.result === 'up' ? { hp: Math.min(1, c.hpMax), vitality: 'up', saves: save.saves }
      : save.result === 'dead' ? { ...dies(ctx, c), saves: save.saves }
        : save.result === 'stable' ? { vitality: 'stable', saves: save.saves }
          : { saves: save.saves };
  return { ...update(ctx, id, change), pendingSave: null };
}

// ---- concentration ----

export function checkConcentrate(ctx: AnyContext, event: EventOf<'CONCENTRATE'>): string | null {
  if (!rulingsOf(ctx.options).concentration) return 'Concentration is not tracked in this campaign (R-A9).';
  const target = targetRefusal(ctx, event.combatantId);
  if (target) return target;
  const c = ctx.combatants[event.combatantId]!;
  if (event.on && c.vitality !== 'up') return `${c.name} is ${c.vitality}: they cannot concentrate.`;
  if (event.on && !event.spell?.trim()) return 'Name the spell (or effect) being concentrated on.';
  if (!event.on && !c.concentration) return `${c.name} is not concentrating.`;
  return null;
}

export const concentrate = (ctx: AnyContext, event: EventOf<'CONCENTRATE'>): AnyContext =>
  update(ctx, event.combatantId, event.on ? { concentration: event.spell!.trim(), concentrationCheck: null } : { concentration: null, concentrationCheck: null });

export function checkConcentrationCheck(ctx: AnyContext, id: string): string | null {
  if (ctx.stage === 'ended') return 'This encounter has ended.';
  const c = ctx.combatants[id];
  if (!c || !present(c)) return 'That combatant is not in this fight.';
  if (c.concentrationCheck === null) return `${c.name} owes no concentration check.`;
  return null;
}

export const concentrationChecked = (ctx: AnyContext, id: string, passed: boolean): AnyContext =>
  update(ctx, id, passed ? { concentrationCheck: null } : { concentrationCheck: null, concentration: null });

// ---- injuries ----

export function checkInjury(ctx: AnyContext, event: EventOf<'INJURY'>): string | null {
  const target = targetRefusal(ctx, event.targetId);
  if (target) return target;
  const c = ctx.combatants[event.targetId]!;
  if (c.injuries.length >= 20) return `${c.name} has 20 injuries from this fight already.`;
  return null;
}

export function injure(ctx: AnyContext, event: EventOf<'INJURY'>): AnyContext {
  const c = ctx.combatants[event.targetId]!;
  const injury = { n: c.injuries.length + 1, name: event.name, untilLongRest: event.untilLongRest === true, round: ctx.round };
  return update(ctx, c.id, { injuries: [...c.injuries, injury] });
}
