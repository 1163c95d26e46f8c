// Cairn-Errant's combatants, declarations and order as pure functions (RULES.md §4.2–§4.3, source
// cairn-errant-bdp-combat.txt "Initiative & Actions", "Melee Clashes", "Range Bands", "Retreat").
// Each round: declare intents → classify quick or full → DEX saves where a tier holds both sides → moments
// (buckets) → resolve. The machine calls these; refusal sentences come from the same checks.
import type { CombatantSeed, EncounterInput } from '../../encounter/types.ts';
import type { OptionValues } from '../options.ts';

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
export const nameOf = (ctx: CairnContext, id: string | null | undefined): string => (id && ctx.combatants[id]?.name) || 'someone';

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
  return options['dexWilZero'] === 'both' ? paralysed(c) && delirious(c) : paralysed(c) || delirious(c);
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

// ---- intents: classification (§4.2 step 2) ----

const isAttack = (action: IntentAction) => action === 'melee' || action === 'gambit' || action === 'ranged';
export const damages = (intent: Intent) => intent.action === 'melee' || intent.action === 'ranged';

/** An intent as declared, before it is classified. */
export type IntentBase = Omit<Intent, 'tier' | 'tierConfirmed' | 'declared' | 'bandNote'>;

/** Quick = one action; full = a move plus an action, or something slow (§4.2 step 2, R-C6b). */
export function classify(intent: IntentBase, c: CairnCombatant): Tier {
  switch (intent.action) {
    case 'melee': case 'gambit': case 'ranged': case 'other':
      return intent.move === 'none' ? 'quick' : 'full';
    case 'retreat':
      // Running away is movement: without fast movement it is never a quick turn (R-C6b).
      return intent.fromClose || lostFastMovement(c) ? 'full' : 'quick';
    case 'move':
      return intent.bands === 2 || lostFastMovement(c) ? 'full' : 'quick';
    case 'spell':
      return intent.fast ? 'quick' : 'full';
  }
}

export function describeIntent(ctx: CairnContext, intent: Intent): string {
  const target = intent.targetId ? nameOf(ctx, intent.targetId) : '';
  const weapon = intent.weapon === 'main' ? '' : intent.weapon === 'improvised' ? `, improvised d${intent.improvisedSize}` : `, ${intent.weapon === 'dual' ? 'two weapons' : intent.weapon}`;
  const move = intent.move === 'before' ? 'closes in and ' : '';
  const after = intent.move === 'after' ? ' then moves away' : '';
  const position = intent.position === 'normal' ? '' : ` (${intent.position})`;
  const what = ((): string => {
    switch (intent.action) {
      case 'melee': return `${move}attacks ${target}${weapon}${after}`;
      case 'gambit': return `${move}tries a gambit on ${target}${weapon}${after}`;
      case 'ranged': return `${intent.move === 'before' ? 'moves and ' : ''}shoots ${target}${after}`;
      case 'retreat': return `retreats from ${intent.fromClose ? 'Close' : 'Near or farther'} foes`;
      case 'move': return `moves ${intent.bands} range band${intent.bands === 2 ? 's' : ''}`;
      case 'spell': return intent.fast ? 'casts a fast spell' : 'casts a spell';
      case 'other': return intent.note || 'acts';
    }
  })();
  return `${what}${position}${intent.note && intent.action !== 'other' ? ` — ${intent.note}` : ''}${intent.bandNote ? ` (${intent.bandNote})` : ''}`;
}

// ---- range bands (source "Range Bands", "Retreat") ----

const bandIndex = (band: Band) => BANDS.indexOf(band);

/**
 * How far apart two foes are: bands are distances from the party (an enemy's) or from the nearest foe (a PC away from
 * the party), so two foes are as far apart as the farther of the two; null when neither band is set.
 */
