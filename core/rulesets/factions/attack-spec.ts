// The attack as Factions' rules see it (RULES.md §3.4; the game is Murdham): the dice (WIT saves, damage dice with
// impaired and enhanced, R-F16), the numbers derived from a combatant (armour, cover, R-F17), the attack as
// described normalized into its spec, and the checks that make an attack legal (for an action, an opportunity attack
// or a counter, R-F12). Pure: no event is applied here.
import type { AttackInput, CombatEvent } from './combat.ts';
import type { AttackSpec, FactionsCombatant, FactionsContext, GearState, Roll } from './rules.ts';
import { canAct, gone, standing } from './rules.ts';
import { rulingsOf } from './options.ts';

// ---- dice ----

export const d20Problem = (roll: Roll | null | undefined, what: string): string | null => {
  if (!roll || roll.faces.length === 0) return `${what} needs a d20.`;
  if (roll.faces.length !== 1) return `${what} is one d20: ${roll.faces.length} given.`;
  const face = roll.faces[0]!;
  return Number.isInteger(face) && face >= 1 && face <= 20 ? null : `${face} is not a face of a d20.`;
};

/** Murdham saves: one d20, a pass when it shows the score or less (R-F8's group save uses the same test). */
export const passes = (face: number, score: number) => face <= score;

export const faces = (roll: Roll | null | undefined) => (roll ? `[${roll.faces.join(', ')}]${roll.source === 'manual' ? ' (typed in)' : ''}` : '');

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
    if (rulingsOf(options).impairedMode === 'flatD4') return { count: 1, sides: 4, keep: 'single', notation: '1d4', net, why, rulings };
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

export const worn = (state: GearState) => state === 'intact' || state === 'damaged';

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
  return rulingsOf(options).armourFloor === 'one' ? Math.max(1, left) : Math.max(0, left);
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
export const isMoving = (ctx: FactionsContext, attackerId: string, spec: AttackSpec, reaction: boolean) =>
  !reaction && (spec.moving || (ctx.activeId === attackerId && ctx.turn.moved));

// ---- checks: a sentence when the rules refuse, null when allowed ----

export function attackerProblem(ctx: FactionsContext, attacker: FactionsCombatant, spec: AttackSpec, givenDie: number | null | undefined): string | null {
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

export function reactorProblem(ctx: FactionsContext, c: FactionsCombatant | undefined, what: string): string | null {
  if (!c) return 'That combatant is not in this encounter.';
  if (gone(c)) return `${c.name} is out of the fight.`;
  if (!canAct(c)) return `${c.name} cannot act, so cannot ${what}.`;
  if (c.acted) return `${c.name} has already used this round's turn and cannot ${what}: a reaction takes the whole turn.`;
  if (c.unaware) return `${c.name} is unaware of the threat and cannot ${what}.`;
  return null;
}

/** Concealed enemies among the targets of a single-target attack: "not visible" to the attacker (§ Sneaking in combat). */
export const hiddenTargets = (ctx: FactionsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>, attacker: FactionsCombatant): FactionsCombatant[] =>
  e.blast ? [] : e.targetIds.map((id) => ctx.combatants[id]).filter((t): t is FactionsCombatant => t !== undefined && t.concealed && t.faction !== attacker.faction);

/**
 * The attack as described, with a concealed enemy target counted as not visible. source: "Concealed characters are
 * revealed when they make noise or become visible to the enemy": until then they are not visible, so a melee attack
 * on one needs a WIT save ("Hitting a target who is not visible requires passing a WIT save") and a ranged one is
 * not possible ("Targeting ... a character who is not visible, isn't possible"); an indirect attack may aim at them.
 * A blast hits a zone, whoever is in it.
 */
export function attackSpecOf(ctx: FactionsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>, attacker: FactionsCombatant): AttackSpec {
  const spec = normalizeSpec(e, attacker);
  return hiddenTargets(ctx, e, attacker).length ? { ...spec, unseen: true } : spec;
}

/** The zone a blast hits: a melee blast always the attacker's own (when placed), a ranged one the zone the GM names. */
export const blastZone = (e: Extract<CombatEvent, { type: 'ATTACK' }>, attacker: FactionsCombatant, spec: AttackSpec): string | null =>
  !spec.blast ? null : spec.kind === 'melee' ? attacker.zone ?? e.zone ?? null : e.zone ?? null;
