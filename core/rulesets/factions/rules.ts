// Factions' encounter context as pure data and helpers (RULES.md §3.2; the game is Murdham): the combatant, the
// factions and morale groups, the turn budget and the attack under way, a combatant made from its seed, and the small
// helpers every rules file uses (the log, statuses, grabs). Setting a fight up is in setup.ts, the order policy in
// order.ts, combat in combat.ts and the files it names.
import { withCombatants } from '../../encounter/combatant-table.ts';
import * as roster from '../../encounter/roster.ts';
import type { CombatantSeed, EncounterInput, LogKind, LogLine } from '../../encounter/types.ts';
import type { OptionValues } from '../options.ts';
import { rulingsOf } from './options.ts';


/** A roll inside an event: the faces (rolled by the app or read off physical dice). */
export interface Roll {
  faces: number[];
  source: 'app' | 'manual';
}

export type GearState = 'none' | 'intact' | 'damaged' | 'destroyed';
export type GearItem = 'weapon' | 'shield' | 'armour';
export const GEAR_ITEMS: readonly GearItem[] = ['weapon', 'shield', 'armour'];
export type Gear = Record<GearItem, GearState>;

/** The two sides the prep screen knows: the party first (RULES.md §6.2 contract), the GM's faction second. */
export const SIDES: readonly { key: string; label: string }[] = [
  { key: 'party', label: 'Party' },
  { key: 'gm', label: 'Enemies' },
];

/** What a party member brings from the campaign: its condition and its gear after earlier fights. */
export interface FactionsCarried {
  health?: number;
  incapacitated?: boolean;
  dying?: boolean;
  moraleImmune?: boolean;
  moraleFailed?: boolean;
  gear?: Partial<Gear>;
}

export interface FactionsCombatant {
  id: string;
  name: string;
  faction: string;
  group: string;
  /** Joined on the party side: a player character (R-F7's NPC-only house rule leaves these out). */
  pc: boolean;
  characterId: string | null;
  sheet: Record<string, string | number | boolean>;
  str: number;
  agi: number;
  wit: number;
  healthMax: number;
  health: number;
  /** Body armour value from the sheet (the shield's bonus is added while it lasts). */
  armour: number;
  shieldArmour: number;
  weaponDie: number;
  incapacitated: boolean;
  dying: boolean;
  dead: boolean;
  /** Has used its turn this round, by acting or by reacting (§3.2 rule 6). */
  acted: boolean;
  /** Concealed when the fight started: plays the ambush bonus turn (§3.2 rule 8). */
  ambusher: boolean;
  concealed: boolean;
  unaware: boolean;
  fearImmune: boolean;
  moraleImmune: boolean;
  moraleFailed: boolean;
  /** A lone fighter's morale check happens once (R-F8). */
  loneChecked: boolean;
  /** Took damage in this fight (the lone fighter's trigger, R-F8). */
  damagedHere: boolean;
  surrendered: boolean;
  retreated: boolean;
  /** Result of a long chase (§3.6). */
  chase: 'escaped' | 'caught' | null;
  grabbedBy: string | null;
  disarmed: boolean;
  /** The shield was put down or unequipped (a bonus action): no armour bonus, no bash, until picked up again. */
  shieldDown: boolean;
  zone: string | null;
  gear: Gear;
  gearAtStart: Gear;
  /** Gear used at least once in this fight: it rolls durability afterwards (R-F21). */
  used: Record<GearItem, boolean>;
  removed: { reason: string; round: number } | null;
}

export interface Faction {
  key: string;
  label: string;
}

/** A morale group (R-F7): one per faction by default, or GM-defined. */
export interface MoraleGroup {
  id: string;
  label: string;
  faction: string;
  members: string[];
  /** Head count when the fight starts (late arrivals add to it). */
  originalCount: number;
  /** The group check happens in the first morale phase after it drops to half (R-F8). */
  checked: boolean;
}

