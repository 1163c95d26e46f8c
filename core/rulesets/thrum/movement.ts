// Thrum's movement as pure functions (RULES.md §5.3, R-H10–R-H12): drops and their rolls, a Move along a path or
// by squares, teleports, forced movement, and who an area holds.
import { nameOf, plural } from '../../encounter/roster.ts';
import type { DropDice, DropChoice, CombatEvent } from './combat.ts';
import { currentSpeed, distance, isAdjacent, keyOf, onBoard, sameSquare, squareLabel, stepCost, type Square } from './grid.ts';
import { speedOf, isFoe, possessive, sumFaces, occupants } from './health.ts';
import { activeId, inFight, rollProblem, stacksOf, type ThrumCombatant, type ThrumContext } from './rules.ts';
import { rulingsOf } from './options.ts';

// ---- drop rolls (§5.3, R-H11) ----

export interface DropRolled {
  stat: 'Endurance' | 'Reflex';
  mover: { faces: number[]; modifier: number; total: number };
  environment: { faces: number[]; levels: number; total: number };
  result: 'success' | 'failure';
}

/**
 * A drop rolled with dice: 2d6 + Resilience for Endurance ("Resilience modifier (normally equal to their END
 * modifier)") or + Evasion for Reflex ("normally equal to their ... REF modifier"), against the environment's 2d6 +
 * the height of the drop. Like every contest, the roller must exceed the opposition unless R-H11's contestTies gives
 * the roller the tie.
 */
export function dropRollOf(ctx: ThrumContext, c: ThrumCombatant, entry: DropDice, levels: number): DropRolled {
  const modifier = entry.roll === 'endurance' ? c.resilience : c.evasion;
  const total = sumFaces(entry.dice!) + modifier;
  const opposition = sumFaces(entry.environment!) + levels;
  const wins = total > opposition || (total === opposition && rulingsOf(ctx.options).contestTies === 'attackWins');
  return {
    stat: entry.roll === 'endurance' ? 'Endurance' : 'Reflex',
    mover: { faces: entry.dice!.faces, modifier, total },
    environment: { faces: entry.environment!.faces, levels, total: opposition },
    result: wins ? 'success' : 'failure',
  };
}

/** Whether a drop's result must come from dice (R-H11): unless the campaign hands the contests to the GM. */
const dropsRolled = (ctx: ThrumContext): boolean => rulingsOf(ctx.options).boonsAndBanes !== 'countsToCoreRules';

function dropProblem(ctx: ThrumContext, c: ThrumCombatant, entry: DropChoice, levels: number): string | null {
  if (typeof entry === 'string') {
    if (entry === 'pay' || !dropsRolled(ctx)) return null;
    return `The dice decide ${possessive(c.name)} drop roll (R-H11): choose Endurance or Reflex and roll, or type the faces, instead of giving the result.`;
  }
  return rollProblem(entry.dice, `${possessive(c.name)} ${entry.roll === 'endurance' ? 'Endurance' : 'Reflex'} roll`)
    ?? rollProblem(entry.environment, `The environment's roll against the ${levels}-level drop`);
}

/** A drop's result: paid, or the roll's success or failure (from the dice, or as the GM gave it). */
export function dropResult(ctx: ThrumContext, c: ThrumCombatant, entry: DropChoice, levels: number): 'pay' | 'success' | 'failure' {
  return typeof entry === 'string' ? entry : dropRollOf(ctx, c, entry, levels).result;
}

// ---- movement (§5.3, R-H12) ----

export interface MovePlan {
  cost: number;
  end: Square | null;
  slowed: number;
  dazed: boolean;
  stopped: boolean;
  problem: string | null;
}

