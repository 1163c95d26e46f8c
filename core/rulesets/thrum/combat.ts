// Thrum's combat events and what the rules make of them (RULES.md §5.2–§5.5): the combat events' shapes, the
// sentence when the rules refuse one now, and the new context after an accepted one. The concerns it draws on have
// their own files: the attack pipeline (attack.ts), movement (movement.ts), health (health.ts), the turn (turn.ts).
import { lastAnswer } from '../../encounter/last-answer.ts';
import { nameOf, update } from '../../encounter/roster.ts';
import { defenceLabel, contestRolled, contestDice, contestRollProblem, defenceChoices, targetCover, isAreaAttack, attackTargets, areaProblem, planAttack, takeEffect, contestTier, outcomeOf, advanceAttack } from './attack.ts';
import { distance, inStartingArea, onBoard, sameSquare, squareLabel, type Square } from './grid.ts';
import { statusName, addStatus, removeStatus, floor, isFoe, possessive, sumFaces, occupants, stunnedSkipsAction, becomeIncapacitated, setLoad } from './health.ts';
import { planMove, planForcedMove } from './movement.ts';
import { activeId, inFight, pop, push, replaceTop, rollProblem, type DefenceKind, type Frame, type Roll, type ThrumContext, type Tier } from './rules.ts';
import { settle } from './turn.ts';
import { rulingsOf } from './options.ts';

/**
 * A drop roll made with dice (R-H11): the mover's Endurance or Reflex roll, "their choice", against the environment,
 * "which has an opposition level equal to the difference in elevation". Each is 2d6, rolled by the app or typed.
 */
export interface DropDice { roll: 'endurance' | 'reflex'; dice?: Roll | null; environment?: Roll | null }
/** How the mover takes a drop: pays the movement, rolls the dice, or (R-H11 `countsToCoreRules`) the GM's result. */
export type DropChoice = 'pay' | 'success' | 'failure' | DropDice;
/** A forced drop of two or more levels is always rolled for (the mover has no movement to pay with). */
export type DropRoll = 'success' | 'failure' | DropDice;

/** A second buff on a target: keep the one it has, or take the new one (one buff per target). */
export type BuffDecision = 'keepOld' | 'takeNew';

export type OverrideField = 'fatigueLoad' | 'stressLoad' | 'fatigueTolerance' | 'stressTolerance' | 'wounds' | 'incapacitated' | 'moved' | 'acted' | 'prompt';