export type Phase = 'ambush' | 'normal' | 'fast' | 'slow';

/** The active character's turn (§3.3): a bonus action, a main action or a second bonus action, one zone of movement. */
export interface TurnBudget {
  bonusUsed: number;
  mainUsed: boolean;
  moved: boolean;
  /** A ranged or indirect attack made as "not moving" this turn: the zone move is then closed (R-F11). */
  stillShot: boolean;
}

export interface AttackSpec {
  kind: 'melee' | 'ranged' | 'indirect';
  blast: boolean;
  effect: 'damage' | 'disarm' | 'grapple';
  weapon: 'weapon' | 'unarmed' | 'improvised' | 'shield';
  die: number;
  range: 'withinHalf' | 'beyondHalf';
  unseen: boolean;
  moving: boolean;
  challenging: boolean;
  holdBack: boolean;
  concealment: boolean;
  enhanced: boolean;
  protection: 'none' | 'cover' | 'barrier';
  pierces: boolean;
  border: boolean;
}

export interface PendingTarget {
  id: string;
  /** Everyone who was this target before a Hide behind or a Guard (R-F15). */
  chain: string[];
  surprised: boolean;
  /** Redirected onto a grabbed character who could not refuse (R-F14). */
  heldShield: boolean;
  reaction: 'none' | 'dodged' | 'dodgeFailed' | 'counter' | 'guarding' | 'cannot' | null;
  missed: boolean;
}

export interface PendingCounter {
  reactorId: string;
  spec: AttackSpec;
  save: { needed: boolean; face: number | null; passed: boolean };
}

/** An attack between its to-hit save and its damage: the stunt offer, the reaction windows, the damage roll. */
export interface PendingAttack {
  attackerId: string;
  spec: AttackSpec;
  opportunity: boolean;
  save: { needed: boolean; face: number | null; passed: boolean };
  targets: PendingTarget[];
  cursor: number;
  stage: 'stunt' | 'reaction' | 'resolve';
  stunt: string | null;
  counter: PendingCounter | null;
  deviatedTo: string | null;
  rulings: string[];
}

export interface MoraleCheck {
  label: string;
  groupId: string | null;
  rollers: string[];
  rulings: string[];
}

export interface FactionsContext {
  options: OptionValues;
  combatants: Record<string, FactionsCombatant>;
  roster: string[];
  factions: Record<string, Faction>;
  /** The cyclic order of factions (R-F1). */
  cycle: string[];
  groups: Record<string, MoraleGroup>;
  initiative: string | null;
  fastSlow: boolean;
  chaos: boolean;
  round: number;
  /** null between rounds. */
  phase: Phase | null;
  ambushDone: boolean;
  fat: number | null;
  /** The faction chosen to act first this round (R-F6 oncePerRound reuses it in the slow phase). */
  firstFaction: string | null;
  /** The faction whose go it is; null until the initiative holder chooses. */
  current: string | null;
  passStreak: number;
  activeId: string | null;
  turn: TurnBudget;
  pending: PendingAttack | null;
  morale: { checks: MoraleCheck[]; failures: string[] } | null;
  /** Items waiting for their durability result after the fight (§3.6). */
  durability: { combatantId: string; item: GearItem }[] | null;
  /** Who used a turn, in order: the turn log of each round (FACTIONS-01). */
  history: { round: number; phase: Phase; id: string; kind: 'turn' | 'reaction' }[];
  /** The log, written by the reducers with the numbers they computed; `describe` hands out the new lines. */
  log: LogLine[];
  outcome: string | null;
}

export const FRESH_TURN: TurnBudget = { bonusUsed: 0, mainUsed: false, moved: false, stillShot: false };

