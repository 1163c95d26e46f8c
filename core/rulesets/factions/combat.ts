// Factions' turn economy and combat as pure functions (RULES.md §3.3–§3.6; the game is Murdham): the turn budget
// (bonus, main or second bonus, one zone), attacks that hit automatically or on a WIT save, reactions that use up
// the reactor's turn (dodge, counter, hide behind, guard, opportunity attacks), impaired damage, cover, armour,
// gear breaking, the health model (R-F20), final blows, morale and surrender. The machine applies these; the
// refusal sentences come from the same checks.
import { lastAnswer } from '../../encounter/last-answer.ts';
import * as rules from './rules.ts';
import type { AttackSpec, FactionsCombatant, FactionsContext, GearItem, GearState, PendingAttack, PendingTarget, Roll } from './rules.ts';
import { canAct, gone, nameOf, plural, releaseGrabs, say, standing, update, updateEach } from './rules.ts';
import { applyDurability, groupSave } from './recovery.ts';

export type BonusKind = 'pickUp' | 'drop' | 'equip' | 'unequip' | 'swap' | 'consumable' | 'interact' | 'speak';
export type StatusKey = 'concealed' | 'unaware' | 'fearImmune';
export type OverrideField =
  | 'health' | 'incapacitated' | 'dying' | 'dead' | 'acted' | 'surrendered' | 'concealed' | 'unaware' | 'moraleImmune'
  | 'moraleFailed' | 'disarmed' | 'released' | 'weapon' | 'shield' | 'armour' | 'cancelAttack' | 'skipMorale';

/** The attack as the GM describes it (RULES.md §3.4); rolls ride along. */
export interface AttackInput {
  kind: 'melee' | 'ranged' | 'indirect';
  blast?: boolean;
  effect?: 'damage' | 'disarm' | 'grapple';
  weapon?: 'weapon' | 'unarmed' | 'improvised' | 'shield';
  die?: number | null;
  range?: 'withinHalf' | 'beyondHalf';
  unseen?: boolean;
  moving?: boolean;
  challenging?: boolean;
  holdBack?: boolean;
  concealment?: boolean;
  enhanced?: boolean;
  protection?: 'none' | 'cover' | 'barrier';
  pierces?: boolean;
  border?: boolean;
  witRoll?: Roll | null;
}

export type CombatEvent =
  | (AttackInput & {
      type: 'ATTACK'; attackerId: string; targetIds: string[]; zone?: string | null; reaction?: 'opportunity' | null;
      stunt?: string | null; neighbourZones?: string[] | null; deviationRoll?: Roll | null;
    })
  | { type: 'FINAL_BLOW'; attackerId: string; targetId: string; border?: boolean }
  | { type: 'OFFER_STUNT'; text: string }
  | { type: 'STUNT_ANSWER'; id: 'accept' | 'decline' }
  | { type: 'REACT'; id: string; roll?: Roll | null; counter?: AttackInput | null }
  | { type: 'RESOLVE_ATTACK'; id?: 'roll'; damageRoll?: Roll | null; saveRoll?: Roll | null; counterRoll?: Roll | null; counterSaveRoll?: Roll | null }
  | { type: 'MOVE_ZONE'; to: string; sneaking?: boolean }
  | { type: 'BONUS_ACTION'; kind: BonusKind; item?: 'weapon' | 'shield' | 'armour' | 'other' | null; note?: string }
  | { type: 'MAIN_ACTION'; kind: 'interact' | 'power' | 'other'; note?: string }
  | { type: 'SHOVE'; to?: string | null; hazard?: string | null }
  | { type: 'SURRENDER' }
  | { type: 'DECLARATION_TIMEOUT' }
  | { type: 'APPLY_DAMAGE'; targetId: string; amount: number; source: string; byId?: string | null }
  | { type: 'HEAL'; targetId: string; amount: number; source: string }
  | { type: 'SET_STATUS'; id: string; status: StatusKey; on: boolean; note?: string }
  | { type: 'SET_ZONE'; id: string; zone: string | null }
  | { type: 'CHASE'; fleeingIds: string[]; edge: 'none' | 'fleeingFaster' | 'pursuersFaster'; roll?: Roll | null }
  | { type: 'OVERRIDE'; targetId?: string | null; field: OverrideField; value?: number | boolean | string | null; note: string };

// ---- dice ----

export const d20Problem = (roll: Roll | null | undefined, what: string): string | null => {
  if (!roll || roll.faces.length === 0) return `${what} needs a d20.`;
  if (roll.faces.length !== 1) return `${what} is one d20: ${roll.faces.length} given.`;
  const face = roll.faces[0]!;
  return Number.isInteger(face) && face >= 1 && face <= 20 ? null : `${face} is not a face of a d20.`;
};

/** Murdham saves: one d20, a pass when it shows the score or less (R-F8's group save uses the same test). */
export const passes = (face: number, score: number) => face <= score;

const faces = (roll: Roll | null | undefined) => (roll ? `[${roll.faces.join(', ')}]${roll.source === 'manual' ? ' (typed in)' : ''}` : '');

export interface DamageDice {
  /** 0 dice: ineffective (impaired twice, R-F16). */
  count: number;
  sides: number;
  keep: 'single' | 'lowest' | 'highest';
  notation: string;
  /** Impaired minus enhanced, after cancelling one for one. */
  net: number;
  why: string[];
  rulings: string[];
}

/** Which dice an attack rolls for damage (§3.4 step 5, R-F16). */
export function damageDice(spec: AttackSpec, options: FactionsContext['options']): DamageDice {
  const why: string[] = [];
  if (spec.weapon === 'unarmed') why.push('unarmed');
  if (spec.holdBack) why.push('held back');
  if (spec.concealment) why.push('concealment');
  // Several enhancements count as one; impaired and enhanced cancel one for one (R-F16).
  const net = why.length - (spec.enhanced ? 1 : 0);
  const rulings = why.length || spec.enhanced ? ['R-F16'] : [];
  if (net >= 2) return { count: 0, sides: spec.die, keep: 'single', notation: '', net, why, rulings };
  if (net === 1) {
    if (options['impairedMode'] === 'flatD4') return { count: 1, sides: 4, keep: 'single', notation: '1d4', net, why, rulings };
    return { count: 2, sides: spec.die, keep: 'lowest', notation: `2d${spec.die}kl1`, net, why, rulings };
  }
  if (net === -1) return { count: 2, sides: spec.die, keep: 'highest', notation: `2d${spec.die}kh1`, net, why, rulings };
  return { count: 1, sides: spec.die, keep: 'single', notation: `1d${spec.die}`, net, why, rulings };
}

