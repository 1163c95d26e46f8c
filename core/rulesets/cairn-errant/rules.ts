// Cairn-Errant's combatants and encounter context as types, and what is derived from them (RULES.md §4.2–§4.3,
// source cairn-errant-bdp-combat.txt "Initiative & Actions", "Melee Clashes", "Range Bands", "Retreat").
// Each round: declare intents (declarations.ts) → classify quick or full (intents.ts, bands.ts) → DEX saves where a
// tier holds both sides → moments (buckets) (order.ts) → resolve (combat.ts); who joins and leaves is roster.ts.
// The machine calls these; refusal sentences come from the same checks.
import * as roster from '../../encounter/roster.ts';
import type { CombatantSeed, EncounterInput } from '../../encounter/types.ts';
import type { OptionValues } from '../options.ts';
import { rulingsOf } from './options.ts';

export type Side = 'party' | 'enemies';
export const SIDES: readonly { key: Side; label: string }[] = [
  { key: 'party', label: 'Party' },
  { key: 'enemies', label: 'Enemies' },
];
export const sideLabel = (side: Side) => (side === 'party' ? 'Party' : 'Enemies');

export type Attribute = 'str' | 'dex' | 'wil';
export const ATTRIBUTES: readonly Attribute[] = ['str', 'dex', 'wil'];
export type Tier = 'quick' | 'full';
export type IntentAction = 'melee' | 'gambit' | 'ranged' | 'retreat' | 'move' | 'spell' | 'other';
export type WeaponChoice = 'main' | 'offhand' | 'dual' | 'unarmed' | 'improvised';
export type Position = 'normal' | 'enhanced' | 'impaired';
export type Movement = 'none' | 'before' | 'after';
/** Range bands (source "Range Bands"): Close (sword's reach), Near (one move), Far (one or more moves), Distant (beyond every ranged weapon). */
export type Band = 'close' | 'near' | 'far' | 'distant';
export const BANDS: readonly Band[] = ['close', 'near', 'far', 'distant'];
export const bandLabel = (band: Band) => `${band[0]!.toUpperCase()}${band.slice(1)}`;

/** A declared intention for this round (§4.2 step 1). */
export interface Intent {
  action: IntentAction;
  targetId: string | null;
  /** Moving before the action (closing in) or after it (leaving); melee, gambit, ranged and other actions. */
  move: Movement;
  /** Range bands moved by a `move` intent. */
  bands: 1 | 2;
  /** A retreat from foes who are Close (two actions, a full turn). */
  fromClose: boolean;
  /** A fast spell or trick (quick turn). */
  fast: boolean;
  weapon: WeaponChoice;
  /** The main weapon's die when the attack uses another weapon than the sheet's (a bow...). */
  die: number | null;
  improvisedSize: 6 | 8 | 10 | null;
  /** Attacking from a weak (impaired) or strong (enhanced) position: the GM's call (§4.8). */
  position: Position;
  nonLethal: boolean;
  note: string;
  /** The classification: suggested from the intent, or confirmed by the GM. */
  tier: Tier;
  tierConfirmed: boolean;
  /** What the player or Warden said, before the range bands filled in `move` and `fromClose` (kept to re-derive). */
  declared: { move: Movement; fromClose: boolean | null };
  /** How the range bands changed the intent, for the log and the board; null when they did not. */
  bandNote: string | null;
}

export type InjuryLocation = 'torso' | 'leftLeg' | 'rightLeg' | 'leftArm' | 'rightArm' | 'head';
/** A hit-location Injury: an inventory item, a form of lasting fatigue (§4.4 step 10). */
export interface HitInjury {
  id: string;
  kind: 'injury';
  location: InjuryLocation;
  name: string;
  gainedHere?: boolean;
}

export type WoundType = 'burns' | 'nerveDamage' | 'frostbite' | 'poisoning' | 'other';
export type Severity = 'light' | 'severe' | 'permanent';
/** A wound (§4.6): one slot each; a permanent one lowers an attribute by 1 and keeps its slot for good. */
export interface Wound {
  id: string;
  kind: 'wound';
  type: WoundType;
  severity: Severity;
  attribute: Attribute | null;
  source: string;
  trainedBack: boolean;
  /** The id of an earlier wound (from another encounter) this record replaces when it was worsened here. */
  supersedes?: string | null;
  gainedHere?: boolean;
}

export interface CairnCarried {
  hp?: number; str?: number; strMax?: number; dex?: number; dexMax?: number; wil?: number; wilMax?: number;
  fatigue?: number; gearSlots?: number; nextInitiativeDisadvantage?: boolean; failedCriticalSave?: boolean;
  incapacitated?: boolean; deathClockMinutes?: number; treated?: boolean; unconscious?: boolean;
  injuries?: HitInjury[]; wounds?: Wound[];
}

