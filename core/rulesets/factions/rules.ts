// Factions' encounter bookkeeping and order policy as pure functions (RULES.md §3.2; the game is Murdham):
// factions, morale groups, the initiative holder, the take-a-turn-or-pass loop with its pass streak, fast and slow
// phases, the ambush bonus turn and the end of the fight. The machine calls these; the refusal sentences come from
// the same checks so the runner and the rules never disagree.
import * as roster from '../../encounter/roster.ts';
import type { RosterSpec } from '../../encounter/roster.ts';
import type { CombatantSeed, EncounterInput, LogKind, LogLine } from '../../encounter/types.ts';
import type { OptionValues } from '../options.ts';
import { agrees, isPluralName, possessive } from '../../words.ts';

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
    fastSlow: input.options['fastSlow'] === true,
    chaos: input.options['chaosOfCombat'] === true,
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

export const nameOf: (ctx: FactionsContext, id: string | null | undefined) => string = roster.nameOf;
export const factionLabel = (ctx: FactionsContext, key: string | null | undefined): string => (key && ctx.factions[key]?.label) || 'nobody';
export const plural: (n: number, word: string) => string = roster.plural;

export function say(ctx: FactionsContext, kind: LogKind, text: string, rulings: string[] = [], actorId: string | null = null): FactionsContext {
  const line: LogLine = { round: ctx.round, kind, text, ...(actorId ? { actorId } : {}), ...(rulings.length ? { rulings } : {}) };
  // concat copies the grown log in one step (a spread walks it item by item); the log is the same array of lines.
  return { ...ctx, log: ctx.log.concat([line]) };
}

/** One combatant changed (the shared update: the same context when it already holds the change). */
export const update = (ctx: FactionsContext, id: string, patch: Partial<FactionsCombatant>): FactionsContext => roster.update<FactionsContext, FactionsCombatant>(ctx, id, patch);

