// Thrum's log: the line each event writes, and the lines its side effects add (the order, a new round, a new
// turn, a roll that is due, the end of combat).
import type { EncounterSnapshot, GmEvent, LogLine } from '../../encounter/types.ts';
import { eventRound } from '../../encounter/log-round.ts';
import { addedSentence, nameOf, names, plural } from '../../encounter/roster.ts';
import type { CombatEvent } from './combat.ts';
import { squareLabel, stepCost } from './grid.ts';
import { isCombat, type ThrumEvent } from './machine.ts';
import * as rules from './rules.ts';
import type { Frame, Roll, ThrumCombatant, ThrumContext } from './rules.ts';
import { contextOf, turnOpen } from './stages.ts';
import { type Contest, contestOf, contestTier, defenceLabel, defenceModifier, isAreaAttack, outcomeOf, planAttack, rollCounts } from './attack.ts';
import { type OverrideField, frameQuestion, stackEntry } from './combat.ts';
import { speedOf, statusName, sumFaces } from './health.ts';
import { type DropRolled, dropRollOf, planForcedMove } from './movement.ts';
import { rulingsOf } from './options.ts';

export const signed = (n: number) => (n < 0 ? `− ${-n}` : `+ ${n}`);
export const faces = (roll: Roll | null | undefined) => (roll ? `[${roll.faces.join(', ')}]${roll.source === 'manual' ? ' (typed in)' : ''}` : '');
export const possessive = (name: string) => `${name}'${name.endsWith('s') ? '' : 's'}`;
export const loads = (c: ThrumCombatant) =>
  `Fatigue ${c.fatigueLoad}/${c.fatigueTolerance}, Stress ${c.stressLoad}/${c.stressTolerance}${rules.isExhausted(c) ? ', Exhausted' : ''}${rules.isFrayed(c) ? ', Frayed' : ''}`;
const orderText = (ctx: ThrumContext) =>
  ctx.order.map((id) => `${nameOf(ctx, id)} ${ctx.combatants[id]!.initiative?.total ?? '—'}`).join(', ');

function rollLine(kind: 'panic' | 'incapacity', event: { combatantId: string; roll?: Roll | null }, before: ThrumContext, after: ThrumContext, reason: string | null): LogLine {
  const b = before.combatants[event.combatantId]!;
  const a = after.combatants[event.combatantId]!;
  const modifier = kind === 'panic' ? b.resolve : b.resilience;
  const total = sumFaces(event.roll!) + modifier;
  const against = kind === 'panic' ? b.stressLoad : b.fatigueLoad;
  const head = `${possessive(b.name)} ${kind === 'panic' ? 'Panic' : 'Incapacity'} Roll${reason ? ` (${reason})` : ''}: ${faces(event.roll)} ${signed(modifier)} ${kind === 'panic' ? 'Resolve' : 'Resilience'} = ${total} against ${kind === 'panic' ? 'Stress' : 'Fatigue'} Load ${against}`;
  if (total > against) return { round: eventRound(before, after), kind: 'decision', actorId: b.id, text: `${head}: it must exceed the load and does. ${kind === 'panic' ? 'Holds their nerve.' : 'Stays on their feet.'}` };
  if (kind === 'panic') {
    const stunned = rulingsOf(after.options).stunned === 'gmAdjudicates' ? 'Stunned (the GM applies it)' : 'Stunned (skips the next Action)';
    return {
      round: eventRound(before, after), kind: 'decision', actorId: b.id, rulings: ['R-H5', 'R-H6', 'R-H8'],
      text: `${head}: ${total === against ? 'a tie fails' : 'fails'}. ${stunned}; Stress Load ${b.stressLoad} added to Fatigue Load (now ${a.fatigueLoad}) and reset to 0; Stress Tolerance ${b.stressTolerance} → ${a.stressTolerance}.`,
    };
  }
  return {
    round: eventRound(before, after), kind: 'decision', actorId: b.id, rulings: ['R-H8'],
    text: `${head}: ${total === against ? 'a tie fails' : 'fails'}. ${b.name} is Incapacitated${b.stance ? `; the stance ${b.stance} ends` : ''}; Fatigue Tolerance ${b.fatigueTolerance} → ${a.fatigueTolerance}, Fatigue Load ${b.fatigueLoad} → ${a.fatigueLoad}${a.incapacitated ? '' : ' — Fatigue Load 0, so it ends at once'}.`,
  };
}

