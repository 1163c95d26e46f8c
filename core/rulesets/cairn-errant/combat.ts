// Cairn-Errant's combat events, their refusals and their reducers (RULES.md §4.3–§4.5): the machine applies these;
// the refusal sentences come from the same checks. The attack pipeline is attack.ts, the moment and its defence
// choices moment.ts, damage and health damage.ts.
import { lastAnswer } from '../../encounter/last-answer.ts';
import { canAct, emptyMoment, nameOf, present, slotsUsed, SLOTS, useImprovised, weaponNow, type Attribute, type Band, type CairnCombatant, type CairnContext, type Severity, type Step, type WoundType,  } from './rules.ts';
import { checkBand, meleeCloses, rederiveIntents } from './bands.ts';
import { saveResult } from './order.ts';
import { takeOut } from './roster.ts';
import {
  type NextStep, attackBackChoices, dead, defenceChoices, defenceFatigue, nextStep, openActions, outOfReach, choosesDefence, defenceOf, reachesToFightBack, type DefenceKind, reactsToAttackBack, strikeGroup, takesDirectStr,
} from './moment.ts';
import {
  applyDamage, critD6Result, die, gainWound, impairAfterSave, locationOf, popStep, pushBack, pushFront, resolveCritD6, resolveCritSave, resolveHitLocation, settleStr, woundRefusal,
} from './damage.ts';
import {
  counterDice, gambitDice, gambitDifficulty, gambitSavePasses, planAttackBack, planStrike, resolveAttackBack, resolveStrike, rollProblem,
} from './attack.ts';
import { rulingsOf } from './options.ts';
import { update } from '../../encounter/roster.ts';


/** A roll inside an event: the faces (rolled by the app or read off physical dice). */
export interface Roll {
  faces: number[];
  source: 'app' | 'manual';
}

export type SaveKind = Attribute;

export type CombatEvent =
  | { type: 'REDIRECT'; targetId: string | null }
  | { type: 'GAMBIT'; save: SaveKind; roll?: Roll | null; saveRoll?: Roll | null }
  | { type: 'ATTACK_BACK'; decision: 'strike' | 'decline'; roll?: Roll | null }
  | { type: 'DEFENSE'; defence: DefenceKind; attackerId?: string | null; defenderId?: string | null }
  | { type: 'STRIKE'; targetId: string; roll?: Roll | null }
  | { type: 'TIE_BREAK'; attackerId: string }
  | { type: 'STR_SAVE'; combatantId: string; roll?: Roll | null }
  | { type: 'CRIT_D6'; combatantId: string; roll?: Roll | null; hpRoll?: Roll | null }
  | { type: 'HIT_LOCATION'; combatantId: string; roll?: Roll | null; strRoll?: Roll | null }
  | { type: 'NPC_CRITICAL'; result: 'dead' | 'out' | 'fightsOn' }
  | { type: 'HEAD_RESULT'; result: 'dies' | 'survives' }
  | { type: 'FIGHT_BACK'; defenderId: string; roll?: Roll | null }
  | { type: 'RETREAT'; combatantId: string; safePlace?: boolean; roll?: Roll | null }
  | { type: 'APPLY_DAMAGE'; targetId: string; amount: number; source: string; attribute?: 'hp' | Attribute; nonLethal?: boolean }
  | { type: 'SET_AWARE'; combatantId: string; aware: boolean }
  | { type: 'SET_BAND'; combatantId: string; band: Band }
  | { type: 'TREAT'; combatantId: string; note?: string }
  | { type: 'GAIN_WOUND'; combatantId: string; woundType: WoundType; choice?: 'worsen' | 'newSlot' | null; severity?: Severity | null; attribute?: Attribute | null; dropItem?: boolean; source: string }
  | { type: 'OVERRIDE'; targetId: string; field: 'hp' | 'str' | 'dex' | 'wil' | 'fatigue' | 'gearSlots' | 'armor' | 'skipPrompt'; value: number; note: string };

// ---- refusals ----

const isStep = <K extends NextStep['kind']>(step: NextStep | null, kind: K): step is Extract<NextStep, { kind: K }> => step?.kind === kind;