export function diceProblem(dice: DamageDice, roll: Roll | null | undefined, who: string): string | null {
  if (!roll || roll.faces.length === 0) return `${who}'s damage roll is missing.`;
  if (roll.faces.length !== dice.count) return `${who}'s damage roll needs ${dice.count} d${dice.sides}${dice.net === 1 ? ' (impaired: keep the lower)' : dice.net === -1 ? ' (enhanced: keep the higher)' : ''}: ${roll.faces.length} given.`;
  const bad = roll.faces.find((f) => !Number.isInteger(f) || f < 1 || f > dice.sides);
  return bad === undefined ? null : `${bad} is not a face of ${who}'s d${dice.sides}.`;
}

export const keptFace = (dice: DamageDice, roll: Roll) => (dice.keep === 'highest' ? Math.max(...roll.faces) : Math.min(...roll.faces));

// ---- derived numbers ----

const worn = (state: GearState) => state === 'intact' || state === 'damaged';

/** A shield protects, bashes and is worn down only while carried (source: "Pick up or put down something"; "Equip or unequip an item"). */
export const shieldInHand = (c: FactionsCombatant) => worn(c.gear.shield) && !c.shieldDown;

/** Armour now: body armour and shield while they last, +1 for cover the attack cannot punch through (§3.4 step 6). */
export function armourOf(c: FactionsCombatant, cover: boolean): number {
  return (worn(c.gear.armour) ? c.armour : 0) + (shieldInHand(c) ? c.shieldArmour : 0) + (cover ? 1 : 0);
}

/** R-F17: final = max(0, damage − armour); the alternative keeps at least 1 of a hit that did damage. */
export function afterArmour(raw: number, armour: number, options: FactionsContext['options']): number {
  if (raw <= 0) return 0;
  const left = raw - armour;
  return options['armourFloor'] === 'one' ? Math.max(1, left) : Math.max(0, left);
}

/** Nearby = same zone, or the GM says the target is on its border; an unplaced character is the GM's call. */
export function nearby(a: FactionsCombatant, b: FactionsCombatant, border: boolean): boolean {
  return border || a.zone === null || b.zone === null || a.zone === b.zone;
}

export function normalizeSpec(input: AttackInput, attacker: FactionsCombatant): AttackSpec {
  const effect = input.effect ?? 'damage';
  // source: "Non-lethal attacks don't inflict damage": a disarm or grapple swings no weapon, so whatever the form's
  // "With" says, the weapon is not needed (a disarmed character may grapple) and is not used (no durability roll).
  const weapon = effect === 'damage' ? input.weapon ?? 'weapon' : 'unarmed';
  const die = weapon === 'unarmed' ? 4 : input.die ?? (weapon === 'weapon' ? attacker.weaponDie : 0);
  return {
    kind: input.kind,
    blast: Boolean(input.blast),
    effect,
    weapon,
    die,
    range: input.range ?? 'withinHalf',
    unseen: Boolean(input.unseen),
    moving: Boolean(input.moving),
    challenging: Boolean(input.challenging),
    holdBack: Boolean(input.holdBack),
    concealment: Boolean(input.concealment),
    enhanced: Boolean(input.enhanced),
    protection: input.protection ?? 'none',
    pierces: Boolean(input.pierces),
    border: Boolean(input.border),
  };
}

/** Why a WIT save is needed to hit (§3.4 step 2), empty when the attack hits automatically. */
export function saveReasons(spec: AttackSpec, moving: boolean): string[] {
  if (spec.kind === 'melee' && spec.blast) return []; // a melee blast cannot miss (R-F19)
  const reasons: string[] = [];
  if (spec.kind === 'melee' && spec.unseen) reasons.push('the target is not visible');
  if (spec.kind === 'ranged' && spec.range === 'beyondHalf') reasons.push('beyond half range');
  if (spec.kind === 'ranged' && moving) reasons.push('while moving');
  if (spec.kind === 'indirect') reasons.push('an indirect attack');
  if (spec.challenging) reasons.push('challenging circumstances');
  return reasons;
}

/** The attacker moves this turn, before or after the attack (R-F11). Reactions are made standing. */
const isMoving = (ctx: FactionsContext, attackerId: string, spec: AttackSpec, reaction: boolean) =>
  !reaction && (spec.moving || (ctx.activeId === attackerId && ctx.turn.moved));

// ---- the turn budget (§3.3) ----

const activeName = (ctx: FactionsContext) => nameOf(ctx, ctx.activeId);

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
const nothingDoneYet = (ctx: FactionsContext) => ctx.turn.bonusUsed === 0 && !ctx.turn.mainUsed && !ctx.turn.moved;

// ---- checks: a sentence when the rules refuse, null when allowed ----

function attackerProblem(ctx: FactionsContext, attacker: FactionsCombatant, spec: AttackSpec, givenDie: number | null | undefined): string | null {
  if (!standing(attacker)) return `${attacker.name} is in no state to attack.`;
  if (spec.weapon === 'weapon') {
    if (attacker.gear.weapon === 'destroyed') return `${attacker.name}'s weapon was destroyed: attack unarmed or with an improvised weapon.`;
    if (attacker.disarmed) return `${attacker.name} has lost their weapon: pick it up (a bonus action) or fight unarmed.`;
  }
  if (spec.weapon === 'shield' && !worn(attacker.gear.shield)) return `${attacker.name} has no shield to strike with.`;
  if (spec.weapon === 'shield' && attacker.shieldDown) return `${attacker.name} has put the shield down: pick it up (a bonus action) to strike with it.`;
  if ((spec.weapon === 'improvised' || spec.weapon === 'shield') && !givenDie) return spec.weapon === 'improvised' ? 'An improvised weapon works as a simple hand or great weapon: give its damage die.' : 'Give the shield\'s damage die.';
  if (spec.effect !== 'damage' && (spec.kind !== 'melee' || spec.blast)) return 'Disarm and grapple are made against one nearby target.';
  return null;
}

/** Is this attack legal (§3.4 step 1)? Used for actions, opportunity attacks and counters (R-F12). */
export function legalityProblem(ctx: FactionsContext, attacker: FactionsCombatant, targets: FactionsCombatant[], spec: AttackSpec, moving: boolean): string | null {
  for (const target of targets) {
    if (spec.kind === 'melee' && !spec.blast && !nearby(attacker, target, spec.border)) return `${target.name} is not nearby ${attacker.name}: a melee attack needs a target in the same zone or on its border.`;
    if (spec.protection === 'barrier' && spec.kind !== 'indirect') return `${target.name} is behind a barrier, which blocks attacks completely (it counts only as cover against someone leaning out to attack).`;
  }
  if (spec.kind === 'ranged') {
    if (spec.unseen) return 'A ranged attack needs a visible target; an indirect attack can aim at unseen targets beyond half range.';
    if (spec.range === 'beyondHalf' && moving) return `${attacker.name} cannot target beyond half range while moving (R-F11: the zone move counts before or after the attack).`;
  }
  if (spec.kind === 'indirect') {
    if (spec.range !== 'beyondHalf') return 'An indirect attack can only target beyond half range.';
    if (moving) return `${attacker.name} cannot make an indirect attack while moving (R-F11).`;
  }
  return null;
}