export function initialContext(input: EncounterInput): FactionsContext {
  const factions = Object.fromEntries(SIDES.map((s) => [s.key, { ...s }]));
  return {
    options: input.options,
    combatants: {},
    roster: [],
    factions,
    cycle: SIDES.map((s) => s.key),
    groups: Object.fromEntries(SIDES.map((s) => [defaultGroupId(s.key), { id: defaultGroupId(s.key), label: s.label, faction: s.key, members: [], originalCount: 0, checked: false }])),
    initiative: null,
    fastSlow: rulingsOf(input.options).fastSlow,
    chaos: rulingsOf(input.options).chaosOfCombat,
    round: 0,
    phase: null,
    ambushDone: false,
    fat: null,
    firstFaction: null,
    current: null,
    passStreak: 0,
    activeId: null,
    turn: FRESH_TURN,
    pending: null,
    morale: null,
    durability: null,
    history: [],
    log: [],
    outcome: null,
  };
}

export const defaultGroupId = (faction: string) => `faction:${faction}`;

// ---- small helpers ----

export const factionLabel = (ctx: FactionsContext, key: string | null | undefined): string => (key && ctx.factions[key]?.label) || 'nobody';

export function say(ctx: FactionsContext, kind: LogKind, text: string, rulings: string[] = [], actorId: string | null = null): FactionsContext {
  const line: LogLine = { round: ctx.round, kind, text, ...(actorId ? { actorId } : {}), ...(rulings.length ? { rulings } : {}) };
  // concat copies the grown log in one step (a spread walks it item by item); the log is the same array of lines.
  return { ...ctx, log: ctx.log.concat([line]) };
}

/** `update` for each [id, patch] in turn, in one new record. */
export function updateEach(ctx: FactionsContext, patches: Iterable<readonly [string, Partial<FactionsCombatant>]>): FactionsContext {
  const changed = new Map<string, FactionsCombatant>();
  for (const [id, patch] of patches) changed.set(id, { ...(changed.get(id) ?? ctx.combatants[id]!), ...patch });
  return { ...ctx, combatants: withCombatants(ctx.combatants, changed) };
}

/**
 * Out of the fight for good (R-F10 "gone"): dead, retreated, taken off the order, or escaped in a long chase
 * (source: "those who pass escape").
 */
export const gone = (c: FactionsCombatant) => c.dead || c.retreated || c.removed !== null || c.chase === 'escaped';
/** Still in the fight (R-F10): not dead, incapacitated, surrendered or gone. */
export const standing = (c: FactionsCombatant) => !gone(c) && !c.incapacitated && !c.surrendered;
export const canAct = standing;

const gearFrom = (sheet: CombatantSeed['sheet'], carried: Partial<Gear> | undefined): Gear => {
  const base: Gear = {
    weapon: sheet['weaponDamaged'] === true ? 'damaged' : 'intact',
    shield: sheet['hasShield'] === true ? (sheet['shieldDamaged'] === true ? 'damaged' : 'intact') : 'none',
    armour: Number(sheet['armour'] ?? 0) > 0 ? (sheet['armourDamaged'] === true ? 'damaged' : 'intact') : 'none',
  };
  // A carried destroyed or damaged state wins over the sheet; 'none' on the sheet stays none.
  for (const item of GEAR_ITEMS) {
    const state = carried?.[item];
    if (state && base[item] !== 'none') base[item] = state;
  }
  return base;
};

/**
 * Maximum health under R-F20. Murdham's own rule (default): "health equals STR", so the sheet's maximum is not read.
 * Plain HP (the alternative): the sheet's maximum health.
 */
export function maxHealthOf(sheet: CombatantSeed['sheet'], options: OptionValues): number {
  const num = (key: string, fallback: number) => (typeof sheet[key] === 'number' ? (sheet[key] as number) : fallback);
  const str = num('str', 10);
  return Math.max(1, rulingsOf(options).healthModel === 'hpZeroIncapacitates' ? num('healthMax', str) : str);
}

/**
 * Current health at the start of a fight: what the campaign carries, else the sheet's. A sheet's health at or above
 * the sheet's own maximum field means unhurt (full health, whatever STR is); below it, it is a wound and is kept.
 */