function stepSubject(step: NextStep): string {
  switch (step.kind) {
    case 'redirect': return step.actorId;
    case 'gambit': return step.attackerId;
    case 'defence': case 'strike': case 'tie': return step.targetId;
    case 'critSave': case 'critTable': case 'npcCrit': case 'head': return step.id;
    case 'attackBack': return step.by;
    case 'attackBackDefence': case 'attackBackStrike': return step.against;
    case 'fightBack': return step.defenderId;
  }
}

export function stepQuestion(ctx: CairnContext, step: NextStep): string {
  const who = nameOf(ctx, stepSubject(step));
  switch (step.kind) {
    case 'redirect': return `${who}'s target is gone: redirect the action or lose it (R-C4).`;
    case 'gambit': return `${who}'s gambit on ${nameOf(ctx, step.targetId)}: which save does it call for?`;
    case 'defence': {
      const away = step.attackers.filter((id) => !reachesToFightBack(ctx, step.targetId, id)).map((id) => nameOf(ctx, id));
      const note = away.length ? ` (${away.join(', ')} out of reach to fight back or parry, R-C28)` : '';
      return `${who} is attacked by ${step.attackers.map((id) => nameOf(ctx, id)).join(', ')}: how does ${who} react?${note}`;
    }
    case 'strike': return `Roll the damage against ${who}.`;
    case 'tie': return `The highest damage against ${who} is tied: whose weapon lands the blow (R-C20)?`;
    case 'critSave': return `${who} lost STR: roll the STR save against Critical Damage.`;
    case 'critTable': return `${who} suffers critical damage: roll the ${rulingsOf(ctx.options).hitLocations ? 'd10 hit location' : 'd6'}.`;
    case 'npcCrit': return `${who} failed the Critical Damage save: dead, out of the fight, or does it fight on impaired (R-C23)?`;
    case 'head': return `${who} is hit in the head: most likely fatal. Does ${who} die (R-C22)?`;
    case 'attackBack': return `${who} passed the save against ${nameOf(ctx, step.against)}'s gambit and may attack back at once.`;
    case 'attackBackDefence': return `${nameOf(ctx, step.by)} attacks ${who} back: how does ${who} react (R-C17)?`;
    case 'attackBackStrike': return `Roll ${nameOf(ctx, step.by)}'s attack back against ${who}.`;
    case 'fightBack': return `${who} fights back against ${nameOf(ctx, step.attackerId)}: roll ${who}'s damage.`;
  }
}

/** The event that answers each step. */
export const STEP_ANSWER: Record<NextStep['kind'], CombatEvent['type']> = {
  redirect: 'REDIRECT', gambit: 'GAMBIT', defence: 'DEFENSE', strike: 'STRIKE', tie: 'TIE_BREAK', critSave: 'STR_SAVE',
  critTable: 'CRIT_D6', npcCrit: 'NPC_CRITICAL', head: 'HEAD_RESULT', attackBack: 'ATTACK_BACK', fightBack: 'FIGHT_BACK',
  attackBackDefence: 'DEFENSE', attackBackStrike: 'STRIKE',
};
export const answerOf = (ctx: CairnContext, step: NextStep) => (step.kind === 'critTable' && rulingsOf(ctx.options).hitLocations ? 'HIT_LOCATION' : STEP_ANSWER[step.kind]);

const STEP_EVENTS = new Set(['REDIRECT', 'GAMBIT', 'ATTACK_BACK', 'DEFENSE', 'STRIKE', 'TIE_BREAK', 'STR_SAVE', 'CRIT_D6', 'HIT_LOCATION', 'NPC_CRITICAL', 'HEAD_RESULT', 'FIGHT_BACK']);
export const isStepEvent = (type: string) => STEP_EVENTS.has(type);

/** Why the rules refuse a combat event now, or null; asked several times per event (core/encounter/last-answer.ts). */
export const combatRefusal = lastAnswer((ctx: CairnContext, e: CombatEvent): string | null => refusalNow(ctx, e));

