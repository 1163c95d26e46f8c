// Enigma's recovery clock (RULES.md §1.6 "Recovery clock", R-E20, R-E29..R-E31): Breathers, Rests, Stitcher
// treatment and paid healing, counted against an in-game day. Pure: every function takes a character's recovery
// state and returns a new one with a log sentence, or throws RecoveryRefusal (changing nothing).
//
// Days: the campaign keeps the day counter; each character keeps one RecoveryDay for the current day. Use
// `dayRecord(today, previous)` to get it, so a new day starts with fresh limits. "Rests" and "days" are one
// counter (R-E31): injuries count down on a Rest, a day of Stitcher treatment or paid healing, never on a Breather.
// With restsAreDays off the counter is the calendar instead: each in-game day that passes takes one off
// (`passDays`) and a Rest no longer does.
import type { OptionValues } from '../options.ts';
import { injuryEffects, isActiveInjury, maxLp, type Injury } from './injuries.ts';
import { CAPACITIES, type Capacity } from './sheet.ts';
import { counted } from '../../words.ts';
import { rulingsOf } from './options.ts';

/** A refusal a GM can read ("Berrik has already taken two Breathers today."). Nothing was changed. */
export class RecoveryRefusal extends Error {
  override name = 'RecoveryRefusal';
}

function refuse(message: string): never {
  throw new RecoveryRefusal(message);
}

/** Current LP and current die sizes (the base sizes come from the sheet). */
export interface EnigmaCondition {
  lp: number;
  dice: Record<Capacity, number>;
}

/** What one character used on one in-game day. */
export interface RecoveryDay {
  day: number;
  /** At most 2 a day. */
  breathersTaken: number;
  /** At most 1 a day. */
  restTaken: boolean;
  /** This character's injuries a Stitcher treated today: at most −1 per injury a day (R-E30). */
  treatedInjuryIds: string[];
  /** Injuries this character treated today as a Stitcher, on anyone (option stitcherSeveralInjuries). */
  stitchedInjuryIds: string[];
}

/**
 * An injury as recovery sees it. `cureMet` marks a semi-permanent injury's cureCondition as fulfilled; until then
 * it does not count down at all (no Rest, Stitcher or paid healing shortens it).
 */
export interface RecoveringInjury extends Injury {
  cureMet?: boolean;
}

/** A Survive cost can leave Fixes as the only healing magic that works (ENIGMA-18). */
export type HealingRestriction = 'fixesOnly' | null;

/** Magic healing, a Fix, or natural recovery and mundane care. The GM decides which a Stitcher or clinic is. */
export type HealingKind = 'magic' | 'fix' | 'natural';

/** Everything recovery needs to know about one character. */
export interface RecoveringCharacter {
  id: string;
  name: string;
  /** Base die sizes from the sheet. */
  base: Record<Capacity, number>;
  condition: EnigmaCondition;
  injuries: readonly RecoveringInjury[];
  healingRestriction: HealingRestriction;
  /** Today's record; see `dayRecord`. */
  day: RecoveryDay;
}

export const BREATHERS_PER_DAY = 2;
export const RESTS_PER_DAY = 1;
const BREATHER_LP = 2;
const DIE_SIZES = [4, 6, 8, 10, 12] as const;

// ---- days and Escalation ----

/** Today's record: the previous one if it is for the same day, otherwise a fresh one with every limit unused. */
export function dayRecord(today: number, previous: RecoveryDay | null = null): RecoveryDay {
  if (previous !== null && previous.day === today) return previous;
  return { day: today, breathersTaken: 0, restTaken: false, treatedInjuryIds: [], stitchedInjuryIds: [] };
}

/**
 * R-E20: Escalation is one party-wide value, and any Breather or Rest taken by the party resets it. `escalation`
 * is the level to show (1); `carriedEscalation` is what the campaign stores for the next encounter: null means
 * "reset since the last fight", so round 1 opens at 1 under every escalationAtStart choice (storing 1 would make
 * 'carryPlusOne' open at 2). `breather` and `rest` include both fields in their results.
 */
export function resetEscalation(): { escalation: 1; carriedEscalation: null } {
  return { escalation: 1, carriedEscalation: null };
}

// ---- healing restrictions ----

/** ENIGMA-18: a refusal sentence when this kind of healing cannot help the character, else null. Breathers and Rests are natural. */
export function canReceiveHealing(restriction: HealingRestriction, kind: HealingKind, name = 'This character'): string | null {
  if (restriction === 'fixesOnly' && kind === 'magic') return `${name} can receive no healing magic except Fixes.`;
  return null;
}

