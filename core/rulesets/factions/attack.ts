// Factions' attack pipeline (RULES.md §3.4): the declaration and its refusals, the stunt offer, the damage roll
// and its resolution (the counter's order R-F13, armour R-F17, gear R-F18), the final blow. The reaction windows
// between declaration and damage are in reactions.ts.
import { nameOf, update } from '../../encounter/roster.ts';
import type { CombatEvent } from './combat.ts';
import { afterArmour, armourOf, attackerProblem, attackSpecOf, blastZone, d20Problem, damageDice, type DamageDice, diceProblem, faces, hiddenTargets, isMoving, keptFace, legalityProblem, nearby, passes, reactorProblem, saveReasons } from './attack-spec.ts';
import { applyHarm, heavyHit, markUsed, weaponBreaks } from './health.ts';
import { openWindows } from './reactions.ts';
import type { AttackSpec, FactionsCombatant, FactionsContext, PendingAttack, PendingTarget, Roll } from './rules.ts';
import { gone, releaseGrabs, say, standing } from './rules.ts';
import { letGoUnless, mainProblem, reveal, spendMain } from './turn.ts';

export function attackProblem(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>): string | null {
  const attacker = ctx.combatants[e.attackerId];
  if (!attacker) return 'The attacker is not in this encounter.';
  const opportunity = e.reaction === 'opportunity';
  if (opportunity) {
    if (ctx.activeId === null) return 'An opportunity attack answers an enemy moving away during its turn.';
    const problem = reactorProblem(ctx, attacker, 'make an opportunity attack');
    if (problem) return problem;
    const mover = ctx.combatants[ctx.activeId]!;
    if (e.targetIds.length !== 1 || e.targetIds[0] !== mover.id) return `An opportunity attack targets the character moving away: ${mover.name}.`;
    if (mover.faction === attacker.faction) return `${mover.name} is not an enemy of ${attacker.name}.`;
    if (!nearby(attacker, mover, Boolean(e.border))) return `${mover.name} is not nearby ${attacker.name}.`;
    if (ctx.turn.moved) return `${mover.name} has already made the zone move this turn.`;
  } else {
    if (ctx.activeId !== attacker.id) return `It is not ${attacker.name}'s turn: only an opportunity attack or a counter can be made outside it.`;
    const problem = mainProblem(ctx);
    if (problem) return `${problem} An attack is a main action.`;
  }
  const spec = attackSpecOf(ctx, e, attacker);
  const problem = attackerProblem(ctx, attacker, spec, e.die);
  if (problem) return problem;
  // source: "Melee blast attacks hit the attacker's zone": not another zone (a ranged blast hits "any zone within range").
  if (spec.blast && spec.kind === 'melee' && e.zone && attacker.zone !== null && e.zone !== attacker.zone) return `A melee blast hits ${attacker.name}'s own zone (${attacker.zone}), not ${e.zone}; a ranged blast can hit another zone.`;
  if (e.targetIds.length === 0 && !(spec.blast && blastZone(e, attacker, spec))) return 'Choose the target of the attack.';
  if (!spec.blast && e.targetIds.length !== 1) return 'Only a blast attack has several targets.';
  if (spec.blast && opportunity) return 'An opportunity attack has one target.';
  if (new Set(e.targetIds).size !== e.targetIds.length) return 'Each target is listed once.';
  const targets: FactionsCombatant[] = [];
  for (const id of e.targetIds) {
    const target = ctx.combatants[id];
    if (!target) return 'That target is not in this encounter.';
    if (gone(target)) return `${target.name} is out of the fight.`;
    if (id === attacker.id && !(spec.blast && spec.kind !== 'melee')) return spec.blast ? 'A melee blast does not target the attacker.' : `${attacker.name} cannot attack themself.`;
    targets.push(target);
  }
  const hidden = hiddenTargets(ctx, e, attacker);
  if (hidden.length && spec.kind === 'ranged') return `${hidden[0]!.name} is concealed, so not visible to ${attacker.name}: a ranged attack needs a visible target (an indirect attack can aim at unseen targets beyond half range).`;
  const moving = isMoving(ctx, attacker.id, spec, opportunity);
  const legal = legalityProblem(ctx, attacker, targets, spec, moving);
  if (legal) return legal;
  if (saveReasons(spec, moving).length) {
    const rollProblem = d20Problem(e.attackRoll, `${attacker.name}'s WIT save to hit`);
    if (rollProblem) return rollProblem;
    // source: "If they miss, they are deviated and hit a random neighbouring zone." A missed ranged blast needs the
    // zones next to its zone (an empty list when there are none) and the roll that picks one.
    if (spec.blast && spec.kind !== 'melee' && !passes(e.attackRoll!.faces[0]!, attacker.wit)) {
      if (!e.neighbourZones) return `The blast misses and deviates to a random neighbouring zone: list the zones next to ${e.zone ?? 'the blast zone'} (or "none").`;
      if (e.neighbourZones.length && !e.deviationRoll) return `The blast misses: roll a d${e.neighbourZones.length} for the neighbouring zone it deviates to.`;
    }
  }
  if (spec.blast && spec.kind !== 'melee' && e.neighbourZones?.length && e.deviationRoll) {
    const n = e.neighbourZones.length;
    const face = e.deviationRoll.faces[0];
    if (e.deviationRoll.faces.length !== 1 || face === undefined || face < 1 || face > n) return `The deviation roll is one d${n} (one face for each neighbouring zone).`;
  }
  if (e.stunt && (spec.blast || e.targetIds.length !== 1)) return 'A stunt is offered to a single target.';
  return null;
}