function refusalNow(ctx: CairnContext, e: CombatEvent): string | null {
  const step = nextStep(ctx);
  const blocking = step !== null;
  if (isStepEvent(e.type)) {
    if (!step) return 'Nothing is waiting for that answer now.';
    const expected = answerOf(ctx, step);
    const defending = isStep(step, 'defence') ? step.targetId : isStep(step, 'attackBackDefence') ? step.against : null;
    if (e.type === 'DEFENSE' && e.defenderId && e.defenderId !== defending) {
      const asker = ctx.combatants[e.defenderId];
      if (!asker) return 'That combatant is not in this encounter.';
      if (isStep(step, 'attackBack') && step.against === e.defenderId) {
        return reactsToAttackBack(ctx, step.against)
          ? `${asker.name} reacts once ${nameOf(ctx, step.by)} chooses to attack back (R-C17).`
          : `${asker.name} made the gambit: it cannot react to ${nameOf(ctx, step.by)}'s attack back (R-C17).`;
      }
      const striking = (isStep(step, 'fightBack') && step.attackerId === e.defenderId)
        || ((isStep(step, 'attackBackDefence') || isStep(step, 'attackBackStrike')) && step.by === e.defenderId)
        || (isStep(step, 'defence') && step.attackers.includes(e.defenderId)) || (isStep(step, 'strike') && step.attackers.includes(e.defenderId));
      if (striking) return `${asker.name} is the attacker here: an attacking creature cannot react (no endless chains of reactions).`;
      return `${asker.name} is not the one being attacked now.`;
    }
    const critTable = isStep(step, 'critTable') && (e.type === 'CRIT_D6' || e.type === 'HIT_LOCATION');
    if (e.type !== expected && !critTable) return stepQuestion(ctx, step);
    return stepRefusal(ctx, step, e);
  }
  if (blocking && e.type !== 'OVERRIDE') return stepQuestion(ctx, step);
  switch (e.type) {
    case 'RETREAT': {
      if (ctx.phase !== 'resolve') return 'Retreats are made when their moment comes.';
      const c = ctx.combatants[e.combatantId];
      if (!c || !openActions(ctx).includes(e.combatantId)) return `${nameOf(ctx, e.combatantId)} is not retreating at this moment.`;
      if (ctx.intents[e.combatantId]?.action !== 'retreat') return `${c.name} declared no retreat this round.`;
      if (e.safePlace === false) return null; // no save to roll: there is nowhere safe to run to
      return rollProblem([20], e.roll, `${c.name}'s DEX save to retreat`);
    }
    case 'APPLY_DAMAGE': {
      const c = ctx.combatants[e.targetId];
      return present(c) ? null : 'That combatant is not in the fight.';
    }
    case 'SET_AWARE':
      return present(ctx.combatants[e.combatantId]) ? null : 'That combatant is not in the fight.';
    case 'SET_BAND':
      return checkBand(ctx, e.combatantId);
    case 'TREAT': {
      const c = ctx.combatants[e.combatantId];
      if (!c || dead(c)) return 'Only the living can be treated.';
      if (!c.incapacitated || c.deathClock === null) return `${c.name} is not dying: there is no death clock to stop.`;
      if (c.treated) return `${c.name} has already been treated.`;
      return null;
    }
    case 'GAIN_WOUND':
      return woundRefusal(ctx, e);
    case 'OVERRIDE': {
      const c = ctx.combatants[e.targetId];
      if (!c) return 'That combatant is not in this encounter.';
      if (e.field === 'skipPrompt') return step ? null : 'No question is waiting to be set aside.';
      if (!present(c)) return `${c.name} is no longer in the fight.`;
      if (e.field === 'armor' && e.value > 3) return 'Armor is at most 3.';
      if (e.field === 'hp' && e.value > c.hpMax) return `${c.name}'s HP is at most ${c.hpMax}.`;
      if ((e.field === 'str' || e.field === 'dex' || e.field === 'wil') && e.value > c[`${e.field}Max`]) return `${c.name}'s ${e.field.toUpperCase()} is at most ${c[`${e.field}Max`]}.`;
      if (e.field === 'fatigue' && e.value + slotsUsed(c) - c.fatigue > SLOTS) return `${c.name} has only ${SLOTS - slotsUsed(c) + c.fatigue} slots for Fatigue.`;
      return null;
    }
    default:
      return null;
  }
}