export type OutKind = 'dead' | 'defeated' | 'retreated' | 'removed';

export interface CairnCombatant {
  id: string;
  name: string;
  side: Side;
  characterId: string | null;
  sheet: Record<string, string | number | boolean>;
  hp: number; hpMax: number;
  str: number; strMax: number;
  dex: number; dexMax: number;
  wil: number; wilMax: number;
  armor: number;
  fatigue: number;
  gearSlots: number;
  injuries: HitInjury[];
  wounds: Wound[];
  /** R-C6: the next initiative DEX save is rolled with disadvantage. */
  nextInitiativeDisadvantage: boolean;
  /** Failed a Critical Damage save and lived: its attacks are impaired (§4.4 step 10). */
  failedCriticalSave: boolean;
  /** The GM rules it unaware: no defence, damage after Armor to STR (§4.4 step 3). */
  aware: boolean;
  incapacitated: boolean;
  /** Minutes of in-game time left before an untreated incapacitated PC dies; null when no clock runs. */
  deathClock: number | null;
  treated: boolean;
  unconscious: boolean;
  /**
   * Range band from the party (an enemy), or from the nearest foe (a PC who is not with the party); null when the GM
   * has not set one. Set by SET_BAND; a melee exchange leaves both Close.
   */
  band: Band | null;
  /** Out of the fight for good (dead, defeated NPC, retreated, removed); stays listed for the log. */
  out: { kind: OutKind; reason: string; round: number } | null;
}

/** One bucket: everything in it happens at the same moment (R-C1). */
export interface Moment {
  tier: Tier | 'turn';
  bucket: 'pcPass' | 'npc' | 'pcFail' | 'clash';
  ids: string[];
}

export interface Clash {
  a: string;
  b: string;
  entering: boolean;
  /** Who strikes first. */
  first: string;
  /** 'modifier' | 'length' | 'dex': the sort key that decided (R-C2). */
  decidedBy: 'modifier' | 'length' | 'dex';
  tier: Tier | 'turn';
}

export interface DexSave {
  faces: number[];
  kept: number;
  passed: boolean;
  /** R-C6: a second hit on the same leg loses every initiative roll, with no roll. */
  auto: boolean;
  disadvantage: boolean;
}

export type Defence =
  | { kind: 'none' }
  | { kind: 'block' }
  | { kind: 'dodge' }
  | { kind: 'fightBack'; attackerId: string }
  | { kind: 'parry'; attackerId: string };

/** A follow-up that needs a person or a roll before play goes on (blocking, RULES.md §6.8). */
export type Step =
  /** `nonLethal`: whether each candidate's blow was unarmed or non-lethal when it was struck (a weapon can break on it). */
  | { kind: 'tie'; targetId: string; candidates: string[]; nonLethal?: Record<string, boolean> }
  | { kind: 'critSave'; id: string; nonLethal: boolean }
  | { kind: 'critTable'; id: string }
  | { kind: 'npcCrit'; id: string }
  | { kind: 'head'; id: string }
  | { kind: 'attackBack'; by: string; against: string }
  /** R-C17 as an option: the gambit user reacts to the attack back before it is rolled. */
  | { kind: 'attackBackDefence'; by: string; against: string }
  | { kind: 'attackBackStrike'; by: string; against: string; defence: Defence }
  | { kind: 'fightBack'; defenderId: string; attackerId: string };

export interface MomentState {
  /** Actors whose action in this moment is resolved (or lost). */
  done: string[];
  /** Actors whose action was lost (R-C4, or they could no longer act). */
  lost: string[];
  defences: Record<string, Defence>;
  pending: Step[];
}

export interface CairnContext {
  options: OptionValues;
  combatants: Record<string, CairnCombatant>;
  roster: string[];
  round: number;
  /** 'declare' → 'order' (DEX saves) → 'resolve'; 'setup' before START. */
  phase: 'setup' | 'declare' | 'order' | 'resolve';
  intents: Record<string, Intent>;
  /** The Warden's hints (§4.2 step 1), by enemy. */
  telegraphs: Record<string, string>;
  /** This round's initiative DEX saves (kept from round 1 in simpleDex mode). */
  dexSaves: Record<string, DexSave>;
  clashes: Clash[];
  moments: Moment[];
  cursor: number;
  moment: MomentState;
  /** Source "All improvised weapons break after 1 attack": who has used this round's improvised weapon already. */
  brokenImprovised: string[];
  /** Hit locations "Left arm / Right arm: Disarmament": who lost the weapon from their hands this round. */
  disarmed?: string[];
  outcome: string | null;
}

export const emptyMoment = (): MomentState => ({ done: [], lost: [], defences: {}, pending: [] });

