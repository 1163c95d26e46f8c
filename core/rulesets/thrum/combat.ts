// Thrum's turn and combat as pure functions (RULES.md §5.2–§5.5): start of turn and the Panic Roll, Move up to
// Speed, one Action, one Stance, end-of-turn upkeep (status count-down, incapacity, Wounds); attacks with the
// defender's choice before the roll and the outcome tiers; loads against tolerances; Incapacity Rolls; buffs, terrain
// effects and the trigger stack. The machine applies these; the refusal sentences come from the same checks.
import { lastAnswer } from '../../encounter/last-answer.ts';
import { plural } from '../../encounter/roster.ts';
import {
  coverBetween, currentSpeed, distance, inStartingArea, isAdjacent, keyOf, onBoard, placementProblem, sameSquare, squareLabel, stepCost,
  type Square,
} from './grid.ts';
import {
  activeId, endCondition, freshTurn, inFight, isExhausted, isFrayed, nameOf, removeCombatant, rollProblem, stacksOf, update,
  type AttackTarget, type DefenceKind, type Frame, type PendingAttack, type Roll, type ThrumCombatant, type ThrumContext, type Tier,
} from './rules.ts';

/**
 * A drop roll made with dice (R-H11): the mover's Endurance or Reflex roll, "their choice", against the environment,
 * "which has an opposition level equal to the difference in elevation". Each is 2d6, rolled by the app or typed.
 */
export interface DropDice { roll: 'endurance' | 'reflex'; dice?: Roll | null; environment?: Roll | null }
/** How the mover takes a drop: pays the movement, rolls the dice, or (R-H11 `countsToCoreRules`) the GM's result. */
export type DropChoice = 'pay' | 'success' | 'failure' | DropDice;
/** A forced drop of two or more levels is always rolled for (the mover has no movement to pay with). */
export type DropRoll = 'success' | 'failure' | DropDice;

export type OverrideField = 'fatigueLoad' | 'stressLoad' | 'fatigueTolerance' | 'stressTolerance' | 'wounds' | 'incapacitated' | 'moved' | 'acted' | 'prompt';