function startingHealthOf(sheet: CombatantSeed['sheet'], carried: FactionsCarried, healthMax: number): number {
  if (typeof carried.health === 'number') return Math.max(0, Math.min(healthMax, carried.health));
  const onSheet = sheet['health'];
  const sheetMax = typeof sheet['healthMax'] === 'number' ? sheet['healthMax'] : null;
  if (typeof onSheet !== 'number' || (sheetMax !== null && onSheet >= sheetMax)) return healthMax;
  return Math.max(0, Math.min(healthMax, onSheet));
}

export function combatantFromSeed(seed: CombatantSeed, faction: string, options: OptionValues): FactionsCombatant {
  const carried = (seed.carried ?? {}) as FactionsCarried;
  const num = (key: string, fallback: number) => {
    const v = seed.sheet[key];
    return typeof v === 'number' ? v : fallback;
  };
  const healthMax = maxHealthOf(seed.sheet, options); // R-F20
  const gear = gearFrom(seed.sheet, carried.gear);
  const health = startingHealthOf(seed.sheet, carried, healthMax);
  return {
    id: seed.id,
    name: seed.name,
    faction,
    group: defaultGroupId(faction),
    pc: seed.side === 'party',
    characterId: seed.characterId,
    sheet: seed.sheet,
    str: num('str', 10),
    agi: num('agi', 10),
    wit: num('wit', 10),
    healthMax,
    health,
    armour: num('armour', 0),
    shieldArmour: num('shieldArmour', 1),
    weaponDie: num('weaponDie', 6),
    incapacitated: carried.incapacitated ?? seed.sheet['incapacitated'] === true,
    dying: carried.dying ?? seed.sheet['dying'] === true,
    dead: false,
    acted: false,
    ambusher: false,
    concealed: false,
    unaware: false,
    fearImmune: seed.sheet['fearImmune'] === true,
    moraleImmune: carried.moraleImmune ?? seed.sheet['moraleImmune'] === true,
    moraleFailed: carried.moraleFailed ?? seed.sheet['moraleFailed'] === true,
    loneChecked: false,
    damagedHere: false,
    surrendered: false,
    retreated: false,
    chase: null,
    grabbedBy: null,
    disarmed: false,
    shieldDown: false,
    zone: null,
    gear,
    gearAtStart: { ...gear },
    used: { weapon: false, shield: false, armour: false },
    removed: null,
  };
}

// ---- grabs ----

/**
 * Per combatant record (and roster): who holds whom, each holder's held in roster order. A view asks for every row
 * and a step several times; a scan of the roster each time made a 200-combatant view read 40,000 combatants.
 * Sound because a record is never changed in place (core/encounter/kernel.test.ts).
 */
const holdsOf = new WeakMap<object, { roster: readonly string[]; held: Map<string, string[]> }>();

function heldBy(ctx: FactionsContext): Map<string, string[]> {
  const known = holdsOf.get(ctx.combatants);
  if (known?.roster === ctx.roster) return known.held;
  const held = new Map<string, string[]>();
  for (const id of ctx.roster) {
    const holder = ctx.combatants[id]!.grabbedBy;
    if (holder) held.set(holder, [...(held.get(holder) ?? []), id]);
  }
  holdsOf.set(ctx.combatants, { roster: ctx.roster, held });
  return held;
}

/** Whoever this character held, or was held by, is free (death, incapacitation, leaving, doing something else). */
export function releaseGrabs(ctx: FactionsContext, id: string): FactionsContext {
  let next = ctx;
  for (const other of heldBy(ctx).get(id) ?? []) next = roster.update(next, other, { grabbedBy: null });
  if (ctx.combatants[id]?.grabbedBy) next = roster.update(next, id, { grabbedBy: null });
  return next;
}

export const grabbing = (ctx: FactionsContext, id: string): string | null => heldBy(ctx).get(id)?.[0] ?? null;
