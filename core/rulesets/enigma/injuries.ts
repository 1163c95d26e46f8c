// Enigma's injuries (RULES.md §1.6, R-E23..R-E28): categories, the source's name lists, durations and their effects.
// Pure: dice faces come in as arguments, nothing is rolled here, inputs are never changed.
import type { OptionValues } from '../options.ts';
import { CAPACITIES, type Capacity } from './sheet.ts';
import { rulingsOf } from './options.ts';

export type InjuryCategory =
  | 'endure'
  | 'navigate'
  | 'influence'
  | 'glean'
  | 'manifest'
  | 'attack'
  | 'speed'
  | 'armourRestrictive'
  | 'maxLp';

/** In the source's order. The category, not the name, decides the effect (R-E26). */
export const INJURY_CATEGORIES: readonly { key: InjuryCategory; label: string; effect: string }[] = [
  { key: 'endure', label: 'Endure', effect: 'A stack of disadvantage on Endure checks.' },
  { key: 'navigate', label: 'Navigate', effect: 'A stack of disadvantage on Navigate checks.' },
  { key: 'influence', label: 'Influence', effect: 'A stack of disadvantage on Influence checks.' },
  { key: 'glean', label: 'Glean', effect: 'A stack of disadvantage on Glean checks.' },
  { key: 'manifest', label: 'Manifest', effect: 'A stack of disadvantage on Manifest checks.' },
  { key: 'attack', label: 'Attack', effect: 'A stack of disadvantage on Attack checks.' },
  { key: 'speed', label: 'Speed', effect: 'Speed is reduced by 2 spaces, to a minimum of 1.' },
  {
    key: 'armourRestrictive',
    label: 'Armor-Restrictive',
    effect: 'While wearing armour of any kind, a stack of disadvantage on all capacity checks.',
  },
  { key: 'maxLp', label: 'Temporary LP reduction', effect: 'Max LP is reduced by 3 until the injury heals.' },
];

/** The source's pre-generated lists, word for word and in its order (the source wins over the digest). */
export const INJURY_NAMES: Readonly<Record<Exclude<InjuryCategory, 'maxLp'>, readonly string[]>> = {
  endure: [
    'Broken Ribs', 'Concussion', 'Crushed Windpipe', 'Deep Bleeding Wound', 'Frostbite',
    'Heat Exhaustion', 'Internal Bruising', 'Nerve Damage', 'Organ Damage', 'Severe Fatigue',
  ],
  navigate: [
    'Ankle Sprain', 'Inner Ear Damage', 'Fractured Foot', 'Hip Displacement', 'Joint Damage',
    'Muscle Tear', 'Broken Toe', 'Slipped Disc', 'Torn Ligaments', 'Twisted Ankle',
  ],
  influence: [
    'Broken Jaw', 'Burned Face', 'Damaged Vocal Cords', 'Facial Disfigurement', 'Missing Teeth',
    'Nervous Tics', 'Shattered Nose', 'Speech Impediment', 'Tension in Voice', 'Trembling Hands',
  ],
  glean: [
    'Blinded in One Eye', 'Concussive Shock', 'Ear Trauma', 'Hallucinations', 'Head Trauma',
    'Migraine', 'Nerve Tension', 'Sinus Rupture', 'Smoke Inhalation', 'Vestibular Damage',
  ],
  // R-E27: only nine entries.
  manifest: [
    'Anxiety', 'Depression', 'Disassociation', 'Doubt', 'Frustration',
    'Guilt', 'Intrusive Thoughts', 'Paranoia', 'Post-Traumatic Stress',
  ],
  attack: [
    'Broken Fingers', 'Burned Hands', 'Crushed Forearm', 'Dislocated Shoulder', 'Fractured Elbow',
    'Heavy Bruising', 'Muscle Atrophy', 'Severed Tendon', 'Torn Rotator Cuff', 'Tremors',
  ],
  speed: [
    'Cracked Pelvis', 'Dislocated Hip', 'Fractured Shin', 'Pulled Hamstring', 'Severed Achilles Tendon',
    'Severe Calf Tear', 'Sprained Knee', 'Torn Foot Ligaments', 'Spine Trauma', 'Wrenched Ankle',
  ],
  armourRestrictive: [
    'Broken Collarbone', 'Crushed Ribs', 'Dislocated Shoulder Blade', 'Exposed Nerve Endings', 'Fractured Sternum',
    'Hyperextended Spine', 'Mangled Torso', 'Pulmonary Bruising', 'Ruptured Blood Vessels', 'Severe Inflammation',
  ],
};