export type CombatEvent =
  | { type: 'PANIC_ROLL'; combatantId: string; roll?: Roll | null }
  | { type: 'INCAPACITY_ROLL'; combatantId: string; roll?: Roll | null }
  | { type: 'MOVE'; squares?: number | null; path?: Square[] | null; drops?: DropChoice[] | null; teleport?: boolean; note?: string }
  | {
      type: 'FORCED_MOVE'; combatantId: string; squares?: number | null; path?: Square[] | null; drops?: DropRoll[] | null;
      drop?: 'none' | 'success' | 'failure' | 'endurance' | 'reflex' | null; levels?: number | null; source?: string;
      /** Without a map, a drop rolled with dice: the mover's roll and the environment's. */
      dropDice?: Roll | null; environmentDice?: Roll | null;
    }
  | {
      type: 'ATTACK'; attackerId: string; ability: string; attackType: 'physical' | 'mental'; art?: number | null;
      targets: { targetId: string; cover?: boolean | null }[]; covered?: string[] | null; range?: number | null; ranged?: boolean; finisher?: boolean; area?: boolean;
      /** An area attack's squares (Area, Line or Aura on the map): range and obstruction are judged on them, everyone inside is a target. */
      squares?: Square[] | null;
      adjacentEnemies?: number | null; overexert?: number | null; fatigue: number; stress: number;
      statuses?: { status: string; stacks: number }[]; extraBoons?: number; extraBanes?: number;
      removesExhaustion?: boolean; movesAfter?: boolean; note?: string;
    }
  | { type: 'DEFENSE_CHOICE'; defence: DefenceKind }
  /**
   * The contest for the current target: the attack roll against the defence roll (R-H11, rolled by the app or typed),
   * `outcome` omitted or `roll`; or, when the GM resolves it (R-H11 `countsToCoreRules`, an ability's alternative
   * defence, and every event stored before the contest was rolled), the outcome tier as `outcome`.
   */
  | { type: 'DEFENSE_RESULT'; outcome?: Tier | 'roll' | null; attackRoll?: Roll | null; defenceRoll?: Roll | null }
  | {
      type: 'USE_ABILITY'; ability: string; overexert?: number | null; removesExhaustion?: boolean; movesAfter?: boolean;
      buffTargetId?: string | null; terrainEffect?: boolean; note?: string;
    }
  | { type: 'RESUSCITATE'; targetId: string }
  | { type: 'BUFF_CHOICE'; decision: BuffDecision }
  | { type: 'SET_STANCE'; stance: string }
  | { type: 'POSITION'; square: Square }
  | { type: 'TRIGGER'; trigger: string; effects: { ownerId: string; effect?: string | null }[] }
  | { type: 'RESOLVE_TRIGGER'; ownerId: string }
  | { type: 'APPLY_LOAD'; targetId: string; load: 'fatigue' | 'stress'; amount: number; source: string }
  | { type: 'APPLY_STATUS'; targetId: string; status: string; stacks: number; ticks?: boolean | null; source: string }
  | { type: 'CLEAR_STATUS'; targetId: string; status: string; stacks?: number | null }
  | { type: 'SET_POSITION'; combatantId: string; square: Square | null; note: string }
  | { type: 'OVERRIDE'; targetId: string; field: OverrideField; value: number; note: string };

export type Stage = 'roundZero' | 'rounds';

// ---- refusals: a sentence when the rules forbid the event now ----

/** The question the top of the stack is asking, for the prompt and for refusals. */
export function frameQuestion(ctx: ThrumContext, frame: Frame): string {
  switch (frame.kind) {
    case 'attack': {
      const attack = frame.attack;
      const target = attack.targets[attack.current]!;
      const who = nameOf(ctx, target.targetId);
      return target.defence === null
        ? `${who} chooses a defence against ${possessive(nameOf(ctx, attack.attackerId))} ${attack.ability} before the roll`
        : `the outcome of ${possessive(who)} ${defenceLabel(target.defence)} roll against ${possessive(nameOf(ctx, attack.attackerId))} ${attack.ability}`;
    }
    case 'roll':
      return `${possessive(nameOf(ctx, frame.id))} ${frame.roll === 'panic' ? 'Panic' : 'Incapacity'} Roll`;
    case 'trigger':
      return `${possessive(nameOf(ctx, frame.ownerId))} triggered effect (${frame.effect}) to resolve`;
    case 'buff':
      return `${nameOf(ctx, frame.targetId)} to keep the old buff or take ${frame.name}`;
  }
}

function needTurnAction(ctx: ThrumContext, stage: Stage, what: string): string | null {
  const id = activeId(ctx);
  const actor = ctx.combatants[id ?? ''];
  if (!actor) return `${what} happens on a combatant's turn.`;
  if (stage === 'roundZero') return 'Round Zero has no actions: position and take a stance only.';
  if (actor.incapacitated) return `${actor.name} is Incapacitated: no movement, Action or Stance.`;
  if (ctx.turn.stanceTaken) return `${actor.name} has taken a stance: the Move and Action steps are over.`;
  if (ctx.turn.acted) return `${actor.name} has already taken this turn's Action.`;
  if (stunnedSkipsAction(ctx, actor)) return `${actor.name} is Stunned and skips the Action this turn (R-H6).`;
  return null;
}

function overexertProblem(ctx: ThrumContext, amount: number | null | undefined): string | null {
  if (amount === null || amount === undefined || amount === 0) return null;
  return Number.isInteger(amount) && amount > 0 && amount <= 10 ? null : 'Overexert takes 1 to 10 Stress.';
}