/** The cost and effects of a MOVE along a path on the board, or of a number of squares without one. */
export function planMove(ctx: ThrumContext, mover: ThrumCombatant, e: Extract<CombatEvent, { type: 'MOVE' }>): MovePlan {
  const perStack = rulingsOf(ctx.options).slowedSpeedPerStack;
  const left = speedOf(mover, ctx) - ctx.turn.moved;
  const plan: MovePlan = { cost: 0, end: mover.position, slowed: 0, dazed: false, stopped: false, problem: null };
  if (e.teleport) return planTeleport(ctx, mover, e, plan, left);
  if (!e.path || e.path.length === 0) {
    const squares = e.squares ?? 0;
    if (squares < 1) return { ...plan, problem: 'Give the path on the map or the number of squares moved.' };
    if (squares > left) return { ...plan, problem: `${mover.name} has ${left} square${left === 1 ? '' : 's'} of movement left; ${squares} needed (Speed ${speedOf(mover, ctx)}, R-H12).` };
    return { ...plan, cost: squares };
  }
  const board = ctx.board;
  if (!board || !mover.position) return { ...plan, problem: `Place ${mover.name} on the map first, or give the number of squares moved.` };
  const others = Object.values(ctx.combatants).filter((c) => inFight(c) && c.id !== mover.id && c.position !== null);
  let spent = ctx.turn.moved;
  let slowed = stacksOf(mover, 'Slowed');
  let previous = mover.position;
  let dropIndex = 0;
  const drops = e.drops ?? [];
  for (const [i, square] of e.path.entries()) {
    if (!onBoard(board, square)) return { ...plan, problem: `${squareLabel(square)} is off the map.` };
    if (!isAdjacent(previous, square)) return { ...plan, problem: `Each step goes to an adjacent square: ${squareLabel(previous)} to ${squareLabel(square)} is not one step.` };
    const occupant = others.find((c) => sameSquare(c.position!, square));
    if (occupant && isFoe(occupant, mover)) return { ...plan, problem: `${occupant.name} stands on ${squareLabel(square)}: no moving into an enemy's square.` };
    const step = stepCost(board, previous, square);
    let cost = step.cost;
    let failed = false;
    if (step.drop !== null) {
      const entry = drops[dropIndex] ?? 'pay';
      dropIndex += 1;
      const problem = dropProblem(ctx, mover, entry, step.drop);
      if (problem) return { ...plan, problem };
      const choice = dropResult(ctx, mover, entry, step.drop);
      if (choice !== 'pay') cost = step.dropCost!;
      failed = choice === 'failure';
    }
    spent += cost;
    const speedNow = currentSpeed(mover.speed, slowed, perStack);
    if (spent > speedNow) return { ...plan, problem: `That path needs ${spent - ctx.turn.moved} squares of movement; ${mover.name} has ${left} left (Speed ${speedNow}).` };
    previous = square;
    if (failed) {
      slowed += 1;
      plan.slowed += 1;
      // A failed drop: +1 Slowed; with movement already spent up to the new speed, it stops here, +1 Dazed.
      if (spent >= currentSpeed(mover.speed, slowed, perStack)) {
        plan.dazed = true;
        plan.stopped = true;
        if (i < e.path.length - 1) return { ...plan, problem: `${mover.name} fails the drop at ${squareLabel(square)} and cannot move further: end the path there.` };
      }
    }
  }
  if (dropIndex < drops.length) return { ...plan, problem: `The path has ${dropIndex} drop${dropIndex === 1 ? '' : 's'} of two or more levels; ${drops.length} drop choices were given.` };
  const last = e.path.at(-1)!;
  const ally = others.find((c) => sameSquare(c.position!, last));
  if (ally) return { ...plan, problem: `${ally.name} stands on ${squareLabel(last)}: movers pass through allies but cannot stop there.` };
  return { ...plan, cost: spent - ctx.turn.moved, end: last };
}

/**
 * A Teleport that uses movement (§5.3): it does not cross the squares between, so terrain, elevation and enemies on
 * the way do not matter, and the extra costs of leaving the origin or entering the destination are ignored; it
 * still costs its distance in squares of movement and cannot end on another character's square.
 */