export type CombatEvent =
  | { type: 'PANIC_ROLL'; id: string; roll?: Roll | null }
  | { type: 'INCAPACITY_ROLL'; id: string; roll?: Roll | null }
  | { type: 'MOVE'; squares?: number | null; path?: Square[] | null; drops?: DropChoice[] | null; teleport?: boolean; note?: string }
  | {
      type: 'FORCED_MOVE'; id: string; squares?: number | null; path?: Square[] | null; drops?: DropRoll[] | null;
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
  | { type: 'DEFENSE_CHOICE'; id: DefenceKind }
  /**
   * The contest for the current target: the attack roll against the defence roll (R-H11, rolled by the app or typed),
   * `id` omitted or `roll`; or, when the GM resolves it (R-H11 `countsToCoreRules`, an ability's alternative defence,
   * and every event stored before the contest was rolled), the outcome tier as `id`.
   */
  | { type: 'DEFENSE_RESULT'; id?: Tier | 'roll' | null; attackRoll?: Roll | null; defenceRoll?: Roll | null }
  | {
      type: 'USE_ABILITY'; ability: string; overexert?: number | null; removesExhaustion?: boolean; movesAfter?: boolean;
      buffTargetId?: string | null; terrainEffect?: boolean; note?: string;
    }
  | { type: 'RESUSCITATE'; targetId: string }
  | { type: 'BUFF_CHOICE'; id: 'keepOld' | 'takeNew' }
  | { type: 'SET_STANCE'; stance: string }
  | { type: 'POSITION'; square: Square }
  | { type: 'TRIGGER'; trigger: string; effects: { ownerId: string; effect?: string | null }[] }
  | { type: 'RESOLVE_TRIGGER'; id: string }
  | { type: 'APPLY_LOAD'; targetId: string; load: 'fatigue' | 'stress'; amount: number; source: string }
  | { type: 'APPLY_STATUS'; targetId: string; status: string; stacks: number; ticks?: boolean | null; source: string }
  | { type: 'CLEAR_STATUS'; targetId: string; status: string; stacks?: number | null }
  | { type: 'SET_POSITION'; id: string; square: Square | null; note: string }
  | { type: 'OVERRIDE'; targetId: string; field: OverrideField; value: number; note: string };

export type Stage = 'roundZero' | 'rounds';

// ---- statuses (R-H15) ----

/** Statuses the combat page names, and whether they count down at the end of the bearer's turn by default. */
const STATUS_TICKS: Record<string, boolean> = { Stunned: true, Slowed: true, Dazed: true, Vulnerable: false };

export const statusName = (raw: string): string => {
  const trimmed = raw.trim();
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
};

export function ticksFor(ctx: ThrumContext, status: string, explicit: boolean | null | undefined): boolean {
  if (explicit !== null && explicit !== undefined) return explicit;
  if (ctx.options['statusCountdown'] === 'allStacksTick') return true;
  return STATUS_TICKS[status] ?? true;
}

function addStatus(ctx: ThrumContext, id: string, raw: string, stacks: number, explicitTicks?: boolean | null): ThrumContext {
  const c = ctx.combatants[id]!;
  const status = statusName(raw);
  const current = c.statuses[status];
  const ticks = current?.ticks ?? ticksFor(ctx, status, explicitTicks);
  return update(ctx, id, { statuses: { ...c.statuses, [status]: { stacks: (current?.stacks ?? 0) + stacks, ticks } } });
}

function removeStatus(ctx: ThrumContext, id: string, raw: string, stacks: number | null | undefined): ThrumContext {
  const c = ctx.combatants[id]!;
  const status = statusName(raw);
  const current = c.statuses[status];
  if (!current) return ctx;
  const left = stacks === null || stacks === undefined ? 0 : current.stacks - stacks;
  const { [status]: _gone, ...rest } = c.statuses;
  return update(ctx, id, { statuses: left > 0 ? { ...rest, [status]: { ...current, stacks: left } } : rest });
}

// ---- derived numbers ----

export const speedOf = (c: ThrumCombatant, ctx: ThrumContext): number =>
  currentSpeed(c.speed, stacksOf(c, 'Slowed'), Number(ctx.options['slowedSpeedPerStack'] ?? 1));

const floor = (n: number): number => Math.max(0, n); // R-H8: loads and tolerances never go below 0

const isFoe = (a: ThrumCombatant, b: ThrumCombatant): boolean => a.side !== b.side;
const possessive = (name: string) => `${name}'${name.endsWith('s') ? '' : 's'}`;
export const sumFaces = (roll: Roll): number => roll.faces.reduce((a, b) => a + b, 0);

/** Who stands where, for occupancy and cover. */
export const occupants = (ctx: ThrumContext) =>
  Object.values(ctx.combatants).filter((c) => inFight(c) && c.position !== null).map((c) => ({ id: c.id, square: c.position! }));

export const stunnedSkipsAction = (ctx: ThrumContext, c: ThrumCombatant): boolean => ctx.options['stunned'] !== 'gmAdjudicates' && stacksOf(c, 'Stunned') > 0;

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
  const wins = total > opposition || (total === opposition && ctx.options['contestTies'] === 'attackWins');
  return {
    stat: entry.roll === 'endurance' ? 'Endurance' : 'Reflex',
    mover: { faces: entry.dice!.faces, modifier, total },
    environment: { faces: entry.environment!.faces, levels, total: opposition },
    result: wins ? 'success' : 'failure',
  };
}

/** Whether a drop's result must come from dice (R-H11): unless the campaign hands the contests to the GM. */
const dropsRolled = (ctx: ThrumContext): boolean => ctx.options['boonsAndBanes'] !== 'countsToCoreRules';

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
  const perStack = Number(ctx.options['slowedSpeedPerStack'] ?? 1);
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
  const moved = ctx.combatants[e.id]!;
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
  const perStack = Number(ctx.options['slowedSpeedPerStack'] ?? 1);
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
  const alliesToo = ctx.options['areasHitAllies'] !== false;
  const keys = new Set(squares.map(keyOf));
  return ctx.order
    .concat(ctx.roster.filter((id) => !ctx.order.includes(id)))
    .map((id) => ctx.combatants[id]!)
    .filter((c) => inFight(c) && c.position !== null && keys.has(keyOf(c.position)))
    .filter((c) => alliesToo || isFoe(c, user))
    .map((c) => c.id);
}

// ---- attacks (§5.4) ----

export interface RollCounts {
  attackModifier: number;
  attackBanes: string[];
  attackBoons: number;
  defenceModifier: number;
  defenceBoons: string[];
  defenceBanes: string[];
}