function reactorProblem(ctx: FactionsContext, c: FactionsCombatant | undefined, what: string): string | null {
  if (!c) return 'That combatant is not in this encounter.';
  if (gone(c)) return `${c.name} is out of the fight.`;
  if (!canAct(c)) return `${c.name} cannot act, so cannot ${what}.`;
  if (c.acted) return `${c.name} has already used this round's turn and cannot ${what}: a reaction takes the whole turn.`;
  if (c.unaware) return `${c.name} is unaware of the threat and cannot ${what}.`;
  return null;
}

/** Concealed enemies among the targets of a single-target attack: "not visible" to the attacker (§ Sneaking in combat). */
const hiddenTargets = (ctx: FactionsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>, attacker: FactionsCombatant): FactionsCombatant[] =>
  e.blast ? [] : e.targetIds.map((id) => ctx.combatants[id]).filter((t): t is FactionsCombatant => t !== undefined && t.concealed && t.faction !== attacker.faction);

/**
 * The attack as described, with a concealed enemy target counted as not visible. source: "Concealed characters are
 * revealed when they make noise or become visible to the enemy": until then they are not visible, so a melee attack
 * on one needs a WIT save ("Hitting a target who is not visible requires passing a WIT save") and a ranged one is
 * not possible ("Targeting ... a character who is not visible, isn't possible"); an indirect attack may aim at them.
 * A blast hits a zone, whoever is in it.
 */
function attackSpecOf(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>, attacker: FactionsCombatant): AttackSpec {
  const spec = normalizeSpec(e, attacker);
  return hiddenTargets(ctx, e, attacker).length ? { ...spec, unseen: true } : spec;
}

