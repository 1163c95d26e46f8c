// Cairn-Errant's attack pipeline (RULES.md §4.4 steps 2–7): the dice an attack rolls, a defence's effect on them,
// one damage roll for everyone hitting one target at a moment, a Parry's comparison, the attack back, a gambit's dice.
import type { OptionValues } from '../options.ts';
import {
  anyArmLost, improvisedBroken, blockGear, disarmedNow, dodgeHampered, weaponClass, weaponDice, weaponNow, type CairnCombatant, type CairnContext, type Defence, type Intent,
} from './rules.ts';
import { netPosition } from './order.ts';
import { counted } from '../../words.ts';
import { strikeGroup, takesDirectStr } from './moment.ts';
import type { Roll } from './combat.ts';
import { rulingsOf } from './options.ts';


// ---- dice ----

export interface DieSpec {
  size: number;
  role: 'weapon' | 'enhanced';
}

/** The dice one attack rolls and how its faces combine (§4.4 step 2, R-C11, R-C12). */
export interface AttackDice {
  attackerId: string;
  dice: DieSpec[];
  combine: 'keepHighest' | 'sum' | 'replace';
  /** Every weapon die was negated by a graded Block or Dodge: nothing is rolled. */
  negated: boolean;
  notes: string[];
  rulings: string[];
}

/** Dice notation for a list of die sizes, in order: [8, 12] → 1d8+1d12. */
export const notation = (sizes: number[]) => sizes.map((size) => `1d${size}`).join('+');

export function attackTotal(spec: AttackDice, faces: number[]): number {
  const weapon = faces.filter((_f, i) => spec.dice[i]!.role === 'weapon');
  const enhanced = faces.filter((_f, i) => spec.dice[i]!.role === 'enhanced');
  if (spec.combine === 'replace') return Math.max(...enhanced);
  if (spec.combine === 'sum' && enhanced.length) return Math.max(...weapon) + enhanced[0]!;
  return Math.max(...faces);
}

/** What a defence does to one incoming weapon die (§4.4 steps 4–5): nothing, impair it (d4), or negate it. */
function defenceEffect(ctx: CairnContext, defender: CairnCombatant, defence: Defence | undefined, die: number): 'normal' | 'impaired' | 'negated' {
  if (!defence || (defence.kind !== 'block' && defence.kind !== 'dodge')) return 'normal';
  const cls = weaponClass(die);
  const variant = rulingsOf(ctx.options).blockDodge;
  if (defence.kind === 'block') {
    if (cls === 'slow') return 'normal';
    return variant === 'graded' && blockGear(ctx, defender) ? 'negated' : 'impaired';
  }
  if (cls === 'fast') return 'normal';
  return variant === 'graded' && !dodgeHampered(ctx, defender) ? 'negated' : 'impaired';
}

/** The dice of one attack against a defender who chose `defence` (none while the window is still open). */
export function attackDice(ctx: CairnContext, attackerId: string, intent: Intent, defenderId: string | null, defence?: Defence): AttackDice {
  const attacker = ctx.combatants[attackerId]!;
  const defender = defenderId ? ctx.combatants[defenderId]! : null;
  const notes: string[] = [];
  const rulings: string[] = [];
  let position = netPosition(ctx, attackerId, intent);
  if (attacker.failedCriticalSave) notes.push('impaired after a failed Critical Damage save');
  if (intent.position === 'enhanced' && attacker.failedCriticalSave && rulingsOf(ctx.options).enhancedImpairedCancel) rulings.push('R-C12');
  if (disarmedNow(ctx, attackerId)) notes.push('disarmed by the arm hit: unarmed d4');
  else if (improvisedBroken(ctx, attackerId)) notes.push('the improvised weapon is already broken: unarmed d4');
  const effects = weaponDice(attacker, weaponNow(ctx, attackerId, intent)).map((die) => ({ die, effect: defender ? defenceEffect(ctx, defender, defence, die) : ('normal' as const) }));
  const kept = effects.filter((e) => e.effect !== 'negated');
  if (kept.length === 0) {
    notes.push(`negated by the ${defence!.kind === 'block' ? 'Block' : 'Dodge'}`);
    return { attackerId, dice: [], combine: 'keepHighest', negated: true, notes, rulings };
  }
  if (effects.some((e) => e.effect === 'negated')) notes.push(`one weapon negated by the ${defence!.kind}`);
  const defenceImpairs = kept.some((e) => e.effect === 'impaired');
  if (defenceImpairs) notes.push(`impaired by the ${defence!.kind === 'block' ? 'Block' : 'Dodge'}`);
  // A defence that impairs an enhanced attack cancels with it (R-C12).
  let cancelled = false;
  if (defenceImpairs && position === 'enhanced' && rulingsOf(ctx.options).enhancedImpairedCancel) {
    position = 'normal';
    cancelled = true;
    rulings.push('R-C12');
    notes.push('enhanced and impaired cancel');
  }
  let weapon: number[];
  if (position === 'impaired') weapon = [4]; // d4 whatever the weapon (§4.4 step 2)
  else weapon = kept.map((e) => (e.effect === 'impaired' && !cancelled ? 4 : e.die));
  const dice: DieSpec[] = weapon.map((size) => ({ size, role: 'weapon' }));
  let combine: AttackDice['combine'] = 'keepHighest';
  if (position === 'enhanced' || (position === 'impaired' && intent.position === 'enhanced' && !rulingsOf(ctx.options).enhancedImpairedCancel)) {
    const mode = rulingsOf(ctx.options).enhancedMode;
    rulings.push('R-C11');
    if (mode === 'replace') {
      combine = 'replace';
      return { attackerId, dice: [{ size: 12, role: 'enhanced' }], combine, negated: false, notes: [...notes, 'enhanced: a d12 instead'], rulings };
    }
    combine = mode === 'sum' ? 'sum' : 'keepHighest';
    dice.push({ size: 12, role: 'enhanced' });
    notes.push(mode === 'sum' ? 'enhanced: + d12' : 'enhanced: d12 too, keep the higher');
  }
  if (weapon.length > 1) notes.push('two weapons: keep the higher');
  return { attackerId, dice, combine, negated: false, notes, rulings };
}