const DEFENCE_LABEL: Record<DefenceKind, string> = { resilience: 'Resilience', evasion: 'Evasion', resolve: 'Resolve', alternative: 'an ability\'s defence' };
export const defenceLabel = (d: DefenceKind): string => DEFENCE_LABEL[d];

export function defenceModifier(c: ThrumCombatant, d: DefenceKind): number {
  return d === 'resilience' ? c.resilience : d === 'evasion' ? c.evasion : d === 'resolve' ? c.resolve : 0;
}

/** Boon and bane counts for the attack roll and the current target's defence roll (R-H11: handed to the core rules). */
export function rollCounts(ctx: ThrumContext, attack: PendingAttack, target: AttackTarget): RollCounts {
  const attacker = ctx.combatants[attack.attackerId]!;
  const defender = ctx.combatants[target.targetId]!;
  const attackBanes: string[] = [];
  if (attack.ranged) for (let i = 0; i < attack.adjacentEnemies; i += 1) attackBanes.push('an enemy adjacent to a Ranged attacker');
  if (target.cover) attackBanes.push('cover');
  if (isExhausted(attacker)) attackBanes.push('Exhausted attacker');
  for (let i = 0; i < attack.extraBanes; i += 1) attackBanes.push('the ability');
  const defenceBoons: string[] = [];
  const defenceBanes: string[] = [];
  if (target.defence === 'evasion' && stacksOf(defender, 'Vulnerable') === 0) defenceBoons.push('Evasion while not Vulnerable');
  if (isFrayed(defender)) defenceBanes.push('Frayed defender');
  return {
    attackModifier: attack.artModifier,
    attackBanes,
    attackBoons: attack.extraBoons,
    defenceModifier: target.defence ? defenceModifier(defender, target.defence) : 0,
    defenceBoons,
    defenceBanes,
  };
}

// ---- the contested roll (§5.4 steps 4–6, R-H11) ----

/**
 * Whether the dice decide this contest (R-H11): unless the campaign hands the counts to the core rules, or the
 * defence is "an ability that provides an alternative defensive option", which resolves as that ability says.
 */
export const contestRolled = (ctx: ThrumContext, defence: DefenceKind | null): boolean =>
  ctx.options['boonsAndBanes'] !== 'countsToCoreRules' && defence !== 'alternative';

/** One side's dice: 2d6, and one d6 more per net Boon or Bane ("each Bane cancels one Boon and vice versa"). */
export interface SideDice {
  count: number;
  /** Which two faces count: the highest (net Boons), the lowest (net Banes), or both of a plain 2d6. */
  keep: 'highest' | 'lowest' | 'both';
  modifier: number;
}

export function sideDice(modifier: number, boons: number, banes: number): SideDice {
  const net = boons - banes;
  return { count: 2 + Math.abs(net), keep: net > 0 ? 'highest' : net < 0 ? 'lowest' : 'both', modifier };
}

export const diceLabel = (d: SideDice): string =>
  `${d.count}d6${d.keep === 'both' ? '' : ` keep the ${d.keep} 2`} ${d.modifier < 0 ? `− ${-d.modifier}` : `+ ${d.modifier}`}`;

/** The faces that count: for a net Boon the lowest are dropped, for a net Bane the highest. */
export function keptFaces(faces: readonly number[], d: SideDice): number[] {
  if (d.keep === 'both') return [...faces];
  const sorted = [...faces].sort((a, b) => a - b);
  return d.keep === 'highest' ? sorted.slice(-2) : sorted.slice(0, 2);
}

export function contestDice(ctx: ThrumContext, attack: PendingAttack, target: AttackTarget): { attack: SideDice; defence: SideDice } {
  const counts = rollCounts(ctx, attack, target);
  return {
    attack: sideDice(counts.attackModifier, counts.attackBoons, counts.attackBanes.length),
    defence: sideDice(counts.defenceModifier, counts.defenceBoons.length, counts.defenceBanes.length),
  };
}

export interface Contest {
  attack: { dice: SideDice; kept: number[]; total: number };
  defence: { dice: SideDice; kept: number[]; total: number };
  /** Defence total minus attack total. */
  margin: number;
  tier: Tier;
  /** The attack beat the defence by the critical margin: an ability's own Critical effect applies (R-H11 criticalMargin). */
  attackCritical: boolean;
}