/** A drop rolled with dice, for the log: "Reflex [4, 5] + 1 = 10 against the environment [2, 3] + 3 = 8". */
const dropRollText = (d: DropRolled) =>
  `${d.stat} [${d.mover.faces.join(', ')}] ${signed(d.mover.modifier)} = ${d.mover.total} against the environment [${d.environment.faces.join(', ')}] + ${d.environment.levels} = ${d.environment.total}:`;

export const ROLL_REASON: Record<string, string> = { startOfTurn: 'start of turn', afterAction: 'Exhausted after acting', finisher: 'Finisher' };

function combatLine(event: CombatEvent, before: ThrumContext, after: ThrumContext): LogLine | null {
  const round = eventRound(before, after);
  const name = (id: string | null | undefined) => nameOf(before, id);
  const actor = rules.activeId(before);
  const top = before.stack.at(-1);
  switch (event.type) {
    case 'PANIC_ROLL':
    case 'INCAPACITY_ROLL':
      return rollLine(event.type === 'PANIC_ROLL' ? 'panic' : 'incapacity', event, before, after, top?.kind === 'roll' ? ROLL_REASON[top.reason] ?? null : null);
    case 'MOVE': {
      const a = after.combatants[actor!]!;
      const b = before.combatants[actor!]!;
      const cost = after.turn.moved - before.turn.moved;
      const where = event.path?.length ? ` to ${squareLabel(event.path.at(-1)!)}` : '';
      const extras: string[] = [];
      if (!event.teleport && event.path?.length && before.board && b.position) {
        // Each drop of two or more levels and how the mover took it (§5.3): paid for, or rolled.
        let from = b.position;
        let n = 0;
        for (const square of event.path) {
          const step = stepCost(before.board, from, square);
          if (step.drop !== null) {
            const entry = event.drops?.[n] ?? 'pay';
            n += 1;
            const head = `drops ${step.drop} levels into ${squareLabel(square)}`;
            const rolled = typeof entry === 'string' ? null : dropRollOf(before, b, entry, step.drop);
            const choice = rolled?.result ?? entry;
            if (choice === 'pay') extras.push(`${head} and pays ${plural(step.cost - step.dropCost!, 'extra square')}`);
            else extras.push(`${head}: ${rolled ? dropRollText(rolled) : `Endurance or Reflex against ${step.drop}`} ${choice === 'success' ? 'succeeds, base cost only' : 'fails, base cost only, +1 Slowed'}`);
          }
          from = square;
        }
      }
      const slowed = rules.stacksOf(a, 'Slowed') - rules.stacksOf(b, 'Slowed');
      if (rules.stacksOf(a, 'Dazed') > rules.stacksOf(b, 'Dazed')) extras.push(`movement spent reaches the lowered Speed ${speedOf(a, after)}: +1 Dazed and movement stops`);
      const left = Math.max(0, speedOf(a, after) - after.turn.moved);
      const verb = event.teleport ? `teleports ${plural(cost, 'square')}${where}, crossing nothing between (no terrain or elevation costs)` : `moves ${plural(cost, 'square')}${where}`;
      return {
        round, kind: 'turn', actorId: actor, rulings: slowed ? ['R-H12'] : [],
        text: `${name(actor)} ${verb}${event.note ? ` (${event.note})` : ''}${extras.length ? `; ${extras.join('; ')}` : ''}. ${plural(left, 'square')} of movement left.`,
      };
    }
    case 'FORCED_MOVE': {
      const plan = planForcedMove(before, event);
      const a = after.combatants[event.combatantId]!;
      const distance = event.path?.length ?? event.squares ?? 0;
      const where = event.path?.length ? ` to ${squareLabel(event.path.at(-1)!)}` : '';
      const drops = plan.drops.map((d) => {
        const levels = d.levels === null ? 'two or more levels' : `${d.levels} levels`;
        const against = d.levels === null ? 'the height difference' : String(d.levels);
        return `drops ${levels}${d.at ? ` into ${squareLabel(d.at)}` : ''}: ${d.rolled ? dropRollText(d.rolled) : `Endurance or Reflex against ${against}`} ${d.result === 'success' ? 'succeeds' : 'fails, +1 Slowed'}`;
      });
      if (plan.dazed) drops.push(`movement spent this turn reaches the lowered Speed ${speedOf(a, after)}: +${plan.dazed} Dazed${rules.activeId(after) === a.id ? ' and no further movement' : ''}`);
      return {
        round, kind: 'damage', actorId: a.id, rulings: plan.slowed ? ['R-H11', 'R-H12'] : plan.drops.length ? ['R-H11'] : [],
        text: `${a.name} is moved ${plural(distance, 'square')}${where}${event.source ? ` by ${event.source}` : ''}${drops.length ? `; ${drops.join('; ')}` : ''}.`,
      };
    }
    case 'ATTACK': {
      const attack = (after.stack.find((f) => f.kind === 'attack' && f.attack.attackerId === event.attackerId && f.attack.ability === event.ability) as Extract<Frame, { kind: 'attack' }> | undefined)?.attack
        ?? planAttack(before, event, top?.kind === 'trigger');
      const tags = [event.attackType, event.ranged ? 'Ranged' : null, event.finisher ? 'Finisher' : null, isAreaAttack(event) ? 'area' : null].filter(Boolean).join(', ');
      const covered = attack.targets.filter((t) => t.cover).map((t) => name(t.targetId));
      const parts = [`${name(event.attackerId)}${top?.kind === 'trigger' ? ' (triggered effect)' : ''} uses ${event.ability} (${tags})${event.squares?.length ? ` on the area ${event.squares.map(squareLabel).join(' ')}` : ''} on ${names(before, attack.targets.map((t) => t.targetId))}, Art ${signed(attack.artModifier)}${event.art === null || event.art === undefined ? ' (highest Art, a Basic Attack)' : ''}`];
      if (event.overexert) parts.push(`Overexert: takes ${event.overexert} Stress before any roll (now ${after.combatants[event.attackerId]!.stressLoad})`);
      if (attack.ranged && attack.adjacentEnemies) parts.push(`+${attack.adjacentEnemies} Bane for adjacent enemies`);
      if (covered.length) parts.push(`cover on ${covered.join(', ')}: +1 Bane`);
      const effect = [event.fatigue ? `${event.fatigue} Fatigue` : null, event.stress ? `${event.stress} Stress` : null, ...(event.statuses ?? []).map((s) => `${s.stacks} ${statusName(s.status)}`)].filter(Boolean).join(', ');
      const allies = isAreaAttack(event) ? attack.targets.map((t) => before.combatants[t.targetId]!).filter((t) => t.side === before.combatants[event.attackerId]!.side) : [];
      const undefended = attack.targets.filter((t) => t.undefended).map((t) => name(t.targetId));
      if (undefended.length) parts.push(`${undefended.join(', ')} ${undefended.length === 1 ? 'is' : 'are'} Incapacitated and do${undefended.length === 1 ? 'es' : ''} not defend under this campaign's ruling: the effect lands`);
      if (allies.length) parts.push(`the area hits allies too (${names(before, allies.map((c) => c.id))})`);
      const boardCover = Boolean(before.board && before.combatants[event.attackerId]!.position);
      const rulings = ['R-H11', 'R-H12b', ...(covered.length && boardCover ? ['R-H13', 'R-H14'] : []), ...(allies.length ? ['R-H10'] : []), ...(undefended.length ? ['R-H16'] : [])];
      return { round, kind: 'attack', actorId: event.attackerId, rulings, text: `${parts.join('; ')}. Effect: ${effect}.` };
    }
    case 'DEFENSE_CHOICE': {
      const attack = (top as Extract<Frame, { kind: 'attack' }>).attack;
      const target = attack.targets[attack.current]!;
      const defender = before.combatants[target.targetId]!;
      const counts = rollCounts(before, attack, { ...target, defence: event.defence });
      const boons = counts.defenceBoons.length ? `, +${counts.defenceBoons.length} Boon (${counts.defenceBoons.join(', ')})` : '';
      const banes = counts.defenceBanes.length ? `, +${counts.defenceBanes.length} Bane (${counts.defenceBanes.join(', ')})` : '';
      return { round, kind: 'decision', actorId: defender.id, rulings: defender.incapacitated ? ['R-H16'] : [], text: `${defender.incapacitated ? 'Though Incapacitated, ' : ''}${defender.name} defends with ${defenceLabel(event.defence)} (${signed(defenceModifier(defender, event.defence))}${boons}${banes}), chosen before the attack is rolled.` };
    }
    case 'DEFENSE_RESULT': {
      const attack = (top as Extract<Frame, { kind: 'attack' }>).attack;
      const target = attack.targets[attack.current]!;
      const counts = rollCounts(before, attack, target);
      const a = after.combatants[target.targetId]!;
      const tier = contestTier(before, attack, target, event);
      const { takes, vulnerable } = outcomeOf(target.defence, tier);
      const result = `${tier}: ${takes ? `takes the effect (${loads(a)})` : 'avoids the effect'}${vulnerable ? ', +1 Vulnerable' : ''}`;
      if ((event.outcome ?? 'roll') === 'roll') {
        // R-H11: the two rolls, the faces kept, the totals and what decided the outcome (a tie, a Critical: R-H11's contestTies and criticalMargin).
        const contest = contestOf(before, attack, target, event.attackRoll!, event.defenceRoll!);
        const sideText = (who: string, roll: Roll, side: Contest['attack']) => {
          const dropped = side.dice.keep === 'both' ? '' : ` keeps the ${side.dice.keep} ${side.kept.join(', ')}`;
          return `${who} ${faces(roll)}${dropped} ${signed(side.dice.modifier)} = ${side.total}`;
        };
        const rulings = ['R-H11', ...(takes ? ['R-H12b'] : [])];
        const decided = contest.margin === 0
          ? `a tie, ${tier === 'failure' ? 'which goes to the attack' : 'and the attack must exceed the defence'}`
          : contest.margin > 0 ? `the defence is ${contest.margin} higher` : `the attack is ${-contest.margin} higher`;
        const critical = contest.attackCritical ? `; an attack Critical (${rulingsOf(before.options).criticalMargin} or more above the defence) for an ability with a Critical effect` : '';
        return {
          round, kind: 'attack', actorId: a.id, rulings,
          text: `${sideText(`${possessive(name(attack.attackerId))} ${attack.ability}`, event.attackRoll!, contest.attack)} against ${sideText(`${possessive(a.name)} ${defenceLabel(target.defence!)}`, event.defenceRoll!, contest.defence)}: ${decided}${critical} — ${result}.`,
        };
      }
      const attackSide = `Attack Art ${signed(counts.attackModifier)}${counts.attackBanes.length ? ` with ${plural(counts.attackBanes.length, 'Bane')} (${counts.attackBanes.join(', ')})` : ''}${counts.attackBoons ? ` and ${plural(counts.attackBoons, 'Boon')}` : ''}`;
      const defenceSide = `${possessive(a.name)} ${defenceLabel(target.defence!)} ${signed(counts.defenceModifier)}${counts.defenceBoons.length ? ` with ${plural(counts.defenceBoons.length, 'Boon')}` : ''}${counts.defenceBanes.length ? ` with ${plural(counts.defenceBanes.length, 'Bane')}` : ''}`;
      return { round, kind: 'attack', actorId: a.id, rulings: ['R-H11', ...(takes ? ['R-H12b'] : [])], text: `${attackSide} against ${defenceSide}: ${result}.` };
    }
    case 'USE_ABILITY': {
      const extras: string[] = [];
      if (event.overexert) extras.push(`Overexert: takes ${event.overexert} Stress first`);
      if (event.terrainEffect) extras.push(`places a Terrain Effect${before.combatants[actor!]!.terrainEffect ? `, ending ${before.combatants[actor!]!.terrainEffect}` : ''}`);
      if (event.buffTargetId) {
        const target = after.combatants[event.buffTargetId]!;
        extras.push(target.buff?.name === event.ability && target.buff.fromId === actor ? `buff on ${target.name}` : `${target.name} already has a buff and chooses`);
      }
      return { round, kind: 'turn', actorId: actor, text: `${name(actor)} uses ${event.ability}${event.note ? `: ${event.note}` : ''}${extras.length ? ` (${extras.join('; ')})` : ''}.` };
    }
    case 'RESUSCITATE':
      return { round, kind: 'turn', actorId: actor, text: `${name(actor)} uses Resuscitate on ${name(event.targetId)}: no longer Incapacitated.` };
    case 'BUFF_CHOICE': {
      const frame = top as Extract<Frame, { kind: 'buff' }>;
      const old = before.combatants[frame.targetId]!.buff?.name ?? 'the old buff';
      return { round, kind: 'decision', actorId: frame.targetId, text: event.decision === 'takeNew' ? `${name(frame.targetId)} takes ${frame.name}, ending ${old}.` : `${name(frame.targetId)} keeps ${old} and declines ${frame.name}.` };
    }
    case 'SET_STANCE': {
      const old = before.combatants[actor!]!.stance;
      return { round, kind: 'turn', actorId: actor, text: `${name(actor)} takes the stance ${event.stance}${old && old !== event.stance ? `, ending ${old}` : ''}.` };
    }
    case 'POSITION':
      return { round, kind: 'turn', actorId: actor, text: `${name(actor)} takes a starting square at ${squareLabel(event.square)}.` };
    case 'TRIGGER': {
      const queued = after.stack.slice(before.stack.length).reverse() as Extract<Frame, { kind: 'trigger' }>[];
      const interrupted = before.stack.at(-1);
      return {
        round, kind: 'decision',
        text: `Trigger: ${event.trigger}. ${queued.length > 1 ? 'In initiative order: ' : ''}${queued.map((f) => `${name(f.ownerId)} (${f.effect})`).join(', ')}${interrupted ? `, before ${stackEntry(before, interrupted)} (last in, first out)` : ''}.`,
      };
    }
    case 'RESOLVE_TRIGGER': {
      const frame = top as Extract<Frame, { kind: 'trigger' }>;
      return { round, kind: 'decision', actorId: frame.ownerId, text: `${possessive(name(frame.ownerId))} triggered effect resolves: ${frame.effect}.` };
    }
    case 'APPLY_LOAD': {
      const a = after.combatants[event.targetId]!;
      const b = before.combatants[event.targetId]!;
      const floored = (event.load === 'fatigue' ? b.fatigueLoad : b.stressLoad) + event.amount < 0;
      const load = event.load === 'fatigue' ? 'Fatigue' : 'Stress';
      const recovered = b.incapacitated && !a.incapacitated ? ' Fatigue Load 0: no longer Incapacitated.' : '';
      return { round, kind: 'damage', actorId: a.id, rulings: floored ? ['R-H8'] : [], text: `${a.name} ${event.amount > 0 ? `takes ${event.amount} ${load}` : `sheds ${-event.amount} ${load}`}${event.source ? ` (${event.source})` : ''}: ${loads(a)}.${recovered}` };
    }
    case 'APPLY_STATUS': {
      const status = statusName(event.status);
      const s = after.combatants[event.targetId]!.statuses[status]!;
      return { round, kind: 'damage', actorId: event.targetId, rulings: ['R-H15'], text: `${name(event.targetId)} gains ${event.stacks} ${status} (${s.stacks} in all, ${s.ticks ? 'counts down at the end of its turns' : 'does not count down'})${event.source ? ` from ${event.source}` : ''}.` };
    }
    case 'CLEAR_STATUS':
      return { round, kind: 'damage', actorId: event.targetId, text: `${name(event.targetId)} loses ${event.stacks ? `${event.stacks} ` : 'all '}${statusName(event.status)}.` };
    case 'SET_POSITION':
      return { round, kind: 'decision', actorId: event.combatantId, text: `GM placement: ${name(event.combatantId)} ${event.square ? `to ${squareLabel(event.square)}` : 'off the map'}${event.note ? ` (${event.note})` : ''}.` };
    case 'OVERRIDE':
      return {
        round, kind: 'decision', actorId: event.targetId,
        text: event.field === 'prompt'
          ? `GM override: ${top ? frameQuestionText(before, top) : 'the pending question'} is set aside${event.note ? ` (${event.note})` : ''}.`
          : `GM override: ${possessive(name(event.targetId))} ${OVERRIDE_LABEL[event.field]} set to ${event.value}${event.note ? ` (${event.note})` : ''}.`,
      };
  }
}