/** Why the rules refuse a combat event now, or null; asked several times per event (core/encounter/last-answer.ts). */
export const combatRefusal = lastAnswer((ctx: ThrumContext, e: CombatEvent, stage: Stage): string | null => refusalNow(ctx, e, stage));

function refusalNow(ctx: ThrumContext, e: CombatEvent, stage: Stage): string | null {
  const top = ctx.stack.at(-1);
  if (top) {
    const problem = blockedBy(ctx, top, e);
    if (problem) return problem;
  }
  const actorId = activeId(ctx);
  const actor = ctx.combatants[actorId ?? ''];
  switch (e.type) {
    case 'PANIC_ROLL':
    case 'INCAPACITY_ROLL': {
      const kind = e.type === 'PANIC_ROLL' ? 'panic' : 'incapacity';
      if (!top || top.kind !== 'roll' || top.roll !== kind || top.id !== e.combatantId) return `No ${kind === 'panic' ? 'Panic' : 'Incapacity'} Roll is due from ${nameOf(ctx, e.combatantId)}.`;
      return rollProblem(e.roll, `${possessive(nameOf(ctx, e.combatantId))} ${kind === 'panic' ? 'Panic' : 'Incapacity'} Roll`);
    }
    case 'MOVE': {
      if (!actor) return 'Moving happens on a combatant\'s turn.';
      if (stage === 'roundZero') return 'Round Zero has no movement: take a starting position instead.';
      if (actor.incapacitated) return `${actor.name} is Incapacitated: no movement, Action or Stance.`;
      if (ctx.turn.stanceTaken) return `${actor.name} has taken a stance: the Move and Action steps are over.`;
      if (ctx.turn.movementClosed) return `${actor.name} stopped moving to act: no more movement unless the action allows it.`;
      return planMove(ctx, actor, e).problem;
    }
    case 'FORCED_MOVE': {
      const moved = ctx.combatants[e.combatantId];
      if (!inFight(moved)) return 'That character is not in the fight.';
      if (stage === 'roundZero') return 'Round Zero has no actions, so nobody is moved by force; use a GM placement to correct a square.';
      return planForcedMove(ctx, e).problem;
    }
    case 'ATTACK': {
      const attacker = ctx.combatants[e.attackerId];
      if (!inFight(attacker)) return 'The attacker is not in the fight.';
      const triggered = top?.kind === 'trigger';
      if (!triggered) {
        if (e.attackerId !== actorId) return `It is not ${attacker.name}'s turn: out of turn only a stance's triggered effect can attack.`;
        const problem = needTurnAction(ctx, stage, 'Attacking');
        if (problem) return problem;
      }
      if (attacker.incapacitated) return `${attacker.name} is Incapacitated and cannot act.`;
      const area = isAreaAttack(e);
      if (e.targets.length === 0 && !e.squares?.length) return 'Choose at least one target.';
      if (new Set(e.targets.map((t) => t.targetId)).size !== e.targets.length) return 'Each target is listed once.';
      for (const t of e.targets) {
        const target = ctx.combatants[t.targetId];
        if (!inFight(target)) return `${nameOf(ctx, t.targetId)} is not in the fight.`;
        if (target.id === attacker.id && !area) return `${attacker.name} cannot attack themself.`;
        // An area's range is judged on its squares, not per target (areaProblem).
        if (!area && e.range !== null && e.range !== undefined && attacker.position && target.position) {
          const d = distance(attacker.position, target.position);
          if (d > e.range) return `${target.name} is ${d} squares away: beyond Range ${e.range}.`;
        }
        if (!area && targetCover(ctx, attacker, target, e.attackType, t.cover).obstructed) {
          return `The path to ${target.name} is Obstructed: this attack cannot target them (an area may still reach them).`;
        }
        if (e.squares?.length && !(target.position && e.squares.some((s) => sameSquare(s, target.position!)))) {
          return `${target.name} stands outside the area: an area's targets are the characters inside it.`;
        }
      }
      const areaRefusal = area ? areaProblem(ctx, attacker, e) : null;
      if (areaRefusal) return areaRefusal;
      if (e.squares?.length && attackTargets(ctx, e).length === 0) return 'Nobody stands in the area.';
      const notTarget = (e.covered ?? []).find((id) => !e.targets.some((t) => t.targetId === id));
      if (notTarget) return `Cover is marked on ${nameOf(ctx, notTarget)}, who is not a target of this attack.`;
      // R-H10: an area hits every character inside, allies included, unless the campaign's ruling spares them.
      const ally = area && !rulingsOf(ctx.options).areasHitAllies ? e.targets.map((t) => ctx.combatants[t.targetId]!).find((t) => !isFoe(t, attacker)) : undefined;
      if (ally) return `${ally.name} is ${possessive(attacker.name)} ally, and this campaign's areas spare allies (R-H10).`;
      if (e.fatigue + e.stress + (e.statuses?.length ?? 0) === 0) return 'Say what the attack deals: Fatigue, Stress or a status.';
      return overexertProblem(ctx, e.overexert);
    }
    case 'DEFENSE_CHOICE': {
      if (!top || top.kind !== 'attack') return 'No attack is waiting for a defence.';
      const attack = top.attack;
      const target = attack.targets[attack.current]!;
      if (target.defence !== null) return `${nameOf(ctx, target.targetId)} has already chosen ${defenceLabel(target.defence)}.`;
      if (!defenceChoices(attack.attackType).includes(e.defence)) {
        return `Against a ${attack.attackType} attack the defence is ${attack.attackType === 'physical' ? 'Resilience or Evasion' : 'Resolve or Evasion'} (or an ability's alternative).`;
      }
      return null;
    }
    case 'DEFENSE_RESULT': {
      if (!top || top.kind !== 'attack') return 'No attack is waiting for a result.';
      const attack = top.attack;
      const target = attack.targets[attack.current]!;
      if (target.defence === null) return `${nameOf(ctx, target.targetId)} must choose a defence before the attack is rolled.`;
      const id = e.outcome ?? 'roll';
      if (contestRolled(ctx, target.defence)) {
        // R-H11: the dice decide; the attack roll and the defence roll are rolled by the app or typed in.
        if (id !== 'roll') return 'The dice decide this contest (R-H11): roll the attack and the defence, or type their faces, instead of giving the outcome.';
        const dice = contestDice(ctx, attack, target);
        return contestRollProblem(e.attackRoll, dice.attack, `${possessive(nameOf(ctx, attack.attackerId))} attack roll`)
          ?? contestRollProblem(e.defenceRoll, dice.defence, `${possessive(nameOf(ctx, target.targetId))} ${defenceLabel(target.defence)} roll`);
      }
      if (id === 'roll') {
        return target.defence === 'alternative'
          ? `${possessive(nameOf(ctx, target.targetId))} defence comes from an ability: give the outcome it gives (critical, success or failure).`
          : 'This campaign hands the contest to the core rules (R-H11): give the outcome tier.';
      }
      if (id === 'critical' && target.defence !== 'evasion' && target.defence !== 'alternative') return `Only Evasion has a critical outcome; ${defenceLabel(target.defence)} succeeds or fails.`;
      return null;
    }
    case 'USE_ABILITY': {
      const problem = needTurnAction(ctx, stage, 'An ability');
      if (problem) return problem;
      if (e.buffTargetId) {
        const target = ctx.combatants[e.buffTargetId];
        if (!inFight(target)) return 'The buff\'s target is not in the fight.';
      }
      return overexertProblem(ctx, e.overexert);
    }
    case 'RESUSCITATE': {
      const problem = needTurnAction(ctx, stage, 'Resuscitate');
      if (problem) return problem;
      const target = ctx.combatants[e.targetId];
      if (!inFight(target)) return 'That character is not in the fight.';
      if (target.id === actorId) return 'Resuscitate targets another character.';
      if (!target.incapacitated) return `${target.name} is not Incapacitated.`;
      return null;
    }
    case 'BUFF_CHOICE':
      return top?.kind === 'buff' ? null : 'No buff is waiting for a choice.';
    case 'SET_STANCE': {
      if (!actor) return 'A stance is taken on a combatant\'s turn.';
      if (actor.incapacitated) return `${actor.name} is Incapacitated and cannot take a stance.`;
      if (ctx.turn.stanceTaken) return `${actor.name} has already taken a stance this turn: one stance at a time.`;
      return null;
    }
    case 'POSITION': {
      if (stage !== 'roundZero') return 'Starting positions are taken in Round Zero; later, move or use a GM placement.';
      if (!actor) return 'Positions are taken on a combatant\'s turn.';
      if (!actor.pc && rulingsOf(ctx.options).roundZeroNpcs !== 'positionToo') return `${actor.name} was placed by the GM before initiative: in Round Zero NPCs only choose a stance (R-H2).`;
      if (!ctx.board) return 'No map is set for this encounter.';
      if (!onBoard(ctx.board, e.square)) return `${squareLabel(e.square)} is off the map.`;
      if (actor.pc && !inStartingArea(ctx.board, e.square)) return `${squareLabel(e.square)} is outside the Starting Area.`;
      const occupant = occupants(ctx).find((o) => o.id !== actor.id && sameSquare(o.square, e.square));
      return occupant ? `${nameOf(ctx, occupant.id)} already stands on ${squareLabel(e.square)}.` : null;
    }
    case 'TRIGGER': {
      if (stage !== 'rounds') return 'Triggered effects happen from round 1.';
      if (e.effects.length === 0) return 'Name at least one triggered effect.';
      for (const effect of e.effects) {
        const owner = ctx.combatants[effect.ownerId];
        if (!inFight(owner)) return `${nameOf(ctx, effect.ownerId)} is not in the fight.`;
        // source: Incapacitated characters "cannot move, act, or take stances until they are no longer Incapacitated".
        if (owner.incapacitated) return `${owner.name} is Incapacitated and cannot act, so no triggered effect of theirs resolves.`;
        if (owner.id !== actorId && owner.stance === null) return `${owner.name} has no stance: out of turn only a current stance's triggered effect can act.`;
      }
      return null;
    }
    case 'RESOLVE_TRIGGER':
      if (!top || top.kind !== 'trigger') return 'No triggered effect is waiting.';
      return top.ownerId === e.ownerId ? null : `${possessive(nameOf(ctx, top.ownerId))} triggered effect resolves first (last in, first out).`;
    case 'APPLY_LOAD':
      if (!inFight(ctx.combatants[e.targetId])) return 'That character is not in the fight.';
      return e.amount === 0 ? 'A load changes by at least 1.' : null;
    case 'APPLY_STATUS':
    case 'CLEAR_STATUS': {
      const target = ctx.combatants[e.targetId];
      if (!inFight(target)) return 'That character is not in the fight.';
      if (statusName(e.status).length === 0) return 'Name the status.';
      if (['Frayed', 'Exhausted'].includes(statusName(e.status))) return `${statusName(e.status)} is computed from the loads, not set.`;
      if (statusName(e.status) === 'Incapacitated') return 'Incapacitated comes from a failed Incapacity Roll; a GM override can set it.';
      if (e.type === 'CLEAR_STATUS' && !target.statuses[statusName(e.status)]) return `${target.name} is not ${statusName(e.status)}.`;
      return null;
    }
    case 'SET_POSITION': {
      const c = ctx.combatants[e.combatantId];
      if (!inFight(c)) return 'That character is not in the fight.';
      if (e.square === null) return null;
      if (!ctx.board) return 'No map is set for this encounter.';
      if (!onBoard(ctx.board, e.square)) return `${squareLabel(e.square)} is off the map.`;
      const occupant = occupants(ctx).find((o) => o.id !== c.id && sameSquare(o.square, e.square!));
      return occupant ? `${nameOf(ctx, occupant.id)} already stands on ${squareLabel(e.square)}.` : null;
    }
    case 'OVERRIDE': {
      const target = ctx.combatants[e.targetId];
      if (!inFight(target)) return 'That character is not in the fight.';
      if (e.field === 'prompt' && !top) return 'Nothing is waiting to be set aside.';
      if ((e.field === 'moved' || e.field === 'acted') && actorId !== target.id) return `${target.name} is not acting now.`;
      if (e.field === 'wounds' && e.value > 3) return 'Wounds go from 0 to 3.';
      if ((e.field === 'incapacitated' || e.field === 'acted') && e.value > 1) return 'Use 1 for yes and 0 for no.';
      return null;
    }
  }
}