/**
 * The outcome from the defender's side (§5.4 step 6) from the two totals. The source leaves ties and the size of a
 * Critical to other chapters: R-H11 `contestTies` (a tie is the defence's unless the campaign rules otherwise: the attack must
 * exceed, as the Panic and Incapacity Rolls "must exceed (not tie)") and R-H11 `criticalMargin` (a Critical is the critical margin or
 * more above the opposing roll). Only Evasion has a Critical outcome; Resilience and Resolve succeed or fail.
 */
export function contestOf(ctx: ThrumContext, attack: PendingAttack, target: AttackTarget, attackRoll: Roll, defenceRoll: Roll): Contest {
  const dice = contestDice(ctx, attack, target);
  const side = (d: SideDice, roll: Roll) => {
    const kept = keptFaces(roll.faces, d);
    return { dice: d, kept, total: kept.reduce((a, b) => a + b, 0) + d.modifier };
  };
  const a = side(dice.attack, attackRoll);
  const d = side(dice.defence, defenceRoll);
  const margin = d.total - a.total;
  const critical = Number(ctx.options['criticalMargin'] ?? 5);
  const defenceHolds = margin > 0 || (margin === 0 && ctx.options['contestTies'] !== 'attackWins');
  const tier: Tier = !defenceHolds ? 'failure' : target.defence === 'evasion' && margin >= critical ? 'critical' : 'success';
  return { attack: a, defence: d, margin, tier, attackCritical: -margin >= critical };
}

/** A typed contest roll of the wrong size or with a face no d6 has, in a sentence. */
function contestRollProblem(roll: Roll | null | undefined, d: SideDice, what: string): string | null {
  const notation = `${d.count}d6`;
  if (!roll || roll.faces.length === 0) return `${what} needs ${notation}.`;
  if (roll.faces.length !== d.count) {
    return `${what} is ${notation}${d.keep === 'both' ? '' : ` (one d6 per net ${d.keep === 'highest' ? 'Boon' : 'Bane'})`}: ${roll.faces.length} ${roll.faces.length === 1 ? 'die' : 'dice'} given.`;
  }
  const bad = roll.faces.find((f) => !Number.isInteger(f) || f < 1 || f > 6);
  return bad === undefined ? null : `${bad} is not a face of a d6.`;
}

export function defenceChoices(attackType: 'physical' | 'mental'): DefenceKind[] {
  return attackType === 'physical' ? ['resilience', 'evasion', 'alternative'] : ['resolve', 'evasion', 'alternative'];
}

export const tiersFor = (d: DefenceKind): Tier[] => (d === 'evasion' ? ['critical', 'success', 'failure'] : ['success', 'failure']);

/** Cover for one target: from the board when both stand on it (physical attacks only), else the GM's word. */
function targetCover(ctx: ThrumContext, attacker: ThrumCombatant, target: ThrumCombatant, attackType: 'physical' | 'mental', given: boolean | null | undefined) {
  if (attackType !== 'physical') return { cover: false, obstructed: false, computed: false };
  if (ctx.board && attacker.position && target.position) {
    const result = coverBetween(ctx.board, occupants(ctx), attacker.position, target.position, {
      characterHeight: Number(ctx.options['characterCoverHeight'] ?? 2),
      onLineGivesCover: ctx.options['dividingLineCover'] === 'cover',
    });
    return { cover: result.cover, obstructed: result.obstructed, computed: true };
  }
  return { cover: Boolean(given), obstructed: false, computed: false };
}

function adjacentEnemyCount(ctx: ThrumContext, attacker: ThrumCombatant, given: number | null | undefined): number {
  if (ctx.board && attacker.position) {
    return Object.values(ctx.combatants).filter((c) => inFight(c) && isFoe(c, attacker) && c.position && isAdjacent(c.position, attacker.position!)).length;
  }
  return given ?? 0;
}

type AttackEvent = Extract<CombatEvent, { type: 'ATTACK' }>;

/** An area attack: flagged `area`, or carrying its squares. */
export const isAreaAttack = (e: AttackEvent): boolean => Boolean(e.area) || Boolean(e.squares?.length);

/**
 * Who an attack targets: with its area's squares, everyone inside it ("Abilities that target an Area affect all
 * characters in the area unless otherwise specified"; R-H10 for allies), the listed targets first; else the list.
 */
