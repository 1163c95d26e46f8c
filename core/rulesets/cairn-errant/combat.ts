// Cairn-Errant's resolution as pure functions (RULES.md §4.3–§4.5): each moment's gambits, defence windows, the
// keep-highest damage roll, Armor, HP then STR, the Critical Damage save and its tables, fight-backs, retreats,
// wounds. The machine applies these reducers; the refusal sentences come from the same checks.
import { lastAnswer } from '../../encounter/last-answer.ts';
import type { OptionValues } from '../options.ts';
import {
  anyArmLost, canAct, emptyMoment, improvisedBroken, nameOf, overburdened,
  bandLabel, blockGear, disarmedNow, dodgeHampered, present, rangedWeapon, slotsUsed, SLOTS, update, useImprovised, weaponClass, weaponDice, weaponNow,
  type Attribute, type Band, type CairnCombatant, type CairnContext, type Defence, type HitInjury, type InjuryLocation, type Intent,
  type Severity, type Step, type Wound, type WoundType,
} from './rules.ts';
import { checkBand, distanceBetween, meleeCloses, rederiveIntents } from './bands.ts';
import { damages } from './intents.ts';
import { netPosition, saveResult } from './order.ts';
import { takeOut } from './roster.ts';
import { counted } from '../../words.ts';

/** A roll inside an event: the faces (rolled by the app or read off physical dice). */
export interface Roll {
  faces: number[];
  source: 'app' | 'manual';
}

export type SaveKind = Attribute;