export function distanceBetween(ctx: CairnContext, a: string, b: string): Band | null {
  const bandA = ctx.combatants[a]?.band;
  const bandB = ctx.combatants[b]?.band;
  if (bandA && bandB) return BANDS[Math.max(bandIndex(bandA), bandIndex(bandB))]!;
  if (bandA) return BANDS[bandIndex(bandA)]!;
  return bandB ? BANDS[bandIndex(bandB)]! : null;
}

/** What a side's foes look like on the range bands: how many are still in the fight, how many of those have no band, and the nearest band among the rest. */
interface FoeBands {
  present: number;
  unbanded: number;
  /** Index in BANDS of the nearest band set on a foe still in the fight; -1 when none is set. */
  nearest: number;
}

/** Per combatants record (replaced, never changed in place, on every change): the foe summary by side. */
const foeBandsMemo = new WeakMap<CairnContext['combatants'], { roster: string[]; bySide: Map<string, FoeBands> }>();

/** The foes of `side` on the range bands, counted once per state (nearestFoe asks it for every retreat intent). */
function foeBands(ctx: CairnContext, side: string): FoeBands {
  let memo = foeBandsMemo.get(ctx.combatants);
  if (!memo || memo.roster !== ctx.roster) {
    memo = { roster: ctx.roster, bySide: new Map() };
    foeBandsMemo.set(ctx.combatants, memo);
  }
  let summary = memo.bySide.get(side);
  if (!summary) {
    summary = { present: 0, unbanded: 0, nearest: -1 };
    for (const other of ctx.roster) {
      const c = ctx.combatants[other]!;
      if (c.side === side || !present(c)) continue;
      summary.present += 1;
      if (!c.band) summary.unbanded += 1;
      else if (summary.nearest === -1 || bandIndex(c.band) < summary.nearest) summary.nearest = bandIndex(c.band);
    }
    memo.bySide.set(side, summary);
  }
  return summary;
}

/**
 * The band of a combatant's nearest foe still in the fight; null when no band says. The distance to each foe is the
 * farther of the two bands (distanceBetween), so the nearest is the combatant's own band when a foe has none, else
 * the farther of its own band and the foes' nearest.
 */
export function nearestFoe(ctx: CairnContext, id: string): Band | null {
  const c = ctx.combatants[id]!;
  const foes = foeBands(ctx, c.side);
  const own = c.band ? bandIndex(c.band) : -1;
  if (own === -1) return foes.nearest === -1 ? null : BANDS[foes.nearest]!;
  if (foes.present === 0) return null;
  return BANDS[foes.unbanded > 0 ? own : Math.max(own, foes.nearest)]!;
}

/** What the range bands make of a declaration: the move and retreat it implies, and the note saying why. */
interface BandEffect {
  move: Movement;
  fromClose: boolean;
  bandNote: string | null;
}

/** The range bands fill in what the declaration leaves open: a retreat from Close, closing in before a melee strike. */
function bandEffect(ctx: CairnContext, id: string, action: IntentAction, targetId: string | null, move: Movement, fromClose: boolean): BandEffect {
  if (action === 'retreat') {
    const nearest = nearestFoe(ctx, id);
    if (nearest === null) return { move, fromClose, bandNote: null };
    return { move, fromClose: nearest === 'close', bandNote: `nearest foe ${bandLabel(nearest)}` };
  }
  if ((action === 'melee' || action === 'gambit') && targetId) {
    const distance = distanceBetween(ctx, id, targetId);
    if (distance === null || distance === 'close' || move !== 'none') return { move, fromClose, bandNote: null };
    // Not Close: "moving close to an enemy before making a melee attack" is a full turn.
    return { move: 'before', fromClose, bandNote: `from ${bandLabel(distance)}` };
  }
  return { move, fromClose, bandNote: null };
}

function deriveIntent(ctx: CairnContext, id: string, base: IntentBase, declared: Intent['declared'], confirmed: Tier | null): Intent {
  const effect = bandEffect(ctx, id, base.action, base.targetId, declared.move, declared.fromClose ?? false);
  const intent: IntentBase = { ...base, move: effect.move, fromClose: effect.fromClose };
  return { ...intent, tier: confirmed ?? classify(intent, ctx.combatants[id]!), tierConfirmed: confirmed !== null, declared, bandNote: effect.bandNote };
}

