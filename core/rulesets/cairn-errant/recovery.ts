// Cairn-Errant's recovery between fights (RULES.md §4.6, R-C25, R-C27; base Cairn where the text leans on it):
// rests, the death clock and its treatment, wound care and training, healing hit-location Injuries. Pure: each
// function takes a character's recovery state and returns a new one with a log sentence and the records it healed,
// or throws RecoveryRefusal (changing nothing).
import { WOUND_TYPES } from './damage.ts';
import type { Attribute, HitInjury, Wound } from './rules.ts';
import { counted } from '../../words.ts';

export class RecoveryRefusal extends Error {
  override name = 'RecoveryRefusal';
}

function refuse(message: string): never {
  throw new RecoveryRefusal(message);
}

/** Everything recovery needs to know about one character (its carried state and running records). */
export interface RecoveringCharacter {
  id: string;
  name: string;
  hp: number; hpMax: number;
  str: number; strMax: number;
  dex: number; dexMax: number;
  wil: number; wilMax: number;
  fatigue: number;
  gearSlots: number;
  incapacitated: boolean;
  /** Minutes left before an untreated incapacitated character dies; 0 when no clock runs. */
  deathClockMinutes: number;
  treated: boolean;
  unconscious: boolean;
  failedCriticalSave: boolean;
  dead: boolean;
  injuries: HitInjury[];
  wounds: Wound[];
}

export interface RecoveryResult {
  character: RecoveringCharacter;
  text: string;
  rulings: string[];
  /** Ids of Injury and wound records this step healed (the campaign marks them healed). */
  healed: string[];
}

const SLOTS = 10;
export const slotsUsed = (c: RecoveringCharacter) => c.gearSlots + c.fatigue + c.injuries.length + c.wounds.length;

const num = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);

/** Builds the recovery state from the sheet, the stored condition and the running records (as carriedIn reads them). */
export function recoveringCharacter(id: string, name: string, sheet: Record<string, unknown>, state: Record<string, unknown>, records: Record<string, unknown>[]): RecoveringCharacter {
  const pick = (key: string, fallback: number) => num(state[key], num(sheet[key], fallback));
  const superseded = new Set(records.map((r) => r['supersedes']).filter((x): x is string => typeof x === 'string'));
  const live = records.filter((r) => !superseded.has(String(r['id'])));
  return {
    id, name,
    hp: pick('hp', 4), hpMax: num(sheet['hpMax'], 4),
    str: pick('str', 10), strMax: pick('strMax', 10),
    dex: pick('dex', 10), dexMax: pick('dexMax', 10),
    wil: pick('wil', 10), wilMax: pick('wilMax', 10),
    fatigue: pick('fatigue', 0), gearSlots: pick('gearSlots', 0),
    incapacitated: Boolean(state['incapacitated'] ?? sheet['incapacitated']),
    deathClockMinutes: pick('deathClockMinutes', 0),
    treated: Boolean(state['treated']),
    unconscious: Boolean(state['unconscious'] ?? sheet['unconscious']),
    failedCriticalSave: Boolean(state['failedCriticalSave'] ?? sheet['failedCriticalSave']),
    // §4.4 step 11: STR 0 is death, whether a fight or the sheet put it there.
    dead: Boolean(state['dead']) || pick('str', 10) <= 0,
    injuries: live.filter((r) => r['kind'] === 'injury') as unknown as HitInjury[],
    wounds: live.filter((r) => r['kind'] === 'wound') as unknown as Wound[],
  };
}

const living = (c: RecoveringCharacter) => {
  if (c.dead) refuse(`${c.name} is dead. Nothing heals the dead.`);
};
/** Incapacitated with the death clock running: dies within the hour unless treated (§4.4 step 10). */
export const dying = (c: RecoveringCharacter) => c.incapacitated && c.deathClockMinutes > 0 && !c.treated;

const result = (character: RecoveringCharacter, text: string, rulings: string[] = [], healed: string[] = []): RecoveryResult => ({ character, text, rulings, healed });

// ---- rests ----

/** [base Cairn] A few moments' rest and a drink of water restore lost HP (not while dying, down or out, R-C27). */
export function catchBreath(c: RecoveringCharacter): RecoveryResult {
  living(c);
  if (dying(c)) refuse(`${c.name} is dying: treat the wounds first.`);
  if (c.incapacitated) refuse(`${c.name} is incapacitated and stays out until healed: a breather does not help until they recover (R-C27).`);
  if (c.unconscious) refuse(`${c.name} is unconscious: a safe night's rest wakes them.`);
  if (c.hp === c.hpMax) refuse(`${c.name} has all ${c.hpMax} HP already.`);
  return result({ ...c, hp: c.hpMax }, `${c.name} catches their breath: HP ${c.hp} → ${c.hpMax}.`);
}