export function finalBlowProblem(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'FINAL_BLOW' }>): string | null {
  const attacker = ctx.combatants[e.attackerId];
  const target = ctx.combatants[e.targetId];
  if (!attacker || !target) return 'That combatant is not in this encounter.';
  if (ctx.activeId !== attacker.id) return `It is not ${attacker.name}'s turn.`;
  const problem = mainProblem(ctx);
  if (problem) return `${problem} A final blow is a main action.`;
  if (target.dead) return `${target.name} is already dead.`;
  if (!target.incapacitated) return `${target.name} is not incapacitated: a final blow needs a helpless target.`;
  if (!nearby(attacker, target, Boolean(e.border))) return `${target.name} is not nearby ${attacker.name}.`;
  return null;
}

export function stuntOfferProblem(ctx: FactionsContext): string | null {
  const p = ctx.pending;
  if (!p || p.stage !== 'reaction') return 'A stunt is offered after the WIT save to hit and before the target reacts.';
  if (p.targets.length !== 1 || p.cursor !== 0 || p.targets[0]!.chain.length > 0) return 'A stunt is offered to a single target before anyone reacts.';
  if (p.stunt) return 'A stunt has already been offered for this attack.';
  return null;
}

/** The rolls the resolution needs now: damage dice, STR saves against non-lethal attacks, the counter's. */
export interface ResolveNeed {
  key: 'damageRoll' | 'saveRoll' | 'counterDamageRoll' | 'counterSaveRoll';
  who: string;
  label: string;
  notation: string;
  count: number;
  sides: number;
  dice: DamageDice | null;
}

const hitTargets = (p: PendingAttack) => p.targets.filter((t) => !t.missed);

export function resolveNeeds(ctx: FactionsContext): ResolveNeed[] {
  const p = ctx.pending;
  if (!p || p.stage !== 'resolve') return [];
  const needs: ResolveNeed[] = [];
  const attacker = ctx.combatants[p.attackerId]!;
  const hits = hitTargets(p);
  if (hits.length) {
    if (p.spec.effect === 'damage') {
      const dice = damageDice(p.spec, ctx.options);
      if (dice.count) needs.push({ key: 'damageRoll', who: attacker.name, label: `${attacker.name}: damage`, notation: dice.notation, count: dice.count, sides: dice.sides, dice });
    } else {
      const target = ctx.combatants[hits[0]!.id]!;
      needs.push({ key: 'saveRoll', who: target.name, label: `${target.name}: STR save against the ${p.spec.effect}`, notation: '1d20', count: 1, sides: 20, dice: null });
    }
  }
  if (p.counter?.save.passed) {
    const reactor = ctx.combatants[p.counter.reactorId]!;
    if (p.counter.spec.effect === 'damage') {
      const dice = damageDice(p.counter.spec, ctx.options);
      if (dice.count) needs.push({ key: 'counterDamageRoll', who: reactor.name, label: `${reactor.name}: counter damage`, notation: dice.notation, count: dice.count, sides: dice.sides, dice });
    } else {
      needs.push({ key: 'counterSaveRoll', who: attacker.name, label: `${attacker.name}: STR save against the ${p.counter.spec.effect}`, notation: '1d20', count: 1, sides: 20, dice: null });
    }
  }
  return needs;
}