export interface Injury {
  id: string;
  name: string;
  category: InjuryCategory;
  /** The 1d4 face, 1..4, never rerolled when extended (R-E23/ENIGMA-19). */
  baseRoll: number;
  /** n = the Survive number in the encounter that set it (R-E25). */
  multiplier: number;
  /** Counts down with rests and treatment; healed at 0. */
  restsRemaining: number;
  permanent: boolean;
  cureCondition: string | null;
  notes: string;
}

const SPEED_PENALTY = 2; // "reduced by 2 spaces"
const MAX_LP_REDUCTION = 3; // "reduce max Life Points by 3"
const MULTIPLIER_CAP = 3; // option injuryMultiplier 'capAt3'

function checkD4(face: number): void {
  if (!Number.isInteger(face) || face < 1 || face > 4) {
    throw new RangeError(`An injury's d4 shows 1 to 4, not ${face}.`);
  }
}

function checkSurvivalNumber(n: number): void {
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`Survives are counted from 1 (the first in this encounter), not ${n}.`);
  }
}

/** Rests for a new injury: baseRoll × multiplier; with option injuryMultiplier 'capAt3' the multiplier is min(n, 3). */
export function injuryDuration(baseRoll: number, survivalNumber: number, options: OptionValues): { multiplier: number; rests: number } {
  checkD4(baseRoll);
  checkSurvivalNumber(survivalNumber);
  // R-E23: n × 1d4 beyond the third Survive as well, unless the campaign caps it.
  const multiplier = rulingsOf(options).injuryMultiplier === 'capAt3' ? Math.min(survivalNumber, MULTIPLIER_CAP) : survivalNumber;
  return { multiplier, rests: baseRoll * multiplier };
}

/** R-E23/ENIGMA-19: extend an existing injury for the nth Survive: same baseRoll, multiplier n, restsRemaining = baseRoll × n (never lower than what remains). */
export function extendInjury(injury: Injury, survivalNumber: number, options: OptionValues): Injury {
  const { multiplier, rests } = injuryDuration(injury.baseRoll, survivalNumber, options);
  return { ...injury, multiplier, restsRemaining: Math.max(rests, injury.restsRemaining) };
}

/** Picks a name from a category list with a d10 face (1-based index). Manifest has 9 names: with manifestRollOfTen 'reroll' a 10 returns { reroll: true }; with 'gmChooses' it returns { gmChooses: true } (R-E27). Out-of-range faces throw a RangeError with a GM-readable message. maxLp has no list → { gmChooses: true }. */
export function injuryNameFromRoll(
  category: InjuryCategory,
  d10: number,
  options: OptionValues,
): { name: string } | { reroll: true } | { gmChooses: true } {
  if (!Number.isInteger(d10) || d10 < 1 || d10 > 10) throw new RangeError(`A d10 shows 1 to 10, not ${d10}.`);
  if (category === 'maxLp') return { gmChooses: true }; // the source gives no list: GM-defined
  const name = INJURY_NAMES[category][d10 - 1];
  if (name !== undefined) return { name };
  // R-E27: the Manifest list has 9 entries, so a 10 falls off the end.
  return rulingsOf(options).manifestRollOfTen === 'gmChooses' ? { gmChooses: true } : { reroll: true };
}