/** What a night (or a week) of rest in a safe place restores: HP (not while incapacitated), Fatigue cleared, awake again. */
function restedNight(c: RecoveringCharacter): { character: RecoveringCharacter; parts: string[] } {
  const hp = c.incapacitated ? c.hp : c.hpMax;
  const parts: string[] = [];
  if (hp !== c.hp) parts.push(`HP ${c.hp} → ${hp}`);
  if (c.fatigue) parts.push(`Fatigue ${c.fatigue} → 0`);
  if (c.unconscious) parts.push('awake again');
  return { character: { ...c, hp, fatigue: 0, unconscious: false }, parts };
}

/** R-C25: Fatigue clears only after a full night's rest in a safe place; the night also restores HP and wakes the unconscious. */
export function nightRest(c: RecoveringCharacter, place: { safe: boolean }): RecoveryResult {
  living(c);
  if (!place.safe) refuse(`Fatigue clears only after a full night's rest in a safe place (R-C25): ${c.name} cannot rest here.`);
  if (dying(c)) refuse(`${c.name} is dying: treat the wounds before resting.`);
  const night = restedNight(c);
  if (night.parts.length === 0) refuse(`${c.name} has nothing a night's rest restores: ${c.incapacitated ? 'HP return only once they recover (R-C27)' : `all ${c.hpMax} HP`} and no Fatigue.`);
  return result(night.character, `${c.name} rests the night somewhere safe: ${night.parts.join(', ')}.`, ['R-C25']);
}

/**
 * §4.4 step 11: DEX and WIL return only with an extended rest (or something extraordinary). The week of rest also
 * holds safe nights (HP, Fatigue, waking: R-C25), and with a healer it restores STR too [base Cairn: ability loss
 * heals with a week's rest facilitated by a healer].
 */
export function extendedRest(c: RecoveringCharacter, care: { healer?: boolean } = {}): RecoveryResult {
  living(c);
  if (dying(c)) refuse(`${c.name} is dying: treat the wounds before resting.`);
  const healer = care.healer === true;
  const attributes = { str: healer ? c.strMax : c.str, dex: c.dexMax, wil: c.wilMax };
  const parts = (['str', 'dex', 'wil'] as const).filter((a) => attributes[a] !== c[a]).map((a) => `${a.toUpperCase()} ${c[a]} → ${attributes[a]}`);
  const night = restedNight({ ...c, ...attributes });
  parts.push(...night.parts);
  if (parts.length === 0) {
    refuse(healer || c.str === c.strMax
      ? `${c.name}'s DEX and WIL are already at their maximum, and an extended rest has nothing else to restore.`
      : `${c.name}'s DEX and WIL are already at their maximum; only a healer's care restores STR ${c.str}/${c.strMax}.`);
  }
  const rulings = c.dex === 0 || c.wil === 0 ? ['R-C24', 'R-C25'] : ['R-C25'];
  return result(night.character, `${c.name} takes an extended rest${healer ? ' with a healer' : ''}: ${parts.join(', ')}.`, rulings);
}

// ---- the death clock and critical damage (§4.4 step 10, R-C27) ----

/** In-game time passes for a dying character: the clock runs down and at 0 the character dies. */
export function advanceDeathClock(c: RecoveringCharacter, minutes: number): RecoveryResult {
  living(c);
  if (!Number.isInteger(minutes) || minutes < 1) refuse('Time passes in whole minutes, at least 1.');
  if (!c.incapacitated || c.deathClockMinutes <= 0 || c.treated) refuse(`${c.name} is not dying: no death clock runs.`);
  const left = c.deathClockMinutes - minutes;
  if (left <= 0) return result({ ...c, deathClockMinutes: 0, dead: true }, `${c.name} dies of their wounds: the hour ran out untreated.`);
  return result({ ...c, deathClockMinutes: left }, `${c.name} is dying: ${counted(left, 'minute')} left unless treated.`);
}

/** Treatment stops the death clock; R-C27: the character stays out until healed (or, with the ruling off, acts again). */
export function treat(c: RecoveringCharacter, ruling: { treatedStaysOut?: boolean } = {}): RecoveryResult {
  living(c);
  if (!c.incapacitated || c.deathClockMinutes <= 0) refuse(`${c.name} is not dying: there is no death clock to stop.`);
  const staysOut = ruling.treatedStaysOut !== false;
  return result(
    { ...c, deathClockMinutes: 0, treated: true, incapacitated: staysOut },
    `${c.name} is treated: the death clock stops; ${staysOut ? `${c.name} stays out until healed` : `${c.name} can act again`}.`,
    ['R-C27'],
  );
}

