// Cairn-Errant's declarations (RULES.md §4.2 step 1): who may declare what, and locking the intents (CAIRN-01).
import type { OptionValues } from '../options.ts';
import { anyArmLost, attributeStopsAction, bandLabel, canAct, lostFastMovement, nameOf, offhandDie, paralysed, present, type CairnCombatant, type CairnContext, type IntentAction } from './rules.ts';
import { deriveIntent, distanceBetween, nearestFoe } from './bands.ts';
import { isAttack, type IntentBase } from './intents.ts';
import { rulingsOf } from './options.ts';

export type IntentInput = Partial<IntentBase> & { action: IntentAction; combatantId: string };

export function intentFrom(input: IntentInput): IntentBase {
  return {
    action: input.action,
    targetId: input.targetId ?? null,
    move: input.move ?? 'none',
    bands: input.bands ?? 1,
    fromClose: input.fromClose ?? false,
    fast: input.fast ?? false,
    weapon: input.weapon ?? 'main',
    die: input.die ?? null,
    improvisedSize: input.improvisedSize ?? null,
    position: input.position ?? 'normal',
    nonLethal: input.nonLethal ?? input.weapon === 'unarmed',
    note: input.note ?? '',
  };
}

/** Why a declaration is refused, or null (§4.2 step 1, arms and legs from §4.4 step 10). */
export function checkIntent(ctx: CairnContext, input: IntentInput, as: 'pc' | 'npc'): string | null {
  if (ctx.phase !== 'declare') return 'Intents are locked once the order is being settled (R-C4).';
  const c = ctx.combatants[input.combatantId];
  if (!c) return 'That combatant is not in this encounter.';
  if (as === 'pc' && c.side !== 'party') return `${c.name} is an enemy: the Warden sets its intent (SET_NPC_INTENT).`;
  if (as === 'npc' && c.side !== 'enemies') return `${c.name} is a player character: the player declares (DECLARE_INTENT).`;
  if (!canAct(c, ctx.options)) return `${c.name} cannot act this round (${whyCannotAct(c, ctx.options)}).`;
  const intent = intentFrom(input);
  if (isAttack(intent.action)) {
    const target = intent.targetId ? ctx.combatants[intent.targetId] : undefined;
    if (!target) return `${c.name}'s ${intent.action === 'gambit' ? 'gambit' : 'attack'} needs a target.`;
    if (!present(target)) return `${target.name} is no longer in the fight.`;
    if (target.side === c.side) return `${target.name} is on ${c.name}'s own side.`;
    // Source "Range Bands": Distant is beyond every ranged weapon, and many moves away.
    if (distanceBetween(ctx, c.id, target.id) === 'distant') {
      return intent.action === 'ranged' ? `${target.name} is Distant: beyond the range of every ranged weapon.` : `${target.name} is Distant: too many moves away to strike this round.`;
    }
    // R-C29: Far "takes one or multiple Move Actions in combat to get here"; read as more than one, closing in from Far
    // is "moving two range bands", a full turn of its own, and leaves no action for the blow.
    if (intent.action !== 'ranged' && rulingsOf(ctx.options).farMelee === 'outOfReach' && distanceBetween(ctx, c.id, target.id) === 'far') {
      return `${target.name} is Far: closing in takes ${c.name}'s whole turn (moving two range bands), so the ${intent.action === 'gambit' ? 'gambit' : 'strike'} waits for next round (R-C29).`;
    }
  }
  if (intent.action === 'retreat' && input.fromClose === true) {
    const nearest = nearestFoe(ctx, c.id);
    if (nearest !== null && nearest !== 'close') return `${c.name}'s nearest foe is ${bandLabel(nearest)} by the range bands: this is not a retreat from Close (set the band first if it changed).`;
  }
  if (intent.weapon === 'improvised' && intent.improvisedSize === null) return 'Say how big the improvised weapon is: bottle (d6), chair (d8) or table (d10).';
  if ((intent.weapon === 'offhand' || intent.weapon === 'dual') && offhandDie(c) === null) return `${c.name} carries no second weapon.`;
  if (intent.weapon === 'dual' && anyArmLost(c)) return `${c.name} has lost the use of an arm: no dual wielding.`;
  if (intent.weapon === 'main' && intent.die === null && Boolean(c.sheet['twoHanded']) && anyArmLost(c) && isAttack(intent.action)) {
    return `${c.name} has lost the use of an arm and cannot wield a two-handed weapon.`;
  }
  if (intent.action === 'move' && intent.bands === 2 && lostFastMovement(c)) return `${c.name} has lost fast movement: no moving two range bands (R-C6b).`;
  return null;
}

export function whyCannotAct(c: CairnCombatant, options: OptionValues): string {
  if (c.out) return c.out.kind === 'retreated' ? 'retreated' : c.out.kind;
  if (c.incapacitated) return 'incapacitated';
  if (c.unconscious) return 'unconscious';
  if (attributeStopsAction(c, options)) return paralysed(c) ? 'paralysed at DEX 0' : 'delirious at WIL 0';
  return 'unable';
}

export function declare(ctx: CairnContext, input: IntentInput): CairnContext {
  const base = intentFrom(input);
  const intent = deriveIntent(ctx, input.combatantId, base, { move: base.move, fromClose: input.fromClose ?? null }, null);
  return { ...ctx, intents: { ...ctx.intents, [input.combatantId]: intent } };
}

/** CAIRN-01: the order is settled only once every PC who can act has declared. */
export function checkLock(ctx: CairnContext): string | null {
  if (ctx.phase !== 'declare') return 'The intents are already locked.';
  const missing = ctx.roster.filter((id) => {
    const c = ctx.combatants[id]!;
    return c.side === 'party' && canAct(c, ctx.options) && ctx.intents[id] === undefined;
  });
  if (missing.length) return `${missing.map((id) => nameOf(ctx, id)).join(', ')} ${missing.length === 1 ? 'has' : 'have'} not declared an intent yet.`;
  return null;
}