/** An intent derived again from what was declared; the same intent when the bands change nothing in it. */
function rederive(ctx: CairnContext, id: string, intent: Intent): Intent {
  const confirmed = intent.tierConfirmed ? intent.tier : null;
  const { declared } = intent;
  const effect = bandEffect(ctx, id, intent.action, intent.targetId, declared.move, declared.fromClose ?? false);
  if (effect.move === intent.move && effect.fromClose === intent.fromClose && effect.bandNote === intent.bandNote && (confirmed !== null) === intent.tierConfirmed
    && (confirmed ?? classify(intent, ctx.combatants[id]!)) === intent.tier) return intent;
  const { tier: _tier, tierConfirmed: _confirmed, declared: _declared, bandNote: _note, ...base } = intent;
  return deriveIntent(ctx, id, base, declared, confirmed);
}

/** Bands changed while intents are open: every intent is derived again (a tier the GM confirmed stays). */
export function rederiveIntents(ctx: CairnContext): CairnContext {
  if (ctx.phase !== 'declare') return ctx;
  const intents: Record<string, Intent> = {};
  let changed = false;
  for (const [id, intent] of Object.entries(ctx.intents)) {
    intents[id] = rederive(ctx, id, intent);
    changed ||= intents[id] !== intent;
  }
  return { ...ctx, intents: changed ? intents : ctx.intents };
}

/** Why a band change is refused, or null. */
export function checkBand(ctx: CairnContext, id: string): string | null {
  const c = ctx.combatants[id];
  if (!c) return 'That combatant is not in this encounter.';
  return present(c) ? null : `${c.name} is no longer in the fight.`;
}

/** A melee exchange leaves both Close, once bands are tracked for them (a strike-and-leave moves the striker off). */
export function meleeCloses(ctx: CairnContext, attackerId: string, targetId: string): CairnContext {
  const intent = ctx.intents[attackerId];
  if (!intent || (intent.action !== 'melee' && intent.action !== 'gambit') || intent.move === 'after') return ctx;
  if (distanceBetween(ctx, attackerId, targetId) === null) return ctx;
  return update(update(ctx, attackerId, { band: 'close' }), targetId, { band: 'close' });
}

// ---- order: DEX saves, clashes, moments (§4.2 step 3–5) ----

const tiersOf = (ctx: CairnContext): (Tier | 'turn')[] => (ctx.options['initiativeMode'] === 'simpleDex' ? ['turn'] : ['quick', 'full']);
const tierOfIntent = (ctx: CairnContext, intent: Intent): Tier | 'turn' => (ctx.options['initiativeMode'] === 'simpleDex' ? 'turn' : intent.tier);
const tierRank = (tier: Tier | 'turn') => (tier === 'full' ? 1 : 0);

/** Who acts this round: able to act, with an intent. */
export function actors(ctx: CairnContext): string[] {
  return ctx.roster.filter((id) => ctx.intents[id] !== undefined && canAct(ctx.combatants[id], ctx.options));
}

/** The attack modifier an intent strikes with: enhanced and impaired cancel (R-C12); a failed save impairs. */
export function netPosition(ctx: CairnContext, id: string, intent: Intent): Position {
  const c = ctx.combatants[id]!;
  const impaired = intent.position === 'impaired' || c.failedCriticalSave;
  const enhanced = intent.position === 'enhanced';
  if (impaired && enhanced) return ctx.options['enhancedImpairedCancel'] === false ? 'impaired' : 'normal';
  return impaired ? 'impaired' : enhanced ? 'enhanced' : 'normal';
}