export interface InjuryEffects {
  /** Stacks per capacity check: +1 per injury of that category; armourRestrictive adds +1 to all six when wearing armour (R-E28 stacking). */
  disadvantage: Record<Capacity, number>;
  /** 2 per speed injury. */
  speedPenalty: number;
  /** 3 per maxLp injury. */
  maxLpReduction: number;
}

export const isActiveInjury = (injury: Injury): boolean => injury.permanent || injury.restsRemaining > 0;

const isCapacity = (category: InjuryCategory): category is Capacity => (CAPACITIES as readonly string[]).includes(category);

const NO_EFFECTS: InjuryEffects = Object.freeze({
  disadvantage: Object.freeze(Object.fromEntries(CAPACITIES.map((c) => [c, 0]))) as Record<Capacity, number>,
  speedPenalty: 0,
  maxLpReduction: 0,
});

/** Effects of the injuries still running (restsRemaining > 0 or permanent) (R-E26 category decides, R-E28 stacking; option injuryStacking false = each effect counts at most once). */
export function injuryEffects(injuries: readonly Injury[], wearingArmour: boolean, options: OptionValues): InjuryEffects {
  // Every view and many guards ask for every combatant's effects after every event. Injury lists are replaced,
  // never changed in place, so the answer is kept per list (and per the two things besides it that count).
  if (injuries.length === 0) return NO_EFFECTS;
  const slot = (wearingArmour ? 1 : 0) + (rulingsOf(options).injuryStacking ? 2 : 0);
  let known = effectsCache.get(injuries);
  if (!known) effectsCache.set(injuries, (known = []));
  return (known[slot] ??= freezeEffects(computeEffects(injuries, wearingArmour, options)));
}

/** Per injury list, the effects for each of the four (armour worn, stacking) combinations, by `slot`. */
const effectsCache = new WeakMap<readonly Injury[], InjuryEffects[]>();

function freezeEffects(effects: InjuryEffects): InjuryEffects {
  Object.freeze(effects.disadvantage);
  return Object.freeze(effects);
}

function computeEffects(injuries: readonly Injury[], wearingArmour: boolean, options: OptionValues): InjuryEffects {
  const disadvantage = Object.fromEntries(CAPACITIES.map((c) => [c, 0])) as Record<Capacity, number>;
  let speedPenalty = 0;
  let maxLpReduction = 0;
  for (const injury of injuries) {
    if (!isActiveInjury(injury)) continue;
    const category = injury.category; // R-E26: never the name
    if (isCapacity(category)) disadvantage[category] += 1;
    else if (category === 'armourRestrictive' && wearingArmour) for (const c of CAPACITIES) disadvantage[c] += 1;
    else if (category === 'speed') speedPenalty += SPEED_PENALTY;
    else if (category === 'maxLp') maxLpReduction += MAX_LP_REDUCTION;
  }
  if (!rulingsOf(options).injuryStacking) {
    // Without R-E28 stacking every effect is felt once: one stack per capacity, −2 speed, −3 max LP at most.
    for (const c of CAPACITIES) disadvantage[c] = Math.min(disadvantage[c], 1);
    speedPenalty = Math.min(speedPenalty, SPEED_PENALTY);
    maxLpReduction = Math.min(maxLpReduction, MAX_LP_REDUCTION);
  }
  return { disadvantage, speedPenalty, maxLpReduction };
}

/** Speed = highest face of the current Navigate die − speed penalty, minimum 1 (R-E28, ENIGMA-20: d8 → 6). */
export function speed(navigateDie: number, effects: InjuryEffects): number {
  return Math.max(1, navigateDie - effects.speedPenalty);
}

/** Max LP = base Endure die (option maxLpDie 'current' uses the current die) − maxLpReduction, minimum 1 (R-E21). */
export function maxLp(baseEndure: number, currentEndure: number, effects: InjuryEffects, options: OptionValues): number {
  const die = rulingsOf(options).maxLpDie === 'current' ? currentEndure : baseEndure;
  return Math.max(1, die - effects.maxLpReduction);
}