// ---- helpers ----

/** Max LP with the character's running injuries (R-E21: base Endure die unless maxLpDie is 'current'). */
export function characterMaxLp(character: Pick<RecoveringCharacter, 'base' | 'condition' | 'injuries'>, options: OptionValues): number {
  // Armour only matters to armour-restrictive disadvantage, never to max LP.
  const effects = injuryEffects(character.injuries, false, options);
  return maxLp(character.base.endure, character.condition.dice.endure, effects, options);
}

const capacityLabel = (capacity: Capacity) => capacity[0]!.toUpperCase() + capacity.slice(1);
/** R-E20: how the log names the party's Escalation reset; `before` is the stored party value (undefined: not known). */
function escalationText(before: number | null | undefined): string {
  if (before === undefined) return 'Escalation back to 1';
  return before !== null && before > 1 ? `Escalation ${before} → 1 (R-E20)` : 'Escalation stays at 1';
}
function lpText(before: number, after: number, max: number): string {
  if (after > before) return `+${after - before} LP (${before} → ${after} of ${max})`;
  return after < before ? `LP capped at ${after} of ${max}` : `LP stays at ${after} of ${max}`;
}

function raiseDie(current: number, base: number, steps: number): number {
  const from = DIE_SIZES.indexOf(current as (typeof DIE_SIZES)[number]);
  const to = DIE_SIZES[Math.min(from + steps, DIE_SIZES.length - 1)]!;
  return Math.min(to, base); // never above the base
}

/** The diminished die furthest below its base (the first in sheet order on a tie), or null when none is diminished. */
export function mostDiminishedDie(base: Record<Capacity, number>, dice: Record<Capacity, number>): Capacity | null {
  let best: Capacity | null = null;
  let bestGap = 0;
  for (const capacity of CAPACITIES) {
    const from = DIE_SIZES.indexOf(dice[capacity] as (typeof DIE_SIZES)[number]);
    const to = DIE_SIZES.indexOf(base[capacity] as (typeof DIE_SIZES)[number]);
    if (from < 0 || to < 0) continue;
    if (to - from > bestGap) {
      best = capacity;
      bestGap = to - from;
    }
  }
  return best;
}

function findInjury(character: RecoveringCharacter, injuryId: string): RecoveringInjury {
  return character.injuries.find((i) => i.id === injuryId) ?? refuse(`${character.name} has no such injury.`);
}

/** Why treatment (Stitcher or paid) cannot shorten this injury, or null. */
function treatmentRefusal(character: RecoveringCharacter, injury: RecoveringInjury): string | null {
  const what = `${character.name}'s ${injury.name}`;
  if (injury.permanent) return `${what} is permanent: no treatment shortens it.`;
  if (!isActiveInjury(injury)) return `${what} has already healed.`;
  if (injury.cureCondition !== null && !injury.cureMet) {
    return `${what} heals only after its cure (${injury.cureCondition}); mark the cure as met first.`;
  }
  return null;
}

const replaceInjury = (injuries: readonly RecoveringInjury[], next: RecoveringInjury) =>
  injuries.map((i) => (i.id === next.id ? next : i));

/** Marks a semi-permanent injury's cure as done: from now on it counts down like any other. */
export function markCureMet(injury: RecoveringInjury): RecoveringInjury {
  return { ...injury, cureMet: true };
}

export interface CureResult {
  character: RecoveringCharacter;
  log: string;
}

/**
 * The GM marks a semi-permanent injury's cure (its cureCondition) as met: from now on Rests, Stitchers and paid
 * healing shorten it (RULES.md §1.6 "Permanent and semi-permanent injuries"). `note` says how it was cured.
 */
export function meetCure(character: RecoveringCharacter, injuryId: string, note = ''): CureResult {
  const injury = findInjury(character, injuryId);
  const what = `${character.name}'s ${injury.name}`;
  if (injury.permanent) refuse(`${what} is permanent: no cure heals it.`);
  if (!isActiveInjury(injury)) refuse(`${what} has already healed.`);
  if (injury.cureCondition === null) refuse(`${what} needs no special cure: it heals with rests.`);
  if (injury.cureMet) refuse(`${what}'s cure (${injury.cureCondition}) is already marked as met.`);
  const cured = markCureMet(injury);
  const how = note.trim() ? `: ${note.trim()}` : '';
  return {
    character: { ...character, injuries: replaceInjury(character.injuries, cured) },
    log: `${what}: its cure (${injury.cureCondition}) is met${how}; it now heals in ${counted(injury.restsRemaining, 'rest')}.`,
  };
}