/** While a decision is pending only its answer (and what may interrupt it) is accepted (§6.8). */
function blockedBy(ctx: ThrumContext, top: Frame, e: CombatEvent): string | null {
  if (e.type === 'OVERRIDE') return null;
  const waiting = `Waiting for ${frameQuestion(ctx, top)}.`;
  switch (top.kind) {
    case 'attack':
      return ['DEFENSE_CHOICE', 'DEFENSE_RESULT', 'TRIGGER'].includes(e.type) ? null : waiting;
    case 'roll':
      return e.type === (top.roll === 'panic' ? 'PANIC_ROLL' : 'INCAPACITY_ROLL') ? null : waiting;
    case 'buff':
      return e.type === 'BUFF_CHOICE' ? null : waiting;
    case 'trigger':
      if (e.type === 'ATTACK') return e.attackerId === top.ownerId ? null : `Only ${nameOf(ctx, top.ownerId)} acts now, resolving a triggered effect.`;
      return ['TRIGGER', 'RESOLVE_TRIGGER', 'APPLY_LOAD', 'APPLY_STATUS', 'CLEAR_STATUS', 'SET_POSITION', 'FORCED_MOVE'].includes(e.type) ? null : waiting;
  }
}

/** Out of turn only a current stance's Triggered Effect can act (§5.2 rule 5), so an unnamed effect is the stance's. */
export function defaultTriggeredEffect(ctx: ThrumContext, ownerId: string): string {
  const stance = ctx.combatants[ownerId]?.stance;
  return stance ? `${stance} (stance)` : 'a triggered effect';
}