function stepRefusal(ctx: CairnContext, step: NextStep, e: CombatEvent): string | null {
  switch (e.type) {
    case 'REDIRECT': {
      if (!isStep(step, 'redirect')) return null;
      if (e.targetId === null) return null;
      const actor = ctx.combatants[step.actorId]!;
      const target = ctx.combatants[e.targetId];
      if (!target || !present(target) || dead(target)) return `${nameOf(ctx, e.targetId)} is not in the fight.`;
      if (target.side === actor.side) return `${target.name} is on ${actor.name}'s own side.`;
      return null;
    }
    case 'GAMBIT': {
      if (!isStep(step, 'gambit')) return null;
      const attacker = nameOf(ctx, step.attackerId);
      return rollProblem(gambitDice(ctx, step.attackerId), e.roll, `${attacker}'s gambit roll`) ?? rollProblem([20], e.saveRoll, `${nameOf(ctx, step.targetId)}'s ${e.save.toUpperCase()} save`);
    }
    case 'ATTACK_BACK':
      if (!isStep(step, 'attackBack') || e.decision === 'decline') return null;
      if (reactsToAttackBack(ctx, step.against)) {
        return e.roll ? `${nameOf(ctx, step.against)} may react to the attack back first (R-C17): roll it once the reaction is chosen.` : null;
      }
      return rollProblem(counterDice(ctx, step.by), e.roll, `${nameOf(ctx, step.by)}'s attack back`);
    case 'DEFENSE': {
      if (!isStep(step, 'defence') && !isStep(step, 'attackBackDefence')) return null;
      const defenderId = isStep(step, 'defence') ? step.targetId : step.against;
      const choices = isStep(step, 'defence') ? defenceChoices(ctx, step.targetId) : attackBackChoices(ctx, step);
      const defence = defenceOf(e);
      const name = nameOf(ctx, defenderId);
      if (!defence) return `Say whom ${name} ${e.defence === 'parry' ? 'parries' : 'fights back against'}.`;
      if (choices.some((c) => choosesDefence(c, defence))) return null;
      if (isStep(step, 'attackBackDefence') && (defence.kind === 'fightBack' || defence.kind === 'parry')) return `${name} can ${defence.kind === 'parry' ? 'parry' : 'fight back against'} only ${nameOf(ctx, step.by)}, who attacks back.`;
      if (defence.kind === 'block' && rulingsOf(ctx.options).blockDodge === 'restrict') return `${name} needs a shield or a balanced or heavy melee weapon to block.`;
      if (defence.kind === 'dodge' && rulingsOf(ctx.options).blockDodge === 'restrict') return `${name} cannot dodge at Armor 3 or with a heavy weapon.`;
      if (defence.kind === 'parry' && isStep(step, 'defence') && strikeGroup(ctx, step.targetId).includes(defence.attackerId)) return outOfReach(ctx, defenderId, defence.attackerId, 'parry');
      if (defence.kind === 'parry') return `${name} can parry only someone attacking ${name} with damage now.`;
      if (defence.kind === 'fightBack' && isStep(step, 'defence') && strikeGroup(ctx, step.targetId).includes(defence.attackerId)) return outOfReach(ctx, defenderId, defence.attackerId);
      return `${name} can fight back only against someone attacking now${rulingsOf(ctx.options).fightBackAgainstGambits ? '' : ' with damage (R-C18)'}.`;
    }
    case 'STRIKE': {
      if (isStep(step, 'attackBackStrike')) {
        if (e.targetId !== step.against) return `Roll ${nameOf(ctx, step.by)}'s attack back against ${nameOf(ctx, step.against)} first.`;
        const plan = planAttackBack(ctx, step);
        return plan.dice.length ? rollProblem(plan.dice, e.roll, `${nameOf(ctx, step.by)}'s attack back`) : null;
      }
      if (!isStep(step, 'strike')) return null;
      if (e.targetId !== step.targetId) return `Resolve the attacks on ${nameOf(ctx, step.targetId)} first.`;
      const plan = planStrike(ctx, step.targetId);
      if (plan.dice.length === 0) return null;
      return rollProblem(plan.dice, e.roll, `The damage roll against ${nameOf(ctx, step.targetId)}`);
    }
    case 'TIE_BREAK':
      if (!isStep(step, 'tie')) return null;
      return step.candidates.includes(e.attackerId) ? null : `${nameOf(ctx, e.attackerId)} is not one of the tied attackers.`;
    case 'STR_SAVE':
      if (!isStep(step, 'critSave')) return null;
      if (e.combatantId !== step.id) return `${nameOf(ctx, step.id)} makes the STR save first.`;
      return rollProblem([20], e.roll, `${nameOf(ctx, step.id)}'s STR save`);
    case 'CRIT_D6':
      if (!isStep(step, 'critTable')) return null;
      if (rulingsOf(ctx.options).hitLocations) return 'This campaign rolls hit locations (d10) instead of the d6.';
      if (e.combatantId !== step.id) return `${nameOf(ctx, step.id)} rolls for critical damage first.`;
      return rollProblem([6], e.roll, 'The critical damage d6') ?? (critD6Result(e.roll!.faces[0]!) === 'notToday' ? rollProblem([4], e.hpRoll, 'The d4 of HP regained') : null);
    case 'HIT_LOCATION':
      if (!isStep(step, 'critTable')) return null;
      if (!rulingsOf(ctx.options).hitLocations) return 'This campaign rolls the d6 critical damage table, not hit locations.';
      if (e.combatantId !== step.id) return `${nameOf(ctx, step.id)} rolls for the hit location first.`;
      return rollProblem([10], e.roll, 'The hit location d10') ?? (locationOf(e.roll!.faces[0]!).location === 'torso' ? rollProblem([4], e.strRoll, 'The d4 of STR lost') : null);
    case 'FIGHT_BACK':
      if (!isStep(step, 'fightBack')) return null;
      if (e.defenderId !== step.defenderId) return `${nameOf(ctx, step.defenderId)} is the one fighting back.`;
      return rollProblem(counterDice(ctx, step.defenderId), e.roll, `${nameOf(ctx, step.defenderId)}'s fight-back damage`);
    default:
      return null;
  }
}