export function resolveProblem(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'RESOLVE_ATTACK' }>): string | null {
  if (!ctx.pending || ctx.pending.stage !== 'resolve') return 'No attack is waiting for its damage roll.';
  for (const need of resolveNeeds(ctx)) {
    const roll = e[need.key];
    const problem = need.dice ? diceProblem(need.dice, roll, need.who) : d20Problem(roll, need.label.split(': ')[1]!.replace(/^STR/, `${need.who}'s STR`));
    if (problem) return problem;
  }
  return null;
}

function attackText(ctx: FactionsContext, attacker: FactionsCombatant, spec: AttackSpec, targetIds: string[]): string {
  const a = spec.kind === 'indirect' ? 'an' : 'a';
  const what = spec.effect === 'damage' ? (spec.blast ? `${a} ${spec.kind} blast` : `${a} ${spec.kind} attack`) : `a ${spec.effect} attempt`;
  const weapon = spec.weapon === 'unarmed' ? 'unarmed' : spec.weapon === 'improvised' ? `an improvised weapon (d${spec.die})` : spec.weapon === 'shield' ? `the shield (d${spec.die})` : `d${spec.die}`;
  return `${attacker.name} makes ${what} (${weapon}) on ${targetIds.map((id) => nameOf(ctx, id)).join(', ') || 'nobody'}`;
}