/** Melee length index, longest first: Reach 0, slow 1, balanced 2, fast 3 (§4.2 Melee Clashes). */
function lengthIndex(c: CairnCombatant, intent: Intent, entering: boolean): number {
  const dice = weaponDice(c, intent);
  const reach = (intent.weapon === 'main' || intent.weapon === 'dual') && Boolean(c.sheet['weaponReach']);
  const indexOf = (die: number, isMain: boolean) => (isMain && reach ? 0 : ({ slow: 1, balanced: 2, fast: 3 } as const)[weaponClass(die)]);
  const indices = dice.map((die, i) => indexOf(die, i === 0));
  // A dual wielder striking with both goes at the slower weapon's position in this clash (§4.2 rule 5).
  const ranks = indices.map((index) => (entering ? index : 3 - index));
  return Math.max(...ranks);
}

/** Two combatants attacking each other in melee, sorted by R-C2; null when a DEX save must break the tie. */
export function findClashes(ctx: CairnContext, ids: string[]): Clash[] {
  // Source (Gambits): "For determining the priority of Gambits in the initiative order, use the size of your weapon as
  // described in Melee Clashes." With `gambitOrder: always`, an exchange with a gambit in it is ranked so even when
  // the optional clash rule is off; by default (the digest) only with it.
  const clashesOn = Boolean(ctx.options['meleeClashes']);
  if (!clashesOn && ctx.options['gambitOrder'] !== 'always') return [];
  const melee = (id: string) => {
    const intent = ctx.intents[id];
    return intent && (intent.action === 'melee' || intent.action === 'gambit') ? intent : null;
  };
  const clashes: Clash[] = [];
  const taken = new Set<string>();
  for (const a of ids) {
    const ia = melee(a);
    if (!ia || taken.has(a) || !ia.targetId) continue;
    const b = ia.targetId;
    const ib = melee(b);
    if (!ib || taken.has(b) || ib.targetId !== a || !ids.includes(b)) continue;
    if (!clashesOn && ia.action !== 'gambit' && ib.action !== 'gambit') continue;
    taken.add(a).add(b);
    const entering = ia.move === 'before' || ib.move === 'before';
    const modifier = (id: string, intent: Intent) => ({ enhanced: 0, normal: 1, impaired: 2 })[netPosition(ctx, id, intent)];
    const [ma, mb] = [modifier(a, ia), modifier(b, ib)];
    const [la, lb] = [lengthIndex(ctx.combatants[a]!, ia, entering), lengthIndex(ctx.combatants[b]!, ib, entering)];
    const tier = [tierOfIntent(ctx, ia), tierOfIntent(ctx, ib)].sort((x, y) => tierRank(x) - tierRank(y))[0]!;
    let first: string;
    let decidedBy: Clash['decidedBy'];
    // R-C2: enhanced / normal / impaired first (source: "Enhanced attacks go first in clashes", "Impaired attacks go
    // last in clashes"), then weapon length, then the DEX save.
    if (ma !== mb) [first, decidedBy] = [ma < mb ? a : b, 'modifier'];
    else if (la !== lb) [first, decidedBy] = [la < lb ? a : b, 'length'];
    else {
      // R-C2 third key: the usual DEX save for the PC (the two are always on opposite sides).
      const pc = ctx.combatants[a]!.side === 'party' ? a : b;
      const save = ctx.dexSaves[pc];
      first = save === undefined || save.passed ? pc : pc === a ? b : a;
      decidedBy = 'dex';
    }
    clashes.push({ a, b, entering, first, decidedBy, tier });
  }
  return clashes;
}

const clashNeedsSave = (clash: Clash) => clash.decidedBy === 'dex';
const clashPc = (ctx: CairnContext, clash: Clash) => (ctx.combatants[clash.a]!.side === 'party' ? clash.a : clash.b);