// ---- Breather ----

export interface BreatherResult {
  character: RecoveringCharacter;
  escalation: 1;
  carriedEscalation: null;
  lpGained: number;
  /** The die raised, or null when none was chosen. */
  raised: { capacity: Capacity; from: number; to: number } | null;
  log: string;
}

/**
 * A Breather (light activity): at most two a day; +2 LP capped at max LP; raises ONE chosen diminished capacity die
 * by `breatherDieSteps` steps towards its base (R-E29), or none; Escalation back to 1 (R-E20). Injuries do not
 * count down (R-E31).
 */
export function breather(character: RecoveringCharacter, raise: Capacity | null, options: OptionValues, escalationBefore?: number | null): BreatherResult {
  const { name, condition, day } = character;
  if (day.breathersTaken >= BREATHERS_PER_DAY) refuse(`${name} has already taken two Breathers today (day ${day.day}).`);
  let dice = condition.dice;
  let raised: BreatherResult['raised'] = null;
  if (raise !== null) {
    if (!CAPACITIES.includes(raise)) refuse(`"${String(raise)}" is not a capacity die.`);
    const current = condition.dice[raise];
    const base = character.base[raise];
    if (current >= base) refuse(`${name}'s ${capacityLabel(raise)} die is not diminished (d${current}, its base is d${base}).`);
    if (!(DIE_SIZES as readonly number[]).includes(current)) refuse(`${name}'s ${capacityLabel(raise)} die is a d${current}, not a capacity die size.`);
    const steps = rulingsOf(options).breatherDieSteps;
    const to = raiseDie(current, base, Math.max(1, Math.trunc(steps)));
    dice = { ...dice, [raise]: to };
    raised = { capacity: raise, from: current, to };
  }
  const next: RecoveringCharacter = {
    ...character,
    condition: { ...condition, dice },
    day: { ...day, breathersTaken: day.breathersTaken + 1 },
  };
  const max = characterMaxLp(next, options);
  const lp = Math.min(condition.lp + BREATHER_LP, max);
  const result = { ...next, condition: { ...next.condition, lp } };
  const dieText = raised ? `, ${capacityLabel(raised.capacity)} d${raised.from} → d${raised.to}` : '';
  return {
    character: result,
    ...resetEscalation(),
    lpGained: Math.max(0, lp - condition.lp),
    raised,
    log: `${name} takes a Breather: ${lpText(condition.lp, lp, max)}${dieText}; ${escalationText(escalationBefore)}.`,
  };
}

// ---- Rest ----

export interface RestResult {
  character: RecoveringCharacter;
  escalation: 1;
  carriedEscalation: null;
  lpGained: number;
  /** Injuries that reached 0 rests with this Rest. */
  healedInjuryIds: string[];
  log: string;
}

/**
 * A Rest (at least 8 hours of sleep): one a day; + half the BASE Endure die's highest face in LP, rounded down
 * (base d10 → +5 even while diminished), capped at max LP; all capacity dice back to base; Escalation back to 1;
 * every running, non-permanent injury −1 rest (an injury waiting for its cure does not count down). With
 * restsAreDays off (R-E31) injuries count calendar days instead (`passDays`) and a Rest leaves them alone.
 */
export function rest(character: RecoveringCharacter, options: OptionValues, escalationBefore?: number | null): RestResult {
  const { name, condition, day } = character;
  if (day.restTaken) refuse(`${name} has already rested today (day ${day.day}).`);
  const countsInjuries = rulingsOf(options).restsAreDays;
  const { injuries, healedInjuryIds, progress } = countsInjuries
    ? countDown(character.injuries, 1, 'rest')
    : { injuries: character.injuries, healedInjuryIds: [], progress: [] };
  // The cap is taken after the Rest: dice are back to base and an LP-reducing injury healed tonight no longer counts.
  const next: RecoveringCharacter = {
    ...character,
    injuries,
    condition: { ...condition, dice: { ...character.base } },
    day: { ...day, restTaken: true },
  };
  const max = characterMaxLp(next, options);
  const lp = Math.min(condition.lp + Math.floor(character.base.endure / 2), max);
  const waiting = !countsInjuries && character.injuries.some(isCountingDown);
  const injuryText = progress.length ? `; ${progress.join(', ')}` : waiting ? '; injuries count days, not Rests (R-E31)' : '';
  return {
    character: { ...next, condition: { ...next.condition, lp } },
    ...resetEscalation(),
    lpGained: Math.max(0, lp - condition.lp),
    healedInjuryIds,
    log: `${name} rests: ${lpText(condition.lp, lp, max)}, all capacity dice back to base; ${escalationText(escalationBefore)}${injuryText}.`,
  };
}