export function startAttack(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>): FactionsContext {
  const attacker = ctx.combatants[e.attackerId]!;
  const spec = attackSpecOf(ctx, e, attacker);
  const opportunity = e.reaction === 'opportunity';
  const moving = isMoving(ctx, attacker.id, spec, opportunity);
  const rulings: string[] = [];
  let next = ctx;
  if (opportunity) {
    next = update(next, attacker.id, { acted: true });
    next = { ...next, history: next.history.concat([{ round: next.round, phase: next.phase!, id: attacker.id, kind: 'reaction' }]) };
    rulings.push('R-F5');
  } else {
    next = spendMain(next);
    if ((spec.kind === 'ranged' || spec.kind === 'indirect') && !moving) next = { ...next, turn: { ...next.turn, stillShot: true } };
    if (spec.kind !== 'melee') rulings.push('R-F11');
  }
  // Targets: the blast's zone (everyone in it; the attacker too for a ranged blast) plus those named (its borders).
  let targetIds = [...e.targetIds];
  const zone = blastZone(e, attacker, spec);
  if (spec.blast && zone) {
    const inZone = next.roster.filter((id) => next.combatants[id]!.zone === zone && !gone(next.combatants[id]!) && !(spec.kind === 'melee' && id === attacker.id));
    targetIds = [...new Set([...inZone, ...targetIds])];
  }
  next = letGoUnless(next, attacker.id, targetIds.length === 1 ? targetIds[0]! : null);
  next = markUsed(next, attacker.id, spec.weapon === 'weapon' ? ['weapon'] : spec.weapon === 'shield' ? ['shield'] : []);
  const surprised = attacker.concealed; // attacked by a concealed character: taken by surprise (§3.5)
  const reasons = saveReasons(spec, moving);
  let save: PendingAttack['save'] = { needed: false, face: null, passed: true };
  let text = attackText(next, attacker, spec, targetIds);
  if (opportunity) text = `Opportunity attack: ${text} as ${nameOf(ctx, targetIds[0])} moves away`;
  if (spec.blast && spec.kind === 'melee') rulings.push('R-F19');
  if (reasons.length) {
    const face = e.attackRoll!.faces[0]!;
    save = { needed: true, face, passed: passes(face, attacker.wit) };
    text += `. WIT save to hit (${reasons.join(', ')}): d20 ${faces(e.attackRoll)} against WIT ${attacker.wit}, ${save.passed ? 'hit' : 'miss'}`;
  } else {
    text += spec.blast && spec.kind === 'melee' ? '. A melee blast cannot miss' : '. It hits automatically';
  }
  if (spec.protection === 'cover') text += spec.pierces ? ' (cover, punched through)' : ' (behind cover: +1 armour)';
  next = say(next, 'attack', `${text}.`, rulings, attacker.id);
  next = reveal(next, attacker.id, 'attacking');
  for (const id of targetIds) next = markUsed(next, id, ['shield', 'armour']); // R-F21: its wearer was attacked
  let deviatedTo: string | null = null;
  if (!save.passed) {
    if (spec.blast && spec.kind !== 'melee' && e.neighbourZones?.length && e.deviationRoll) {
      const face = e.deviationRoll.faces[0]!;
      deviatedTo = e.neighbourZones[face - 1]!;
      targetIds = next.roster.filter((id) => next.combatants[id]!.zone === deviatedTo && !gone(next.combatants[id]!));
      next = say(next, 'attack', `The blast deviates: d${e.neighbourZones.length} ${faces(e.deviationRoll)} → ${deviatedTo}, hitting ${targetIds.map((id) => nameOf(next, id)).join(', ') || 'nobody the app has placed there'}.`, [], attacker.id);
      for (const id of targetIds) next = markUsed(next, id, ['shield', 'armour']);
      if (targetIds.length === 0) return next;
    } else {
      if (spec.blast && spec.kind !== 'melee') next = say(next, 'attack', 'The blast misses, and there is no neighbouring zone for it to deviate to.', [], attacker.id);
      return next;
    }
  }
  const targets: PendingTarget[] = targetIds.map((id) => ({ id, chain: [], surprised, heldShield: false, reaction: null, missed: false }));
  const pending: PendingAttack = {
    attackerId: attacker.id, spec, opportunity, save, targets, cursor: 0, stage: e.stunt ? 'stunt' : 'reaction', stunt: e.stunt ?? null, counter: null, deviatedTo, rulings,
  };
  next = { ...next, pending };
  if (e.stunt) return say(next, 'decision', `${attacker.name} offers a stunt instead of damage: ${e.stunt}. ${nameOf(next, targetIds[0])} accepts or resolves the attack as normal.`, [], attacker.id);
  return openWindows(next);
}

export function offerStunt(ctx: FactionsContext, text: string): FactionsContext {
  const p = ctx.pending!;
  const next = { ...ctx, pending: { ...p, stage: 'stunt' as const, stunt: text } };
  return say(next, 'decision', `${nameOf(ctx, p.attackerId)} offers a stunt instead of damage: ${text}. ${nameOf(ctx, p.targets[0]!.id)} accepts or resolves the attack as normal.`, [], p.attackerId);
}

export function answerStunt(ctx: FactionsContext, accept: boolean): FactionsContext {
  const p = ctx.pending!;
  const target = nameOf(ctx, p.targets[0]!.id);
  if (accept) return say({ ...ctx, pending: null }, 'decision', `${target} accepts the stunt: ${p.stunt}. No damage, and no reaction.`, [], p.targets[0]!.id);
  return openWindows(say({ ...ctx, pending: { ...p, stage: 'reaction' } }, 'decision', `${target} declines the stunt: the attack goes on as normal.`, [], p.targets[0]!.id));
}

interface Hit {
  from: string;
  to: string;
  spec: AttackSpec;
  raw: number;
  armour: number;
  final: number;
  saveRoll: Roll | null;
  counter: boolean;
}