const frameQuestionText = (ctx: ThrumContext, frame: Frame) => frameQuestion(ctx, frame);
const OVERRIDE_LABEL: Record<OverrideField, string> = {
  fatigueLoad: 'Fatigue Load', stressLoad: 'Stress Load', fatigueTolerance: 'Fatigue Tolerance', stressTolerance: 'Stress Tolerance', wounds: 'Wounds',
  incapacitated: 'Incapacitated (1 yes, 0 no)', moved: 'movement spent', acted: 'Action taken (1 yes, 0 no)', prompt: 'pending question',
};

function endTurnLine(before: ThrumContext, after: ThrumContext, roundZero: boolean): LogLine {
  const id = rules.activeId(before)!;
  const b = before.combatants[id]!;
  const a = after.combatants[id]!;
  const rulings: string[] = [];
  const notes: string[] = [];
  if (!roundZero) {
    const ticked = Object.entries(b.statuses).filter(([, s]) => s.ticks).map(([n, s]) => `${n} ${s.stacks} → ${a.statuses[n]?.stacks ?? 0}`);
    if (ticked.length) {
      notes.push(`count-down: ${ticked.join(', ')}`);
      rulings.push('R-H15');
    }
    if (b.incapacitated) {
      rulings.push('R-H7', 'R-H8');
      notes.push(`Incapacitated: Fatigue Tolerance ${b.fatigueTolerance} → ${a.fatigueTolerance}, Fatigue Load ${b.fatigueLoad} → ${a.fatigueLoad}`);
      if (!a.incapacitated) notes.push('Fatigue Load 0: Incapacitated ends');
      if (a.wounds > b.wounds) notes.push(`ends the turn Incapacitated at Fatigue Tolerance 0: a Wound (${a.wounds} of 3)`);
      if (a.removed?.kind === 'wounds') notes.push('three Wounds: removed from combat and from normal campaign play');
    }
    if (!before.turn.acted && !b.incapacitated && rules.stacksOf(b, 'Stunned') > 0 && rulingsOf(before.options).stunned !== 'gmAdjudicates') {
      notes.push('the Action was skipped (Stunned)');
      rulings.push('R-H6');
    }
  }
  return { round: before.round, kind: 'turn', actorId: id, rulings, text: `${b.name} ends the turn${b.stance && !roundZero ? ` in ${b.stance}` : ''}${notes.length ? `; ${notes.join('; ')}` : ''}.` };
}