/** PCs who must roll an initiative DEX save this round and have not (§4.2 step 3; R-C6 auto-losers roll nothing). */
export function pendingDexSaves(ctx: CairnContext): string[] {
  if (ctx.phase !== 'order') return [];
  const ids = actors(ctx);
  const clashes = findClashes(ctx, ids);
  const inClash = new Set(clashes.flatMap((c) => [c.a, c.b]));
  const needed = new Set<string>();
  if (ctx.options['initiativeMode'] === 'simpleDex') {
    // Base Cairn: one save at the start; later rounds keep it (a newcomer saves when it first acts).
    for (const id of ids) if (ctx.combatants[id]!.side === 'party' && !inClash.has(id)) needed.add(id);
  } else {
    for (const tier of tiersOf(ctx)) {
      const inTier = ids.filter((id) => !inClash.has(id) && tierOfIntent(ctx, ctx.intents[id]!) === tier);
      const pcs = inTier.filter((id) => ctx.combatants[id]!.side === 'party');
      if (pcs.length && inTier.length > pcs.length) for (const id of pcs) needed.add(id);
    }
  }
  for (const clash of clashes) if (clashNeedsSave(clash)) needed.add(clashPc(ctx, clash));
  return [...needed].filter((id) => ctx.dexSaves[id] === undefined && !losesInitiative(ctx.combatants[id]!));
}

/** The PCs whose initiative is lost without a roll this round (R-C6 second leg hit). */
export function autoLosers(ctx: CairnContext): string[] {
  return actors(ctx).filter((id) => ctx.combatants[id]!.side === 'party' && losesInitiative(ctx.combatants[id]!));
}

/** A DEX save: d20 ≤ DEX passes, 1 always passes and 20 always fails [base Cairn]; disadvantage keeps the worse (higher). */
export function saveResult(faces: number[], attribute: number): { kept: number; passed: boolean } {
  const kept = Math.max(...faces);
  return { kept, passed: kept === 1 || (kept !== 20 && kept <= attribute) };
}

/** Builds the round's moments once every DEX save is in: quick PC-pass | clashes | NPC | PC-fail, then the full tier. */
export function buildMoments(ctx: CairnContext): CairnContext {
  const ids = actors(ctx);
  const clashes = findClashes(ctx, ids);
  const inClash = new Set(clashes.flatMap((c) => [c.a, c.b]));
  const moments: Moment[] = [];
  for (const tier of tiersOf(ctx)) {
    const inTier = ids.filter((id) => !inClash.has(id) && tierOfIntent(ctx, ctx.intents[id]!) === tier);
    const pcs = inTier.filter((id) => ctx.combatants[id]!.side === 'party');
    const npcs = inTier.filter((id) => ctx.combatants[id]!.side === 'enemies');
    const contested = ctx.options['initiativeMode'] === 'simpleDex' || (pcs.length > 0 && npcs.length > 0);
    const wins = (id: string) => !losesInitiative(ctx.combatants[id]!) && (ctx.dexSaves[id]?.passed ?? !contested);
    const pass = pcs.filter(wins);
    const fail = pcs.filter((id) => !wins(id));
    if (pass.length) moments.push({ tier, bucket: 'pcPass', ids: pass });
    // R-C3: a clash replaces the tier and the DEX save for its pair only; it strikes in its earlier tier, between
    // the PCs who won and the enemies.
    for (const clash of clashes.filter((c) => c.tier === tier)) {
      const second = clash.first === clash.a ? clash.b : clash.a;
      moments.push({ tier, bucket: 'clash', ids: [clash.first] }, { tier, bucket: 'clash', ids: [second] });
    }
    if (npcs.length) moments.push({ tier, bucket: 'npc', ids: npcs });
    if (fail.length) moments.push({ tier, bucket: 'pcFail', ids: fail });
  }
  return { ...ctx, clashes, moments, cursor: 0, moment: { ...emptyMoment(), pending: ctx.moment.pending }, phase: 'resolve' };
}

/** Opens a round: new declarations (the Errant way), or the kept order of base Cairn. */
export function openRound(ctx: CairnContext): CairnContext {
  const keepSaves = ctx.options['initiativeMode'] === 'simpleDex';
  return {
    ...ctx,
    round: ctx.round + 1,
    phase: 'declare',
    intents: {},
    telegraphs: {},
    dexSaves: keepSaves ? ctx.dexSaves : {},
    brokenImprovised: [],
    disarmed: [],
    clashes: [],
    moments: [],
    cursor: 0,
    moment: { ...emptyMoment(), pending: ctx.moment.pending },
  };
}