/** Damage roll and resolution (§3.4 steps 4–8, 10, 12): counter order (R-F13), armour (R-F17), gear (R-F18/18b). */
export function resolveAttack(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'RESOLVE_ATTACK' }> | null): FactionsContext {
  const p = ctx.pending!;
  const needs = resolveNeeds(ctx);
  const rollOf = (key: ResolveNeed['key']) => (e ? e[key] ?? null : null);
  let next: FactionsContext = { ...ctx, pending: null };
  const hits: Hit[] = [];
  const primaryDice = damageDice(p.spec, ctx.options);
  let primaryFace: number | null = null;
  const cover = p.spec.protection === 'cover' && !p.spec.pierces;
  const targets = hitTargets(p);
  if (p.spec.effect === 'damage' && targets.length) {
    const roll = rollOf('damageRoll');
    const raw = primaryDice.count && roll ? keptFace(primaryDice, roll) : 0;
    primaryFace = primaryDice.count && roll ? raw : null;
    const how = primaryDice.count
      ? `d${primaryDice.sides}${primaryDice.keep === 'lowest' ? ` twice, keep the lower (impaired: ${primaryDice.why.join(', ')})` : primaryDice.keep === 'highest' ? ' twice, keep the higher (enhanced)' : primaryDice.sides === 4 && primaryDice.net === 1 ? ` (impaired as a flat d4: ${primaryDice.why.join(', ')})` : ''} ${faces(roll)} → ${raw}`
      : `impaired twice (${primaryDice.why.join(', ')}): ineffective, 0`;
    next = say(next, 'attack', `${nameOf(ctx, p.attackerId)}'s damage: ${how}.`, primaryDice.rulings, p.attackerId);
    for (const t of targets) {
      const armour = armourOf(ctx.combatants[t.id]!, cover);
      hits.push({ from: p.attackerId, to: t.id, spec: p.spec, raw, armour, final: afterArmour(raw, armour, ctx.options), saveRoll: null, counter: false });
    }
  } else if (targets.length) {
    hits.push({ from: p.attackerId, to: targets[0]!.id, spec: p.spec, raw: 0, armour: 0, final: 0, saveRoll: rollOf('saveRoll'), counter: false });
  }
  let counterFace: number | null = null;
  if (p.counter && p.counter.save.passed) {
    const c = p.counter;
    if (c.spec.effect === 'damage') {
      const dice = damageDice(c.spec, ctx.options);
      const roll = rollOf('counterDamageRoll');
      const raw = dice.count && roll ? keptFace(dice, roll) : 0;
      counterFace = dice.count && roll ? raw : null;
      const counterCover = c.spec.protection === 'cover' && !c.spec.pierces;
      next = say(next, 'attack', `${nameOf(ctx, c.reactorId)}'s counter damage: ${dice.count ? `d${dice.sides}${dice.keep === 'lowest' ? ' twice, keep the lower' : dice.keep === 'highest' ? ' twice, keep the higher' : ''} ${faces(roll)} → ${raw}` : 'impaired twice: 0'}.`, dice.rulings, c.reactorId);
      const armour = armourOf(ctx.combatants[p.attackerId]!, counterCover);
      hits.push({ from: c.reactorId, to: p.attackerId, spec: c.spec, raw, armour, final: afterArmour(raw, armour, ctx.options), saveRoll: null, counter: true });
    } else {
      hits.push({ from: c.reactorId, to: p.attackerId, spec: c.spec, raw: 0, armour: 0, final: 0, saveRoll: rollOf('counterSaveRoll'), counter: true });
    }
  }
  // Steps: without a counter every hit lands together; with one, the larger hit first, ties together, non-lethal last.
  const primary = hits.filter((h) => !h.counter);
  const counterHit = hits.find((h) => h.counter);
  let steps: Hit[][] = [primary];
  const rulings = ['R-F17'];
  if (counterHit) {
    const onCounterer = primary.find((h) => h.to === counterHit.from);
    const lethalP = p.spec.effect === 'damage';
    const lethalC = counterHit.spec.effect === 'damage';
    let order: 'primary' | 'counter' | 'together';
    if (lethalP && lethalC) order = (onCounterer?.final ?? 0) > counterHit.final ? 'primary' : (onCounterer?.final ?? 0) < counterHit.final ? 'counter' : 'together';
    else if (lethalP) order = 'primary';
    else if (lethalC) order = 'counter';
    else order = 'together';
    steps = order === 'primary' ? [primary, [counterHit]] : order === 'counter' ? [[counterHit], primary] : [[...primary, counterHit]];
    const orderText = order === 'together'
      ? (lethalP || lethalC ? `both suffer ${counterHit.final} after armour: they are hit at the same time` : 'both non-lethal: resolved together')
      : !(lethalP && lethalC)
        ? 'the non-lethal attack is resolved last'
        : `${nameOf(ctx, order === 'primary' ? counterHit.from : p.attackerId)} suffers more (${Math.max(onCounterer?.final ?? 0, counterHit.final)} against ${Math.min(onCounterer?.final ?? 0, counterHit.final)}) and is hit first`;
    next = say(next, 'attack', `Counter order: ${orderText}.`, ['R-F13'], counterHit.from);
  }
  for (const step of steps) {
    const droppedAtStart = new Set(next.roster.filter((id) => !standing(next.combatants[id]!)));
    for (const hit of step) {
      if (droppedAtStart.has(hit.from)) {
        next = say(next, 'attack', `${nameOf(next, hit.from)} was dropped first: their ${hit.counter ? 'counter' : 'attack'} on ${nameOf(next, hit.to)} does not land.`, ['R-F13'], hit.from);
        continue;
      }
      next = landHit(next, hit, rulings);
    }
  }
  // Gear: a damaged weapon breaks on a 1 after the attack resolves (R-F18).
  next = weaponBreaks(next, p.attackerId, p.spec, primaryFace);
  if (p.counter) next = weaponBreaks(next, p.counter.reactorId, p.counter.spec, counterFace);
  return next;
}