function eventLine(event: GmEvent & ThrumEvent, before: EncounterSnapshot, after: EncounterSnapshot): LogLine | null {
  // An event that ends the combat is told as it left the combatants; the end's reset of the loads has its own line.
  const ended = contextOf(after);
  const a = ended.closedFrom && !before.matches('ended') ? { ...ended, combatants: ended.closedFrom } : ended;
  const b = contextOf(before);
  const round = a.round;
  if (isCombat(event)) return combatLine(event, b, a);
  switch (event.type) {
    case 'ADD_COMBATANTS': {
      return { round, kind: 'setup', text: addedSentence(event.combatants, [{ key: 'party', label: 'the party' }, { key: 'foes', label: 'the foes' }]) };
    }
    case 'REMOVE_COMBATANT': {
      const who = nameOf(b, event.combatantId);
      if (before.matches('setup')) return { round, kind: 'setup', text: `${who} was taken off the roster.` };
      return { round, kind: 'removal', actorId: event.combatantId, rulings: ['R-H4'], text: `${who} leaves the fight${event.reason ? ` (${event.reason})` : ''}; everyone after slides up.` };
    }
    case 'SET_SIDE':
      return { round, kind: 'setup', text: `${nameOf(b, event.combatantId)} fights with the ${event.side === 'party' ? 'party' : 'foes'}.` };
    case 'SET_MAP':
      return event.map
        ? { round, kind: 'setup', text: `Map: ${event.map.width}×${event.map.height} squares, ${plural(Object.keys(event.map.elevation).length, 'square')} off Elevation 0, ${event.map.difficult.length} of Difficult Terrain, a Starting Area of ${plural(event.map.startingArea.length, 'square')}.` }
        : { round, kind: 'setup', text: 'No map: the GM gives range, cover and adjacent enemies for each attack.' };
    case 'PLACE_NPC':
      return { round, kind: 'setup', text: `The GM places ${nameOf(b, event.combatantId)}${event.square ? ` at ${squareLabel(event.square)}` : ' off the map'}.` };
    case 'START':
      return { round, kind: 'round', text: 'Combat starts: every combatant rolls initiative (2d6 + Initiative modifier).' };
    case 'ROLL_INITIATIVE': {
      const c = a.combatants[event.combatantId]!;
      return { round, kind: 'order', actorId: c.id, text: `${c.name} rolls initiative: ${faces(event.roll)} ${signed(c.initiativeModifier)} = ${c.initiative!.total}.` };
    }
    case 'BREAK_TIE':
      return { round, kind: 'order', actorId: event.combatantId, rulings: ['R-H1'], text: `The GM breaks the tie: ${nameOf(b, event.combatantId)} goes first among ${names(b, rules.openTie(b) ?? [event.combatantId])}.` };
    case 'DELAY':
      return {
        round, kind: 'order', actorId: event.combatantId, rulings: ['R-H3'],
        text: `${nameOf(b, event.combatantId)} delays ${event.afterId ? `until after ${nameOf(b, event.afterId)}` : 'to the end of the round'}, and keeps that place for the rest of the combat. Order: ${names(a, a.order)}.`,
      };
    case 'END_TURN':
      return endTurnLine(b, a, before.matches('roundZero'));
    case 'ADD_LATE_COMBATANT': {
      const c = a.combatants[event.combatant.id]!;
      const roll = c.initiative ? ` Initiative ${faces(event.initiativeRoll)} ${signed(c.initiativeModifier)} = ${c.initiative.total}` : '';
      const slot = a.order.indexOf(c.id);
      return { round, kind: 'order', actorId: c.id, text: `${c.name} arrives late and joins the ${c.side === 'party' ? 'party' : 'foes'}.${roll}${slot === -1 ? '' : `, slot ${slot + 1}`}.` };
    }
    case 'SET_CONDITION': {
      const condition = a.conditions.at(-1)!;
      return { round, kind: 'setup', text: `${rules.conditionLabel(condition)} ${a.conditions.length}: ${condition.text}.` };
    }
    case 'CONDITION_MET': {
      const condition = a.conditions[event.n - 1]!;
      const pending = a.outcome === null && (a.stack.length > 0 || a.action !== null);
      return { round, kind: 'round', text: `The GM marks the ${rules.conditionLabel(condition)} met: ${condition.text.replace(/\.$/, '')}.${pending ? ' Combat ends once the triggers and the action under way resolve.' : ''}` };
    }
    case 'END_COMBAT':
      return null; // the end-of-combat line comes from consequenceLines
  }
  return null;
}

