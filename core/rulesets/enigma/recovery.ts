// Enigma's recovery clock (RULES.md §1.6 "Recovery clock", R-E20, R-E29..R-E31): Breathers, Rests, Stitcher
// treatment and paid healing, counted against an in-game day. Pure: every function takes a character's recovery
// state and returns a new one with a log sentence, or throws RecoveryRefusal (changing nothing).
//
// Days: the campaign keeps the day counter; each character keeps one RecoveryDay for the current day. Use
// `dayRecord(today, previous)` to get it, so a new day starts with fresh limits. "Rests" and "days" are one
// counter (R-E31): injuries count down on a Rest, a day of Stitcher treatment or paid healing, never on a Breather.
import type { OptionValues } from '../options.ts';
import { injuryEffects, isActiveInjury, maxLp, type Injury } from './injuries.ts';
import { CAPACITIES, type Capacity } from './sheet.ts';

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
const restsText = (n: number) => `${n} ${n === 1 ? 'rest' : 'rests'}`;
const points = (n: number) => `${n} Wealth ${n === 1 ? 'Point' : 'Points'}`;
function lpText(before: number, after: number, max: number): string {
  if (after > before) return `+${after - before} LP (${before} → ${after} of ${max})`;
  return after < before ? `LP capped at ${after} of ${max}` : `LP stays at ${after} of ${max}`;
}

function raiseDie(current: number, base: number, steps: number): number {
  const from = DIE_SIZES.indexOf(current as (typeof DIE_SIZES)[number]);
  const to = DIE_SIZES[Math.min(from + steps, DIE_SIZES.length - 1)]!;
  return Math.min(to, base); // never above the base
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
export function breather(character: RecoveringCharacter, raise: Capacity | null, options: OptionValues): BreatherResult {
  const { name, condition, day } = character;
  if (day.breathersTaken >= BREATHERS_PER_DAY) refuse(`${name} has already taken two Breathers today.`);
  let dice = condition.dice;
  let raised: BreatherResult['raised'] = null;
  if (raise !== null) {
    if (!CAPACITIES.includes(raise)) refuse(`"${String(raise)}" is not a capacity die.`);
    const current = condition.dice[raise];
    const base = character.base[raise];
    if (current >= base) refuse(`${name}'s ${capacityLabel(raise)} die is not diminished (d${current}, its base is d${base}).`);
    if (!(DIE_SIZES as readonly number[]).includes(current)) refuse(`${name}'s ${capacityLabel(raise)} die is a d${current}, not a capacity die size.`);
    const steps = Number(options['breatherDieSteps'] ?? 1);
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
    log: `${name} takes a Breather: ${lpText(condition.lp, lp, max)}${dieText}; Escalation back to 1.`,
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
 * every running, non-permanent injury −1 rest (an injury waiting for its cure does not count down).
 */
export function rest(character: RecoveringCharacter, options: OptionValues): RestResult {
  const { name, condition, day } = character;
  if (day.restTaken) refuse(`${name} has already rested today.`);
  const healedInjuryIds: string[] = [];
  const progress: string[] = [];
  const injuries = character.injuries.map((injury) => {
    if (!isActiveInjury(injury) || injury.permanent) return injury;
    if (injury.cureCondition !== null && !injury.cureMet) return injury;
    const restsRemaining = injury.restsRemaining - 1;
    if (restsRemaining === 0) healedInjuryIds.push(injury.id);
    progress.push(restsRemaining === 0 ? `${injury.name} healed` : `${injury.name} ${injury.restsRemaining} → ${restsText(restsRemaining)}`);
    return { ...injury, restsRemaining };
  });
  // The cap is taken after the Rest: dice are back to base and an LP-reducing injury healed tonight no longer counts.
  const next: RecoveringCharacter = {
    ...character,
    injuries,
    condition: { ...condition, dice: { ...character.base } },
    day: { ...day, restTaken: true },
  };
  const max = characterMaxLp(next, options);
  const lp = Math.min(condition.lp + Math.floor(character.base.endure / 2), max);
  const injuryText = progress.length ? `; ${progress.join(', ')}` : '';
  return {
    character: { ...next, condition: { ...next.condition, lp } },
    ...resetEscalation(),
    lpGained: Math.max(0, lp - condition.lp),
    healedInjuryIds,
    log: `${name} rests: ${lpText(condition.lp, lp, max)}, all capacity dice back to base; Escalation back to 1${injuryText}.`,
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
    refuse(`${patient.name}'s ${injury.name} has already been treated today: Stitchers take off at most one rest per injury a day.`);
  }
  const self = stitcher.id === patient.id;
  const stitcherDay = self ? patient.day : stitcher.day;
  if (options['stitcherSeveralInjuries'] === false && stitcherDay.stitchedInjuryIds.length > 0) {
    refuse(`${stitcher.name} has already treated an injury today.`);
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
  const outcome = restsRemaining === 0 ? 'healed' : `${injury.restsRemaining} → ${restsText(restsRemaining)} left`;
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
  /** Wealth Points the character can spend. */
  wealthAvailable: number;
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
  wealthLeft: number;
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
    refuse(`${name}'s ${injury.name} needs only ${restsText(injury.restsRemaining)} more; spend at most ${points(injury.restsRemaining)}.`);
  }
  if (clinic !== null && !(Number.isFinite(clinic.priceMultiplier) && clinic.priceMultiplier > 0)) {
    refuse("The clinic's price multiplier must be a positive number.");
  }
  const cost = clinic === null ? rests : Math.ceil(rests * clinic.priceMultiplier);
  if (cost > wealthAvailable) refuse(`${name} has ${points(wealthAvailable)}; this healing costs ${cost}.`);
  const restsRemaining = injury.restsRemaining - rests;
  const where = clinic === null ? `in ${settlement.name}` : `at an illegal clinic in ${settlement.name} (price ×${clinic.priceMultiplier})`;
  const outcome = restsRemaining === 0 ? 'healed' : `${injury.restsRemaining} → ${restsText(restsRemaining)} left`;
  const complication = clinic === null ? null : clinic.complication.trim() || null;
  return {
    character: { ...character, injuries: replaceInjury(character.injuries, { ...injury, restsRemaining }) },
    wealthSpent: cost,
    wealthLeft: wealthAvailable - cost,
    complication,
    healed: restsRemaining === 0,
    log: `${name} pays ${points(cost)} ${where}: ${injury.name} ${outcome}.${complication ? ` Complication: ${complication}` : ''}`,
  };
}