export function initialContext(input: EncounterInput): CairnContext {
  return {
    options: input.options,
    combatants: {},
    roster: [],
    round: 0,
    phase: 'setup',
    intents: {},
    telegraphs: {},
    dexSaves: {},
    clashes: [],
    moments: [],
    cursor: 0,
    moment: emptyMoment(),
    brokenImprovised: [],
    disarmed: [],
    outcome: null,
  };
}

const num = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);

export function combatantFromSeed(seed: CombatantSeed): CairnCombatant {
  const s = seed.sheet;
  const c = (seed.carried ?? {}) as CairnCarried;
  const strMax = num(c.strMax, num(s['strMax'], 10));
  const dexMax = num(c.dexMax, num(s['dexMax'], 10));
  const wilMax = num(c.wilMax, num(s['wilMax'], 10));
  const hpMax = num(s['hpMax'], 4);
  const clock = num(c.deathClockMinutes, num(s['deathClockMinutes'], 0));
  const incapacitated = c.incapacitated ?? Boolean(s['incapacitated']);
  return {
    id: seed.id,
    name: seed.name,
    side: seed.side as Side,
    characterId: seed.characterId,
    sheet: s,
    hp: Math.min(hpMax, num(c.hp, num(s['hp'], hpMax))),
    hpMax,
    str: Math.min(strMax, num(c.str, num(s['str'], strMax))),
    strMax,
    dex: Math.min(dexMax, num(c.dex, num(s['dex'], dexMax))),
    dexMax,
    wil: Math.min(wilMax, num(c.wil, num(s['wil'], wilMax))),
    wilMax,
    armor: Math.min(3, num(s['armor'], 0)),
    fatigue: num(c.fatigue, num(s['fatigue'], 0)),
    gearSlots: num(c.gearSlots, num(s['gearSlots'], 0)),
    injuries: (c.injuries ?? []).map((i) => ({ ...i, gainedHere: false })),
    wounds: (c.wounds ?? []).map((w) => ({ ...w, gainedHere: false })),
    nextInitiativeDisadvantage: c.nextInitiativeDisadvantage ?? Boolean(s['nextInitiativeDisadvantage']),
    failedCriticalSave: c.failedCriticalSave ?? Boolean(s['failedCriticalSave']),
    aware: true,
    incapacitated,
    deathClock: incapacitated && clock > 0 ? clock : null,
    treated: Boolean(c.treated),
    unconscious: c.unconscious ?? Boolean(s['unconscious']),
    band: null,
    out: null,
  };
}

// ---- derived numbers and statuses (computed, never stored) ----

export const SLOTS = 10;
export const nameOf: (ctx: CairnContext, id: string | null | undefined) => string = roster.nameOf;

/** Inventory slots in use: gear, Fatigue, hit-location Injuries and wounds (§4.3, §4.6). */
export const slotsUsed = (c: CairnCombatant) => c.gearSlots + c.fatigue + c.injuries.length + c.wounds.length;
/** All 10 slots full: overburdened, no defence (§4.4 step 3). PCs only. */
export const overburdened = (c: CairnCombatant) => c.side === 'party' && slotsUsed(c) >= SLOTS;

const legHitsFrom = (c: CairnCombatant, leg: 'left' | 'right') =>
  num(c.sheet[`${leg}LegHits`], 0) + c.injuries.filter((i) => i.location === `${leg}Leg`).length;
export const legHits = (c: CairnCombatant) => ({ left: legHitsFrom(c, 'left'), right: legHitsFrom(c, 'right') });
/** R-C6: a second result on the same leg loses every initiative roll until the injury heals. */
export const losesInitiative = (c: CairnCombatant) => legHitsFrom(c, 'left') >= 2 || legHitsFrom(c, 'right') >= 2;
/** R-C6b: a leg result takes away fast movement (no quick-turn movement, no two-band moves). */
export const lostFastMovement = (c: CairnCombatant) => legHitsFrom(c, 'left') + legHitsFrom(c, 'right') > 0;
export const armLost = (c: CairnCombatant, arm: 'left' | 'right') =>
  Boolean(c.sheet[`${arm}ArmLost`]) || c.injuries.some((i) => i.location === `${arm}Arm`);
export const anyArmLost = (c: CairnCombatant) => armLost(c, 'left') || armLost(c, 'right');