function endLines(before: ThrumContext, after: ThrumContext): LogLine[] {
  const lines: LogLine[] = [{ round: eventRound(before, after), kind: 'end', text: `Combat ends: ${(after.outcome || 'no outcome given').replace(/\.$/, '')}. Fatigue and Stress Loads reset to 0; buffs, stances and terrain effects end.` }];
  for (const id of after.roster) {
    const b = before.combatants[id]!;
    const a = after.combatants[id]!;
    if (!a.pc) continue;
    const parts = [`Fatigue Tolerance ${a.fatigueTolerance}/${a.baseFatigueTolerance}`, `Stress Tolerance ${a.stressTolerance}/${a.baseStressTolerance}`, `Wounds ${a.wounds}`];
    let rulings: string[] = [];
    let status = '';
    if (a.removed?.kind === 'wounds') status = ' Out of action (three Wounds).';
    else if (b.incapacitated && a.incapacitated) {
      status = ' Stays Incapacitated until Downtime restores some Fatigue Tolerance.';
      rulings = ['R-H9'];
    } else if (b.incapacitated) status = ' Recovers from Incapacitated.';
    lines.push({ round: eventRound(before, after), kind: 'end', actorId: id, rulings, text: `${a.name}: ${parts.join(', ')} recorded.${status}` });
  }
  return lines;
}