// ---- reducers ----

const markDone = (ctx: CairnContext, ids: string[], lost = false): CairnContext => ({
  ...ctx,
  moment: { ...ctx.moment, done: [...new Set([...ctx.moment.done, ...ids])], lost: lost ? [...new Set([...ctx.moment.lost, ...ids])] : ctx.moment.lost },
});

/** A counter blow (fight back, attack back, parry) was struck with the intent's weapon: an improvised one breaks. */
export const counterWeaponUsed = (ctx: CairnContext, id: string) => (ctx.intents[id]?.action === 'ranged' ? ctx : useImprovised(ctx, id));

/**
 * Source: "Unarmed/non-lethal attacks still do damage to STR, but failing a Critical Damage Save means the target is
 * knocked unconscious instead." A blow struck with empty hands — after the improvised weapon broke, or disarmed by an
 * arm hit — is unarmed too; a declared unarmed attack keeps the declaration's own flag (the GM may call it lethal).
 * `counter`: a fight-back or attack back, struck with the sheet's weapon when the intent was a ranged attack.
 */
export function blowIsNonLethal(ctx: CairnContext, id: string, counter = false): boolean {
  const intent = ctx.intents[id];
  if (intent?.nonLethal) return true;
  const declared = intent && !(counter && intent.action === 'ranged') ? intent : null;
  return weaponNow(ctx, id, declared)?.weapon === 'unarmed' && declared?.weapon !== 'unarmed';
}

/** Counter damage (fight back, attack back): the striker's dice minus the other's Armor, to HP (§4.4 step 4). */
function counterStrike(ctx: CairnContext, by: string, against: string, roll: Roll, defended = false): CairnContext {
  const total = Math.max(...roll.faces);
  const damage = Math.max(0, total - ctx.combatants[against]!.armor);
  return applyDamage(counterWeaponUsed(ctx, by), against, damage, { toStr: takesDirectStr(ctx.combatants[against]!, defended), save: true, nonLethal: blowIsNonLethal(ctx, by, true) });
}