/** Checks a roll against the dice it should hold, die by die (mixed dice: d8 + d6 + d12), with a sentence. */
export function rollProblem(dice: DieSpec[] | number[], roll: Roll | null | undefined, what: string): string | null {
  const sizes = dice.map((d) => (typeof d === 'number' ? d : d.size));
  const listed = sizes.map((size) => `d${size}`).join(' + ');
  if (!roll) return `${what} is missing.`;
  if (roll.faces.length !== sizes.length) return `${what} needs ${listed}: ${counted(roll.faces.length, 'die', 'dice')} given.`;
  const inSentence = what.replace(/^The /, 'the ');
  for (let i = 0; i < sizes.length; i += 1) {
    const face = roll.faces[i]!;
    if (Number.isInteger(face) && face >= 1 && face <= sizes[i]!) continue;
    if (sizes.length === 1) return `${face} is not a face of the d${sizes[i]} (${inSentence}).`;
    return `${face} is not a face of the d${sizes[i]}: die ${i + 1} of ${inSentence} (${listed}), in that order.`;
  }
  return null;
}


// ---- the strike: one damage roll for everyone hitting one target at this moment ----

export interface StrikePlan {
  targetId: string;
  attacks: AttackDice[];
  defence: Defence;
  /** The defender's own dice for a Parry. */
  parry: { attackerId: string; dice: number[] } | null;
  /** Every die in the order the roll holds them: each attack's dice, then the parry dice. */
  dice: number[];
  notation: string;
}

/** The defender's weapon dice when it strikes back (fight back, parry, attack back); impaired after a failed save. */
export function counterDice(ctx: CairnContext, id: string): number[] {
  const c = ctx.combatants[id]!;
  const intent = ctx.intents[id];
  if (c.failedCriticalSave) return [4];
  const usable = intent && (intent.weapon !== 'dual' || !anyArmLost(c)) ? intent : null;
  return weaponDice(c, weaponNow(ctx, id, usable && usable.action !== 'ranged' ? usable : null));
}

export function planStrike(ctx: CairnContext, targetId: string): StrikePlan {
  const defence = ctx.moment.defences[targetId] ?? { kind: 'none' };
  const attacks = strikeGroup(ctx, targetId).map((id) => attackDice(ctx, id, ctx.intents[id]!, targetId, defence));
  const parry = defence.kind === 'parry' && attacks.some((a) => a.attackerId === defence.attackerId) ? { attackerId: defence.attackerId, dice: counterDice(ctx, targetId) } : null;
  const dice = [...attacks.flatMap((a) => a.dice.map((d) => d.size)), ...(parry?.dice ?? [])];
  return { targetId, attacks, defence, parry, dice, notation: notation(dice) };
}

/** The attack back's dice after the gambit user's reaction (R-C17 option), and the parry dice when it parries. */
export interface AttackBackPlan {
  by: string;
  against: string;
  defence: Defence;
  attack: number[];
  parry: number[] | null;
  dice: number[];
  notes: string[];
}

export function planAttackBack(ctx: CairnContext, step: { by: string; against: string; defence: Defence }): AttackBackPlan {
  const defender = ctx.combatants[step.against]!;
  const effects = counterDice(ctx, step.by).map((die) => ({ die, effect: defenceEffect(ctx, defender, step.defence, die) }));
  const attack = effects.filter((e) => e.effect !== 'negated').map((e) => (e.effect === 'impaired' ? 4 : e.die));
  const what = step.defence.kind === 'block' ? 'Block' : 'Dodge';
  const notes = attack.length === 0 ? [`negated by the ${what}`] : effects.some((e) => e.effect === 'impaired') ? [`impaired by the ${what}`] : [];
  const parry = step.defence.kind === 'parry' && attack.length ? counterDice(ctx, step.against) : null;
  return { ...step, attack, parry, dice: [...attack, ...(parry ?? [])], notes };
}