// ---- setup and roster ----

export function addCombatants(ctx: CairnContext, seeds: CombatantSeed[]): CairnContext {
  const combatants = { ...ctx.combatants };
  for (const seed of seeds) combatants[seed.id] = combatantFromSeed(seed);
  return { ...ctx, combatants, roster: [...ctx.roster, ...seeds.map((s) => s.id)] };
}

export function dropFromRoster(ctx: CairnContext, id: string): CairnContext {
  const { [id]: _dropped, ...combatants } = ctx.combatants;
  return { ...ctx, combatants, roster: ctx.roster.filter((x) => x !== id) };
}

/** The combatant already holds every value of the change: applying it would copy the roster for nothing. */
const holds = (c: CairnCombatant | undefined, change: Partial<CairnCombatant>): boolean =>
  c !== undefined && Object.keys(change).every((key) => Object.hasOwn(c, key) && Object.is(c[key as keyof CairnCombatant], change[key as keyof CairnCombatant]));

export function update(ctx: CairnContext, id: string, change: Partial<CairnCombatant>): CairnContext {
  if (holds(ctx.combatants[id], change)) return ctx;
  return { ...ctx, combatants: { ...ctx.combatants, [id]: { ...ctx.combatants[id]!, ...change } } };
}

/** Takes a combatant out of the fight for good: its intent and any question about it go too. */
export function takeOut(ctx: CairnContext, id: string, kind: OutKind, reason: string): CairnContext {
  const next = update(ctx, id, { out: { kind, reason, round: ctx.round } });
  const { [id]: _gone, ...intents } = next.intents;
  const stillAsked = (step: Step) => !Object.values(step).includes(id);
  // During declarations its intent is simply withdrawn; afterwards it stays on the board as a lost action.
  return {
    ...next,
    intents: next.phase === 'declare' ? intents : next.intents,
    moment: { ...next.moment, pending: next.moment.pending.filter(stillAsked) },
  };
}

const MAX_COMBATANTS = 200;

export function checkAddCombatants(ctx: CairnContext, seeds: CombatantSeed[]): string | null {
  if (seeds.length === 0) return 'Choose at least one combatant to add.';
  if (ctx.roster.length + seeds.length > MAX_COMBATANTS) return `An encounter holds at most ${MAX_COMBATANTS} combatants.`;
  const seen = new Set(ctx.roster);
  for (const seed of seeds) {
    if (seed.side !== 'party' && seed.side !== 'enemies') return `${seed.name} must join the party or the enemies.`;
    if (seen.has(seed.id)) return `${seed.name} is already in this encounter.`;
    seen.add(seed.id);
  }
  return null;
}

export function checkRemove(ctx: CairnContext, id: string): string | null {
  const c = ctx.combatants[id];
  if (!c) return 'That combatant is not in this encounter.';
  if (c.out) return `${c.name} has already left the fight.`;
  return null;
}

export function checkStart(ctx: CairnContext): string | null {
  const sides = new Set(ctx.roster.map((id) => ctx.combatants[id]?.side));
  if (!sides.has('party')) return 'Add at least one party member before starting.';
  if (!sides.has('enemies')) return 'Add at least one enemy before starting.';
  return null;
}

export type IntentInput = Partial<IntentBase> & { action: IntentAction; id: string };

export function intentFrom(input: IntentInput): IntentBase {
  return {
    action: input.action,
    targetId: input.targetId ?? null,
    move: input.move ?? 'none',
    bands: input.bands ?? 1,
    fromClose: input.fromClose ?? false,
    fast: input.fast ?? false,
    weapon: input.weapon ?? 'main',
    die: input.die ?? null,
    improvisedSize: input.improvisedSize ?? null,
    position: input.position ?? 'normal',
    nonLethal: input.nonLethal ?? input.weapon === 'unarmed',
    note: input.note ?? '',
  };
}