function planTeleport(ctx: ThrumContext, mover: ThrumCombatant, e: Extract<CombatEvent, { type: 'MOVE' }>, plan: MovePlan, left: number): MovePlan {
  const tooFar = (cost: number) => `A teleport of ${plural(cost, 'square')} needs that much movement; ${mover.name} has ${left} left (Speed ${speedOf(mover, ctx)}, R-H12).`;
  if (e.drops?.length) return { ...plan, problem: 'A teleport does not cross the squares between: there is no drop to roll for.' };
  if (!e.path || e.path.length === 0) {
    const squares = e.squares ?? 0;
    if (squares < 1) return { ...plan, problem: 'Give the teleport\'s destination on the map or its distance in squares.' };
    return squares > left ? { ...plan, problem: tooFar(squares) } : { ...plan, cost: squares };
  }
  if (e.path.length !== 1) return { ...plan, problem: 'A teleport names only its destination square, not a path.' };
  const board = ctx.board;
  if (!board || !mover.position) return { ...plan, problem: `Place ${mover.name} on the map first, or give the teleport's distance in squares.` };
  const to = e.path[0]!;
  if (!onBoard(board, to)) return { ...plan, problem: `${squareLabel(to)} is off the map.` };
  if (sameSquare(to, mover.position)) return { ...plan, problem: `${mover.name} already stands on ${squareLabel(to)}.` };
  const occupant = occupants(ctx).find((o) => o.id !== mover.id && sameSquare(o.square, to));
  if (occupant) {
    const other = ctx.combatants[occupant.id]!;
    return { ...plan, problem: isFoe(other, mover) ? `${other.name} stands on ${squareLabel(to)}: no moving into an enemy's square.` : `${other.name} stands on ${squareLabel(to)}: movers cannot stop on an ally's square.` };
  }
  const cost = distance(mover.position, to);
  return cost > left ? { ...plan, problem: tooFar(cost) } : { ...plan, cost, end: to };
}

// ---- forced movement (§5.3: "the same process applies if a character is moved involuntarily") ----

export interface ForcedDrop {
  at: Square | null;
  levels: number | null;
  result: 'success' | 'failure';
  /** When the dice decided it (R-H11). */
  rolled: DropRolled | null;
}

export interface ForcedPlan {
  end: Square | null;
  drops: ForcedDrop[];
  slowed: number;
  dazed: number;
  problem: string | null;
}

/**
 * Someone moves a character (a push, a pull, a shove off a ledge): its own movement is not spent, so a drop of two
 * or more levels into a square is always rolled for (Endurance or Reflex against the height difference). Each failed
 * roll is +1 Slowed, and +1 Dazed when the movement it has spent this turn (0 outside its turn) reaches its new,
 * lowered Speed (R-H12). It cannot be pushed into an enemy's square nor left on anyone's square.
 */