function strike(ctx: CairnContext, targetId: string, roll: Roll | null | undefined): CairnContext {
  const plan = planStrike(ctx, targetId);
  const attackers = plan.attacks.map((a) => a.attackerId);
  // The defence answered this strike; a later one in the same moment (R-C1 off) opens a new window.
  const { [targetId]: _answered, ...defences } = ctx.moment.defences;
  let next = markDone({ ...ctx, moment: { ...ctx.moment, defences } }, attackers);
  // Source: "All improvised weapons break after 1 attack" (a negated attack was made all the same).
  for (const id of attackers) next = useImprovised(next, id);
  if (plan.parry) next = counterWeaponUsed(next, targetId);
  if (plan.dice.length === 0 || !roll) return next;
  const outcome = resolveStrike(ctx, targetId, roll);
  const defence = plan.defence;
  if (outcome.parry) {
    // Parry: straight to STR, no Critical Damage save (§4.4 step 4).
    const p = outcome.parry;
    if (p.result === 'won') next = applyDamage(next, p.attackerId, p.damage, { toStr: true, save: false, nonLethal: false });
    if (p.result === 'lost') next = applyDamage(next, targetId, p.damage, { toStr: true, save: false, nonLethal: false });
  }
  if (outcome.kept) {
    const nonLethal = outcome.kept.attackerIds.every((id) => blowIsNonLethal(ctx, id));
    next = applyDamage(next, targetId, outcome.kept.damage, { toStr: outcome.kept.toStr, save: true, nonLethal });
    if (outcome.kept.attackerIds.length > 1) {
      const blows = Object.fromEntries(outcome.kept.attackerIds.map((id) => [id, blowIsNonLethal(ctx, id)]));
      next = pushFront(next, { kind: 'tie', targetId, candidates: outcome.kept.attackerIds, nonLethal: blows });
    }
  }
  if (defence.kind === 'fightBack' && attackers.includes(defence.attackerId)) next = pushBack(next, { kind: 'fightBack', defenderId: targetId, attackerId: defence.attackerId });
  for (const id of attackers) next = meleeCloses(next, id, targetId);
  return next;
}

/** The attack back lands (R-C17 option: after the gambit user's reaction): a Parry compares, a fight-back follows. */
function attackBackStrike(ctx: CairnContext, step: Extract<Step, { kind: 'attackBackStrike' }>, roll: Roll | null | undefined): CairnContext {
  const plan = planAttackBack(ctx, step);
  const outcome = resolveAttackBack(ctx, plan, roll);
  let next = counterWeaponUsed(popStep(ctx), step.by);
  if (plan.parry) next = counterWeaponUsed(next, step.against);
  const p = outcome.parry;
  if (p?.result === 'won') next = applyDamage(next, step.by, p.damage, { toStr: true, save: false, nonLethal: false });
  else if (p?.result === 'lost') next = applyDamage(next, step.against, p.damage, { toStr: true, save: false, nonLethal: false });
  else if (!p && outcome.total !== null) next = counterStrike(next, step.by, step.against, { faces: [outcome.total], source: roll!.source }, true);
  if (step.defence.kind === 'fightBack') next = pushBack(next, { kind: 'fightBack', defenderId: step.against, attackerId: step.by });
  return next;
}

/** R-C14: a fight-back whose defender is down does not happen; questions about the dead are dropped. */
export function settle(ctx: CairnContext): CairnContext {
  // Runs in every phase: damage dealt between moments can leave questions too.
  const pending = ctx.moment.pending.filter((step) => {
    if (step.kind === 'fightBack') {
      const d = ctx.combatants[step.defenderId]!;
      if (rulingsOf(ctx.options).downedCannotFightBack ? !canAct(d, ctx.options) : !present(d)) return false;
      return present(ctx.combatants[step.attackerId]);
    }
    if (step.kind === 'attackBack' || step.kind === 'attackBackDefence' || step.kind === 'attackBackStrike') return canAct(ctx.combatants[step.by], ctx.options) && present(ctx.combatants[step.against]);
    if (step.kind === 'critSave' || step.kind === 'critTable' || step.kind === 'npcCrit' || step.kind === 'head') return present(ctx.combatants[step.id]);
    return true;
  });
  return pending.length === ctx.moment.pending.length ? ctx : { ...ctx, moment: { ...ctx.moment, pending } };
}

export function applyCombat(ctx: CairnContext, e: CombatEvent): CairnContext {
  return settle(reduce(ctx, e));
}