/** Lines every event may cause as a side effect: the order, a new round, a new turn, a pending question, the end. */
function consequenceLines(before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  const a = contextOf(before);
  const b = contextOf(after);
  const lines: LogLine[] = [];
  if (after.matches('ended')) return before.matches('ended') ? lines : endLines(a, b);
  if (after.matches('roundZero') && !before.matches('roundZero')) {
    const tied = rules.tiedGroups(b).length > 0 || b.roster.some((id, _i, all) => all.some((other) => other !== id && b.combatants[other]!.initiative?.total === b.combatants[id]!.initiative?.total));
    lines.push({ round: 0, kind: 'order', rulings: tied ? ['R-H1'] : [], text: `Initiative order: ${orderText(b)}.` });
    lines.push({ round: 0, kind: 'round', rulings: ['R-H2'], text: 'Round Zero: in initiative order, PCs take a starting square in the Starting Area and everyone a first stance. No actions.' });
  }
  if (b.round !== a.round && b.round >= 1) lines.push({ round: b.round, kind: 'round', text: `Round ${b.round} begins. Order: ${names(b, b.order)}.` });
  const wasActive = turnOpen(before) ? rules.activeId(a) : null;
  const nowActive = turnOpen(after) ? rules.activeId(b) : null;
  if (nowActive && (nowActive !== wasActive || b.round !== a.round || b.cursor !== a.cursor)) {
    const c = b.combatants[nowActive]!;
    const state = [c.incapacitated ? 'Incapacitated: start and end of turn only (R-H4)' : null, rules.isFrayed(c) ? 'Frayed' : null, rules.isExhausted(c) ? 'Exhausted' : null].filter(Boolean);
    lines.push({ round: b.round, kind: 'turn', actorId: nowActive, rulings: c.incapacitated ? ['R-H4'] : [], text: `${possessive(c.name)} turn (initiative ${c.initiative?.total ?? '—'})${state.length ? `: ${state.join(', ')}` : ''}.` });
  }
  for (const frame of b.stack) {
    if (a.stack.includes(frame)) continue;
    if (frame.kind === 'roll') {
      const c = b.combatants[frame.id]!;
      lines.push({
        round: b.round, kind: 'decision', actorId: c.id,
        text: frame.roll === 'panic'
          ? `${c.name} is Frayed (Stress ${c.stressLoad} over Tolerance ${c.stressTolerance}): a Panic Roll is due.`
          : `${c.name} is Exhausted (Fatigue ${c.fatigueLoad} over Tolerance ${c.fatigueTolerance}): an Incapacity Roll is due (${ROLL_REASON[frame.reason]}).`,
      });
    }
  }
  return lines;
}

export function describe(raw: GmEvent, before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  const line = eventLine(raw as GmEvent & ThrumEvent, before, after);
  return [...(line ? [line] : []), ...consequenceLines(before, after)];
}
