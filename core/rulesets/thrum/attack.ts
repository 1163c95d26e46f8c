// Thrum's attack pipeline as pure functions (RULES.md §5.4, R-H11): defences and their modifiers, boons and banes,
// the contested roll, the targets and their cover, and the effect landing target by target.
import type { CombatEvent } from './combat.ts';
import { coverBetween, isAdjacent, keyOf, onBoard, placementProblem, squareLabel, type Square } from './grid.ts';
import { statusName, addStatus, isFoe, possessive, occupants } from './health.ts';
import { areaTargets } from './movement.ts';
import { inFight, isExhausted, isFrayed, replaceTop, stacksOf, type AttackTarget, type DefenceKind, type Frame, type PendingAttack, type Roll, type ThrumCombatant, type ThrumContext, type Tier } from './rules.ts';
import { rulingsOf } from './options.ts';
import { update } from '../../encounter/roster.ts';

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
  rulingsOf(ctx.options).boonsAndBanes !== 'countsToCoreRules' && defence !== 'alternative';

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
  const critical = rulingsOf(ctx.options).criticalMargin;
  const defenceHolds = margin > 0 || (margin === 0 && rulingsOf(ctx.options).contestTies !== 'attackWins');
  const tier: Tier = !defenceHolds ? 'failure' : target.defence === 'evasion' && margin >= critical ? 'critical' : 'success';
  return { attack: a, defence: d, margin, tier, attackCritical: -margin >= critical };
}

/** A typed contest roll of the wrong size or with a face no d6 has, in a sentence. */
export function contestRollProblem(roll: Roll | null | undefined, d: SideDice, what: string): string | null {
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
export function targetCover(ctx: ThrumContext, attacker: ThrumCombatant, target: ThrumCombatant, attackType: 'physical' | 'mental', given: boolean | null | undefined) {
  if (attackType !== 'physical') return { cover: false, obstructed: false, computed: false };
  if (ctx.board && attacker.position && target.position) {
    const result = coverBetween(ctx.board, occupants(ctx), attacker.position, target.position, {
      characterHeight: rulingsOf(ctx.options).characterCoverHeight,
      onLineGivesCover: rulingsOf(ctx.options).dividingLineCover === 'cover',
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
export function areaProblem(ctx: ThrumContext, attacker: ThrumCombatant, e: AttackEvent): string | null {
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
  const cover = { characterHeight: rulingsOf(ctx.options).characterCoverHeight, onLineGivesCover: rulingsOf(ctx.options).dividingLineCover === 'cover' };
  const open = squares.some((s) => !coverBetween(ctx.board!, occupants(ctx), attacker.position!, s, cover).obstructed);
  if (open) return null;
  return squares.length === 1
    ? `The path to ${squareLabel(squares[0]!)} is Obstructed, and the area has no other space: it reaches nobody there.`
    : 'Every space of the area is Obstructed from the attacker: an area reaches a character behind an obstruction only through some other space that is not.';
}

export function planAttack(ctx: ThrumContext, e: Extract<CombatEvent, { type: 'ATTACK' }>, triggered: boolean): PendingAttack {
  const attacker = ctx.combatants[e.attackerId]!;
  const undefendedAllowed = !rulingsOf(ctx.options).incapacitatedDefend;
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
export function takeEffect(ctx: ThrumContext, attack: PendingAttack, targetId: string): ThrumContext {
  const t = ctx.combatants[targetId]!;
  let next = update(ctx, targetId, { fatigueLoad: t.fatigueLoad + attack.fatigue, stressLoad: t.stressLoad + attack.stress });
  for (const s of attack.statuses) next = addStatus(next, targetId, s.status, s.stacks);
  return next;
}

/** The contest's tier: from the two rolls, or as the GM gave it (R-H11). */
export function contestTier(ctx: ThrumContext, attack: PendingAttack, target: AttackTarget, e: Extract<CombatEvent, { type: 'DEFENSE_RESULT' }>): Tier {
  const id = e.outcome ?? 'roll';
  if (id !== 'roll') return id;
  return contestOf(ctx, attack, target, e.attackRoll!, e.defenceRoll!).tier;
}

/** The outcome tiers (§5.4 step 6): whether the effect lands and whether Evasion costs a Vulnerable stack. */
export function outcomeOf(defence: DefenceKind | null, tier: Tier): { takes: boolean; vulnerable: boolean } {
  if (defence === 'evasion') return { takes: tier === 'failure', vulnerable: tier !== 'critical' };
  return { takes: tier === 'failure', vulnerable: false };
}

/** Moves past targets who do not defend (R-H16 off); when every target is done the attack leaves the stack. */
export function advanceAttack(ctx: ThrumContext): ThrumContext {
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