/** Why a declaration is refused, or null (§4.2 step 1, arms and legs from §4.4 step 10). */
export function checkIntent(ctx: CairnContext, input: IntentInput, as: 'pc' | 'npc'): string | null {
  if (ctx.phase !== 'declare') return 'Intents are locked once the order is being settled (R-C4).';
  const c = ctx.combatants[input.id];
  if (!c) return 'That combatant is not in this encounter.';
  if (as === 'pc' && c.side !== 'party') return `${c.name} is an enemy: the Warden sets its intent (SET_NPC_INTENT).`;
  if (as === 'npc' && c.side !== 'enemies') return `${c.name} is a player character: the player declares (DECLARE_INTENT).`;
  if (!canAct(c, ctx.options)) return `${c.name} cannot act this round (${whyCannotAct(c, ctx.options)}).`;
  const intent = intentFrom(input);
  if (isAttack(intent.action)) {
    const target = intent.targetId ? ctx.combatants[intent.targetId] : undefined;
    if (!target) return `${c.name}'s ${intent.action === 'gambit' ? 'gambit' : 'attack'} needs a target.`;
    if (!present(target)) return `${target.name} is no longer in the fight.`;
    if (target.side === c.side) return `${target.name} is on ${c.name}'s own side.`;
    // Source "Range Bands": Distant is beyond every ranged weapon, and many moves away.
    if (distanceBetween(ctx, c.id, target.id) === 'distant') {
      return intent.action === 'ranged' ? `${target.name} is Distant: beyond the range of every ranged weapon.` : `${target.name} is Distant: too many moves away to strike this round.`;
    }
    // R-C29: Far "takes one or multiple Move Actions in combat to get here"; read as more than one, closing in from Far
    // is "moving two range bands", a full turn of its own, and leaves no action for the blow.
    if (intent.action !== 'ranged' && ctx.options['farMelee'] === 'outOfReach' && distanceBetween(ctx, c.id, target.id) === 'far') {
      return `${target.name} is Far: closing in takes ${c.name}'s whole turn (moving two range bands), so the ${intent.action === 'gambit' ? 'gambit' : 'strike'} waits for next round (R-C29).`;
    }
  }
  if (intent.action === 'retreat' && input.fromClose === true) {
    const nearest = nearestFoe(ctx, c.id);
    if (nearest !== null && nearest !== 'close') return `${c.name}'s nearest foe is ${bandLabel(nearest)} by the range bands: this is not a retreat from Close (set the band first if it changed).`;
  }
  if (intent.weapon === 'improvised' && intent.improvisedSize === null) return 'Say how big the improvised weapon is: bottle (d6), chair (d8) or table (d10).';
  if ((intent.weapon === 'offhand' || intent.weapon === 'dual') && offhandDie(c) === null) return `${c.name} carries no second weapon.`;
  if (intent.weapon === 'dual' && anyArmLost(c)) return `${c.name} has lost the use of an arm: no dual wielding.`;
  if (intent.weapon === 'main' && intent.die === null && Boolean(c.sheet['twoHanded']) && anyArmLost(c) && isAttack(intent.action)) {
    return `${c.name} has lost the use of an arm and cannot wield a two-handed weapon.`;
  }
  if (intent.action === 'move' && intent.bands === 2 && lostFastMovement(c)) return `${c.name} has lost fast movement: no moving two range bands (R-C6b).`;
  return null;
}

export function whyCannotAct(c: CairnCombatant, options: OptionValues): string {
  if (c.out) return c.out.kind === 'retreated' ? 'retreated' : c.out.kind;
  if (c.incapacitated) return 'incapacitated';
  if (c.unconscious) return 'unconscious';
  if (attributeStopsAction(c, options)) return paralysed(c) ? 'paralysed at DEX 0' : 'delirious at WIL 0';
  return 'unable';
}