export const paralysed = (c: CairnCombatant) => c.dex <= 0;
export const delirious = (c: CairnCombatant) => c.wil <= 0;
export const dead = (c: CairnCombatant) => c.out?.kind === 'dead';
/** R-C24: DEX or WIL at 0 (or, as an option, both) leaves the character unable to act. */
export function attributeStopsAction(c: CairnCombatant, options: OptionValues): boolean {
  return rulingsOf(options).dexWilZero === 'both' ? paralysed(c) && delirious(c) : paralysed(c) || delirious(c);
}
/** In the fight: not dead, defeated, retreated or removed. */
export const present = (c: CairnCombatant | undefined): boolean => c !== undefined && c.out === null;
/** Down: cannot act, but still on the field. */
export const down = (c: CairnCombatant) => c.incapacitated || c.unconscious;
export function canAct(c: CairnCombatant | undefined, options: OptionValues): boolean {
  return c !== undefined && present(c) && !down(c) && !attributeStopsAction(c, options);
}

export const offhandDie = (c: CairnCombatant) => (c.sheet['offhandDie'] && c.sheet['offhandDie'] !== 'none' ? Number(c.sheet['offhandDie']) : null);
export const mainDie = (c: CairnCombatant) => num(c.sheet['weaponDie'], 6);

/** The sheet's weapon is a bow, crossbow or sling: it shoots, and it is no melee weapon. */
export const rangedWeapon = (c: CairnCombatant) => Boolean(c.sheet['rangedWeapon']);
/**
 * Gear that blocks under the restrict and graded variants. Source (optional rule): "Blocking requires a Balanced or
 * Heavy melee weapon, or a shield (ruling out light weapons)": a d8 bow is balanced but no melee weapon.
 */
export const blockGear = (ctx: CairnContext, c: CairnCombatant) => Boolean(c.sheet['shield']) || (!disarmedNow(ctx, c.id) && mainDie(c) >= 8 && !rangedWeapon(c));
/**
 * Source (optional rule): "Dodging is not possible with an Armor score of 3, or when wielding a Heavy weapon." A
 * combatant disarmed this round (an arm hit) wields no weapon, so its sheet's weapon neither blocks nor hampers.
 */
export const dodgeHampered = (ctx: CairnContext, c: CairnCombatant) => c.armor >= 3 || (!disarmedNow(ctx, c.id) && mainDie(c) >= 10);

export type WeaponClass = 'fast' | 'balanced' | 'slow';
/** d6 (and d4) fast, d8 balanced, d10 (and d12) slow; a Reach weapon is classed by its die (§4.4 step 4). */
export const weaponClass = (die: number): WeaponClass => (die <= 6 ? 'fast' : die === 8 ? 'balanced' : 'slow');

/** Source: "All improvised weapons break after 1 attack". The declared improvised weapon is broken once used this round. */
export const improvisedBroken = (ctx: CairnContext, id: string) =>
  ctx.intents[id]?.weapon === 'improvised' && (ctx.brokenImprovised ?? []).includes(id);

/**
 * Hit locations, "Left arm / Right arm: Disarmament; lose use of arm": the weapon is out of the combatant's hands for
 * the rest of the round (its later blows, a fight-back included, are unarmed d4); the next round's declaration says
 * what it fights with (picking the weapon up, drawing another, or fists).
 */
export const disarmedNow = (ctx: CairnContext, id: string) => (ctx.disarmed ?? []).includes(id);

type WeaponInHand = Pick<Intent, 'weapon' | 'die' | 'improvisedSize'>;
const EMPTY_HANDS: WeaponInHand = { weapon: 'unarmed', die: null, improvisedSize: null };

/** The weapon an intent strikes with now: a broken improvised weapon, or a disarmed combatant, has empty hands (unarmed d4). */
export function weaponNow(ctx: CairnContext, id: string, intent: WeaponInHand | null): WeaponInHand | null {
  if (disarmedNow(ctx, id)) return EMPTY_HANDS;
  return intent && intent.weapon === 'improvised' && improvisedBroken(ctx, id) ? { ...intent, weapon: 'unarmed' } : intent;
}

/** An attack was made with the intent's improvised weapon: it breaks (it cannot be used again this round). */
export function useImprovised(ctx: CairnContext, id: string): CairnContext {
  const broken = ctx.brokenImprovised ?? [];
  if (ctx.intents[id]?.weapon !== 'improvised' || broken.includes(id) || disarmedNow(ctx, id)) return ctx;
  return { ...ctx, brokenImprovised: [...broken, id] };
}

/** The weapon dice an attack rolls before modifiers: unarmed d4, improvised by size, dual both (§4.4 step 2). */
export function weaponDice(c: CairnCombatant, intent: Pick<Intent, 'weapon' | 'die' | 'improvisedSize'> | null): number[] {
  const main = intent?.die ?? mainDie(c);
  switch (intent?.weapon ?? 'main') {
    case 'unarmed': return [4];
    case 'improvised': return [intent?.improvisedSize ?? 6];
    case 'offhand': return [offhandDie(c) ?? 4];
    case 'dual': return [main, offhandDie(c) ?? 4];
    default: return [main];
  }
}

// ---- one combatant changed ----