export function attackTargets(ctx: ThrumContext, e: AttackEvent): { targetId: string; cover?: boolean | null }[] {
  if (!e.squares?.length) return e.targets;
  const inside = areaTargets(ctx, e.attackerId, e.squares);
  const listed = e.targets.filter((t) => inside.includes(t.targetId));
  return [...listed, ...inside.filter((id) => !listed.some((t) => t.targetId === id)).map((targetId) => ({ targetId }))];
}

/**
 * The squares an area attack is judged on: its own squares, or without them the squares its targets stand on (the
 * GM's list is then the area). Null when an attack is not an area or its squares are not known on the map.
 */
function areaOf(ctx: ThrumContext, e: AttackEvent): Square[] | null {
  if (e.squares?.length) return e.squares;
  if (!e.area) return null;
  const squares = e.targets.map((t) => ctx.combatants[t.targetId]?.position ?? null);
  return squares.every((s): s is Square => s !== null) ? squares : null;
}

/**
 * Range, Range 0 and Obstructed judged on the area (§5.3, §5.4 step 9): "Area and Line effects must have at least one
 * space within the range of the ability that places it. If the ability has Range 0, the ability user's space must be
 * in the area." A space behind an Obstructed path cannot be targeted, but "characters can still be affected by areas
 * however, provided some other space in the area is not obstructed": every space obstructed, the area reaches nobody.
 */
function areaProblem(ctx: ThrumContext, attacker: ThrumCombatant, e: AttackEvent): string | null {
  if (e.squares?.length) {
    if (!ctx.board) return 'No map is set for this encounter: list the area\'s targets instead of its squares.';
    if (!attacker.position) return `Place ${attacker.name} on the map first: the area is judged from ${possessive(attacker.name)} square.`;
    const off = e.squares.find((s) => !onBoard(ctx.board!, s));
    if (off) return `${squareLabel(off)} is off the map.`;
    if (new Set(e.squares.map(keyOf)).size !== e.squares.length) return 'Each square of the area is listed once.';
  }
  const squares = areaOf(ctx, e);
  if (!squares || !ctx.board || !attacker.position) return null;
  if (e.range !== null && e.range !== undefined) {
    const problem = placementProblem(squares, attacker.position, e.range);
    if (problem) return problem;
  }
  if (e.attackType !== 'physical') return null;
  const cover = { characterHeight: Number(ctx.options['characterCoverHeight'] ?? 2), onLineGivesCover: ctx.options['dividingLineCover'] === 'cover' };
  const open = squares.some((s) => !coverBetween(ctx.board!, occupants(ctx), attacker.position!, s, cover).obstructed);
  if (open) return null;
  return squares.length === 1
    ? `The path to ${squareLabel(squares[0]!)} is Obstructed, and the area has no other space: it reaches nobody there.`
    : 'Every space of the area is Obstructed from the attacker: an area reaches a character behind an obstruction only through some other space that is not.';
}

export function planAttack(ctx: ThrumContext, e: Extract<CombatEvent, { type: 'ATTACK' }>, triggered: boolean): PendingAttack {
  const attacker = ctx.combatants[e.attackerId]!;
  const undefendedAllowed = ctx.options['incapacitatedDefend'] === false;
  return {
    attackerId: attacker.id,
    ability: e.ability,
    attackType: e.attackType,
    artModifier: e.art ?? attacker.highestArt,
    ranged: Boolean(e.ranged),
    finisher: Boolean(e.finisher),
    fatigue: e.fatigue,
    stress: e.stress,
    statuses: (e.statuses ?? []).map((s) => ({ status: statusName(s.status), stacks: s.stacks })),
    extraBoons: e.extraBoons ?? 0,
    extraBanes: e.extraBanes ?? 0,
    adjacentEnemies: e.ranged ? adjacentEnemyCount(ctx, attacker, e.adjacentEnemies) : 0,
    targets: attackTargets(ctx, e).map((t) => {
      const target = ctx.combatants[t.targetId]!;
      return {
        targetId: t.targetId,
        cover: targetCover(ctx, attacker, target, e.attackType, t.cover ?? (e.covered?.includes(t.targetId) || null)).cover,
        defence: null,
        tier: null,
        undefended: undefendedAllowed && target.incapacitated,
      };
    }),
    current: 0,
    triggered,
  };
}

/** The effect lands: loads +n (R-H12b) and statuses. */
function takeEffect(ctx: ThrumContext, attack: PendingAttack, targetId: string): ThrumContext {
  const t = ctx.combatants[targetId]!;
  let next = update(ctx, targetId, { fatigueLoad: t.fatigueLoad + attack.fatigue, stressLoad: t.stressLoad + attack.stress });
  for (const s of attack.statuses) next = addStatus(next, targetId, s.status, s.stacks);
  return next;
}