export function declare(ctx: CairnContext, input: IntentInput): CairnContext {
  const base = intentFrom(input);
  const intent = deriveIntent(ctx, input.id, base, { move: base.move, fromClose: input.fromClose ?? null }, null);
  return { ...ctx, intents: { ...ctx.intents, [input.id]: intent } };
}

/** CAIRN-01: the order is settled only once every PC who can act has declared. */
export function checkLock(ctx: CairnContext): string | null {
  if (ctx.phase !== 'declare') return 'The intents are already locked.';
  const missing = ctx.roster.filter((id) => {
    const c = ctx.combatants[id]!;
    return c.side === 'party' && canAct(c, ctx.options) && ctx.intents[id] === undefined;
  });
  if (missing.length) return `${missing.map((id) => nameOf(ctx, id)).join(', ')} ${missing.length === 1 ? 'has' : 'have'} not declared an intent yet.`;
  return null;
}

/** R-C7: every member of a side is dead, incapacitated, unconscious, retreated or gone. */
export function sideOut(ctx: CairnContext, side: Side): boolean {
  let members = 0;
  for (const id of ctx.roster) {
    const c = ctx.combatants[id]!;
    if (c.side !== side) continue;
    if (present(c) && !down(c)) return false;
    members += 1;
  }
  return members > 0;
}

export function fightOver(ctx: CairnContext): string | null {
  if (ctx.phase === 'setup') return null;
  if (sideOut(ctx, 'enemies')) return 'Every enemy is dead, down or gone.';
  if (sideOut(ctx, 'party')) return 'Every party member is dead, down or gone.';
  return null;
}

// ---- initiative DEX saves (§4.2 step 3, R-C6) ----

/** Locking the intents: PCs who auto-lose (R-C6 second leg hit) are placed in the PC-fail bucket without a roll. */
export function beginOrder(ctx: CairnContext): CairnContext {
  const dexSaves = { ...ctx.dexSaves };
  for (const id of autoLosers(ctx)) dexSaves[id] = { faces: [], kept: 0, passed: false, auto: true, disadvantage: false };
  return { ...ctx, phase: 'order', dexSaves };
}

/** The dice of a PC's initiative DEX save: 2d20 keeping the worse (higher) after a leg result (R-C6). */
export const dexSaveDice = (c: CairnCombatant) => (c.nextInitiativeDisadvantage ? [20, 20] : [20]);

export function checkDexSave(ctx: CairnContext, id: string, faces: number[] | null): string | null {
  if (ctx.phase !== 'order') return 'No initiative DEX save is being rolled now.';
  const c = ctx.combatants[id];
  if (!c) return 'That combatant is not in this encounter.';
  if (!pendingDexSaves(ctx).includes(id)) {
    if (c.side !== 'party') return `${c.name} is an enemy: only the players make initiative DEX saves.`;
    if (losesInitiative(c)) return `${c.name} loses every initiative roll until the leg heals (R-C6): no roll.`;
    if (ctx.dexSaves[id]) return `${c.name} has already rolled the DEX save this round.`;
    return `${c.name} needs no DEX save: no enemy shares that tier.`;
  }
  const dice = dexSaveDice(c);
  if (!faces) return `${c.name}'s DEX save roll is missing.`;
  if (faces.length !== dice.length) return `${c.name}'s DEX save needs ${dice.length === 2 ? '2d20, keeping the worse (disadvantage, R-C6)' : '1d20'}: ${faces.length} given.`;
  const bad = faces.find((f) => !Number.isInteger(f) || f < 1 || f > 20);
  return bad === undefined ? null : `${bad} is not a face of a d20.`;
}

export function recordDexSave(ctx: CairnContext, id: string, roll: { faces: number[] }): CairnContext {
  const c = ctx.combatants[id]!;
  const { kept, passed } = saveResult(roll.faces, c.dex);
  const next = update(ctx, id, { nextInitiativeDisadvantage: false }); // R-C6: the next save only
  return { ...next, dexSaves: { ...next.dexSaves, [id]: { faces: roll.faces, kept, passed, auto: false, disadvantage: roll.faces.length === 2 } } };
}