/** A Parry's comparison (§4.4 step 4): the higher roll goes straight to the other's STR, after Armor unless R-C15. */
function parryResult(ctx: CairnContext, attackerId: string, defenderId: string, theirs: number, ours: number): NonNullable<StrikeOutcome['parry']> {
  const armorOf = (id: string) => (rulingsOf(ctx.options).parryIgnoresArmor ? 0 : ctx.combatants[id]!.armor);
  const result = ours > theirs ? 'won' : theirs > ours ? 'lost' : 'twing';
  const damage = result === 'won' ? Math.max(0, ours - armorOf(attackerId)) : result === 'lost' ? Math.max(0, theirs - armorOf(defenderId)) : 0;
  return { attackerId, theirs, ours, result, damage };
}

export interface AttackBackOutcome {
  total: number | null;
  parry: StrikeOutcome['parry'];
  damage: number;
}

export function resolveAttackBack(ctx: CairnContext, plan: AttackBackPlan, roll: Roll | null | undefined): AttackBackOutcome {
  if (plan.attack.length === 0 || !roll) return { total: null, parry: null, damage: 0 };
  const total = Math.max(...roll.faces.slice(0, plan.attack.length));
  if (plan.parry) return { total, parry: parryResult(ctx, plan.by, plan.against, total, Math.max(...roll.faces.slice(plan.attack.length))), damage: 0 };
  return { total, parry: null, damage: Math.max(0, total - ctx.combatants[plan.against]!.armor) };
}

export interface StrikeOutcome {
  plan: StrikePlan;
  totals: { attackerId: string; faces: number[]; total: number; negated: boolean }[];
  parry: { attackerId: string; theirs: number; ours: number; result: 'won' | 'lost' | 'twing'; damage: number } | null;
  /** The kept attack among the rest (R-C1 keep-highest); null when nothing is left. */
  kept: { attackerIds: string[]; total: number; damage: number; toStr: boolean } | null;
  rulings: string[];
}

export function resolveStrike(ctx: CairnContext, targetId: string, roll: Roll): StrikeOutcome {
  const plan = planStrike(ctx, targetId);
  const target = ctx.combatants[targetId]!;
  const rulings = new Set<string>(plan.attacks.flatMap((a) => a.rulings));
  let at = 0;
  const totals = plan.attacks.map((attack) => {
    const faces = roll.faces.slice(at, at + attack.dice.length);
    at += attack.dice.length;
    return { attackerId: attack.attackerId, faces, total: attack.negated ? 0 : attackTotal(attack, faces), negated: attack.negated };
  });
  let parry: StrikeOutcome['parry'] = null;
  let pool = totals.filter((t) => !t.negated);
  if (plan.parry) {
    const ours = Math.max(...roll.faces.slice(at, at + plan.parry.dice.length));
    const theirsEntry = totals.find((t) => t.attackerId === plan.parry!.attackerId)!;
    rulings.add('R-C15');
    parry = parryResult(ctx, plan.parry.attackerId, targetId, theirsEntry.total, ours);
    pool = pool.filter((t) => t.attackerId !== plan.parry!.attackerId);
  }
  let kept: StrikeOutcome['kept'] = null;
  if (pool.length) {
    const best = Math.max(...pool.map((t) => t.total));
    const attackerIds = pool.filter((t) => t.total === best).map((t) => t.attackerId);
    if (pool.length > 1) rulings.add('R-C1');
    // A defence window was open against this attack: the target could defend, whatever its Fatigue now (§4.4 step 3).
    kept = { attackerIds, total: best, damage: Math.max(0, best - target.armor), toStr: takesDirectStr(target, ctx.moment.defences[targetId] !== undefined) };
  }
  return { plan, totals, parry, kept, rulings: [...rulings] };
}


/** The gambit's weapon roll (dual: both, keep the higher; impaired: d4) against the target's save (§4.4 step 6). */
export function gambitDice(ctx: CairnContext, attackerId: string): number[] {
  const intent = ctx.intents[attackerId]!;
  return netPosition(ctx, attackerId, intent) === 'impaired' ? [4] : weaponDice(ctx.combatants[attackerId]!, weaponNow(ctx, attackerId, intent));
}

/** 1–3 is the Difficulty and 4+ none (literal), or min(roll, 3) (capped) — R-C19. */
export function gambitDifficulty(face: number, options: OptionValues): number {
  if (rulingsOf(options).gambitDifficulty === 'capped') return Math.min(face, 3);
  return face <= 3 ? face : 0;
}

/** The target passes with a roll ≤ the attribute and > the Difficulty (R-C16: a natural 1 fails against one). */
export function gambitSavePasses(face: number, attribute: number, difficulty: number, options: OptionValues): boolean {
  if (face === 1 && (difficulty === 0 || rulingsOf(options).naturalOneVsDifficulty === 'passes')) return true;
  if (face === 20) return false;
  return face <= attribute && face > difficulty;
}