/** The contest's tier: from the two rolls, or as the GM gave it (R-H11). */
export function contestTier(ctx: ThrumContext, attack: PendingAttack, target: AttackTarget, e: Extract<CombatEvent, { type: 'DEFENSE_RESULT' }>): Tier {
  const id = e.id ?? 'roll';
  if (id !== 'roll') return id;
  return contestOf(ctx, attack, target, e.attackRoll!, e.defenceRoll!).tier;
}

/** The outcome tiers (§5.4 step 6): whether the effect lands and whether Evasion costs a Vulnerable stack. */
export function outcomeOf(defence: DefenceKind | null, tier: Tier): { takes: boolean; vulnerable: boolean } {
  if (defence === 'evasion') return { takes: tier === 'failure', vulnerable: tier !== 'critical' };
  return { takes: tier === 'failure', vulnerable: false };
}

/** Moves past targets who do not defend (R-H16 off); when every target is done the attack leaves the stack. */
function advanceAttack(ctx: ThrumContext): ThrumContext {
  let next = ctx;
  let frame = next.stack.at(-1);
  while (frame?.kind === 'attack') {
    const attack = frame.attack;
    const target = attack.targets[attack.current];
    if (target === undefined) return finishAttack(next, attack);
    if (!target.undefended) return next;
    next = takeEffect(next, attack, target.targetId);
    const targets = attack.targets.map((t, i) => (i === attack.current ? { ...t, tier: 'failure' as const } : t));
    next = replaceTop(next, { kind: 'attack', attack: { ...attack, targets, current: attack.current + 1 } });
    frame = next.stack.at(-1);
  }
  return next;
}

/** The attack has resolved: Finisher targets that are Exhausted make an Incapacity Roll at once (§5.4 step 8). */
function finishAttack(ctx: ThrumContext, attack: PendingAttack): ThrumContext {
  const popped = { ...ctx, stack: ctx.stack.slice(0, -1) };
  if (!attack.finisher) return popped;
  const rolls: Frame[] = attack.targets
    .map((t) => popped.combatants[t.targetId]!)
    .filter((c) => inFight(c) && !c.incapacitated && isExhausted(c))
    .map((c) => ({ kind: 'roll', roll: 'incapacity', id: c.id, reason: 'finisher' }));
  return { ...popped, stack: [...popped.stack, ...rolls.reverse()] };
}

const replaceTop = (ctx: ThrumContext, frame: Frame): ThrumContext => ({ ...ctx, stack: [...ctx.stack.slice(0, -1), frame] });
const push = (ctx: ThrumContext, ...frames: Frame[]): ThrumContext => ({ ...ctx, stack: [...ctx.stack, ...frames] });
const pop = (ctx: ThrumContext): ThrumContext => ({ ...ctx, stack: ctx.stack.slice(0, -1) });

// ---- incapacity (§5.5) ----

/** Becoming Incapacitated: the stance ends, Fatigue Tolerance and Load −1 (minimum 0); Load 0 ends it at once. */
export function becomeIncapacitated(ctx: ThrumContext, id: string): ThrumContext {
  const c = ctx.combatants[id]!;
  const fatigueLoad = floor(c.fatigueLoad - 1);
  let next = update(ctx, id, { incapacitated: fatigueLoad > 0, stance: null, fatigueTolerance: floor(c.fatigueTolerance - 1), fatigueLoad });
  if (activeId(next) === id) next = { ...next, turn: { ...next.turn, movementClosed: true, acted: true, stanceTaken: true, begun: true } };
  return next;
}

function setLoad(ctx: ThrumContext, id: string, load: 'fatigue' | 'stress', value: number): ThrumContext {
  const c = ctx.combatants[id]!;
  if (load === 'stress') return update(ctx, id, { stressLoad: floor(value) });
  const fatigueLoad = floor(value);
  // Fatigue Load reaching 0 is one of the three ways out of Incapacitated (§5.5).
  return update(ctx, id, { fatigueLoad, incapacitated: c.incapacitated && fatigueLoad > 0 });
}

// ---- the turn (§5.2 rule 4) ----