function reduce(ctx: CairnContext, e: CombatEvent): CairnContext {
  const step = nextStep(ctx);
  switch (e.type) {
    case 'REDIRECT': {
      if (!isStep(step, 'redirect')) return ctx;
      if (e.targetId === null) return markDone(ctx, [step.actorId], true);
      return { ...ctx, intents: { ...ctx.intents, [step.actorId]: { ...ctx.intents[step.actorId]!, targetId: e.targetId } } };
    }
    case 'GAMBIT': {
      if (!isStep(step, 'gambit')) return ctx;
      const target = ctx.combatants[step.targetId]!;
      const difficulty = gambitDifficulty(Math.max(...e.roll!.faces), ctx.options);
      const passes = gambitSavePasses(e.saveRoll!.faces[0]!, target[e.save], difficulty, ctx.options);
      let next = meleeCloses(useImprovised(markDone(ctx, [step.attackerId]), step.attackerId), step.attackerId, step.targetId);
      if (passes && canAct(target, ctx.options)) next = pushFront(next, { kind: 'attackBack', by: step.targetId, against: step.attackerId });
      const defence = ctx.moment.defences[step.targetId];
      if (defence?.kind === 'fightBack' && defence.attackerId === step.attackerId) next = pushBack(next, { kind: 'fightBack', defenderId: step.targetId, attackerId: step.attackerId });
      return next;
    }
    case 'ATTACK_BACK': {
      if (!isStep(step, 'attackBack')) return ctx;
      const next = popStep(ctx);
      if (e.decision === 'decline') return next;
      // R-C17: the gambit user cannot react to the attack back, unless the option lets it (its window comes first).
      if (reactsToAttackBack(ctx, step.against)) return pushFront(next, { kind: 'attackBackDefence', by: step.by, against: step.against });
      return counterStrike(next, step.by, step.against, e.roll!);
    }
    case 'DEFENSE': {
      if (!isStep(step, 'defence') && !isStep(step, 'attackBackDefence')) return ctx;
      const defence = defenceOf(e)!;
      const c = ctx.combatants[isStep(step, 'defence') ? step.targetId : step.against]!;
      const next = update(ctx, c.id, { fatigue: c.fatigue + defenceFatigue(defence, ctx.options) });
      if (isStep(step, 'attackBackDefence')) return pushFront(popStep(next), { kind: 'attackBackStrike', by: step.by, against: step.against, defence });
      return { ...next, moment: { ...next.moment, defences: { ...next.moment.defences, [c.id]: defence } } };
    }
    case 'STRIKE':
      if (isStep(step, 'attackBackStrike')) return attackBackStrike(ctx, step, e.roll);
      return isStep(step, 'strike') ? strike(ctx, step.targetId, e.roll) : ctx;
    case 'TIE_BREAK': {
      if (!isStep(step, 'tie')) return ctx;
      // Only the chosen weapon's tags apply (R-C20): its lethality decides the save that follows (as it was struck:
      // empty hands are unarmed, "Unarmed/non-lethal attacks").
      const nonLethal = step.nonLethal?.[e.attackerId] ?? Boolean(ctx.intents[e.attackerId]?.nonLethal);
      const next = popStep(ctx);
      const pending = next.moment.pending.map((s) => (s.kind === 'critSave' && s.id === step.targetId ? { ...s, nonLethal } : s));
      return { ...next, moment: { ...next.moment, pending } };
    }
    case 'STR_SAVE':
      return isStep(step, 'critSave') ? resolveCritSave(ctx, step, e.roll!) : ctx;
    case 'CRIT_D6':
      return isStep(step, 'critTable') ? resolveCritD6(ctx, step.id, e.roll!.faces[0]!, e.hpRoll?.faces[0] ?? 0) : ctx;
    case 'HIT_LOCATION':
      return isStep(step, 'critTable') ? resolveHitLocation(ctx, step.id, e.roll!.faces[0]!, e.strRoll?.faces[0] ?? 0) : ctx;
    case 'NPC_CRITICAL': {
      if (!isStep(step, 'npcCrit')) return ctx;
      const next = popStep(ctx);
      if (e.result === 'dead') return die(next, step.id, 'critical damage');
      if (e.result === 'out') return takeOut(next, step.id, 'defeated', 'out of the fight after critical damage (R-C23)');
      return impairAfterSave(next, step.id);
    }
    case 'HEAD_RESULT': {
      if (!isStep(step, 'head')) return ctx;
      const next = popStep(ctx);
      return e.result === 'dies' ? die(next, step.id, 'critical damage to the head') : next;
    }
    case 'FIGHT_BACK': {
      if (!isStep(step, 'fightBack')) return ctx;
      return counterStrike(popStep(ctx), step.defenderId, step.attackerId, e.roll!);
    }
    case 'RETREAT': {
      const c = ctx.combatants[e.combatantId]!;
      // Source: "as long as there is a safe place to run to": with none the retreat cannot succeed; the action is lost.
      if (e.safePlace === false) return markDone(ctx, [e.combatantId], true);
      const { passed } = saveResult(e.roll!.faces, c.dex);
      const next = markDone(ctx, [e.combatantId], !passed); // R-C10: a failed save wastes the action; the PC stays
      return passed ? takeOut(next, e.combatantId, 'retreated', 'retreated (DEX save)') : next;
    }
    case 'APPLY_DAMAGE': {
      const c = ctx.combatants[e.targetId]!;
      const attribute = e.attribute ?? 'hp';
      if (attribute === 'hp') return applyDamage(ctx, c.id, e.amount, { toStr: takesDirectStr(c), save: true, nonLethal: Boolean(e.nonLethal) });
      if (attribute === 'str') return applyDamage(ctx, c.id, e.amount, { toStr: true, save: true, nonLethal: Boolean(e.nonLethal) });
      return update(ctx, c.id, { [attribute]: Math.max(0, c[attribute] - e.amount) } as Partial<CairnCombatant>);
    }
    case 'SET_AWARE':
      return update(ctx, e.combatantId, { aware: e.aware });
    case 'SET_BAND':
      return rederiveIntents(update(ctx, e.combatantId, { band: e.band }));
    case 'TREAT': {
      // R-C27: treatment stops the clock; the PC stays out of the fight until healed unless the option says otherwise.
      const staysOut = rulingsOf(ctx.options).treatedStaysOut;
      return update(ctx, e.combatantId, { deathClock: null, treated: true, incapacitated: staysOut });
    }
    case 'GAIN_WOUND':
      return gainWound(ctx, e);
    case 'OVERRIDE': {
      if (e.field === 'skipPrompt') return skipStep(ctx);
      const c = ctx.combatants[e.targetId]!;
      const next = update(ctx, c.id, { [e.field]: e.value } as Partial<CairnCombatant>);
      return e.field === 'str' ? settleStr(next, c.id) : next;
    }
  }
}