/** The zone a blast hits: a melee blast always the attacker's own (when placed), a ranged one the zone the GM names. */
const blastZone = (e: Extract<CombatEvent, { type: 'ATTACK' }>, attacker: FactionsCombatant, spec: AttackSpec): string | null =>
  !spec.blast ? null : spec.kind === 'melee' ? attacker.zone ?? e.zone ?? null : e.zone ?? null;

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
    const rollProblem = d20Problem(e.witRoll, `${attacker.name}'s WIT save to hit`);
    if (rollProblem) return rollProblem;
    // source: "If they miss, they are deviated and hit a random neighbouring zone." A missed ranged blast needs the
    // zones next to its zone (an empty list when there are none) and the roll that picks one.
    if (spec.blast && spec.kind !== 'melee' && !passes(e.witRoll!.faces[0]!, attacker.wit)) {
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

const currentTarget = (p: PendingAttack): PendingTarget | undefined => p.targets[p.cursor];

/** Why this target cannot react at all (§3.4 step 4), or null. */
export function reactionBlocker(ctx: FactionsContext, p: PendingAttack, t: PendingTarget): string | null {
  const c = ctx.combatants[t.id]!;
  if (p.opportunity) return `${c.name} cannot react to an opportunity attack: the turn is already being spent.`;
  if (t.id === p.attackerId) return `${c.name} is caught in their own blast.`;
  if (t.surprised) return `${c.name} is taken by surprise by a concealed attacker and cannot react.`;
  if (c.unaware) return `${c.name} is unaware of the attacker and cannot react.`;
  if (t.heldShield && ctx.options['grabbedMayReact'] !== true) return `${c.name} is held and gets no reaction of their own (R-F14).`;
  if (gone(c) || !canAct(c)) return `${c.name} cannot act and cannot react.`;
  if (c.acted) return `${c.name} has already used this round's turn and cannot react.`;
  return null;
}

/** Hide behind and Guard may chain, never onto the same character twice (R-F15). */
function redirectProblem(ctx: FactionsContext, p: PendingAttack, t: PendingTarget, onto: FactionsCombatant | undefined, how: string): string | null {
  if (!onto) return 'That combatant is not in this encounter.';
  const target = ctx.combatants[t.id]!;
  if (onto.id === p.attackerId) return `${onto.name} is the attacker.`;
  if (onto.id === t.id || t.chain.includes(onto.id)) return `${onto.name} has already been the target of this attack (R-F15).`;
  if (ctx.options['redirectionChain'] === 'once' && t.chain.length > 0) return `This campaign allows one redirection per attack (R-F15); the attack has already changed target.`;
  if (p.targets.some((other) => other.id === onto.id)) return `${onto.name} is already a target of this attack.`;
  if (gone(onto) || onto.incapacitated) return `${onto.name} cannot ${how}.`;
  if (!nearby(target, onto, false)) return `${onto.name} is not nearby ${target.name}.`;
  return null;
}

/** Someone nearby could still guard this target. */
export function canBeGuarded(ctx: FactionsContext, p: PendingAttack, t: PendingTarget): boolean {
  const target = ctx.combatants[t.id]!;
  const targeted = new Set(p.targets.map((other) => other.id));
  // A few checks both sentences below make, asked first without words: a blast with many targets asks this of every
  // combatant for every target.
  const mayGuard = (onto: FactionsCombatant | undefined): onto is FactionsCombatant =>
    onto !== undefined && canAct(onto) && !onto.acted && !onto.unaware && !targeted.has(onto.id) && nearby(target, onto, false);
  return ctx.roster.some((id) => id !== t.id && mayGuard(ctx.combatants[id])
    && redirectProblem(ctx, p, t, ctx.combatants[id], 'guard') === null && reactorProblem(ctx, ctx.combatants[id], 'guard') === null);
}

/**
 * The counters a reaction prompt offers as buttons (`counter`, `counter:unarmed`...): each a preset attack back at the
 * attacker. A `counter` description in the event adds to the preset (an improvised weapon's die, cover...).
 */
export const COUNTER_PRESETS: Record<string, { input: AttackInput; label: string }> = {
  counter: { input: { kind: 'melee', weapon: 'weapon' }, label: 'Counter: melee, with the weapon' },
  'counter:unarmed': { input: { kind: 'melee', weapon: 'unarmed' }, label: 'Counter: unarmed (d4 impaired)' },
  'counter:ranged': { input: { kind: 'ranged', weapon: 'weapon', range: 'withinHalf' }, label: 'Counter: ranged, within half range' },
  'counter:rangedFar': { input: { kind: 'ranged', weapon: 'weapon', range: 'beyondHalf' }, label: 'Counter: ranged, beyond half range (WIT save)' },
  'counter:disarm': { input: { kind: 'melee', weapon: 'unarmed', effect: 'disarm' }, label: 'Counter: disarm (non-lethal, resolved last)' },
  'counter:grapple': { input: { kind: 'melee', weapon: 'unarmed', effect: 'grapple' }, label: 'Counter: grapple (non-lethal, resolved last)' },
};

/** The counter a REACT describes: its preset, with the event's own description on top; null for an unknown preset. */
export function counterInput(e: Extract<CombatEvent, { type: 'REACT' }>): AttackInput | null {
  const preset = COUNTER_PRESETS[e.id];
  if (!preset) return null;
  return { ...preset.input, ...(e.counter ?? {}) };
}

/** The WIT save to hit with a counter rides in the counter's description, or (sent from a prompt button) in `roll`. */
const counterSave = (e: Extract<CombatEvent, { type: 'REACT' }>) => e.counter?.witRoll ?? e.roll ?? null;

export function reactProblem(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'REACT' }>): string | null {
  const p = ctx.pending;
  if (!p || p.stage !== 'reaction') return 'No attack is waiting for a reaction.';
  const t = currentTarget(p)!;
  const target = ctx.combatants[t.id]!;
  const [kind, otherId] = e.id.split(':') as [string, string | undefined];
  if (kind === 'none') return null;
  if (kind === 'guard') {
    const guard = otherId ? ctx.combatants[otherId] : undefined;
    return redirectProblem(ctx, p, t, guard, 'guard') ?? reactorProblem(ctx, guard, 'guard');
  }
  const blocker = reactionBlocker(ctx, p, t);
  if (blocker) return blocker;
  switch (kind) {
    case 'dodge':
      if (p.spec.kind === 'melee' && p.spec.blast && ctx.options['meleeBlastDodgeable'] === false) return 'A melee blast cannot miss, not even by a dodge, in this campaign (R-F19).';
      return d20Problem(e.roll, `${target.name}'s AGI save to dodge`);
    case 'counter': {
      if (p.counter) return `${nameOf(ctx, p.counter.reactorId)} has already countered: an attack with several targets can be countered by one of them.`;
      const attacker = ctx.combatants[p.attackerId]!;
      if (!standing(attacker)) return `${attacker.name} is in no state to be countered.`;
      const input = counterInput(e);
      if (!input) return `A counter is one of ${Object.keys(COUNTER_PRESETS).join(', ')}.`;
      const spec = normalizeSpec(input, target);
      const problem = attackerProblem(ctx, target, spec, input.die);
      if (problem) return problem;
      if (spec.blast) return 'A counter is an attack on the attacker alone.';
      if (ctx.options['counterMustBeLegal'] === false) return null;
      const legal = legalityProblem(ctx, target, [attacker], spec, false);
      if (legal) return `Not a fitting counter (R-F12): ${legal}`;
      return saveReasons(spec, false).length ? d20Problem(counterSave(e), `${target.name}'s WIT save to hit with the counter (R-F12)`) : null;
    }
    case 'hideBehind': {
      const behind = otherId ? ctx.combatants[otherId] : undefined;
      return redirectProblem(ctx, p, t, behind, 'be hidden behind');
    }
    default:
      return 'A reaction is none, dodge, counter, hideBehind:<who> or guard:<who>.';
  }
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
  key: 'damageRoll' | 'saveRoll' | 'counterRoll' | 'counterSaveRoll';
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
      if (dice.count) needs.push({ key: 'counterRoll', who: reactor.name, label: `${reactor.name}: counter damage`, notation: dice.notation, count: dice.count, sides: dice.sides, dice });
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

const STATUS_LABEL: Record<StatusKey, string> = { concealed: 'concealed', unaware: 'unaware', fearImmune: 'immune to fear' };

/**
 * Why the rules refuse a combat event now, or null. `turnOpen`: the active character's turn is running. Asked several
 * times per event (core/encounter/last-answer.ts).
 */
export const combatRefusal = lastAnswer((ctx: FactionsContext, e: CombatEvent, turnOpen: boolean): string | null => refusalNow(ctx, e, turnOpen));

function refusalNow(ctx: FactionsContext, e: CombatEvent, turnOpen: boolean): string | null {
  const onTurn = (what: string) => (turnOpen && ctx.activeId ? null : `${what} happens on a character's turn.`);
  switch (e.type) {
    case 'ATTACK':
      if (ctx.pending) return 'Finish resolving the attack under way first.';
      if (!turnOpen && e.reaction !== 'opportunity') return onTurn('Attacking');
      return attackProblem(ctx, e);
    case 'FINAL_BLOW':
      return onTurn('A final blow') ?? finalBlowProblem(ctx, e);
    case 'OFFER_STUNT':
      return stuntOfferProblem(ctx);
    case 'STUNT_ANSWER':
      return ctx.pending?.stage === 'stunt' ? null : 'No stunt is waiting for an answer.';
    case 'REACT':
      return reactProblem(ctx, e);
    case 'RESOLVE_ATTACK':
      return resolveProblem(ctx, e);
    case 'MOVE_ZONE': {
      const problem = onTurn('Moving');
      if (problem) return problem;
      if (ctx.turn.moved) return `${activeName(ctx)} has already moved a zone this turn.`;
      if (ctx.turn.stillShot) return `${activeName(ctx)} attacked at range this turn without moving; moving now would make it an attack while moving (R-F11).`;
      return null;
    }
    case 'BONUS_ACTION': {
      const problem = onTurn('A bonus action');
      if (problem) return problem;
      // source: "Armour can't be changed during a fight": putting the worn armour down is taking it off.
      if ((e.kind === 'equip' || e.kind === 'unequip' || e.kind === 'swap' || e.kind === 'drop') && e.item === 'armour') return 'Armour cannot be put on, taken off or swapped during a fight.';
      return bonusProblem(ctx, e.kind === 'swap' ? 2 : 1);
    }
    case 'MAIN_ACTION':
      return onTurn('A main action') ?? mainProblem(ctx);
    case 'SHOVE': {
      const problem = onTurn('A shove') ?? mainProblem(ctx);
      if (problem) return problem;
      return rules.grabbing(ctx, ctx.activeId!) ? null : `${activeName(ctx)} is not holding anyone to shove.`;
    }
    case 'SURRENDER':
      if (onTurn('Surrendering')) return onTurn('Surrendering');
      return nothingDoneYet(ctx) ? null : `Surrendering takes the whole turn, and ${activeName(ctx)} has already acted this turn (R-F9).`;
    case 'DECLARATION_TIMEOUT':
      if (!ctx.chaos) return 'The chaos of combat is not in play in this fight.';
      if (onTurn('The declaration countdown')) return onTurn('The declaration countdown');
      // source: "Each Player has 15 seconds to declare": the GM's characters are not timed.
      if (!ctx.combatants[ctx.activeId!]!.pc) return `Only players have 15 seconds to declare: ${activeName(ctx)} is the GM's.`;
      return nothingDoneYet(ctx) ? null : `${activeName(ctx)} has already declared and acted this turn.`;
    case 'APPLY_DAMAGE': {
      const target = ctx.combatants[e.targetId];
      if (!target || gone(target)) return 'That character is not in the fight.';
      if (e.byId && !ctx.combatants[e.byId]) return 'The one dealing the damage is not in this encounter.';
      return null;
    }
    case 'HEAL': {
      const target = ctx.combatants[e.targetId];
      if (!target || gone(target)) return 'That character is not in the fight.';
      return target.health >= target.healthMax ? `${target.name} is already at full health.` : null;
    }
    case 'SET_STATUS': {
      const c = ctx.combatants[e.id];
      if (!c) return 'That combatant is not in this encounter.';
      if (Boolean(c[e.status]) === e.on) return `${c.name} is ${e.on ? 'already' : 'not'} ${STATUS_LABEL[e.status]}.`;
      return null;
    }
    case 'SET_ZONE':
      return ctx.combatants[e.id] ? null : 'That combatant is not in this encounter.';
    case 'CHASE': {
      if (e.fleeingIds.length === 0) return 'Choose who is fleeing.';
      if (new Set(e.fleeingIds).size !== e.fleeingIds.length) return 'Each fleeing character is listed once.';
      const missing = e.fleeingIds.find((id) => !ctx.combatants[id] || ctx.combatants[id]!.dead);
      if (missing) return `${nameOf(ctx, missing)} cannot flee.`;
      return e.edge === 'none' ? d20Problem(e.roll, 'The group AGI save to escape') : null;
    }
    case 'OVERRIDE':
      return overrideProblem(ctx, e);
  }
}

/** A form sends text: "7" for health, on/off (yes/no, true/false, 1/0) for flags, intact/damaged/destroyed for gear. */
export function overrideValue(field: OverrideField, value: unknown): number | boolean | GearState | null {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (field === 'health') {
    const n = typeof text === 'number' ? text : typeof text === 'string' && /^\d+$/.test(text) ? Number(text) : NaN;
    return Number.isInteger(n) ? n : null;
  }
  if (field === 'weapon' || field === 'shield' || field === 'armour') return text === 'intact' || text === 'damaged' || text === 'destroyed' ? text : null;
  if (typeof text === 'boolean') return text;
  if (text === 1 || text === 'on' || text === 'yes' || text === 'true' || text === '1') return true;
  if (text === 0 || text === 'off' || text === 'no' || text === 'false' || text === '0') return false;
  return null;
}

function overrideProblem(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'OVERRIDE' }>): string | null {
  if (e.field === 'cancelAttack') return ctx.pending ? null : 'No attack is under way.';
  if (e.field === 'skipMorale') return ctx.morale?.checks.length || ctx.morale?.failures.length ? null : 'No morale check is waiting.';
  const c = e.targetId ? ctx.combatants[e.targetId] : undefined;
  if (!c) return 'Choose whom the override is about.';
  if (e.field === 'released') return c.grabbedBy ? null : `${c.name} is not held.`;
  const value = overrideValue(e.field, e.value);
  if (e.field === 'health') return typeof value === 'number' && value >= 0 && value <= c.healthMax ? null : `Health is a whole number from 0 to ${c.healthMax}.`;
  if (e.field === 'weapon' || e.field === 'shield' || e.field === 'armour') return value === null ? 'Gear is intact, damaged or destroyed.' : null;
  return typeof value === 'boolean' ? null : 'This override is on or off.';
}