/** Start of turn: a Frayed combatant owes a Panic Roll (R-H4: incapacitated ones too). */
export function beginTurn(ctx: ThrumContext, stage: Stage): ThrumContext {
  const next = { ...ctx, turn: freshTurn(), action: null };
  const id = activeId(next);
  if (stage !== 'rounds' || id === null) return next;
  const c = next.combatants[id]!;
  return isFrayed(c) ? push(next, { kind: 'roll', roll: 'panic', id, reason: 'startOfTurn' }) : next;
}

/**
 * End of turn (R-H7): end-of-turn effects (the GM's, before this) → statuses that count down lose a stack →
 * incapacitated upkeep (Fatigue Tolerance and Load −1; Load 0 ends it) → a Wound if still Incapacitated at Fatigue
 * Tolerance 0 (or the wound check before the −1, by option) → three Wounds remove the combatant. Then the next slot.
 */
export function endTurn(ctx: ThrumContext, stage: Stage): ThrumContext {
  const id = activeId(ctx);
  if (id === null) return ctx;
  let next = ctx;
  if (stage === 'rounds') {
    const c = next.combatants[id]!;
    const statuses: ThrumCombatant['statuses'] = {};
    for (const [name, status] of Object.entries(c.statuses)) {
      const stacks = status.ticks ? status.stacks - 1 : status.stacks;
      if (stacks > 0) statuses[name] = { ...status, stacks };
    }
    next = update(next, id, { statuses });
    next = incapacitatedUpkeep(next, id);
  }
  const after = next.combatants[id]!;
  if (after.wounds >= 3 && after.removed === null) {
    next = removeCombatant(next, id, 'three Wounds', 'wounds');
    return { ...next, turn: freshTurn() };
  }
  return { ...next, cursor: next.cursor + 1, turn: freshTurn() };
}

function incapacitatedUpkeep(ctx: ThrumContext, id: string): ThrumContext {
  let c = ctx.combatants[id]!;
  if (!c.incapacitated) return ctx;
  const woundBefore = ctx.options['woundCheckOrder'] === 'beforeDecrement';
  let wounds = c.wounds;
  let woundsHere = c.woundsHere;
  const wound = () => {
    wounds += 1;
    woundsHere = [...woundsHere, { n: wounds, round: ctx.round }];
  };
  if (woundBefore && c.fatigueTolerance === 0) wound();
  const fatigueTolerance = floor(c.fatigueTolerance - 1);
  const fatigueLoad = floor(c.fatigueLoad - 1);
  const incapacitated = fatigueLoad > 0;
  if (!woundBefore && incapacitated && fatigueTolerance === 0) wound();
  c = { ...c, fatigueTolerance, fatigueLoad, incapacitated, wounds, woundsHere };
  return update(ctx, id, c);
}

/**
 * Nothing is pending: the action being resolved is over. An Exhausted actor makes its Incapacity Roll now unless the
 * action removes Exhaustion (§5.5) — also after the action that ends the fight: Exhausted characters "must make an
 * Incapacity Roll after they take an Action", and a failure's lower Fatigue Tolerance is carried. The end check
 * (combatOver) waits until the roll is answered.
 */
export function settle(ctx: ThrumContext): ThrumContext {
  if (ctx.stack.length > 0 || ctx.action === null) return ctx;
  const { actorId, removesExhaustion } = ctx.action;
  const next = { ...ctx, action: null };
  const actor = next.combatants[actorId];
  if (inFight(actor) && !actor.incapacitated && isExhausted(actor) && !removesExhaustion) {
    return push(next, { kind: 'roll', roll: 'incapacity', id: actorId, reason: 'afterAction' });
  }
  return next;
}

export const combatOver = (ctx: ThrumContext): boolean => ctx.stack.length === 0 && ctx.action === null && endCondition(ctx) !== null;