/** A treated (or unconscious) character is healed enough to act again; the impaired attacks after a failed save end. */
export function recover(c: RecoveringCharacter): RecoveryResult {
  living(c);
  if (c.incapacitated && !c.treated) refuse(`${c.name} must be treated before recovering (R-C27).`);
  if (!c.incapacitated && !c.unconscious && !c.failedCriticalSave) refuse(`${c.name} has no critical damage to recover from.`);
  return result({ ...c, incapacitated: false, treated: false, unconscious: false, failedCriticalSave: false }, `${c.name} recovers from the critical damage and can act again.`, ['R-C27']);
}

/** A hit-location Injury heals (the GM decides when): its slot frees, and leg or arm effects end with it (R-C6). */
export function healInjury(c: RecoveringCharacter, injuryId: string): RecoveryResult {
  living(c);
  const injury = c.injuries.find((i) => i.id === injuryId);
  if (!injury) refuse(`${c.name} has no such Injury.`);
  return result({ ...c, injuries: c.injuries.filter((i) => i.id !== injuryId) }, `${c.name}'s ${injury.name.toLowerCase()} heals: its slot is free again.`, injury.location.endsWith('Leg') ? ['R-C6'] : [], [injuryId]);
}

// ---- wounds (§4.6) ----

function woundOf(c: RecoveringCharacter, woundId: string): Wound {
  const wound = c.wounds.find((w) => w.id === woundId);
  if (!wound) refuse(`${c.name} has no such wound.`);
  return wound;
}

const typeLabel = (type: Wound['type']) => WOUND_TYPES.find((t) => t.key === type)?.label ?? 'wound';
/** A wound as a sentence names it: "severe frostbite". */
export const woundLabel = (wound: Pick<Wound, 'type' | 'severity'>) => `${wound.severity} ${typeLabel(wound.type)}`;

/** Light wounds heal in the field with proper medicine and care (herbs applied overnight). */
export function fieldTreatment(c: RecoveringCharacter, woundId: string): RecoveryResult {
  living(c);
  const wound = woundOf(c, woundId);
  if (wound.severity === 'severe') refuse(`Severe ${typeLabel(wound.type)} needs real medical care, not field treatment.`);
  if (wound.severity === 'permanent') refuse(`Permanent ${typeLabel(wound.type)} never heals.`);
  return result({ ...c, wounds: c.wounds.filter((w) => w.id !== woundId) }, `Herbs and care overnight heal ${c.name}'s light ${typeLabel(wound.type)}: its slot is free.`, [], [woundId]);
}

/** Severe (or light) wounds heal with real medical care, about a week (a healing temple). */
export function medicalCare(c: RecoveringCharacter, woundId: string): RecoveryResult {
  living(c);
  const wound = woundOf(c, woundId);
  if (wound.severity === 'permanent') refuse(`Permanent ${typeLabel(wound.type)} never heals; training can win back the attribute point.`);
  return result({ ...c, wounds: c.wounds.filter((w) => w.id !== woundId) }, `${c.name}'s ${wound.severity} ${typeLabel(wound.type)} heals after a week of medical care: its slot is free.`, [], [woundId]);
}

/** Training wins back a permanent wound's attribute point; its slot stays lost for good. */
export function trainBack(c: RecoveringCharacter, woundId: string): RecoveryResult {
  living(c);
  const wound = woundOf(c, woundId);
  if (wound.severity !== 'permanent') refuse(`Only a permanent wound's lost point is trained back; this ${typeLabel(wound.type)} can still heal.`);
  if (wound.trainedBack) refuse(`${c.name} has already trained back the point lost to this ${typeLabel(wound.type)}.`);
  if (!wound.attribute) refuse('This wound lowered no attribute.');
  const attribute: Attribute = wound.attribute;
  const maxKey = `${attribute}Max` as const;
  const character = { ...c, [maxKey]: c[maxKey] + 1, [attribute]: c[attribute] + 1, wounds: c.wounds.map((w) => (w.id === woundId ? { ...w, trainedBack: true } : w)) };
  return result(character, `${c.name} trains back the ${attribute.toUpperCase()} point lost to ${typeLabel(wound.type)} (${attribute.toUpperCase()} ${character[attribute]}/${character[maxKey]}); the wound's slot stays lost (${slotsUsed(character)}/${SLOTS} slots).`);
}