/** One pending decision in a few words, for the stack shown with a triggered effect (top first). */
export function stackEntry(ctx: ThrumContext, frame: Frame): string {
  switch (frame.kind) {
    case 'trigger':
      return `${possessive(nameOf(ctx, frame.ownerId))} ${frame.effect} (trigger: ${frame.trigger})`;
    case 'attack':
      return `the rest of ${possessive(nameOf(ctx, frame.attack.attackerId))} ${frame.attack.ability}`;
    case 'roll':
      return `${possessive(nameOf(ctx, frame.id))} ${frame.roll === 'panic' ? 'Panic' : 'Incapacity'} Roll`;
    case 'buff':
      return `${possessive(nameOf(ctx, frame.targetId))} buff choice`;
  }
}

// ---- reducers: the new context after an accepted event ----

/** Initiative-order position, for triggered effects on a common trigger (§5.2 rule 6). */
const orderIndex = (ctx: ThrumContext, id: string) => {
  const i = ctx.order.indexOf(id);
  return i === -1 ? ctx.order.length : i;
};

function startAction(ctx: ThrumContext, actorId: string, removesExhaustion: boolean, movesAfter: boolean): ThrumContext {
  return {
    ...ctx,
    action: { actorId, removesExhaustion },
    turn: { ...ctx.turn, acted: true, begun: true, movementClosed: ctx.turn.movementClosed || !movesAfter },
  };
}