/** End of combat (§5.6, R-H9): loads to 0; incapacitated PCs recover unless Fatigue Tolerance is 0; buffs, stances, terrain effects end. */
export function closeCombat(ctx: ThrumContext, outcome: string): ThrumContext {
  const staysOut = ctx.options['zeroToleranceStaysOut'] !== false;
  const combatants = Object.fromEntries(
    Object.entries(ctx.combatants).map(([id, c]) => {
      const incapacitated = c.incapacitated && staysOut && c.fatigueTolerance === 0;
      return [id, { ...c, fatigueLoad: 0, stressLoad: 0, incapacitated, stance: null, buff: null, terrainEffect: null, statuses: {} }];
    }),
  );
  // The combatants as the last event left them, before the reset: that event's own log line reports them.
  return { ...ctx, combatants, closedFrom: ctx.combatants, stack: [], action: null, outcome };
}

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
      if (!top || top.kind !== 'roll' || top.roll !== kind || top.id !== e.id) return `No ${kind === 'panic' ? 'Panic' : 'Incapacity'} Roll is due from ${nameOf(ctx, e.id)}.`;
      return rollProblem(e.roll, `${possessive(nameOf(ctx, e.id))} ${kind === 'panic' ? 'Panic' : 'Incapacity'} Roll`);
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
      const moved = ctx.combatants[e.id];
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
      const ally = area && ctx.options['areasHitAllies'] === false ? e.targets.map((t) => ctx.combatants[t.targetId]!).find((t) => !isFoe(t, attacker)) : undefined;
      if (ally) return `${ally.name} is ${possessive(attacker.name)} ally, and this campaign's areas spare allies (R-H10).`;
      if (e.fatigue + e.stress + (e.statuses?.length ?? 0) === 0) return 'Say what the attack deals: Fatigue, Stress or a status.';
      return overexertProblem(ctx, e.overexert);
    }
    case 'DEFENSE_CHOICE': {
      if (!top || top.kind !== 'attack') return 'No attack is waiting for a defence.';
      const attack = top.attack;
      const target = attack.targets[attack.current]!;
      if (target.defence !== null) return `${nameOf(ctx, target.targetId)} has already chosen ${defenceLabel(target.defence)}.`;
      if (!defenceChoices(attack.attackType).includes(e.id)) {
        return `Against a ${attack.attackType} attack the defence is ${attack.attackType === 'physical' ? 'Resilience or Evasion' : 'Resolve or Evasion'} (or an ability's alternative).`;
      }
      return null;
    }
    case 'DEFENSE_RESULT': {
      if (!top || top.kind !== 'attack') return 'No attack is waiting for a result.';
      const attack = top.attack;
      const target = attack.targets[attack.current]!;
      if (target.defence === null) return `${nameOf(ctx, target.targetId)} must choose a defence before the attack is rolled.`;
      const id = e.id ?? 'roll';
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
      if (!actor.pc && ctx.options['roundZeroNpcs'] !== 'positionToo') return `${actor.name} was placed by the GM before initiative: in Round Zero NPCs only choose a stance (R-H2).`;
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
      return top.ownerId === e.id ? null : `${possessive(nameOf(ctx, top.ownerId))} triggered effect resolves first (last in, first out).`;
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
      const c = ctx.combatants[e.id];
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
      const c = ctx.combatants[e.id]!;
      const next = { ...pop(ctx), turn: { ...ctx.turn, begun: ctx.turn.begun || activeId(ctx) === e.id } };
      if (sumFaces(e.roll!) + c.resolve > c.stressLoad) return next;
      // R-H5, in list order: Stunned; Stress Load added to Fatigue Load and reset; Stress Tolerance −1.
      const stunned = addStatus(next, e.id, 'Stunned', 1);
      const s = stunned.combatants[e.id]!;
      return update(stunned, e.id, { fatigueLoad: s.fatigueLoad + s.stressLoad, stressLoad: 0, stressTolerance: floor(s.stressTolerance - 1) });
    }
    case 'INCAPACITY_ROLL': {
      const c = ctx.combatants[e.id]!;
      const next = pop(ctx);
      return sumFaces(e.roll!) + c.resilience > c.fatigueLoad ? next : becomeIncapacitated(next, e.id);
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
      let next = plan.end ? update(ctx, e.id, { position: plan.end }) : ctx;
      if (plan.slowed) next = addStatus(next, e.id, 'Slowed', plan.slowed);
      if (plan.dazed) next = addStatus(next, e.id, 'Dazed', plan.dazed);
      // A failed drop that meets the lowered Speed: the mover cannot move further this turn.
      if (plan.dazed && activeId(next) === e.id) next = { ...next, turn: { ...next.turn, movementClosed: true } };
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
      const targets = attack.targets.map((t, i) => (i === attack.current ? { ...t, defence: e.id } : t));
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
      return e.id === 'takeNew' ? update(next, frame.targetId, { buff: { name: frame.name, fromId: frame.fromId } }) : next;
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
      return update(ctx, e.id, { position: e.square });
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