// ---- the health model (R-F20) ----

/**
 * Damage lands on a character. Murdham (default): losing at least half of current health in one hit
 * incapacitates, losing all of it means dying, damage of at least maximum health kills outright. The alternative
 * is plain HP, incapacitated at 0. An enemy harming a surrendered character lifts the surrender (R-F9).
 */
export function applyHarm(ctx: FactionsContext, id: string, amount: number, fromId: string | null, source: string, extraRulings: string[] = []): FactionsContext {
  const c = ctx.combatants[id]!;
  if (amount <= 0 || c.dead) return ctx;
  const murdham = ctx.options['healthModel'] !== 'hpZeroIncapacitates';
  const lost = Math.min(amount, c.health);
  const health = c.health - lost;
  let patch: Partial<FactionsCombatant> = { health, damagedHere: true };
  let outcome = `${c.name} ${c.health} → ${health} health`;
  if (murdham && amount >= c.healthMax) {
    patch = { ...patch, dead: true, incapacitated: true, dying: false };
    outcome += `: ${amount} is at least the maximum ${c.healthMax}, killed outright`;
  } else if (murdham && health === 0) {
    patch = { ...patch, incapacitated: true, dying: true };
    outcome += ': all health lost, dying';
  } else if (murdham && lost * 2 >= c.health && !c.incapacitated) {
    patch = { ...patch, incapacitated: true };
    outcome += `: lost half or more of ${c.health} in one hit, incapacitated`;
  } else if (!murdham && health === 0 && !c.incapacitated) {
    patch = { ...patch, incapacitated: true };
    outcome += ': incapacitated at 0';
  }
  const from = fromId ? ctx.combatants[fromId] : undefined;
  const rulings = [...extraRulings, 'R-F20'];
  if (c.surrendered && from && from.faction !== c.faction) {
    patch = { ...patch, surrendered: false, moraleFailed: false };
    outcome += '; harmed while surrendered, may fight on';
    rulings.push('R-F9');
  }
  let next = update(ctx, id, patch);
  if (patch.incapacitated || patch.dead) next = releaseGrabs(next, id);
  return say(next, 'damage', `${source}: ${amount} damage. ${outcome}.`, rulings, id);
}

// ---- gear (§3.4 step 8, §3.6) ----

const ITEM_LABEL: Record<GearItem, string> = { weapon: 'weapon', shield: 'shield', armour: 'armour' };

function destroy(ctx: FactionsContext, id: string, item: GearItem, why: string, rulings: string[]): FactionsContext {
  const c = ctx.combatants[id]!;
  return say(update(ctx, id, { gear: { ...c.gear, [item]: 'destroyed' } }), 'damage', `${c.name}'s damaged ${ITEM_LABEL[item]} is destroyed: ${why}.`, rulings, id);
}

/** A hit of 8 or more before armour destroys a damaged shield, else damaged armour (R-F18b). */
function heavyHit(ctx: FactionsContext, id: string, raw: number): FactionsContext {
  if (raw < 8) return ctx;
  const c = ctx.combatants[id]!;
  const why = `a hit of ${raw} before armour`;
  if (c.gear.shield === 'damaged' && !c.shieldDown) {
    const next = destroy(ctx, id, 'shield', why, ['R-F18b']);
    if (ctx.options['heavyHitDestroys'] !== 'shieldAndArmour' || c.gear.armour !== 'damaged') return next;
    return destroy(next, id, 'armour', why, ['R-F18b']);
  }
  return c.gear.armour === 'damaged' ? destroy(ctx, id, 'armour', why, ['R-F18b']) : ctx;
}

/** A damaged weapon or shield that rolls a 1 on the damage die breaks after the attack (R-F18); improvised ones count as damaged. */
function weaponBreaks(ctx: FactionsContext, id: string, spec: AttackSpec, face: number | null): FactionsContext {
  if (face !== 1) return ctx;
  const c = ctx.combatants[id]!;
  if (spec.weapon === 'improvised') return say(ctx, 'damage', `${c.name}'s improvised weapon breaks on a 1 (handled as already damaged).`, ['R-F18'], id);
  const item: GearItem | null = spec.weapon === 'weapon' ? 'weapon' : spec.weapon === 'shield' ? 'shield' : null;
  if (item && c.gear[item] === 'damaged') return destroy(ctx, id, item, 'it rolled a 1 on the damage die', ['R-F18']);
  return ctx;
}