export type CombatEvent =
  | { type: 'REDIRECT'; id: string }
  | { type: 'GAMBIT'; id: SaveKind; roll?: Roll | null; saveRoll?: Roll | null }
  | { type: 'ATTACK_BACK'; id: 'strike' | 'decline'; roll?: Roll | null }
  | { type: 'DEFENSE'; id: string; defenderId?: string | null }
  | { type: 'STRIKE'; id: string; roll?: Roll | null }
  | { type: 'TIE_BREAK'; id: string }
  | { type: 'STR_SAVE'; id: string; roll?: Roll | null }
  | { type: 'CRIT_D6'; id: string; roll?: Roll | null; hpRoll?: Roll | null }
  | { type: 'HIT_LOCATION'; id: string; roll?: Roll | null; strRoll?: Roll | null }
  | { type: 'NPC_CRITICAL'; id: 'dead' | 'out' | 'fightsOn' }
  | { type: 'HEAD_RESULT'; id: 'dies' | 'survives' }
  | { type: 'FIGHT_BACK'; id: string; roll?: Roll | null }
  | { type: 'RETREAT'; id: string; safePlace?: boolean; roll?: Roll | null }
  | { type: 'APPLY_DAMAGE'; targetId: string; amount: number; source: string; attribute?: 'hp' | Attribute; nonLethal?: boolean }
  | { type: 'SET_AWARE'; id: string; aware: boolean }
  | { type: 'SET_BAND'; id: string; band: Band }
  | { type: 'TREAT'; id: string; note?: string }
  | { type: 'GAIN_WOUND'; id: string; woundType: WoundType; choice?: 'worsen' | 'newSlot' | null; severity?: Severity | null; attribute?: Attribute | null; dropItem?: boolean; source: string }
  | { type: 'OVERRIDE'; targetId: string; field: 'hp' | 'str' | 'dex' | 'wil' | 'fatigue' | 'gearSlots' | 'armor' | 'skipPrompt'; value: number; note: string };

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
  const variant = ctx.options['blockDodge'];
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
  if (intent.position === 'enhanced' && attacker.failedCriticalSave && ctx.options['enhancedImpairedCancel'] !== false) rulings.push('R-C12');
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
  if (defenceImpairs && position === 'enhanced' && ctx.options['enhancedImpairedCancel'] !== false) {
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
  if (position === 'enhanced' || (position === 'impaired' && intent.position === 'enhanced' && ctx.options['enhancedImpairedCancel'] === false)) {
    const mode = String(ctx.options['enhancedMode'] ?? 'keepHighest');
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

// ---- the current moment ----

export const currentMoment = (ctx: CairnContext) => (ctx.phase === 'resolve' ? ctx.moments[ctx.cursor] ?? null : null);
const momentActors = (ctx: CairnContext) => currentMoment(ctx)?.ids ?? [];
const isDone = (ctx: CairnContext, id: string) => ctx.moment.done.includes(id);
const attacking = (intent: Intent | undefined) => intent !== undefined && (intent.action === 'melee' || intent.action === 'ranged' || intent.action === 'gambit');

/** A target that has dropped or left: R-C4 asks the GM to redirect the action or lose it. */
const targetGone = (ctx: CairnContext, intent: Intent) => !present(ctx.combatants[intent.targetId ?? '']) || dead(ctx.combatants[intent.targetId!]!);
const dead = (c: CairnCombatant) => c.out?.kind === 'dead';

/** Attackers of this moment waiting on their action against `targetId` (R-C1: all of them; otherwise the first). */
export function strikeGroup(ctx: CairnContext, targetId: string): string[] {
  const group = momentActors(ctx).filter((id) => {
    const intent = ctx.intents[id];
    return !isDone(ctx, id) && canAct(ctx.combatants[id], ctx.options) && intent && damages(intent) && intent.targetId === targetId;
  });
  return ctx.options['bucketIsOneMoment'] === false ? group.slice(0, 1) : group;
}

function gambiteersOn(ctx: CairnContext, targetId: string): string[] {
  return momentActors(ctx).filter((id) => ctx.intents[id]?.action === 'gambit' && ctx.intents[id]!.targetId === targetId);
}

/** May this combatant defend at all (§4.4 step 3): PCs and enemies given the reactions, aware, not overburdened, able to act. */
export function mayDefend(ctx: CairnContext, id: string): boolean {
  const c = ctx.combatants[id];
  if (!c || !canAct(c, ctx.options)) return false;
  return (c.side === 'party' || Boolean(c.sheet['canDefend'])) && c.aware && !overburdened(c);
}

/**
 * Damage after Armor goes straight to STR for an unaware or overburdened target (§4.4 step 3). Source: "a character
 * with a full inventory (10 slots) is overburdened to a degree that they are unable to defend themselves", and the
 * options come "before damage is rolled": whether they can defend is judged when the attack comes, so a target that
 * had a defence window against this attack (`defended`) is not overburdened for it, even if that defence's own
 * Fatigue filled the tenth slot.
 */
export const takesDirectStr = (c: CairnCombatant, defended = false) => !c.aware || (overburdened(c) && !defended);

export type NextStep =
  | { kind: 'redirect'; actorId: string }
  | { kind: 'gambit'; attackerId: string; targetId: string }
  | { kind: 'defence'; targetId: string; attackers: string[] }
  | { kind: 'strike'; targetId: string; attackers: string[] }
  | Step;

/** The next thing the current moment needs, in the order the text gives: redirects, gambits, defences, damage. */
export function nextStep(ctx: CairnContext): NextStep | null {
  // Follow-ups (a save after damage dealt between moments, say) block in every phase.
  if (ctx.moment.pending.length) return ctx.moment.pending[0]!;
  if (ctx.phase !== 'resolve') return null;
  const open = momentActors(ctx).filter((id) => !isDone(ctx, id) && canAct(ctx.combatants[id], ctx.options));
  for (const id of open) if (attacking(ctx.intents[id]) && targetGone(ctx, ctx.intents[id]!)) return { kind: 'redirect', actorId: id };
  // R-C18 (as an option): a gambit's target may fight back, so its window opens before the gambit is rolled.
  if (ctx.options['fightBackAgainstGambits'] === true) {
    for (const id of open) {
      const targetId = ctx.intents[id]!.targetId!;
      if (ctx.intents[id]!.action === 'gambit' && mayDefend(ctx, targetId) && ctx.moment.defences[targetId] === undefined) {
        return { kind: 'defence', targetId, attackers: strikeGroup(ctx, targetId) };
      }
    }
  }
  // Gambits resolve before the highest damage is picked (§4.4 step 6).
  for (const id of open) if (ctx.intents[id]!.action === 'gambit') return { kind: 'gambit', attackerId: id, targetId: ctx.intents[id]!.targetId! };
  for (const id of open) {
    const intent = ctx.intents[id]!;
    if (!damages(intent)) continue;
    const targetId = intent.targetId!;
    const attackers = strikeGroup(ctx, targetId);
    if (mayDefend(ctx, targetId) && ctx.moment.defences[targetId] === undefined) return { kind: 'defence', targetId, attackers };
    return { kind: 'strike', targetId, attackers };
  }
  return null;
}

/** Every actor of the moment is resolved and nothing waits: the moment closes by itself. */
export function momentSettled(ctx: CairnContext): boolean {
  if (ctx.phase !== 'resolve' || nextStep(ctx) !== null) return false;
  return momentActors(ctx).every((id) => {
    if (isDone(ctx, id) || !canAct(ctx.combatants[id], ctx.options)) return true;
    return false;
  });
}

/** The actions of this moment the table still plays out (moves, spells, retreats...). */
export const openActions = (ctx: CairnContext) => momentActors(ctx).filter((id) => !isDone(ctx, id) && canAct(ctx.combatants[id], ctx.options));

// ---- defence choices ----

export interface DefenceChoice {
  id: string;
  label: string;
}

/** The options a defender has against these attackers (§4.4 steps 4–5); restrict forbids some. */
function reactionChoices(ctx: CairnContext, defenderId: string, fightBack: string[], parry: string[]): DefenceChoice[] {
  const target = ctx.combatants[defenderId]!;
  const choices: DefenceChoice[] = [{ id: 'none', label: 'Take it (no reaction)' }];
  const restrict = ctx.options['blockDodge'] === 'restrict';
  if (!restrict || blockGear(ctx, target)) choices.push({ id: 'block', label: 'Block (+1 Fatigue): fast and balanced attacks impaired' });
  if (!restrict || !dodgeHampered(ctx, target)) choices.push({ id: 'dodge', label: 'Dodge (+1 Fatigue): balanced and slow attacks impaired' });
  for (const id of fightBack) choices.push({ id: `fightBack:${id}`, label: `Fight back against ${nameOf(ctx, id)} (+1 Fatigue)` });
  for (const id of parry) choices.push({ id: `parry:${id}`, label: `Parry ${nameOf(ctx, id)}${Number(ctx.options['parryFatigue'] ?? 0) ? ' (+1 Fatigue)' : ''}` });
  return choices;
}

/**
 * R-C28: "Choose one attacker and deal your damage against it": the defender must be able to reach it. A melee
 * attacker (or a gambit) is Close when its blow lands; a ranged attacker is in reach only when the range bands put the
 * two Close, or when the defender's own weapon is a ranged one (the sheet's flag) and the attacker is not Distant.
 * As an option, any attacker at any distance (the GM narrates how).
 */
export function reachesToFightBack(ctx: CairnContext, defenderId: string, attackerId: string): boolean {
  if (ctx.options['fightBackReach'] === 'anyAttacker') return true;
  if (ctx.intents[attackerId]?.action !== 'ranged') return true;
  const distance = distanceBetween(ctx, defenderId, attackerId);
  if (distance === 'close') return true;
  return rangedWeapon(ctx.combatants[defenderId]!) && distance !== 'distant';
}

/** Why a fight-back (or a Parry) against this attacker is out of reach (R-C28), in a sentence. */
function outOfReach(ctx: CairnContext, defenderId: string, attackerId: string, to: 'fight back' | 'parry' = 'fight back'): string {
  const distance = distanceBetween(ctx, defenderId, attackerId);
  const where = distance ? `from ${bandLabel(distance)}` : 'from out of reach (set the range bands if it is Close)';
  return `${nameOf(ctx, defenderId)} cannot reach ${nameOf(ctx, attackerId)} to ${to}: it shoots ${where} and ${nameOf(ctx, defenderId)}'s weapon is no ranged weapon (R-C28).`;
}

/** The options an attacked defender has in this moment (R-C18: fight back against a gambit only as an option). */
export function defenceChoices(ctx: CairnContext, targetId: string): DefenceChoice[] {
  const attackers = strikeGroup(ctx, targetId);
  const fightBack = [...attackers, ...(ctx.options['fightBackAgainstGambits'] === true ? gambiteersOn(ctx, targetId).filter((id) => !attackers.includes(id)) : [])];
  // source: "Parry. Choose one attacking opponent that you can attack in return": whoever the defender can reach, judged
  // as for a fight-back (R-C28), a ranged attacker included; not a gambit ("None of Block, Dodge or Parry", §4.4 step 6).
  const inReach = (id: string) => reachesToFightBack(ctx, targetId, id);
  return reactionChoices(ctx, targetId, fightBack.filter(inReach), attackers.filter(inReach));
}

/** R-C17 as an option: the gambit user's options against the attack back (it is a melee blow, so it can be parried). */
export function attackBackChoices(ctx: CairnContext, step: { by: string; against: string }): DefenceChoice[] {
  return reactionChoices(ctx, step.against, [step.by], [step.by]);
}

/** R-C17: the gambit user may react to the attack back only when the option says so (and it could defend at all). */
export const reactsToAttackBack = (ctx: CairnContext, gambiteerId: string) => ctx.options['noReactionToAttackBack'] === false && mayDefend(ctx, gambiteerId);


export function parseDefence(id: string): Defence | null {
  if (id === 'none' || id === 'block' || id === 'dodge') return { kind: id };
  const [kind, attackerId] = id.split(':');
  if ((kind === 'fightBack' || kind === 'parry') && attackerId) return { kind, attackerId };
  return null;
}

export const defenceFatigue = (defence: Defence, options: OptionValues) =>
  defence.kind === 'none' ? 0 : defence.kind === 'parry' ? Number(options['parryFatigue'] ?? 0) : 1; // R-C8

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
  const armorOf = (id: string) => (ctx.options['parryIgnoresArmor'] === true ? 0 : ctx.combatants[id]!.armor);
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

// ---- damage, HP then STR, the Critical Damage save (§4.4 steps 8–11) ----

/** Puts steps at the front of the queue: follow-ups come before what was already waiting (a fight-back stays last). */
const pushFront = (ctx: CairnContext, ...steps: Step[]): CairnContext => ({ ...ctx, moment: { ...ctx.moment, pending: [...steps, ...ctx.moment.pending] } });
const pushBack = (ctx: CairnContext, ...steps: Step[]): CairnContext => ({ ...ctx, moment: { ...ctx.moment, pending: [...ctx.moment.pending, ...steps] } });
const popStep = (ctx: CairnContext): CairnContext => ({ ...ctx, moment: { ...ctx.moment, pending: ctx.moment.pending.slice(1) } });

function die(ctx: CairnContext, id: string, reason: string): CairnContext {
  const c = ctx.combatants[id]!;
  const next = update(ctx, id, { deathClock: null, incapacitated: false });
  return takeOut(next, id, 'dead', reason || `${c.name} dies`);
}

/** STR 0 is death (§4.4 step 11). */
function settleStr(ctx: CairnContext, id: string): CairnContext {
  const c = ctx.combatants[id]!;
  return c.str <= 0 && present(c) ? die(update(ctx, id, { str: 0 }), id, 'STR 0') : ctx;
}

export interface DamageOptions {
  toStr: boolean;
  /** Calls for the Critical Damage save when STR is lost (not for a Parry, §4.4 step 4). */
  save: boolean;
  nonLethal: boolean;
}

/**
 * Damage already reduced by Armor: off HP; what would take HP below 0 comes off STR (R-C21: exactly 0 does nothing
 * more); straight to STR for an unaware or overburdened target. STR loss calls for the save (R-C13) unless
 * `save` is off; STR 0 kills.
 */
export function applyDamage(ctx: CairnContext, id: string, amount: number, how: DamageOptions): CairnContext {
  const c = ctx.combatants[id]!;
  if (!present(c) || amount <= 0) return ctx;
  let strLoss: number;
  let hp = c.hp;
  if (how.toStr) strLoss = amount;
  else {
    strLoss = Math.max(0, amount - c.hp);
    hp = Math.max(0, c.hp - amount);
  }
  const str = Math.max(0, c.str - strLoss);
  let next = update(ctx, id, { hp, str });
  next = settleStr(next, id);
  const saves = how.toStr ? how.save && ctx.options['directStrDamageSaves'] !== false : how.save;
  if (strLoss > 0 && present(next.combatants[id]) && saves) next = pushFront(next, { kind: 'critSave', id, nonLethal: how.nonLethal });
  return next;
}

const impairAfterSave = (ctx: CairnContext, id: string) => update(ctx, id, { failedCriticalSave: true });

/** The STR save against Critical Damage: fail → the table (PC), unconscious (non-lethal), or R-C23 (enemy). */
export function resolveCritSave(ctx: CairnContext, step: Extract<Step, { kind: 'critSave' }>, roll: Roll): CairnContext {
  const c = ctx.combatants[step.id]!;
  const { passed } = saveResult(roll.faces, c.str);
  let next = popStep(ctx);
  if (passed) return next;
  if (step.nonLethal) return update(next, step.id, { unconscious: true, failedCriticalSave: true });
  if (c.side === 'party') return pushFront(next, { kind: 'critTable', id: step.id });
  if (ctx.options['npcCriticalDamage'] === 'fightsOnImpaired') return impairAfterSave(next, step.id);
  next = pushFront(next, { kind: 'npcCrit', id: step.id });
  return next;
}

export type CritD6Result = 'dies' | 'incapacitated' | 'notToday';
export const critD6Result = (face: number): CritD6Result => (face === 1 ? 'dies' : face === 6 ? 'notToday' : 'incapacitated');

export const DEATH_CLOCK_MINUTES = 60;

export function resolveCritD6(ctx: CairnContext, id: string, face: number, d4: number): CairnContext {
  const next = popStep(ctx);
  const c = next.combatants[id]!;
  switch (critD6Result(face)) {
    case 'dies': return die(next, id, 'critical damage (d6: 1)');
    case 'incapacitated': return update(next, id, { incapacitated: true, deathClock: DEATH_CLOCK_MINUTES, treated: false, failedCriticalSave: true });
    case 'notToday': return update(next, id, { hp: Math.min(c.hpMax, c.hp + d4), failedCriticalSave: true });
  }
}

export const LOCATIONS: { from: number; to: number; location: InjuryLocation; name: string }[] = [
  { from: 1, to: 5, location: 'torso', name: 'Torso injury' },
  { from: 6, to: 6, location: 'leftLeg', name: 'Left leg injury' },
  { from: 7, to: 7, location: 'rightLeg', name: 'Right leg injury' },
  { from: 8, to: 8, location: 'leftArm', name: 'Left arm injury' },
  { from: 9, to: 9, location: 'rightArm', name: 'Right arm injury' },
  { from: 10, to: 10, location: 'head', name: 'Head injury' },
];
export const locationOf = (face: number) => LOCATIONS.find((l) => face >= l.from && face <= l.to)!;

/** The d10 hit-location table: every result adds an Injury item; legs feed R-C6; the head is death (R-C22). */
export function resolveHitLocation(ctx: CairnContext, id: string, face: number, d4: number): CairnContext {
  let next = popStep(ctx);
  const c = next.combatants[id]!;
  const where = locationOf(face);
  const injury: HitInjury = { id: `${id}.injury${c.injuries.length + 1}.r${ctx.round}`, kind: 'injury', location: where.location, name: where.name, gainedHere: true };
  const change: Partial<CairnCombatant> = { injuries: [...c.injuries, injury], failedCriticalSave: true };
  if (where.location === 'leftLeg' || where.location === 'rightLeg') change.nextInitiativeDisadvantage = true; // R-C6
  next = update(next, id, change);
  // Source: "Left arm / Right arm: Disarmament; lose use of arm": empty hands for the rest of the round.
  if ((where.location === 'leftArm' || where.location === 'rightArm') && !disarmedNow(next, id)) next = { ...next, disarmed: [...(next.disarmed ?? []), id] };
  if (where.location === 'torso') return settleStr(update(next, id, { str: Math.max(0, c.str - d4) }), id);
  if (where.location === 'head') {
    if (ctx.options['headResult'] === 'gmDecides') return pushFront(next, { kind: 'head', id });
    return die(next, id, 'critical damage to the head (R-C22)');
  }
  return next;
}

// ---- wounds (§4.6) ----

export const WOUND_TYPES: { key: WoundType; label: string; attribute: Attribute | null }[] = [
  { key: 'burns', label: 'burns', attribute: null },
  { key: 'nerveDamage', label: 'nerve damage', attribute: 'wil' },
  { key: 'frostbite', label: 'frostbite', attribute: null },
  { key: 'poisoning', label: 'poisoning', attribute: null },
  { key: 'other', label: 'wound', attribute: null },
];
const SEVERITY_UP: Record<Severity, Severity | null> = { light: 'severe', severe: 'permanent', permanent: null };

export function woundRefusal(ctx: CairnContext, e: Extract<CombatEvent, { type: 'GAIN_WOUND' }>): string | null {
  if (ctx.options['wounds'] === false) return 'This campaign does not use the wounds module.';
  const c = ctx.combatants[e.id];
  if (!c || !present(c)) return 'That combatant is not in the fight.';
  const existing = c.wounds.filter((w) => w.type === e.woundType);
  const free = slotsUsed(c) < SLOTS;
  const label = WOUND_TYPES.find((t) => t.key === e.woundType)!.label;
  if (existing.length === 0 || e.choice === 'newSlot') {
    if (existing.length > 0 && !free && existing.some((w) => w.severity !== 'permanent')) return `${c.name} has no free slot: the ${label} must worsen (R-C26).`;
    if (!free && !e.dropItem) return `${c.name} has no free slot for the ${label}: drop an item to make room (R-C26).`;
    if (!free && c.gearSlots === 0) return `${c.name} carries no item to drop: the ${label} must worsen an existing wound.`;
    if ((e.severity ?? 'light') === 'permanent' && !e.attribute) return 'Say which attribute the permanent wound lowers.';
    return null;
  }
  if (!e.choice) return `${c.name} already has ${label}: the player chooses to worsen it or take a new Light wound.`;
  const worst = existing.find((w) => w.severity !== 'permanent');
  if (!worst) return `${c.name}'s ${label} is already permanent: take a new Light wound instead.`;
  if (worst.severity === 'severe' && !e.attribute) return 'The wound becomes permanent: say which attribute it lowers.';
  return null;
}

function lowerAttribute(c: CairnCombatant, attribute: Attribute): Partial<CairnCombatant> {
  const maxKey = `${attribute}Max` as const;
  return { [maxKey]: Math.max(1, c[maxKey] - 1), [attribute]: Math.max(0, c[attribute] - 1) } as Partial<CairnCombatant>;
}

export function gainWound(ctx: CairnContext, e: Extract<CombatEvent, { type: 'GAIN_WOUND' }>): CairnContext {
  const c = ctx.combatants[e.id]!;
  const existing = c.wounds.filter((w) => w.type === e.woundType);
  const worsen = existing.length > 0 && e.choice === 'worsen';
  if (worsen) {
    const old = existing.find((w) => w.severity !== 'permanent')!;
    const severity = SEVERITY_UP[old.severity]!;
    // A wound carried in from another fight is replaced by a new record that supersedes it, so undo stays exact.
    const replaced: Wound = old.gainedHere
      ? { ...old, severity, attribute: severity === 'permanent' ? e.attribute ?? null : old.attribute }
      : { ...old, id: `${e.id}.wound${c.wounds.length + 1}.r${ctx.round}`, severity, attribute: severity === 'permanent' ? e.attribute ?? null : old.attribute, supersedes: old.id, gainedHere: true };
    let next = update(ctx, e.id, { wounds: c.wounds.map((w) => (w.id === old.id ? replaced : w)) });
    if (severity === 'permanent') next = settleStr(update(next, e.id, lowerAttribute(c, e.attribute!)), e.id);
    return next;
  }
  const severity = e.severity ?? 'light';
  const wound: Wound = { id: `${e.id}.wound${c.wounds.length + 1}.r${ctx.round}`, kind: 'wound', type: e.woundType, severity, attribute: severity === 'permanent' ? e.attribute ?? null : null, source: e.source, trainedBack: false, gainedHere: true };
  const dropped = slotsUsed(c) >= SLOTS ? 1 : 0;
  let next = update(ctx, e.id, { wounds: [...c.wounds, wound], gearSlots: c.gearSlots - dropped });
  if (severity === 'permanent') next = settleStr(update(next, e.id, lowerAttribute(next.combatants[e.id]!, e.attribute!)), e.id);
  return next;
}

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
    case 'critTable': return `${who} suffers critical damage: roll the ${ctx.options['hitLocations'] ? 'd10 hit location' : 'd6'}.`;
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
export const answerOf = (ctx: CairnContext, step: NextStep) => (step.kind === 'critTable' && ctx.options['hitLocations'] ? 'HIT_LOCATION' : STEP_ANSWER[step.kind]);

const STEP_EVENTS = new Set(['REDIRECT', 'GAMBIT', 'ATTACK_BACK', 'DEFENSE', 'STRIKE', 'TIE_BREAK', 'STR_SAVE', 'CRIT_D6', 'HIT_LOCATION', 'NPC_CRITICAL', 'HEAD_RESULT', 'FIGHT_BACK']);
export const isStepEvent = (type: string) => STEP_EVENTS.has(type);

/** The gambit's weapon roll (dual: both, keep the higher; impaired: d4) against the target's save (§4.4 step 6). */
export function gambitDice(ctx: CairnContext, attackerId: string): number[] {
  const intent = ctx.intents[attackerId]!;
  return netPosition(ctx, attackerId, intent) === 'impaired' ? [4] : weaponDice(ctx.combatants[attackerId]!, weaponNow(ctx, attackerId, intent));
}

/** 1–3 is the Difficulty and 4+ none (literal), or min(roll, 3) (capped) — R-C19. */
export function gambitDifficulty(face: number, options: OptionValues): number {
  if (options['gambitDifficulty'] === 'capped') return Math.min(face, 3);
  return face <= 3 ? face : 0;
}

/** The target passes with a roll ≤ the attribute and > the Difficulty (R-C16: a natural 1 fails against one). */
export function gambitSavePasses(face: number, attribute: number, difficulty: number, options: OptionValues): boolean {
  if (face === 1 && (difficulty === 0 || options['naturalOneVsDifficulty'] === 'passes')) return true;
  if (face === 20) return false;
  return face <= attribute && face > difficulty;
}

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
      const c = ctx.combatants[e.id];
      if (!c || !openActions(ctx).includes(e.id)) return `${nameOf(ctx, e.id)} is not retreating at this moment.`;
      if (ctx.intents[e.id]?.action !== 'retreat') return `${c.name} declared no retreat this round.`;
      if (e.safePlace === false) return null; // no save to roll: there is nowhere safe to run to
      return rollProblem([20], e.roll, `${c.name}'s DEX save to retreat`);
    }
    case 'APPLY_DAMAGE': {
      const c = ctx.combatants[e.targetId];
      return present(c) ? null : 'That combatant is not in the fight.';
    }
    case 'SET_AWARE':
      return present(ctx.combatants[e.id]) ? null : 'That combatant is not in the fight.';
    case 'SET_BAND':
      return checkBand(ctx, e.id);
    case 'TREAT': {
      const c = ctx.combatants[e.id];
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
      if (e.id === 'lost') return null;
      const actor = ctx.combatants[step.actorId]!;
      const target = ctx.combatants[e.id];
      if (!target || !present(target) || dead(target)) return `${nameOf(ctx, e.id)} is not in the fight.`;
      if (target.side === actor.side) return `${target.name} is on ${actor.name}'s own side.`;
      return null;
    }
    case 'GAMBIT': {
      if (!isStep(step, 'gambit')) return null;
      const attacker = nameOf(ctx, step.attackerId);
      return rollProblem(gambitDice(ctx, step.attackerId), e.roll, `${attacker}'s gambit roll`) ?? rollProblem([20], e.saveRoll, `${nameOf(ctx, step.targetId)}'s ${e.id.toUpperCase()} save`);
    }
    case 'ATTACK_BACK':
      if (!isStep(step, 'attackBack') || e.id === 'decline') return null;
      if (reactsToAttackBack(ctx, step.against)) {
        return e.roll ? `${nameOf(ctx, step.against)} may react to the attack back first (R-C17): roll it once the reaction is chosen.` : null;
      }
      return rollProblem(counterDice(ctx, step.by), e.roll, `${nameOf(ctx, step.by)}'s attack back`);
    case 'DEFENSE': {
      if (!isStep(step, 'defence') && !isStep(step, 'attackBackDefence')) return null;
      const defenderId = isStep(step, 'defence') ? step.targetId : step.against;
      const choices = isStep(step, 'defence') ? defenceChoices(ctx, step.targetId) : attackBackChoices(ctx, step);
      if (choices.some((c) => c.id === e.id)) return null;
      const defence = parseDefence(e.id);
      const name = nameOf(ctx, defenderId);
      if (isStep(step, 'attackBackDefence') && (defence?.kind === 'fightBack' || defence?.kind === 'parry')) return `${name} can ${defence.kind === 'parry' ? 'parry' : 'fight back against'} only ${nameOf(ctx, step.by)}, who attacks back.`;
      if (defence?.kind === 'block' && ctx.options['blockDodge'] === 'restrict') return `${name} needs a shield or a balanced or heavy melee weapon to block.`;
      if (defence?.kind === 'dodge' && ctx.options['blockDodge'] === 'restrict') return `${name} cannot dodge at Armor 3 or with a heavy weapon.`;
      if (defence?.kind === 'parry' && isStep(step, 'defence') && strikeGroup(ctx, step.targetId).includes(defence.attackerId)) return outOfReach(ctx, defenderId, defence.attackerId, 'parry');
      if (defence?.kind === 'parry') return `${name} can parry only someone attacking ${name} with damage now.`;
      if (defence?.kind === 'fightBack' && isStep(step, 'defence') && strikeGroup(ctx, step.targetId).includes(defence.attackerId)) return outOfReach(ctx, defenderId, defence.attackerId);
      if (defence?.kind === 'fightBack') return `${name} can fight back only against someone attacking now${ctx.options['fightBackAgainstGambits'] === true ? '' : ' with damage (R-C18)'}.`;
      return `"${e.id}" is not one of ${name}'s options: none, block, dodge, fightBack:<attacker> or parry:<attacker>.`;
    }
    case 'STRIKE': {
      if (isStep(step, 'attackBackStrike')) {
        if (e.id !== step.against) return `Roll ${nameOf(ctx, step.by)}'s attack back against ${nameOf(ctx, step.against)} first.`;
        const plan = planAttackBack(ctx, step);
        return plan.dice.length ? rollProblem(plan.dice, e.roll, `${nameOf(ctx, step.by)}'s attack back`) : null;
      }
      if (!isStep(step, 'strike')) return null;
      if (e.id !== step.targetId) return `Resolve the attacks on ${nameOf(ctx, step.targetId)} first.`;
      const plan = planStrike(ctx, step.targetId);
      if (plan.dice.length === 0) return null;
      return rollProblem(plan.dice, e.roll, `The damage roll against ${nameOf(ctx, step.targetId)}`);
    }
    case 'TIE_BREAK':
      if (!isStep(step, 'tie')) return null;
      return step.candidates.includes(e.id) ? null : `${nameOf(ctx, e.id)} is not one of the tied attackers.`;
    case 'STR_SAVE':
      if (!isStep(step, 'critSave')) return null;
      if (e.id !== step.id) return `${nameOf(ctx, step.id)} makes the STR save first.`;
      return rollProblem([20], e.roll, `${nameOf(ctx, step.id)}'s STR save`);
    case 'CRIT_D6':
      if (!isStep(step, 'critTable')) return null;
      if (ctx.options['hitLocations']) return 'This campaign rolls hit locations (d10) instead of the d6.';
      if (e.id !== step.id) return `${nameOf(ctx, step.id)} rolls for critical damage first.`;
      return rollProblem([6], e.roll, 'The critical damage d6') ?? (critD6Result(e.roll!.faces[0]!) === 'notToday' ? rollProblem([4], e.hpRoll, 'The d4 of HP regained') : null);
    case 'HIT_LOCATION':
      if (!isStep(step, 'critTable')) return null;
      if (!ctx.options['hitLocations']) return 'This campaign rolls the d6 critical damage table, not hit locations.';
      if (e.id !== step.id) return `${nameOf(ctx, step.id)} rolls for the hit location first.`;
      return rollProblem([10], e.roll, 'The hit location d10') ?? (locationOf(e.roll!.faces[0]!).location === 'torso' ? rollProblem([4], e.strRoll, 'The d4 of STR lost') : null);
    case 'FIGHT_BACK':
      if (!isStep(step, 'fightBack')) return null;
      if (e.id !== step.defenderId) return `${nameOf(ctx, step.defenderId)} is the one fighting back.`;
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
      if (ctx.options['downedCannotFightBack'] !== false ? !canAct(d, ctx.options) : !present(d)) return false;
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
      if (e.id === 'lost') return markDone(ctx, [step.actorId], true);
      return { ...ctx, intents: { ...ctx.intents, [step.actorId]: { ...ctx.intents[step.actorId]!, targetId: e.id } } };
    }
    case 'GAMBIT': {
      if (!isStep(step, 'gambit')) return ctx;
      const target = ctx.combatants[step.targetId]!;
      const difficulty = gambitDifficulty(Math.max(...e.roll!.faces), ctx.options);
      const passes = gambitSavePasses(e.saveRoll!.faces[0]!, target[e.id], difficulty, ctx.options);
      let next = meleeCloses(useImprovised(markDone(ctx, [step.attackerId]), step.attackerId), step.attackerId, step.targetId);
      if (passes && canAct(target, ctx.options)) next = pushFront(next, { kind: 'attackBack', by: step.targetId, against: step.attackerId });
      const defence = ctx.moment.defences[step.targetId];
      if (defence?.kind === 'fightBack' && defence.attackerId === step.attackerId) next = pushBack(next, { kind: 'fightBack', defenderId: step.targetId, attackerId: step.attackerId });
      return next;
    }
    case 'ATTACK_BACK': {
      if (!isStep(step, 'attackBack')) return ctx;
      const next = popStep(ctx);
      if (e.id === 'decline') return next;
      // R-C17: the gambit user cannot react to the attack back, unless the option lets it (its window comes first).
      if (reactsToAttackBack(ctx, step.against)) return pushFront(next, { kind: 'attackBackDefence', by: step.by, against: step.against });
      return counterStrike(next, step.by, step.against, e.roll!);
    }
    case 'DEFENSE': {
      if (!isStep(step, 'defence') && !isStep(step, 'attackBackDefence')) return ctx;
      const defence = parseDefence(e.id)!;
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
      const nonLethal = step.nonLethal?.[e.id] ?? Boolean(ctx.intents[e.id]?.nonLethal);
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
      if (e.id === 'dead') return die(next, step.id, 'critical damage');
      if (e.id === 'out') return takeOut(next, step.id, 'defeated', 'out of the fight after critical damage (R-C23)');
      return impairAfterSave(next, step.id);
    }
    case 'HEAD_RESULT': {
      if (!isStep(step, 'head')) return ctx;
      const next = popStep(ctx);
      return e.id === 'dies' ? die(next, step.id, 'critical damage to the head') : next;
    }
    case 'FIGHT_BACK': {
      if (!isStep(step, 'fightBack')) return ctx;
      return counterStrike(popStep(ctx), step.defenderId, step.attackerId, e.roll!);
    }
    case 'RETREAT': {
      const c = ctx.combatants[e.id]!;
      // Source: "as long as there is a safe place to run to": with none the retreat cannot succeed; the action is lost.
      if (e.safePlace === false) return markDone(ctx, [e.id], true);
      const { passed } = saveResult(e.roll!.faces, c.dex);
      const next = markDone(ctx, [e.id], !passed); // R-C10: a failed save wastes the action; the PC stays
      return passed ? takeOut(next, e.id, 'retreated', 'retreated (DEX save)') : next;
    }
    case 'APPLY_DAMAGE': {
      const c = ctx.combatants[e.targetId]!;
      const attribute = e.attribute ?? 'hp';
      if (attribute === 'hp') return applyDamage(ctx, c.id, e.amount, { toStr: takesDirectStr(c), save: true, nonLethal: Boolean(e.nonLethal) });
      if (attribute === 'str') return applyDamage(ctx, c.id, e.amount, { toStr: true, save: true, nonLethal: Boolean(e.nonLethal) });
      return update(ctx, c.id, { [attribute]: Math.max(0, c[attribute] - e.amount) } as Partial<CairnCombatant>);
    }
    case 'SET_AWARE':
      return update(ctx, e.id, { aware: e.aware });
    case 'SET_BAND':
      return rederiveIntents(update(ctx, e.id, { band: e.band }));
    case 'TREAT': {
      // R-C27: treatment stops the clock; the PC stays out of the fight until healed unless the option says otherwise.
      const staysOut = ctx.options['treatedStaysOut'] !== false;
      return update(ctx, e.id, { deathClock: null, treated: true, incapacitated: staysOut });
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