function landHit(ctx: FactionsContext, hit: Hit, rulings: string[]): FactionsContext {
  const target = ctx.combatants[hit.to]!;
  const from = nameOf(ctx, hit.from);
  if (hit.spec.effect !== 'damage') {
    const face = hit.saveRoll!.faces[0]!;
    const resisted = passes(face, target.str);
    const text = `${target.name}'s STR save against ${from}'s ${hit.spec.effect}: d20 ${faces(hit.saveRoll)} against STR ${target.str}, ${resisted ? 'resisted' : hit.spec.effect === 'disarm' ? 'the weapon is dropped' : `grabbed and entangled while ${from} holds on`}.`;
    let next = say(ctx, 'attack', text, [], hit.to);
    if (!resisted && hit.spec.effect === 'disarm') next = update(next, hit.to, { disarmed: true });
    if (!resisted && hit.spec.effect === 'grapple') next = update(next, hit.to, { grabbedBy: hit.from });
    return next;
  }
  let next = ctx;
  const cover = hit.spec.protection === 'cover' && !hit.spec.pierces ? ' (cover included)' : '';
  if (hit.raw > 0 && hit.final === 0) {
    next = say(next, 'damage', `${target.name}'s armour stops ${from}'s hit: ${hit.raw} − armour ${hit.armour}${cover} = 0.`, rulings, hit.to);
  } else if (hit.final > 0) {
    next = applyHarm(next, hit.to, hit.final, hit.from, `${from} hits ${target.name}${hit.armour ? `: ${hit.raw} − armour ${hit.armour}${cover}` : ''}`, hit.armour ? rulings : []);
  }
  return heavyHit(next, hit.to, hit.raw);
}

export function finalBlow(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'FINAL_BLOW' }>): FactionsContext {
  let next = letGoUnless(spendMain(ctx), e.attackerId, e.targetId);
  // source: a durability roll "for all weapons and armour which were used at least once": a weapon lying on the floor was not.
  next = markUsed(next, e.attackerId, ctx.combatants[e.attackerId]!.disarmed ? [] : ['weapon']);
  next = reveal(next, e.attackerId, 'attacking');
  next = releaseGrabs(update(next, e.targetId, { dead: true, dying: false, health: 0 }), e.targetId);
  return say(next, 'damage', `${nameOf(ctx, e.attackerId)} delivers a final blow: ${nameOf(ctx, e.targetId)}, helpless, is killed. No reaction is possible.`, [], e.targetId);
}

export function cancelAttack(ctx: FactionsContext, note: string): FactionsContext {
  return say({ ...ctx, pending: null }, 'decision', `GM override: the attack is called off${note ? ` (${note})` : ''}.`);
}
