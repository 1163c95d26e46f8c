// The active character's turn in Factions (RULES.md §3.3): the budget (a bonus action, a main action or a second
// bonus, one zone of movement), and the turn's actions other than attacks: the zone move, bonus and main actions, the
// shove, surrender and the chaos of combat's timeout. Letting go of the one held and being revealed follow from
// what a character does, here and in an attack.
import { nameOf, plural, update } from '../../encounter/roster.ts';
import type { BonusKind, CombatEvent } from './combat.ts';
import { endTurn } from './order.ts';
import * as rules from './rules.ts';
import type { FactionsContext } from './rules.ts';
import { releaseGrabs, say } from './rules.ts';

// ---- the turn budget (§3.3) ----

export const activeName = (ctx: FactionsContext) => nameOf(ctx, ctx.activeId);

export function mainProblem(ctx: FactionsContext): string | null {
  if (ctx.turn.mainUsed) return `${activeName(ctx)} has already taken a main action this turn.`;
  if (ctx.turn.bonusUsed >= 2) return `${activeName(ctx)} used a second bonus action instead of the main action.`;
  return null;
}

export function bonusProblem(ctx: FactionsContext, cost: 1 | 2): string | null {
  const slotsLeft = 2 - ctx.turn.bonusUsed - (ctx.turn.mainUsed ? 1 : 0);
  if (cost === 2 && (ctx.turn.bonusUsed > 0 || ctx.turn.mainUsed)) return `Swapping two items takes two bonus actions, the main one included; ${activeName(ctx)} has only ${plural(slotsLeft, 'action')} left.`;
  if (slotsLeft <= 0) return `${activeName(ctx)} has no actions left this turn (only the zone move${ctx.turn.moved ? ', already used' : ''}).`;
  return null;
}

export const actionsLeft = (ctx: FactionsContext) => Math.max(0, 2 - ctx.turn.bonusUsed - (ctx.turn.mainUsed ? 1 : 0));
export const nothingDoneYet = (ctx: FactionsContext) => ctx.turn.bonusUsed === 0 && !ctx.turn.mainUsed && !ctx.turn.moved;

export function spendMain(ctx: FactionsContext): FactionsContext {
  return { ...ctx, turn: { ...ctx.turn, mainUsed: true } };
}

/** Doing anything but moving with, attacking or shoving the one held frees them (§3.4 step 10). */
export function letGoUnless(ctx: FactionsContext, id: string, keepOn: string | null): FactionsContext {
  const held = rules.grabbing(ctx, id);
  if (!held || held === keepOn) return ctx;
  return say(update(ctx, held, { grabbedBy: null }), 'turn', `${nameOf(ctx, id)} lets go of ${nameOf(ctx, held)}.`, [], id);
}

export function reveal(ctx: FactionsContext, id: string, how: string): FactionsContext {
  if (!ctx.combatants[id]!.concealed) return ctx;
  return say(update(ctx, id, { concealed: false }), 'turn', `${nameOf(ctx, id)} is revealed (${how}).`, [], id);
}

// ---- the rest of a turn ----

export function moveZone(ctx: FactionsContext, to: string, sneaking: boolean): FactionsContext {
  const id = ctx.activeId!;
  const c = ctx.combatants[id]!;
  let next = update({ ...ctx, turn: { ...ctx.turn, moved: true } }, id, { zone: to });
  const held = rules.grabbing(ctx, id);
  if (held) next = update(next, held, { zone: to });
  next = say(next, 'turn', `${c.name} moves ${c.zone ? `from ${c.zone} ` : ''}to ${to}${held ? `, dragging ${nameOf(ctx, held)} along` : ''}${sneaking ? ', sneaking' : ''}.`, ctx.turn.mainUsed ? ['R-F11'] : [], id);
  return sneaking ? next : reveal(next, id, 'moving without sneaking');
}

const BONUS_TEXT: Record<BonusKind, string> = {
  pickUp: 'picks up', drop: 'puts down', equip: 'equips', unequip: 'unequips', swap: 'swaps', consumable: 'uses', interact: 'interacts with', speak: 'says a few words',
};

export function bonusAction(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'BONUS_ACTION' }>): FactionsContext {
  const id = ctx.activeId!;
  const cost = e.kind === 'swap' ? 2 : 1;
  let next = letGoUnless({ ...ctx, turn: { ...ctx.turn, bonusUsed: ctx.turn.bonusUsed + cost, mainUsed: ctx.turn.mainUsed || cost === 2 } }, id, null);
  if (e.item === 'weapon' && (e.kind === 'pickUp' || e.kind === 'equip' || e.kind === 'swap')) next = update(next, id, { disarmed: false });
  if (e.item === 'weapon' && (e.kind === 'drop' || e.kind === 'unequip')) next = update(next, id, { disarmed: true });
  if (e.item === 'shield' && (e.kind === 'pickUp' || e.kind === 'equip' || e.kind === 'swap')) next = update(next, id, { shieldDown: false });
  if (e.item === 'shield' && (e.kind === 'drop' || e.kind === 'unequip')) next = update(next, id, { shieldDown: true });
  const item = e.kind === 'speak' ? '' : ` ${e.item && e.item !== 'other' ? `the ${e.item}` : 'something'}`;
  next = say(next, 'turn', `${nameOf(ctx, id)} ${BONUS_TEXT[e.kind]}${item}${e.note ? ` (${e.note})` : ''}: ${cost === 2 ? 'two bonus actions' : 'a bonus action'}.${ctx.chaos && e.kind === 'speak' ? ' (Chaos of combat: a short sentence to the others.)' : ''}`, [], id);
  return e.kind === 'speak' ? reveal(next, id, 'talking') : next;
}

export function mainAction(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'MAIN_ACTION' }>): FactionsContext {
  const id = ctx.activeId!;
  const next = say(letGoUnless(spendMain(ctx), id, null), 'turn', `${nameOf(ctx, id)} ${e.kind === 'power' ? 'invokes a power' : e.kind === 'interact' ? 'performs a complex interaction' : 'takes a main action'}${e.note ? `: ${e.note}` : ''}.`, [], id);
  return e.kind === 'power' ? reveal(next, id, 'invoking a power') : next;
}

export function shove(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'SHOVE' }>): FactionsContext {
  const id = ctx.activeId!;
  const held = rules.grabbing(ctx, id)!;
  let next = update(spendMain(ctx), held, { grabbedBy: null, ...(e.to ? { zone: e.to } : {}) });
  next = say(next, 'turn', `${nameOf(ctx, id)} shoves ${nameOf(ctx, held)} free, half a zone away${e.to ? ` into ${e.to}` : ''}${e.hazard ? ` and into ${e.hazard}` : ''}.`, [], id);
  return next;
}

export function surrender(ctx: FactionsContext): FactionsContext {
  const id = ctx.activeId!;
  const next = releaseGrabs(update(ctx, id, { surrendered: true }), id);
  return endTurn(say(next, 'decision', `${nameOf(ctx, id)} surrenders, throwing the weapons away: the turn is wasted, but they might be spared.`, ['R-F9'], id));
}

export function declarationTimeout(ctx: FactionsContext): FactionsContext {
  const id = ctx.activeId!;
  return endTurn(say(ctx, 'turn', `${nameOf(ctx, id)} did not declare within 15 seconds and does nothing this turn (chaos of combat).`, [], id));
}
