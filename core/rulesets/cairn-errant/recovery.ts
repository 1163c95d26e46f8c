// Cairn-Errant's recovery between fights (RULES.md §4.6, R-C25, R-C27; base Cairn where the text leans on it):
// rests, the death clock and its treatment, wound care and training, healing hit-location Injuries. Pure: each
// function takes a character's recovery state and returns a new one with a log sentence and the records it healed,
// or throws RecoveryRefusal (changing nothing).
import type { Attribute, HitInjury, Wound } from './rules.ts';

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
    dead: Boolean(state['dead']),
    injuries: live.filter((r) => r['kind'] === 'injury') as unknown as HitInjury[],
    wounds: live.filter((r) => r['kind'] === 'wound') as unknown as Wound[],
  };
}

const living = (c: RecoveringCharacter) => {
  if (c.dead) refuse(`${c.name} is dead.`);
};

const result = (character: RecoveringCharacter, text: string, rulings: string[] = [], healed: string[] = []): RecoveryResult => ({ character, text, rulings, healed });

// ---- rests ----

/** [base Cairn] A few moments' rest and a drink of water restore lost HP (not while dying). */
export function catchBreath(c: RecoveringCharacter): RecoveryResult {
  living(c);
  if (c.incapacitated && c.deathClockMinutes > 0) refuse(`${c.name} is dying: treat the wounds first.`);
  if (c.hp === c.hpMax) refuse(`${c.name} has all ${c.hpMax} HP already.`);
  return result({ ...c, hp: c.hpMax }, `${c.name} catches their breath: HP ${c.hp} → ${c.hpMax}.`);
}

/** R-C25: Fatigue clears only after a full night's rest in a safe place; the night also restores HP and wakes the unconscious. */
export function nightRest(c: RecoveringCharacter, place: { safe: boolean }): RecoveryResult {
  living(c);
  if (!place.safe) refuse(`Fatigue clears only after a full night's rest in a safe place (R-C25): ${c.name} cannot rest here.`);
  if (c.incapacitated && c.deathClockMinutes > 0) refuse(`${c.name} is dying: treat the wounds before resting.`);
  const hp = c.incapacitated ? c.hp : c.hpMax;
  const cleared = c.fatigue;
  return result(
    { ...c, fatigue: 0, hp, unconscious: false },
    `${c.name} rests the night somewhere safe: ${cleared ? `${cleared} Fatigue cleared` : 'no Fatigue to clear'}, HP ${hp}${c.unconscious ? ', awake again' : ''}.`,
    ['R-C25'],
  );
}

/** §4.4 step 11: DEX and WIL return only with an extended rest (or something extraordinary). */
export function extendedRest(c: RecoveringCharacter): RecoveryResult {
  living(c);
  if (c.dex === c.dexMax && c.wil === c.wilMax) refuse(`${c.name}'s DEX and WIL are already at their maximum.`);
  return result({ ...c, dex: c.dexMax, wil: c.wilMax }, `${c.name} takes an extended rest: DEX ${c.dex} → ${c.dexMax}, WIL ${c.wil} → ${c.wilMax}.`, ['R-C24']);
}

// ---- the death clock and critical damage (§4.4 step 10, R-C27) ----

/** In-game time passes for a dying character: the clock runs down and at 0 the character dies. */
export function advanceDeathClock(c: RecoveringCharacter, minutes: number): RecoveryResult {
  living(c);
  if (!Number.isInteger(minutes) || minutes < 1) refuse('Time passes in whole minutes, at least 1.');
  if (!c.incapacitated || c.deathClockMinutes <= 0 || c.treated) refuse(`${c.name} is not dying: no death clock runs.`);
  const left = c.deathClockMinutes - minutes;
  if (left <= 0) return result({ ...c, deathClockMinutes: 0, dead: true }, `${c.name} dies of their wounds: the hour ran out untreated.`);
  return result({ ...c, deathClockMinutes: left }, `${c.name} is dying: ${left} minutes left unless treated.`);
}

/** Treatment stops the death clock; R-C27: the character stays out until healed. */
export function treat(c: RecoveringCharacter): RecoveryResult {
  living(c);
  if (!c.incapacitated || c.deathClockMinutes <= 0) refuse(`${c.name} is not dying: there is no death clock to stop.`);
  return result({ ...c, deathClockMinutes: 0, treated: true }, `${c.name} is treated: the death clock stops; ${c.name} stays out until healed.`, ['R-C27']);
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

const TYPE_LABEL: Record<Wound['type'], string> = { burns: 'burns', nerveDamage: 'nerve damage', frostbite: 'frostbite', poisoning: 'poisoning', other: 'wound' };

/** Light wounds heal in the field with proper medicine and care (herbs applied overnight). */
export function fieldTreatment(c: RecoveringCharacter, woundId: string): RecoveryResult {
  living(c);
  const wound = woundOf(c, woundId);
  if (wound.severity === 'severe') refuse(`Severe ${TYPE_LABEL[wound.type]} needs real medical care, not field treatment.`);
  if (wound.severity === 'permanent') refuse(`Permanent ${TYPE_LABEL[wound.type]} never heals.`);
  return result({ ...c, wounds: c.wounds.filter((w) => w.id !== woundId) }, `${c.name}'s light ${TYPE_LABEL[wound.type]} is treated overnight and heals: its slot is free.`, [], [woundId]);
}

/** Severe (or light) wounds heal with real medical care, about a week (a healing temple). */
export function medicalCare(c: RecoveringCharacter, woundId: string): RecoveryResult {
  living(c);
  const wound = woundOf(c, woundId);
  if (wound.severity === 'permanent') refuse(`Permanent ${TYPE_LABEL[wound.type]} never heals; training can win back the attribute point.`);
  return result({ ...c, wounds: c.wounds.filter((w) => w.id !== woundId) }, `${c.name}'s ${wound.severity} ${TYPE_LABEL[wound.type]} heals after a week of medical care: its slot is free.`, [], [woundId]);
}

/** Training wins back a permanent wound's attribute point; its slot stays lost for good. */
export function trainBack(c: RecoveringCharacter, woundId: string): RecoveryResult {
  living(c);
  const wound = woundOf(c, woundId);
  if (wound.severity !== 'permanent') refuse(`Only a permanent wound's lost point is trained back; this ${TYPE_LABEL[wound.type]} can still heal.`);
  if (wound.trainedBack) refuse(`${c.name} has already trained back the point lost to this ${TYPE_LABEL[wound.type]}.`);
  if (!wound.attribute) refuse('This wound lowered no attribute.');
  const attribute: Attribute = wound.attribute;
  const maxKey = `${attribute}Max` as const;
  const character = { ...c, [maxKey]: c[maxKey] + 1, [attribute]: c[attribute] + 1, wounds: c.wounds.map((w) => (w.id === woundId ? { ...w, trainedBack: true } : w)) };
  return result(character, `${c.name} trains back the ${attribute.toUpperCase()} point lost to ${TYPE_LABEL[wound.type]} (${attribute.toUpperCase()} ${character[attribute]}/${character[maxKey]}); the wound's slot stays lost (${slotsUsed(character)}/${SLOTS} slots).`);
}