function markUsed(ctx: FactionsContext, id: string, items: GearItem[]): FactionsContext {
  const c = ctx.combatants[id]!;
  const used = { ...c.used };
  let changed = false;
  for (const item of items) {
    if (c.gear[item] === 'none' || (item === 'shield' && c.shieldDown)) continue;
    changed ||= used[item] !== true;
    used[item] = true;
  }
  // Nothing newly used: the combatant stays as it is (a copy of every combatant for nothing otherwise).
  return changed ? update(ctx, id, { used }) : ctx;
}

// ---- attacks: declaration, reactions, resolution ----

function spendMain(ctx: FactionsContext): FactionsContext {
  return { ...ctx, turn: { ...ctx.turn, mainUsed: true } };
}

/** Doing anything but moving with, attacking or shoving the one held frees them (§3.4 step 10). */
function letGoUnless(ctx: FactionsContext, id: string, keepOn: string | null): FactionsContext {
  const held = rules.grabbing(ctx, id);
  if (!held || held === keepOn) return ctx;
  return say(update(ctx, held, { grabbedBy: null }), 'turn', `${nameOf(ctx, id)} lets go of ${nameOf(ctx, held)}.`, [], id);
}

function reveal(ctx: FactionsContext, id: string, how: string): FactionsContext {
  if (!ctx.combatants[id]!.concealed) return ctx;
  return say(update(ctx, id, { concealed: false }), 'turn', `${nameOf(ctx, id)} is revealed (${how}).`, [], id);
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
    const face = e.witRoll!.faces[0]!;
    save = { needed: true, face, passed: passes(face, attacker.wit) };
    text += `. WIT save to hit (${reasons.join(', ')}): d20 ${faces(e.witRoll)} against WIT ${attacker.wit}, ${save.passed ? 'hit' : 'miss'}`;
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

/** Moves the reaction window to the next target who can react; with nobody left, the attack goes to damage. */
export function openWindows(ctx: FactionsContext): FactionsContext {
  let next = ctx;
  let p = next.pending!;
  while (p.cursor < p.targets.length) {
    const t = p.targets[p.cursor]!;
    if (t.reaction !== null) {
      p = { ...p, cursor: p.cursor + 1 };
      continue;
    }
    const blocker = reactionBlocker(next, p, t);
    if (blocker === null) return { ...next, pending: p };
    // The target cannot react itself, but a nearby character may still guard it (not against surprise or an opportunity attack).
    if (!p.opportunity && !t.surprised && t.id !== p.attackerId && canBeGuarded(next, p, t)) return { ...next, pending: p };
    next = say(next, 'attack', blocker, t.heldShield ? ['R-F14'] : [], t.id);
    p = { ...p, targets: p.targets.map((x, i) => (i === p.cursor ? { ...x, reaction: 'cannot' as const } : x)), cursor: p.cursor + 1 };
  }
  return { ...next, pending: { ...p, stage: 'resolve' } };
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

function usesTurnToReact(ctx: FactionsContext, id: string): FactionsContext {
  const next = update(ctx, id, { acted: true });
  return { ...next, history: next.history.concat([{ round: next.round, phase: next.phase!, id, kind: 'reaction' }]) };
}

export function react(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'REACT' }>): FactionsContext {
  const p = ctx.pending!;
  const t = p.targets[p.cursor]!;
  const target = ctx.combatants[t.id]!;
  const [kind, otherId] = e.id.split(':') as [string, string | undefined];
  const setTarget = (c: FactionsContext, patch: Partial<PendingTarget>, advance: boolean): FactionsContext => {
    const q = c.pending!;
    return { ...c, pending: { ...q, targets: q.targets.map((x, i) => (i === q.cursor ? { ...x, ...patch } : x)), cursor: q.cursor + (advance ? 1 : 0) } };
  };
  const outside = ['R-F5'];
  let next = ctx;
  switch (kind) {
    case 'none':
      next = say(next, 'attack', `${target.name} does not react.`, [], t.id);
      return openWindows(setTarget(next, { reaction: 'none' }, true));
    case 'dodge': {
      const face = e.roll!.faces[0]!;
      const dodged = passes(face, target.agi);
      next = letGoUnless(usesTurnToReact(next, t.id), t.id, null);
      next = say(next, 'attack', `${target.name} reacts with a dodge (the reaction is this round's turn): AGI save d20 ${faces(e.roll)} against AGI ${target.agi}, ${dodged ? 'the attack misses' : 'failed'}.`, [...outside, ...(p.spec.blast && p.spec.kind === 'melee' ? ['R-F19'] : [])], t.id);
      return openWindows(setTarget(next, { reaction: dodged ? 'dodged' : 'dodgeFailed', missed: dodged }, true));
    }
    case 'counter': {
      const spec = normalizeSpec(counterInput(e)!, target);
      const legalOn = ctx.options['counterMustBeLegal'] !== false;
      const reasons = legalOn ? saveReasons(spec, false) : [];
      let save: PendingAttack['save'] = { needed: false, face: null, passed: true };
      const weapon = spec.weapon === 'unarmed' ? 'unarmed' : spec.weapon === 'weapon' ? `d${spec.die}` : `${spec.weapon === 'shield' ? 'the shield' : 'an improvised weapon'}, d${spec.die}`;
      const what = spec.effect === 'damage' ? `a ${spec.kind} attack${spec.kind === 'ranged' ? ` ${spec.range === 'beyondHalf' ? 'beyond' : 'within'} half range` : ''} (${weapon})` : `a ${spec.effect} attempt (non-lethal, resolved last)`;
      let text = `${target.name} counters (the reaction is this round's turn) with ${what} on ${nameOf(ctx, p.attackerId)}`;
      if (reasons.length) {
        const roll = counterSave(e)!;
        const face = roll.faces[0]!;
        save = { needed: true, face, passed: passes(face, target.wit) };
        text += `; WIT save to hit (${reasons.join(', ')}): d20 ${faces(roll)} against WIT ${target.wit}, ${save.passed ? 'hit' : 'miss'}`;
      }
      // A counter is an attack: on the attacker it keeps hold of someone held only if the attacker is the one held.
      next = letGoUnless(usesTurnToReact(next, t.id), t.id, p.attackerId);
      next = markUsed(next, t.id, spec.weapon === 'weapon' ? ['weapon'] : spec.weapon === 'shield' ? ['shield'] : []);
      next = markUsed(next, p.attackerId, ['shield', 'armour']);
      next = say(next, 'attack', `${text}.${spec.effect === 'damage' ? ' Both roll damage together.' : ''}`, [...outside, ...(legalOn ? ['R-F12'] : [])], t.id);
      // source: "Actions which might reveal a character include: attacking": a counter is an attack.
      next = reveal(next, t.id, 'attacking');
      next = { ...next, pending: { ...next.pending!, counter: { reactorId: t.id, spec, save } } };
      return openWindows(setTarget(next, { reaction: 'counter' }, true));
    }
    case 'hideBehind': {
      const behind = ctx.combatants[otherId!]!;
      const heldShield = behind.grabbedBy === t.id;
      next = letGoUnless(usesTurnToReact(next, t.id), t.id, behind.id);
      next = markUsed(next, behind.id, ['shield', 'armour']);
      next = say(next, 'attack', `${target.name} hides behind ${behind.name}${heldShield ? ', who is held and cannot refuse' : ', who agrees'} (the reaction is ${target.name}'s turn): ${behind.name} becomes the target and may react.`, [...outside, 'R-F15', ...(heldShield ? ['R-F14'] : [])], t.id);
      next = setTarget(next, { id: behind.id, chain: [...t.chain, t.id], heldShield, reaction: null, missed: false }, false);
      return openWindows(next);
    }
    case 'guard': {
      const guard = ctx.combatants[otherId!]!;
      next = letGoUnless(usesTurnToReact(next, guard.id), guard.id, null);
      next = markUsed(next, guard.id, ['shield', 'armour']);
      next = say(next, 'attack', `${guard.name} guards ${target.name} (the reaction is ${guard.name}'s turn) and becomes the target; having spent the reaction, ${guard.name} cannot dodge or counter.`, [...outside, 'R-F15'], guard.id);
      return openWindows(setTarget(next, { id: guard.id, chain: [...t.chain, t.id], heldShield: false, reaction: 'guarding', missed: false }, true));
    }
  }
  return next;
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
      const roll = rollOf('counterRoll');
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
  return rules.endTurn(say(next, 'decision', `${nameOf(ctx, id)} surrenders, throwing the weapons away: the turn is wasted, but they might be spared.`, ['R-F9'], id));
}

export function declarationTimeout(ctx: FactionsContext): FactionsContext {
  const id = ctx.activeId!;
  return rules.endTurn(say(ctx, 'turn', `${nameOf(ctx, id)} did not declare within 15 seconds and does nothing this turn (chaos of combat).`, [], id));
}

export function heal(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'HEAL' }>): FactionsContext {
  const c = ctx.combatants[e.targetId]!;
  const health = Math.min(c.healthMax, c.health + e.amount);
  const next = update(ctx, c.id, { health, dying: health > 0 ? false : c.dying });
  return say(next, 'damage', `${c.name} recovers ${health - c.health} health (${e.source || 'healing'}): ${health}/${c.healthMax}.${c.incapacitated ? ' Still incapacitated unless the GM says otherwise.' : ''}`, [], c.id);
}