/** Running, not permanent, and not waiting for its cure: the injuries that time shortens. */
const isCountingDown = (injury: RecoveringInjury) =>
  isActiveInjury(injury) && !injury.permanent && (injury.cureCondition === null || Boolean(injury.cureMet));

/** Takes `by` off every injury that is counting down (never below 0), with the log fragments. */
function countDown(injuries: readonly RecoveringInjury[], by: number, unit: 'rest' | 'day') {
  const healedInjuryIds: string[] = [];
  const progress: string[] = [];
  const shortened = injuries.map((injury) => {
    if (!isCountingDown(injury)) return injury;
    const restsRemaining = Math.max(0, injury.restsRemaining - by);
    if (restsRemaining === 0) healedInjuryIds.push(injury.id);
    const left = counted(restsRemaining, unit);
    progress.push(restsRemaining === 0 ? `${injury.name} healed` : `${injury.name} ${injury.restsRemaining} → ${left}`);
    return { ...injury, restsRemaining };
  });
  return { injuries: shortened, healedInjuryIds, progress };
}


// ---- days passing ----

export interface DaysResult {
  character: RecoveringCharacter;
  healedInjuryIds: string[];
  log: string;
}

/**
 * R-E31 with restsAreDays off: the injury counter counts calendar days, so each in-game day that passes takes one
 * off every injury that is counting down. Null when nothing changes (the option is on, or nothing counts down).
 */
export function passDays(character: RecoveringCharacter, days: number, options: OptionValues): DaysResult | null {
  if (rulingsOf(options).restsAreDays || !Number.isInteger(days) || days < 1) return null;
  if (!character.injuries.some(isCountingDown)) return null;
  const { injuries, healedInjuryIds, progress } = countDown(character.injuries, days, 'day');
  return {
    character: { ...character, injuries },
    healedInjuryIds,
    log: `${counted(days, 'day')} ${days === 1 ? 'passes' : 'pass'} for ${character.name} (R-E31: injuries count days): ${progress.join(', ')}.`,
  };
}

// ---- Stitcher ----

/** Who treats: a party member with Stitcher powers, with their own day record. May be the patient. */
export type Stitcher = Pick<RecoveringCharacter, 'id' | 'name' | 'day'>;

export interface StitcherResult {
  patient: RecoveringCharacter;
  /** The Stitcher's updated day record (the patient's own day when they treat themselves). */
  stitcherDay: RecoveryDay;
  healed: boolean;
  log: string;
}

/**
 * A day of Stitcher treatment: −1 rest on one injury (3 → 2). R-E30: at most −1 per injury per day however many
 * Stitchers help; it stacks with that night's Rest. With stitcherSeveralInjuries off a Stitcher treats one injury a
 * day. `healingKind` is the GM's call on whether this Stitcher's power is healing magic, a Fix or mundane care.
 */
export function stitcherTreat(
  patient: RecoveringCharacter,
  stitcher: Stitcher,
  injuryId: string,
  healingKind: HealingKind,
  options: OptionValues,
): StitcherResult {
  const injury = findInjury(patient, injuryId);
  const restricted = canReceiveHealing(patient.healingRestriction, healingKind, patient.name);
  if (restricted) refuse(restricted);
  const blocked = treatmentRefusal(patient, injury);
  if (blocked) refuse(blocked);
  if (patient.day.treatedInjuryIds.includes(injuryId)) {
    refuse(`${patient.name}'s ${injury.name} has already been treated today (day ${patient.day.day}): Stitchers take off at most one rest per injury a day (R-E30).`);
  }
  const self = stitcher.id === patient.id;
  const stitcherDay = self ? patient.day : stitcher.day;
  if (!rulingsOf(options).stitcherSeveralInjuries && stitcherDay.stitchedInjuryIds.length > 0) {
    refuse(`${stitcher.name} has already treated an injury today (day ${stitcherDay.day}): one injury a day per Stitcher (R-E30).`);
  }
  const restsRemaining = injury.restsRemaining - 1;
  const treated: RecoveringInjury = { ...injury, restsRemaining };
  const patientDay: RecoveryDay = {
    ...patient.day,
    treatedInjuryIds: [...patient.day.treatedInjuryIds, injuryId],
    ...(self ? { stitchedInjuryIds: [...patient.day.stitchedInjuryIds, injuryId] } : {}),
  };
  const nextStitcherDay = self ? patientDay : { ...stitcher.day, stitchedInjuryIds: [...stitcher.day.stitchedInjuryIds, injuryId] };
  const whose = self ? 'their own' : `${patient.name}'s`;
  const outcome = restsRemaining === 0 ? 'healed' : `${injury.restsRemaining} → ${counted(restsRemaining, 'rest')} left`;
  return {
    patient: { ...patient, injuries: replaceInjury(patient.injuries, treated), day: patientDay },
    stitcherDay: nextStitcherDay,
    healed: restsRemaining === 0,
    log: `${stitcher.name} treats ${whose} ${injury.name}: ${outcome}.`,
  };
}