/** The GM sets the waiting question aside (logged): a follow-up is dropped, an action is resolved at the table. */
function skipStep(ctx: CairnContext): CairnContext {
  const step = nextStep(ctx);
  if (!step) return ctx;
  if (ctx.moment.pending.length) return popStep(ctx);
  switch (step.kind) {
    case 'redirect': return markDone(ctx, [step.actorId], true);
    case 'gambit': return markDone(ctx, [step.attackerId]);
    case 'defence': return { ...ctx, moment: { ...ctx.moment, defences: { ...ctx.moment.defences, [step.targetId]: { kind: 'none' } } } };
    case 'strike': return markDone(ctx, step.attackers);
    default: return ctx;
  }
}

/** Opens the next moment: those who can no longer act lose their action. */
export function advanceMoment(ctx: CairnContext): CairnContext {
  return { ...ctx, cursor: ctx.cursor + 1, moment: emptyMoment() };
}

/** END_TURN closes the moment: actions played out at the table (moves, spells...) count as done. */
export function closeMomentRefusal(ctx: CairnContext): string | null {
  if (ctx.phase === 'declare') return 'Declare every intent and lock them first.';
  if (ctx.phase === 'order') return 'Roll the initiative DEX saves first.';
  const step = nextStep(ctx);
  if (step) return stepQuestion(ctx, step);
  const retreat = openActions(ctx).find((id) => ctx.intents[id]?.action === 'retreat');
  if (retreat) return `${nameOf(ctx, retreat)}'s retreat needs its DEX save first.`;
  return null;
}