export function setStatus(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'SET_STATUS' }>): FactionsContext {
  const c = ctx.combatants[e.id]!;
  const text = e.status === 'concealed' ? (e.on ? `${c.name} hides again, concealed` : `${c.name} is revealed`) : `${c.name} is ${e.on ? '' : 'no longer '}${STATUS_LABEL[e.status]}`;
  return say(update(ctx, c.id, { [e.status]: e.on }), 'decision', `${text}${e.note ? ` (${e.note})` : ''}.`, [], c.id);
}

export function setZone(ctx: FactionsContext, id: string, zone: string | null): FactionsContext {
  return say(update(ctx, id, { zone }), 'setup', zone ? `${nameOf(ctx, id)} is placed in ${zone}.` : `${nameOf(ctx, id)} has no zone.`, [], id);
}

export function chase(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'CHASE' }>): FactionsContext {
  const fleeing = e.fleeingIds.map((id) => ctx.combatants[id]!);
  if (e.edge !== 'none') {
    const result: 'escaped' | 'caught' = e.edge === 'fleeingFaster' ? 'escaped' : 'caught';
    const next = updateEach(ctx, fleeing.map((c) => [c.id, { chase: result }] as const));
    return say(next, 'decision', `Chase: ${fleeing.map((c) => c.name).join(', ')} ${e.edge === 'fleeingFaster' ? 'are faster or last longer: they get away without a save' : 'cannot escape: the pursuers are faster or last longer'}.`);
  }
  const face = e.roll!.faces[0]!;
  const results = groupSave(face, fleeing.map((c) => ({ id: c.id, score: c.agi })));
  const next = updateEach(ctx, results.map((r) => [r.id, { chase: r.passed ? 'escaped' : 'caught' }] as const));
  const text = results.map((r) => `${nameOf(ctx, r.id)} (AGI ${r.score}) ${r.passed ? 'escapes' : 'is caught'}`).join(', ');
  return say(next, 'decision', `Chase: group AGI save d20 ${faces(e.roll)}: ${text}.`, ['R-F8']);
}

export function override(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'OVERRIDE' }>): FactionsContext {
  if (e.field === 'cancelAttack') return cancelAttack(ctx, e.note);
  if (e.field === 'skipMorale') return say({ ...ctx, morale: { checks: [], failures: [] } }, 'decision', `GM override: the rest of the morale phase is skipped${e.note ? ` (${e.note})` : ''}.`);
  const c = ctx.combatants[e.targetId!]!;
  const value = overrideValue(e.field, e.value);
  let next = ctx;
  let what: string;
  if (e.field === 'health') {
    next = update(ctx, c.id, { health: value as number });
    what = `health set to ${value}`;
  } else if (e.field === 'weapon' || e.field === 'shield' || e.field === 'armour') {
    next = update(ctx, c.id, { gear: { ...c.gear, [e.field]: value as GearState } });
    what = `${e.field} set to ${value}`;
  } else if (e.field === 'released') {
    next = update(ctx, c.id, { grabbedBy: null });
    what = 'released from the grab';
  } else {
    const on = value as boolean;
    next = update(ctx, c.id, { [e.field]: on, ...(e.field === 'dead' && on ? { incapacitated: true } : {}) });
    if ((e.field === 'dead' || e.field === 'incapacitated' || e.field === 'surrendered') && on) next = releaseGrabs(next, c.id);
    what = `${e.field} ${on ? 'on' : 'off'}`;
  }
  next = say(next, 'decision', `GM override: ${c.name}'s ${what}${e.note ? ` (${e.note})` : ''}.`, [], c.id);
  // An override that takes the active character out ends its turn.
  if (next.activeId === c.id && !canAct(next.combatants[c.id]!) && !next.pending) next = rules.endTurn(next, `${c.name}'s turn ends.`);
  return next;
}

// ---- morale (§3.2 rule 7, R-F7, R-F8, R-F8b) ----