/** `update` for each [id, patch] in turn, copying the combatants once (a copy of 200 of them is the costly part). */
export function updateEach(ctx: FactionsContext, patches: Iterable<readonly [string, Partial<FactionsCombatant>]>): FactionsContext {
  const combatants = { ...ctx.combatants };
  for (const [id, patch] of patches) combatants[id] = { ...combatants[id]!, ...patch };
  return { ...ctx, combatants };
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
  return Math.max(1, options['healthModel'] === 'hpZeroIncapacitates' ? num('healthMax', str) : str);
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

// ---- setup ----

const RESERVED_IDS = new Set(['pass', 'none', 'roll', 'random']);

/**
 * The shared roster rules (core/encounter/roster.ts): a seed joins one of the factions, in its faction's default
 * group; ids that answer a question ('pass', 'roll'...) or hold a ':' are reserved. Adding and dropping say so in the log.
 */
export const ROSTER: RosterSpec<FactionsContext, FactionsCombatant> = {
  max: 500,
  sideProblem: (ctx, seed) => (ctx.factions[seed.side] ? null : `${seed.name} must join one of the factions: ${ctx.cycle.map((k) => factionLabel(ctx, k)).join(', ')}.`),
  idProblem: (seed) => (RESERVED_IDS.has(seed.id) || seed.id.includes(':') ? `"${seed.id}" cannot be a combatant's id.` : null),
  fromSeed: (ctx, seed) => ({ ...combatantFromSeed(seed, seed.side, ctx.options), group: defaultGroupId(seed.side) }),
  hasLeft: (c) => c.removed !== null,
  afterAdd: (ctx, seeds) => {
    // One copy of the groups for the whole batch (joinGroup, seed by seed, without counting them).
    const groups = { ...ctx.groups };
    for (const seed of seeds) {
      const groupId = defaultGroupId(seed.side);
      const group = groups[groupId]!;
      groups[groupId] = { ...group, members: [...group.members, seed.id], originalCount: group.originalCount };
    }
    const next: FactionsContext = { ...ctx, groups };
    const byFaction = next.cycle
      .map((key) => [key, seeds.filter((s) => s.side === key).map((s) => s.name)] as const)
      .filter(([, names]) => names.length)
      .map(([key, names]) => `${names.join(', ')} to ${factionLabel(next, key)}`);
    return say(next, 'setup', `Added ${byFaction.join('; ')}.`);
  },
  afterDrop: (ctx, id, dropped) => say(leaveGroup(ctx, id, dropped.group), 'setup', `${dropped.name} was taken off the roster.`),
};

export const checkAddCombatants = (ctx: FactionsContext, seeds: CombatantSeed[]): string | null => roster.checkAdd(ROSTER, ctx, seeds);

function joinGroup(ctx: FactionsContext, id: string, groupId: string, countIt: boolean): FactionsContext {
  const group = ctx.groups[groupId]!;
  const groups = { ...ctx.groups, [groupId]: { ...group, members: [...group.members, id], originalCount: group.originalCount + (countIt ? 1 : 0) } };
  return update({ ...ctx, groups }, id, { group: groupId });
}

function leaveGroup(ctx: FactionsContext, id: string, groupId = ctx.combatants[id]!.group): FactionsContext {
  const group = ctx.groups[groupId];
  if (!group) return ctx;
  return { ...ctx, groups: { ...ctx.groups, [groupId]: { ...group, members: group.members.filter((m) => m !== id) } } };
}

export const addCombatants = (ctx: FactionsContext, seeds: CombatantSeed[]): FactionsContext => roster.addSeeds(ROSTER, ctx, seeds);

export const checkRemove = (ctx: FactionsContext, id: string): string | null => roster.checkRemove(ROSTER, ctx, id);

/** Setup only: taken off the roster, no trace left. */
export const dropFromRoster = (ctx: FactionsContext, id: string): FactionsContext => roster.dropFromRoster(ROSTER, ctx, id);

const FACTION_KEY = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** A faction named by its key or, as a GM types it in a form, by its label (any case); null when none matches. */
export function factionKeyOf(ctx: FactionsContext, text: string): string | null {
  if (ctx.factions[text]) return text;
  const wanted = text.trim().toLowerCase();
  return Object.values(ctx.factions).find((f) => f.key === wanted || f.label.toLowerCase() === wanted)?.key ?? null;
}

const noSuchFaction = (ctx: FactionsContext, text: string) =>
  `There is no faction "${text}": the factions are ${Object.values(ctx.factions).map((f) => (f.key === f.label ? f.key : `${f.label} (${f.key})`)).join(', ')}.`;

export function checkAddFaction(ctx: FactionsContext, key: string, label: string): string | null {
  if (!FACTION_KEY.test(key)) return 'A faction key is up to 32 lower-case letters, digits, - or _.';
  if (ctx.factions[key]) return `There is already a faction "${factionLabel(ctx, key)}" with that key.`;
  if (Object.values(ctx.factions).some((f) => f.label.toLowerCase() === label.toLowerCase())) return `There is already a faction called ${label}.`;
  if (ctx.cycle.length >= 12) return 'An encounter holds at most 12 factions.';
  return null;
}

export function addFaction(ctx: FactionsContext, key: string, label: string): FactionsContext {
  const groupId = defaultGroupId(key);
  const next: FactionsContext = {
    ...ctx,
    factions: { ...ctx.factions, [key]: { key, label } },
    cycle: [...ctx.cycle, key],
    groups: { ...ctx.groups, [groupId]: { id: groupId, label, faction: key, members: [], originalCount: 0, checked: false } },
  };
  return say(next, 'setup', `Faction ${label} joins the cycle: ${next.cycle.map((k) => factionLabel(next, k)).join(' → ')}.`, ['R-F1']);
}

export function checkRenameFaction(ctx: FactionsContext, named: string, label: string): string | null {
  const key = factionKeyOf(ctx, named);
  if (!key) return noSuchFaction(ctx, named);
  if (Object.values(ctx.factions).some((f) => f.key !== key && f.label.toLowerCase() === label.toLowerCase())) return `There is already a faction called ${label}.`;
  return null;
}

export function renameFaction(ctx: FactionsContext, named: string, label: string): FactionsContext {
  const key = factionKeyOf(ctx, named)!;
  const old = factionLabel(ctx, key);
  const groupId = defaultGroupId(key);
  const groups = ctx.groups[groupId] ? { ...ctx.groups, [groupId]: { ...ctx.groups[groupId]!, label } } : ctx.groups;
  return say({ ...ctx, factions: { ...ctx.factions, [key]: { key, label } }, groups }, 'setup', `${old} is now called ${label}.`);
}

export function checkSetFaction(ctx: FactionsContext, id: string, named: string): string | null {
  const c = ctx.combatants[id];
  if (!c) return 'That combatant is not in this encounter.';
  const faction = factionKeyOf(ctx, named);
  if (!faction) return noSuchFaction(ctx, named);
  if (c.faction === faction) return `${c.name} is already with ${factionLabel(ctx, faction)}.`;
  return null;
}

export function setFaction(ctx: FactionsContext, id: string, named: string): FactionsContext {
  const faction = factionKeyOf(ctx, named)!;
  const moved = update(leaveGroup(ctx, id), id, { faction });
  return say(joinGroup(moved, id, defaultGroupId(faction), false), 'setup', `${nameOf(ctx, id)} joins ${factionLabel(ctx, faction)}.`);
}

export function checkCycle(ctx: FactionsContext, named: string[]): string | null {
  const unknown = named.find((k) => factionKeyOf(ctx, k) === null);
  if (unknown !== undefined) return noSuchFaction(ctx, unknown);
  const keys = named.map((k) => factionKeyOf(ctx, k)!);
  const all = Object.keys(ctx.factions);
  const isPermutation = keys.length === all.length && new Set(keys).size === keys.length;
  return isPermutation ? null : `The cycle must list every faction exactly once: ${all.map((k) => factionLabel(ctx, k)).join(', ')}.`;
}

export function setCycle(ctx: FactionsContext, named: string[]): FactionsContext {
  const keys = named.map((k) => factionKeyOf(ctx, k)!);
  return say({ ...ctx, cycle: [...keys] }, 'setup', `Faction cycle: ${keys.map((k) => factionLabel(ctx, k)).join(' → ')}.`, ['R-F1']);
}

/** A morale group's id: the one given, or one made from its label (a form sends only the label). */
export const groupIdOf = (groupId: string | undefined, label: string) => groupId ?? `group:${label.trim().toLowerCase()}`.slice(0, 64);

export function checkSetGroup(ctx: FactionsContext, groupId: string, ids: string[]): string | null {
  if (groupId.startsWith('faction:')) return 'Faction groups are made automatically; give a new group its own id.';
  if (ids.length === 0) return 'A group needs at least one member.';
  if (new Set(ids).size !== ids.length) return 'Each member is listed once.';
  const missing = ids.find((id) => !ctx.combatants[id]);
  if (missing) return 'That combatant is not in this encounter.';
  const factions = new Set(ids.map((id) => ctx.combatants[id]!.faction));
  if (factions.size > 1) return 'A morale group stays inside one faction.';
  const existing = ctx.groups[groupId];
  if (existing && existing.faction !== ctx.combatants[ids[0]!]!.faction) return 'That group belongs to another faction.';
  return null;
}

export function setGroup(ctx: FactionsContext, groupId: string, label: string, ids: string[]): FactionsContext {
  const faction = ctx.combatants[ids[0]!]!.faction;
  let next: FactionsContext = ctx;
  // Former members of a regrouped group go back to their faction's group.
  for (const former of ctx.groups[groupId]?.members ?? []) {
    if (!ids.includes(former)) next = joinGroup(leaveGroup(next, former), former, defaultGroupId(faction), false);
  }
  for (const id of ids) if (next.combatants[id]!.group !== groupId) next = leaveGroup(next, id);
  next = { ...next, groups: { ...next.groups, [groupId]: { id: groupId, label, faction, members: [...ids], originalCount: 0, checked: false } } };
  for (const id of ids) next = update(next, id, { group: groupId });
  return say(next, 'setup', `Morale group ${label}: ${ids.map((id) => nameOf(ctx, id)).join(', ')}.`, ['R-F7']);
}

export function checkInitiative(ctx: FactionsContext, id: string, roll: Roll | null | undefined, started: boolean): string | null {
  if (id === 'random') {
    if (!started) return 'Roll for the initiative once the fight has started: the app offers the roll then.';
    const n = activeFactions(ctx).length;
    if (!roll || roll.faces.length !== 1) return `The initiative roll needs one d${n}.`;
    const face = roll.faces[0]!;
    return Number.isInteger(face) && face >= 1 && face <= n ? null : `${face} is not a face of a d${n}.`;
  }
  const key = factionKeyOf(ctx, id);
  if (!key) return noSuchFaction(ctx, id);
  if (started && !activeFactions(ctx).includes(key)) return `${agrees(factionLabel(ctx, key), 'has', 'have')} nobody in this fight.`;
  return null;
}

export function setInitiative(ctx: FactionsContext, id: string, roll: Roll | null | undefined): FactionsContext {
  if (id === 'random') {
    const factions = activeFactions(ctx);
    const holder = factions[roll!.faces[0]! - 1]!;
    return say({ ...ctx, initiative: holder }, 'order', `Nobody clearly started the fight: d${factions.length} [${roll!.faces[0]}] gives the initiative to ${factionLabel(ctx, holder)}.`);
  }
  const key = factionKeyOf(ctx, id)!;
  return say({ ...ctx, initiative: key }, 'order', `${factionLabel(ctx, key)} started the fight and ${isPluralName(factionLabel(ctx, key)) ? 'hold' : 'holds'} the initiative.`);
}

export function checkConcealed(ctx: FactionsContext, id: string): string | null {
  return ctx.combatants[id] ? null : 'That combatant is not in this encounter.';
}

export function setConcealed(ctx: FactionsContext, id: string, concealed: boolean): FactionsContext {
  const next = update(ctx, id, { concealed });
  return say(next, 'setup', concealed ? `${nameOf(ctx, id)} lies in ambush, concealed.` : `${nameOf(ctx, id)} is not concealed.`);
}

/** The chaos of combat times the active character's declaration: "Each Player has 15 seconds to declare". */
export const declarationTimed = (ctx: FactionsContext): boolean => ctx.chaos && ctx.activeId !== null && ctx.combatants[ctx.activeId]?.pc === true;

export function setOptionalRules(ctx: FactionsContext, fastSlow: boolean, chaos: boolean): FactionsContext {
  const parts = [fastSlow ? 'fast and slow activations on' : 'fast and slow activations off', chaos ? 'the chaos of combat on (15 seconds to declare a turn)' : 'the chaos of combat off'];
  return say({ ...ctx, fastSlow, chaos }, 'setup', `Optional rules: ${parts.join('; ')}.`);
}

/** Factions with at least one member in the encounter, in cycle order. */
export const activeFactions = (ctx: FactionsContext) => ctx.cycle.filter((key) => ctx.roster.some((id) => ctx.combatants[id]?.faction === key));

export function checkStart(ctx: FactionsContext): string | null {
  if (activeFactions(ctx).length < 2) return 'A fight needs members in at least two factions.';
  return null;
}

/** START: empty factions leave the cycle, groups count their heads, ambushers are marked (§3.2 rule 8, R-F8). */
export function start(ctx: FactionsContext): FactionsContext {
  const cycle = activeFactions(ctx);
  const groups = Object.fromEntries(
    Object.entries(ctx.groups)
      .filter(([, g]) => g.members.length > 0)
      .map(([id, g]) => [id, { ...g, originalCount: g.members.length }]),
  );
  const combatants = Object.fromEntries(Object.entries(ctx.combatants).map(([id, c]) => [id, { ...c, ambusher: c.concealed }]));
  const next: FactionsContext = { ...ctx, cycle, groups, combatants, initiative: ctx.initiative && cycle.includes(ctx.initiative) ? ctx.initiative : null };
  const groupText = Object.values(groups).map((g) => `${g.label} ${g.originalCount}`).join(', ');
  return say(next, 'round', `The fight starts. Factions in cycle order: ${cycle.map((k) => factionLabel(ctx, k)).join(' → ')}. Morale groups: ${groupText}.`, ['R-F1', 'R-F7']);
}

// ---- the order policy (§3.2 ordering rules) ----

export const hasAmbushers = (ctx: FactionsContext) => !ctx.ambushDone && Object.values(ctx.combatants).some((c) => c.ambusher && canAct(c));

export function openAmbush(ctx: FactionsContext): FactionsContext {
  const who = ctx.roster.filter((id) => ctx.combatants[id]!.ambusher).map((id) => nameOf(ctx, id));
  return say({ ...ctx, phase: 'ambush', current: null, passStreak: 0, firstFaction: null }, 'round', `Ambush: ${who.join(', ')} play a bonus turn before round 1; only they act.`, ['R-F2']);
}

/** A round opens (roundStart): everyone's turn is back; with fast/slow on the FAT is rolled first. */
export function openRound(ctx: FactionsContext): FactionsContext {
  const combatants = Object.fromEntries(Object.entries(ctx.combatants).map(([id, c]) => [id, { ...c, acted: false }]));
  const phase: Phase = ctx.fastSlow ? 'fast' : 'normal';
  const round = ctx.round + 1;
  const next: FactionsContext = { ...ctx, combatants, round, phase, ambushDone: true, fat: null, firstFaction: null, current: null, passStreak: 0 };
  return say(next, 'round', `Round ${round} begins${ctx.fastSlow ? ': roll the fast action threshold' : ''}.`);
}

export function checkFat(roll: Roll | null | undefined): string | null {
  if (!roll || roll.faces.length !== 1) return 'The fast action threshold is one d20.';
  const face = roll.faces[0]!;
  return Number.isInteger(face) && face >= 1 && face <= 20 ? null : `${face} is not a face of a d20.`;
}

export function setFat(ctx: FactionsContext, roll: Roll): FactionsContext {
  const fat = roll.faces[0]!;
  const fast = ctx.roster.filter((id) => canAct(ctx.combatants[id]!) && ctx.combatants[id]!.wit >= fat).map((id) => nameOf(ctx, id));
  return say({ ...ctx, fat }, 'round', `Fast action threshold: d20 [${fat}]${roll.source === 'manual' ? ' (typed in)' : ''}. Fast phase: ${fast.length ? fast.join(', ') : 'nobody'} (WIT ${fat} or more).`);
}

/** R-F6: with fast/slow on, the holder chooses again in the slow phase unless the campaign chooses once per round. */
export const firstFactionKnown = (ctx: FactionsContext) => ctx.phase === 'slow' && ctx.options['initiativePerPhase'] === 'oncePerRound' && ctx.firstFaction !== null;

export function startAtKnownFirst(ctx: FactionsContext): FactionsContext {
  return say({ ...ctx, current: ctx.firstFaction }, 'order', `${agrees(factionLabel(ctx, ctx.firstFaction), 'acts', 'act')} first again in the slow phase.`, ['R-F6']);
}

export function checkChooseFirst(ctx: FactionsContext, id: string): string | null {
  if (!ctx.cycle.includes(id)) return 'Choose one of the factions in this fight.';
  return null;
}

export function chooseFirst(ctx: FactionsContext, id: string): FactionsContext {
  const phase = ctx.phase === 'normal' || ctx.phase === null ? '' : ` in the ${ctx.phase} phase`;
  const rulings = ctx.phase === 'fast' || ctx.phase === 'slow' ? ['R-F6'] : ctx.phase === 'ambush' ? ['R-F2'] : [];
  return say({ ...ctx, current: id, firstFaction: ctx.firstFaction ?? id, passStreak: 0 }, 'order', `${agrees(factionLabel(ctx, ctx.initiative), 'holds', 'hold')} the initiative and ${isPluralName(factionLabel(ctx, ctx.initiative)) ? 'send' : 'sends'} ${factionLabel(ctx, id)} first${phase}.`, rulings);
}

/** Who may take a turn for a faction now (the guard of §3.2: faction, not acted, able, FAT, ambush). */
export function isEligible(ctx: FactionsContext, c: FactionsCombatant): boolean {
  if (c.faction !== ctx.current || c.acted || !canAct(c)) return false;
  if (ctx.phase === 'fast' && (ctx.fat === null || c.wit < ctx.fat)) return false;
  if (ctx.phase === 'ambush' && !c.ambusher) return false;
  return true;
}

export const eligibleNow = (ctx: FactionsContext) => ctx.roster.filter((id) => isEligible(ctx, ctx.combatants[id]!));

/** Could still act in this phase if its faction picks it (for the runner's statuses). */
export function couldActThisPhase(ctx: FactionsContext, c: FactionsCombatant): boolean {
  if (c.acted || !canAct(c)) return false;
  if (ctx.phase === 'fast' && ctx.fat !== null && c.wit < ctx.fat) return false;
  if (ctx.phase === 'ambush' && !c.ambusher) return false;
  return true;
}

const nextFaction = (ctx: FactionsContext, key: string | null) => {
  const index = key === null ? -1 : ctx.cycle.indexOf(key);
  return ctx.cycle[(index + 1) % ctx.cycle.length]!;
};

/** R-F4: the phase ends once every faction has passed in a row, wherever the run began. */
export const phaseOver = (ctx: FactionsContext) => ctx.current !== null && ctx.passStreak >= ctx.cycle.length;

/** R-F3: a faction with nobody eligible passes automatically, and the pass counts. */
export const mustPass = (ctx: FactionsContext) => ctx.current !== null && !phaseOver(ctx) && !ctx.roster.some((id) => isEligible(ctx, ctx.combatants[id]!));

export function autoPass(ctx: FactionsContext): FactionsContext {
  const who = factionLabel(ctx, ctx.current);
  const next = { ...ctx, passStreak: ctx.passStreak + 1, current: nextFaction(ctx, ctx.current) };
  return say(next, 'order', `${agrees(who, 'has', 'have')} nobody who can act: automatic pass (${next.passStreak} in a row).`, ['R-F3', 'R-F4']);
}

export function checkSelect(ctx: FactionsContext, id: string): string | null {
  if (id === 'pass') return null;
  const c = ctx.combatants[id];
  if (!c) return 'That combatant is not in this encounter.';
  if (c.faction !== ctx.current) return `It is ${possessive(factionLabel(ctx, ctx.current))} go, not ${possessive(factionLabel(ctx, c.faction))}.`;
  if (gone(c)) return `${c.name} is out of the fight.`;
  if (c.incapacitated) return `${c.name} is incapacitated and cannot act.`;
  if (c.surrendered) return `${c.name} has surrendered.`;
  if (c.acted) return `${c.name} has already used this round's turn${ctx.history.some((h) => h.round === ctx.round && h.id === id && h.kind === 'reaction') ? ' on a reaction' : ''}.`;
  if (ctx.phase === 'fast' && ctx.fat !== null && c.wit < ctx.fat) return `${c.name}'s WIT ${c.wit} is below the fast action threshold ${ctx.fat}: wait for the slow phase.`;
  if (ctx.phase === 'ambush' && !c.ambusher) return `Only the ambushers act in the ambush bonus turn; ${c.name} was not concealed.`;
  return null;
}

/** SELECT_CHARACTER: the faction sends one character (its turn resets the pass streak), or passes (rule 4). */
export function selectOrPass(ctx: FactionsContext, id: string): FactionsContext {
  if (id === 'pass') {
    const who = factionLabel(ctx, ctx.current);
    const next = { ...ctx, passStreak: ctx.passStreak + 1, current: nextFaction(ctx, ctx.current) };
    return say(next, 'order', `${agrees(who, 'passes', 'pass')} (${next.passStreak} in a row); ${isPluralName(who) ? 'their' : 'its'} characters may still act later this ${ctx.phase === 'normal' ? 'round' : 'phase'}.`, ['R-F3', 'R-F4']);
  }
  const c = ctx.combatants[id]!;
  const next: FactionsContext = {
    ...update(ctx, id, { acted: true }),
    activeId: id,
    passStreak: 0,
    turn: FRESH_TURN,
    history: ctx.history.concat([{ round: ctx.round, phase: ctx.phase!, id, kind: 'turn' }]),
  };
  const chaos = ctx.chaos && c.pc ? ' 15 seconds to declare the turn.' : '';
  return say(next, 'turn', `${agrees(factionLabel(ctx, c.faction), 'sends', 'send')} ${c.name}: a bonus action, a main action or a second bonus action, and one zone of movement.${chaos}`, [], id);
}

/** The active turn ends: the faction cursor moves on (rule 3). */
export function endTurn(ctx: FactionsContext, why: string | null = null): FactionsContext {
  const id = ctx.activeId;
  const next = { ...ctx, activeId: null, turn: FRESH_TURN, current: nextFaction(ctx, ctx.current) };
  return why ? say(next, 'turn', why, [], id) : next;
}

/** A phase ends on consecutive passes: ambush → round 1, fast → slow, otherwise → the morale phase. */
export function closePhase(ctx: FactionsContext): FactionsContext {
  const lost = ctx.roster.filter((id) => couldActThisPhase(ctx, ctx.combatants[id]!)).map((id) => nameOf(ctx, id));
  if (ctx.phase === 'ambush') {
    const combatants = Object.fromEntries(Object.entries(ctx.combatants).map(([id, c]) => [id, { ...c, acted: false }]));
    return say({ ...ctx, combatants, phase: null, ambushDone: true, current: null, passStreak: 0 }, 'round', 'Every faction passed in a row: the ambush bonus turn ends. The ambushers still get their turn in round 1.', ['R-F2', 'R-F4']);
  }
  if (ctx.phase === 'fast') {
    return say({ ...ctx, phase: 'slow', current: null, passStreak: 0 }, 'round', 'Every faction passed in a row: the fast phase ends. Slow phase: everyone who has not acted may take a turn.', ['R-F4']);
  }
  const lostText = lost.length ? ` ${lost.join(', ')} did not act and lose${lost.length === 1 ? 's' : ''} the turn.` : '';
  return say({ ...ctx, current: null, passStreak: 0 }, 'round', `Every faction passed in a row: round ${ctx.round} ends.${lostText}`, ['R-F4']);
}

// ---- the end of the fight (R-F10) ----

export const factionsStillIn = (ctx: FactionsContext) => ctx.cycle.filter((key) => ctx.roster.some((id) => ctx.combatants[id]!.faction === key && standing(ctx.combatants[id]!)));
export const fightOver = (ctx: FactionsContext) => factionsStillIn(ctx).length <= 1;

export function autoEnd(ctx: FactionsContext): FactionsContext {
  const left = factionsStillIn(ctx);
  const outcome = left.length === 1 ? `${agrees(factionLabel(ctx, left[0]), 'is', 'are')} the only faction still in the fight.` : 'No faction is still in the fight.';
  return say({ ...ctx, outcome, activeId: null, pending: null, morale: null }, 'end', `The fight is over: ${outcome}`, ['R-F10']);
}

// ---- removal and late arrivals (running) ----

export function removeCombatant(ctx: FactionsContext, id: string, reason: string): FactionsContext {
  let next = update(ctx, id, { removed: { reason, round: ctx.round } });
  next = releaseGrabs(next, id);
  const wasActive = ctx.activeId === id;
  next = say(next, 'removal', `${nameOf(ctx, id)} leaves the fight${reason ? ` (${reason})` : ''}.`, [], id);
  return wasActive ? endTurn(next) : next;
}

export function checkLateCombatant(ctx: FactionsContext, seed: CombatantSeed): string | null {
  const problem = checkAddCombatants(ctx, [seed]);
  if (problem) return problem;
  if (!ctx.cycle.includes(seed.side)) return `${agrees(factionLabel(ctx, seed.side), 'is', 'are')} not in this fight's faction cycle.`;
  return null;
}

/** A late arrival joins its faction's group (counted in its original number) and may act this round. */
export function addLateCombatant(ctx: FactionsContext, seed: CombatantSeed): FactionsContext {
  let next: FactionsContext = { ...ctx, combatants: { ...ctx.combatants, [seed.id]: combatantFromSeed(seed, seed.side, ctx.options) }, roster: [...ctx.roster, seed.id] };
  const groupId = defaultGroupId(seed.side);
  if (!next.groups[groupId]) next = { ...next, groups: { ...next.groups, [groupId]: { id: groupId, label: factionLabel(ctx, seed.side), faction: seed.side, members: [], originalCount: 0, checked: false } } };
  next = joinGroup(next, seed.id, groupId, true);
  return say(next, 'order', `${seed.name} arrives late and joins ${factionLabel(ctx, seed.side)}; they may act when their faction sends them.`, [], seed.id);
}

/** Whoever this character held, or was held by, is free (death, incapacitation, leaving, doing something else). */
export function releaseGrabs(ctx: FactionsContext, id: string): FactionsContext {
  let next = ctx;
  for (const other of ctx.roster) {
    if (ctx.combatants[other]!.grabbedBy === id) next = update(next, other, { grabbedBy: null });
  }
  if (ctx.combatants[id]?.grabbedBy) next = update(next, id, { grabbedBy: null });
  return next;
}

export const grabbing = (ctx: FactionsContext, id: string) => ctx.roster.find((other) => ctx.combatants[other]!.grabbedBy === id) ?? null;

// ---- blocking decisions (RULES.md §6.8) ----

/** The question that must be answered before anything else happens (only OVERRIDE gets past it), or null. */
export function blockingReason(ctx: FactionsContext): string | null {
  if (ctx.pending?.stage === 'stunt') return `${nameOf(ctx, ctx.pending.targets[0]!.id)} must accept or decline the stunt first.`;
  if (ctx.pending?.stage === 'reaction') return `${nameOf(ctx, ctx.pending.targets[ctx.pending.cursor]!.id)} must choose a reaction (or none) first.`;
  if (ctx.pending?.stage === 'resolve') return 'Roll the damage of the attack under way first.';
  if (ctx.morale?.checks.length) return `Roll the morale check for ${ctx.morale.checks[0]!.label} first.`;
  if (ctx.morale?.failures.length) return `${nameOf(ctx, ctx.morale.failures[0])} failed morale: choose surrender or retreat first.`;
  if (ctx.durability?.length) return `Give the durability result for ${nameOf(ctx, ctx.durability[0]!.combatantId)}'s ${ctx.durability[0]!.item} first.`;
  return null;
}