// ---- Paid healing ----

export interface PaidHealing {
  injuryId: string;
  /** Rests to take off: one per Wealth Point at the ordinary price. */
  rests: number;
  /** Wealth Points the character can spend; null when the GM keeps Wealth elsewhere (no check). */
  wealthAvailable: number | null;
  /** Where the healing is bought; only major settlements (Nexus City, medical facilities, corporate labs) offer it. */
  settlement: { name: string; major: boolean };
  /** The GM's call on whether this treatment is healing magic, a Fix or mundane care. */
  healingKind: HealingKind;
  /** An illegal clinic: the GM sets a price multiplier (cost = rests × multiplier, rounded up) and a complication. */
  illegalClinic?: { priceMultiplier: number; complication: string } | null;
}

export interface PaidHealingResult {
  character: RecoveringCharacter;
  wealthSpent: number;
  /** Null when the Wealth available was not given. */
  wealthLeft: number | null;
  /** The illegal clinic's complication, for the GM to play out; null at a legal service. */
  complication: string | null;
  healed: boolean;
  log: string;
}

/** Accelerated healing bought with Wealth Points: −1 rest per point, never below 0 (RULES.md §1.6). */
export function payHealing(character: RecoveringCharacter, purchase: PaidHealing): PaidHealingResult {
  const { name } = character;
  const { rests, wealthAvailable, settlement } = purchase;
  const clinic = purchase.illegalClinic ?? null;
  if (!settlement.major) refuse('Paid healing needs a major settlement such as Nexus City.');
  const injury = findInjury(character, purchase.injuryId);
  const restricted = canReceiveHealing(character.healingRestriction, purchase.healingKind, name);
  if (restricted) refuse(restricted);
  const blocked = treatmentRefusal(character, injury);
  if (blocked) refuse(blocked);
  if (!Number.isInteger(rests) || rests < 1) refuse('Pay for a whole number of rests, at least 1.');
  if (rests > injury.restsRemaining) {
    refuse(`${name}'s ${injury.name} needs only ${counted(injury.restsRemaining, 'rest')} more; spend at most ${counted(injury.restsRemaining, 'Wealth Point')}.`);
  }
  if (clinic !== null && !(Number.isFinite(clinic.priceMultiplier) && clinic.priceMultiplier > 0)) {
    refuse("The clinic's price multiplier must be a positive number.");
  }
  const cost = clinic === null ? rests : Math.ceil(rests * clinic.priceMultiplier);
  if (wealthAvailable !== null && cost > wealthAvailable) refuse(`${name} has ${counted(wealthAvailable, 'Wealth Point')}; this healing costs ${cost}.`);
  const restsRemaining = injury.restsRemaining - rests;
  const where = clinic === null ? `in ${settlement.name}` : `at an illegal clinic in ${settlement.name} (price ×${clinic.priceMultiplier})`;
  const outcome = restsRemaining === 0 ? 'healed' : `${injury.restsRemaining} → ${counted(restsRemaining, 'rest')} left`;
  const complication = clinic === null ? null : clinic.complication.trim() || null;
  return {
    character: { ...character, injuries: replaceInjury(character.injuries, { ...injury, restsRemaining }) },
    wealthSpent: cost,
    wealthLeft: wealthAvailable === null ? null : wealthAvailable - cost,
    complication,
    healed: restsRemaining === 0,
    log: `${name} pays ${counted(cost, 'Wealth Point')} ${where}: ${injury.name} ${outcome}.${complication ? ` Complication: ${complication}` : ''}`,
  };
}