/** Who is subject to morale: in the fight, not immune to fear, not already immune this stretch, PCs too unless R-F7 says NPCs only. */
const subjectToMorale = (ctx: FactionsContext, c: FactionsCombatant) =>
  standing(c) && !c.fearImmune && !c.moraleImmune && (ctx.options['pcMorale'] !== false || !c.pc);

/** The morale phase: which groups and lone fighters check now (marked so that each checks once). */
export function openMorale(ctx: FactionsContext): FactionsContext {
  let next = ctx;
  const checks: { label: string; groupId: string | null; rollers: string[]; rulings: string[] }[] = [];
  const lastStanding = ctx.options['loneFighter'] === 'lastStanding';
  for (const group of Object.values(ctx.groups)) {
    const members = group.members.filter((id) => next.combatants[id]);
    const inFight = members.filter((id) => standing(next.combatants[id]!));
    if (group.originalCount > 1 && !group.checked && inFight.length * 2 <= group.originalCount) {
      next = { ...next, groups: { ...next.groups, [group.id]: { ...group, checked: true } } };
      const rollers = inFight.filter((id) => subjectToMorale(next, next.combatants[id]!));
      checks.push({ label: `${group.label} (${inFight.length} of ${group.originalCount} left)`, groupId: group.id, rollers, rulings: ['R-F7', 'R-F8'] });
      continue;
    }
    // R-F8b: alone = a group that began with one member (or, as the option has it, the last one standing).
    const alone = group.originalCount === 1 ? inFight : lastStanding && group.originalCount > 1 && inFight.length === 1 ? inFight : [];
    for (const id of alone) {
      const c = next.combatants[id]!;
      if (c.loneChecked || !c.damagedHere || c.health * 2 > c.healthMax) continue;
      next = update(next, id, { loneChecked: true });
      checks.push({ label: `${c.name}, fighting alone at ${c.health}/${c.healthMax} health`, groupId: null, rollers: subjectToMorale(next, c) ? [id] : [], rulings: ['R-F7', 'R-F8', 'R-F8b'] });
    }
  }
  for (const check of checks.filter((c) => c.rollers.length === 0)) {
    next = say(next, 'decision', `Morale: ${check.label} must check, but nobody there is subject to morale (immune to fear, immune this stretch${ctx.options['pcMorale'] === false ? ', or a PC' : ''}).`, check.rulings);
  }
  const due = checks.filter((c) => c.rollers.length > 0);
  next = { ...next, morale: { checks: due, failures: [] } };
  return due.length
    ? say(next, 'round', `Morale phase: ${due.map((c) => c.label).join('; ')} must make a group WIT save.`, [...new Set(due.flatMap((c) => c.rulings))])
    : say(next, 'round', 'Morale phase: nobody has to check.', ['R-F8']);
}

export function moraleRollProblem(ctx: FactionsContext, roll: Roll | null | undefined): string | null {
  if (!ctx.morale?.checks.length) return 'No morale check is waiting.';
  return d20Problem(roll, 'The group WIT save');
}

export function moraleRoll(ctx: FactionsContext, roll: Roll): FactionsContext {
  const [check, ...rest] = ctx.morale!.checks;
  const face = roll.faces[0]!;
  const results = groupSave(face, check!.rollers.map((id) => ({ id, score: ctx.combatants[id]!.wit })));
  let next = updateEach(ctx, results.map((r) => [r.id, r.passed ? { moraleImmune: true } : { moraleFailed: true }] as const));
  const failures = results.filter((r) => !r.passed).map((r) => r.id);
  const text = results.map((r) => `${nameOf(ctx, r.id)} (WIT ${r.score}) ${r.passed ? 'holds, immune until the stretch ends' : 'fails'}`).join(', ');
  next = { ...next, morale: { checks: rest, failures: [...ctx.morale!.failures, ...failures] } };
  return say(next, 'decision', `Morale, ${check!.label}: group WIT save d20 ${faces(roll)}: ${text}.${failures.length ? ' Those who fail must surrender or retreat.' : ''}`, check!.rulings);
}

export function moraleOutcome(ctx: FactionsContext, choice: 'surrender' | 'retreat'): FactionsContext {
  const [id, ...rest] = ctx.morale!.failures;
  const c = ctx.combatants[id!]!;
  let next = releaseGrabs(update(ctx, c.id, choice === 'surrender' ? { surrendered: true } : { retreated: true }), c.id);
  next = { ...next, morale: { ...ctx.morale!, failures: rest } };
  return say(next, 'decision', choice === 'surrender' ? `${c.name} surrenders after failing morale.` : `${c.name} retreats from the fight after failing morale.`, ['R-F8', 'R-F9'], c.id);
}

// ---- after the fight: durability (§3.6, R-F21, R-F22) ----

/**
 * "All weapons and armour which were used at least once" roll durability (§3.6, R-F21): the party's first, then the
 * NPCs' (their gear can be looted; its state stays in this encounter, as NPC templates are shared and not written).
 */
export function openDurability(ctx: FactionsContext): FactionsContext {
  const queue: { combatantId: string; item: GearItem }[] = [];
  const byPcsFirst = [...ctx.roster.filter((id) => ctx.combatants[id]!.pc), ...ctx.roster.filter((id) => !ctx.combatants[id]!.pc)];
  for (const id of byPcsFirst) {
    const c = ctx.combatants[id]!;
    if (c.removed && !c.pc) continue; // an NPC the GM took off the field took its gear along
    for (const item of rules.GEAR_ITEMS) if (c.used[item] && worn(c.gear[item])) queue.push({ combatantId: id, item });
  }
  const next = { ...ctx, durability: queue, activeId: null, pending: null, morale: null };
  if (!queue.length) return next;
  return say(next, 'end', `After the fight: a durability roll for ${queue.map((q) => `${nameOf(ctx, q.combatantId)}'s ${q.item}`).join(', ')} (used at least once).`, ['R-F21']);
}

export function durabilityResult(ctx: FactionsContext, result: 'ok' | 'damaged'): FactionsContext {
  const [head, ...rest] = ctx.durability!;
  const c = ctx.combatants[head!.combatantId]!;
  const before = c.gear[head!.item];
  const after = applyDurability(before, result, ctx.options);
  const next = update({ ...ctx, durability: rest }, c.id, { gear: { ...c.gear, [head!.item]: after } });
  const text = result === 'ok'
    ? `${c.name}'s ${head!.item} holds.`
    : before === 'damaged'
      ? `${c.name}'s ${head!.item} fails again: ${after === 'destroyed' ? 'destroyed' : 'it stays damaged'}.`
      : `${c.name}'s ${head!.item} fails its durability roll: damaged.`;
  return say(next, 'end', text, before === 'damaged' && result === 'damaged' ? ['R-F22'] : [], c.id);
}

export function closeFight(ctx: FactionsContext, outcome: string): FactionsContext {
  return say({ ...ctx, outcome, activeId: null, pending: null, morale: null }, 'end', `The GM ends the fight${outcome ? `: ${outcome}` : ''}.`, ['R-F10']);
}