function overexert(ctx: ThrumContext, id: string, amount: number | null | undefined): ThrumContext {
  if (!amount) return ctx;
  // Overexert: the Stress is taken at declaration, before any roll (§5.3).
  return update(ctx, id, { stressLoad: ctx.combatants[id]!.stressLoad + amount });
}

export function applyCombat(ctx: ThrumContext, e: CombatEvent): ThrumContext {
  return settle(reduce(ctx, e));
}

function reduce(ctx: ThrumContext, e: CombatEvent): ThrumContext {
  switch (e.type) {
    case 'PANIC_ROLL': {
      const c = ctx.combatants[e.combatantId]!;
      const next = { ...pop(ctx), turn: { ...ctx.turn, begun: ctx.turn.begun || activeId(ctx) === e.combatantId } };
      if (sumFaces(e.roll!) + c.resolve > c.stressLoad) return next;
      // R-H5, in list order: Stunned; Stress Load added to Fatigue Load and reset; Stress Tolerance −1.
      const stunned = addStatus(next, e.combatantId, 'Stunned', 1);
      const s = stunned.combatants[e.combatantId]!;
      return update(stunned, e.combatantId, { fatigueLoad: s.fatigueLoad + s.stressLoad, stressLoad: 0, stressTolerance: floor(s.stressTolerance - 1) });
    }
    case 'INCAPACITY_ROLL': {
      const c = ctx.combatants[e.combatantId]!;
      const next = pop(ctx);
      return sumFaces(e.roll!) + c.resilience > c.fatigueLoad ? next : becomeIncapacitated(next, e.combatantId);
    }
    case 'MOVE': {
      const mover = ctx.combatants[activeId(ctx)!]!;
      const plan = planMove(ctx, mover, e);
      let next: ThrumContext = { ...ctx, turn: { ...ctx.turn, begun: true, moved: ctx.turn.moved + plan.cost, movementClosed: ctx.turn.movementClosed || plan.stopped } };
      if (plan.end) next = update(next, mover.id, { position: plan.end });
      if (plan.slowed) next = addStatus(next, mover.id, 'Slowed', plan.slowed);
      if (plan.dazed) next = addStatus(next, mover.id, 'Dazed', 1);
      return next;
    }
    case 'FORCED_MOVE': {
      const plan = planForcedMove(ctx, e);
      let next = plan.end ? update(ctx, e.combatantId, { position: plan.end }) : ctx;
      if (plan.slowed) next = addStatus(next, e.combatantId, 'Slowed', plan.slowed);
      if (plan.dazed) next = addStatus(next, e.combatantId, 'Dazed', plan.dazed);
      // A failed drop that meets the lowered Speed: the mover cannot move further this turn.
      if (plan.dazed && activeId(next) === e.combatantId) next = { ...next, turn: { ...next.turn, movementClosed: true } };
      return next;
    }
    case 'ATTACK': {
      const triggered = ctx.stack.at(-1)?.kind === 'trigger';
      let next = triggered ? ctx : startAction(ctx, e.attackerId, Boolean(e.removesExhaustion), Boolean(e.movesAfter));
      next = overexert(next, e.attackerId, e.overexert);
      next = push(next, { kind: 'attack', attack: planAttack(next, e, triggered) });
      return advanceAttack(next);
    }
    case 'DEFENSE_CHOICE': {
      const frame = ctx.stack.at(-1) as Extract<Frame, { kind: 'attack' }>;
      const attack = frame.attack;
      const targets = attack.targets.map((t, i) => (i === attack.current ? { ...t, defence: e.defence } : t));
      return replaceTop(ctx, { kind: 'attack', attack: { ...attack, targets } });
    }
    case 'DEFENSE_RESULT': {
      const frame = ctx.stack.at(-1) as Extract<Frame, { kind: 'attack' }>;
      const attack = frame.attack;
      const target = attack.targets[attack.current]!;
      const tier = contestTier(ctx, attack, target, e);
      const { takes, vulnerable } = outcomeOf(target.defence, tier);
      let next = takes ? takeEffect(ctx, attack, target.targetId) : ctx;
      if (vulnerable) next = addStatus(next, target.targetId, 'Vulnerable', 1);
      const targets = attack.targets.map((t, i) => (i === attack.current ? { ...t, tier } : t));
      next = replaceTop(next, { kind: 'attack', attack: { ...attack, targets, current: attack.current + 1 } });
      return advanceAttack(next);
    }
    case 'USE_ABILITY': {
      const actorId = activeId(ctx)!;
      let next = startAction(ctx, actorId, Boolean(e.removesExhaustion), Boolean(e.movesAfter));
      next = overexert(next, actorId, e.overexert);
      // One Terrain Effect per creator: a new one replaces the old (§5.3).
      if (e.terrainEffect) next = update(next, actorId, { terrainEffect: e.ability });
      if (e.buffTargetId) {
        const target = next.combatants[e.buffTargetId]!;
        // One buff per target: a target that already has one chooses to keep it or take the new one (§5.3).
        if (target.buff) next = push(next, { kind: 'buff', targetId: target.id, fromId: actorId, name: e.ability });
        else next = update(next, target.id, { buff: { name: e.ability, fromId: actorId } });
      }
      return next;
    }
    case 'RESUSCITATE': {
      const next = startAction(ctx, activeId(ctx)!, false, false);
      return update(next, e.targetId, { incapacitated: false });
    }
    case 'BUFF_CHOICE': {
      const frame = ctx.stack.at(-1) as Extract<Frame, { kind: 'buff' }>;
      const next = pop(ctx);
      return e.decision === 'takeNew' ? update(next, frame.targetId, { buff: { name: frame.name, fromId: frame.fromId } }) : next;
    }
    case 'SET_STANCE': {
      const id = activeId(ctx)!;
      return update({ ...ctx, turn: { ...ctx.turn, begun: true, stanceTaken: true, acted: true, movementClosed: true } }, id, { stance: e.stance });
    }
    case 'POSITION':
      return update({ ...ctx, turn: { ...ctx.turn, begun: true } }, activeId(ctx)!, { position: e.square });
    case 'TRIGGER': {
      // Effects on one trigger resolve top-down in initiative order: the first in order goes on top (§5.2 rule 6).
      const frames: Frame[] = [...e.effects]
        .sort((a, b) => orderIndex(ctx, a.ownerId) - orderIndex(ctx, b.ownerId))
        .map((f) => ({ kind: 'trigger', ownerId: f.ownerId, trigger: e.trigger, effect: f.effect?.trim() || defaultTriggeredEffect(ctx, f.ownerId) }));
      return push(ctx, ...frames.reverse());
    }
    case 'RESOLVE_TRIGGER':
      return pop(ctx);
    case 'APPLY_LOAD': {
      const c = ctx.combatants[e.targetId]!;
      return setLoad(ctx, e.targetId, e.load, (e.load === 'fatigue' ? c.fatigueLoad : c.stressLoad) + e.amount);
    }
    case 'APPLY_STATUS':
      return addStatus(ctx, e.targetId, e.status, e.stacks, e.ticks);
    case 'CLEAR_STATUS':
      return removeStatus(ctx, e.targetId, e.status, e.stacks);
    case 'SET_POSITION':
      return update(ctx, e.combatantId, { position: e.square });
    case 'OVERRIDE':
      return override(ctx, e);
  }
}

function override(ctx: ThrumContext, e: Extract<CombatEvent, { type: 'OVERRIDE' }>): ThrumContext {
  const id = e.targetId;
  const c = ctx.combatants[id]!;
  switch (e.field) {
    case 'fatigueLoad': return setLoad(ctx, id, 'fatigue', e.value);
    case 'stressLoad': return setLoad(ctx, id, 'stress', e.value);
    case 'fatigueTolerance': return update(ctx, id, { fatigueTolerance: e.value });
    case 'stressTolerance': return update(ctx, id, { stressTolerance: e.value });
    case 'wounds': return update(ctx, id, { wounds: e.value, woundsHere: c.woundsHere.filter((w) => w.n <= e.value) });
    case 'incapacitated': return update(ctx, id, { incapacitated: e.value === 1, ...(e.value === 1 ? { stance: null } : {}) });
    case 'moved': return { ...ctx, turn: { ...ctx.turn, moved: e.value } };
    case 'acted': return { ...ctx, turn: { ...ctx.turn, acted: e.value === 1 } };
    case 'prompt': {
      // The way out of a blocking decision: the GM sets it aside (an attack loses its remaining targets).
      const next = pop(ctx);
      return next;
    }
  }
}