export function planForcedMove(ctx: ThrumContext, e: Extract<CombatEvent, { type: 'FORCED_MOVE' }>): ForcedPlan {
  const moved = ctx.combatants[e.combatantId]!;
  const plan: ForcedPlan = { end: moved.position, drops: [], slowed: 0, dazed: 0, problem: null };
  if (!e.path || e.path.length === 0) {
    if (!e.squares) return { ...plan, problem: 'Give the path on the map or the number of squares moved.' };
    if (e.drops?.length) return { ...plan, problem: 'Without a path on the map, give the one drop roll as "drop".' };
    if (e.drop === 'endurance' || e.drop === 'reflex') {
      if (!e.levels) return { ...plan, problem: 'Give the levels dropped: the environment rolls 2d6 + the height of the drop.' };
      const entry: DropDice = { roll: e.drop, dice: e.dropDice ?? null, environment: e.environmentDice ?? null };
      const problem = dropProblem(ctx, moved, entry, e.levels);
      if (problem) return { ...plan, problem };
      const rolled = dropRollOf(ctx, moved, entry, e.levels);
      plan.drops.push({ at: null, levels: e.levels, result: rolled.result, rolled });
    } else if (e.drop && e.drop !== 'none') {
      const problem = dropProblem(ctx, moved, e.drop, e.levels ?? 2);
      if (problem) return { ...plan, problem };
      plan.drops.push({ at: null, levels: e.levels ?? null, result: e.drop, rolled: null });
    }
  } else {
    const board = ctx.board;
    if (!board || !moved.position) return { ...plan, problem: `Place ${moved.name} on the map first, or give the number of squares moved.` };
    if (e.drop && e.drop !== 'none') return { ...plan, problem: 'With a path on the map, give one drop roll per drop in "drops".' };
    const given = e.drops ?? [];
    let previous = moved.position;
    for (const square of e.path) {
      if (!onBoard(board, square)) return { ...plan, problem: `${squareLabel(square)} is off the map.` };
      if (!isAdjacent(previous, square)) return { ...plan, problem: `Each step goes to an adjacent square: ${squareLabel(previous)} to ${squareLabel(square)} is not one step.` };
      const occupant = occupants(ctx).find((o) => o.id !== moved.id && sameSquare(o.square, square));
      if (occupant && isFoe(ctx.combatants[occupant.id]!, moved)) return { ...plan, problem: `${nameOf(ctx, occupant.id)} stands on ${squareLabel(square)}: ${moved.name} cannot be moved into an enemy's square.` };
      const step = stepCost(board, previous, square);
      if (step.drop !== null) {
        const entry = given[plan.drops.length];
        if (!entry) return { ...plan, problem: `${moved.name} drops ${step.drop} levels into ${squareLabel(square)}: roll Endurance or Reflex against ${step.drop}.` };
        const problem = dropProblem(ctx, moved, entry, step.drop);
        if (problem) return { ...plan, problem };
        const rolled = typeof entry === 'string' ? null : dropRollOf(ctx, moved, entry, step.drop);
        plan.drops.push({ at: square, levels: step.drop, result: rolled?.result ?? (entry as 'success' | 'failure'), rolled });
      }
      previous = square;
    }
    if (given.length > plan.drops.length) return { ...plan, problem: `The path has ${plural(plan.drops.length, 'drop')} of two or more levels; ${given.length} drop rolls were given.` };
    const last = e.path.at(-1)!;
    const occupant = occupants(ctx).find((o) => o.id !== moved.id && sameSquare(o.square, last));
    if (occupant) return { ...plan, problem: `${nameOf(ctx, occupant.id)} stands on ${squareLabel(last)}: nobody can be pushed onto another character's square.` };
    plan.end = last;
  }
  const perStack = rulingsOf(ctx.options).slowedSpeedPerStack;
  const spent = activeId(ctx) === moved.id ? ctx.turn.moved : 0;
  let slowed = stacksOf(moved, 'Slowed');
  for (const drop of plan.drops) {
    if (drop.result !== 'failure') continue;
    slowed += 1;
    plan.slowed += 1;
    if (spent >= currentSpeed(moved.speed, slowed, perStack)) plan.dazed += 1;
  }
  return plan;
}

// ---- areas (§5.3, R-H10) ----

/**
 * The characters an area effect reaches: everyone standing in its squares, allies included (R-H10) unless the
 * option says areas spare allies; the user is reached only when standing inside (an Aura never holds its centre).
 */
export function areaTargets(ctx: ThrumContext, userId: string, squares: Square[]): string[] {
  const user = ctx.combatants[userId]!;
  const alliesToo = rulingsOf(ctx.options).areasHitAllies;
  const keys = new Set(squares.map(keyOf));
  return ctx.order
    .concat(ctx.roster.filter((id) => !ctx.order.includes(id)))
    .map((id) => ctx.combatants[id]!)
    .filter((c) => inFight(c) && c.position !== null && keys.has(keyOf(c.position)))
    .filter((c) => alliesToo || isFoe(c, user))
    .map((c) => c.id);
}
