// Teams' encounter state and its order policy as pure functions (RULES.md §2.2): teams in initiative order, each
// putting forward one eligible member per go, skipped when it has none; the surprise round; setup checks.
// The machine calls these; the refusal sentences come from the same checks so the UI and the rules never disagree.
import * as roster from '../../encounter/roster.ts';
import type { RosterSpec } from '../../encounter/roster.ts';
import type { CombatantSeed, EncounterInput } from '../../encounter/types.ts';
import type { OptionValues } from '../options.ts';
import { agrees, possessive } from '../../words.ts';
import { rulingsOf } from './options.ts';
import { eachCombatant } from '../../encounter/combatant-table.ts';

/** The two teams every encounter starts with; the party's team first (the server seeds party members into it). */
export const SIDES: readonly { key: string; label: string }[] = [
  { key: 'party', label: 'Party' },
  { key: 'gm', label: 'Enemies' },
];

export const ACTIONS_PER_TURN = 3;
export const CHEAT_DEATH_START = 10;
export const CHEAT_DEATH_STEP = 5;

/** A roll inside an event: the faces (rolled by the app or read off physical dice). */
export interface Roll {
  faces: number[];
  source: 'app' | 'manual';
}

export type Attribute = 'strength' | 'dexterity';
export type Proficiency = 'martial' | 'finesse' | 'none';
export type DamageType =
  | 'bludgeoning' | 'piercing' | 'slashing'
  | 'arcane' | 'cold' | 'fire' | 'radiant' | 'shock' | 'void'
  | 'psychic' | 'typeless';
export type DamageClass = 'physical' | 'elemental' | 'typeless';
export const DAMAGE_TYPES: readonly DamageType[] = ['bludgeoning', 'piercing', 'slashing', 'arcane', 'cold', 'fire', 'radiant', 'shock', 'void', 'psychic', 'typeless'];

/** The damage-type table (§2.4): only physical and elemental damage is reduced by deflection. */
export function damageClass(type: DamageType): DamageClass {
  if (type === 'bludgeoning' || type === 'piercing' || type === 'slashing') return 'physical';
  if (type === 'psychic' || type === 'typeless') return 'typeless';
  return 'elemental';
}

export interface Weapon {
  name: string;
  attributes: Attribute[];
  proficiencies: Exclude<Proficiency, 'none'>[];
  damage: number;
  critDamage: number;
  critThreshold: number;
  damageType: DamageType;
  delivery: 'melee' | 'thrown' | 'projectile';
  nonlethal: boolean;
}

export type ItemSlot = 'weapon' | 'shield';

/** A wielded item that can block or parry; its durability is persistent (§2.6). */
export interface Item {
  name: string;
  durability: number;
  durabilityMax: number;
  metal: boolean;
  /** 0: the item has no block property. */
  blockValue: number;
  /** 0: no parry value, a parry adds 1. */
  parryValue: number;
}

/** An action paid over more than the actions left (R-T10): its effect happens when the last action is paid. */
export interface Extended {
  kind: 'resuscitate' | 'shortTask' | 'killingStrike' | 'other';
  name: string;
  cost: number;
  paid: number;
  /** What the action needs when it completes (target, test dice, difficulty, weapon...). */
  detail: Record<string, unknown>;
}

/** What a party member brings from the campaign (RULES.md §6.5). */
export interface TeamsCarried {
  endurance?: number;
  health?: number;
  stamina?: number;
  focus?: number;
  cheatDeathDifficulty?: number;
  unconscious?: boolean;
  items?: Partial<Record<ItemSlot, { durability: number }>>;
}

export interface TeamsCombatant {
  id: string;
  name: string;
  team: string;
  /** The side the prep screen seeded it on: only party seeds with a character carry results back. */
  seedSide: string;
  characterId: string | null;
  sheet: Record<string, string | number | boolean>;
  endurance: number;
  enduranceMax: number;
  health: number;
  healthMax: number;
  constitution: number;
  stamina: number;
  staminaMax: number;
  focus: number;
  focusMax: number;
  cheatDeathDifficulty: number;
  /** The difficulty it came in with, for the record of each success. */
  cheatDeathAtStart: number;
  luckDie: number;
  evasion: number;
  physicalDeflection: number;
  elementalDeflection: number;
  size: number;
  conscious: boolean;
  dead: boolean;
  deathCause: string | null;
  removed: { reason: string; round: number } | null;
  unsurprisable: boolean;
  /** Has taken (or lost, R-T3) its turn this round. */
  acted: boolean;
  /** A reaction used since its last turn start (R-T6). */
  reactionSpent: boolean;
  /** A reaction used this round (R-T6). */
  reactionUsedRound: boolean;
  /** Wait's extra reaction, until its next turn start. */
  waitExtra: boolean;
  /** Attacks made this round: −2 each for the next (R-T15). */
  attacksThisRound: number;
  prone: boolean;
  guarding: boolean;
  inCover: boolean;
  readied: { trigger: string; action: string } | null;
  inProgress: Extended | null;
  /** Brought to 0 health by overkill from a nonlethal source: no death risk yet (§2.4 step 14). */
  nonlethalZeroed: boolean;
  weapon: Weapon;
  items: { weapon: Item; shield: Item | null };
  /** What is in hand (Brandish, Drop Item): only a wielded item blocks or parries, and a weapon attacks from the hand (§2.3, §2.4). */
  held: Record<ItemSlot, boolean>;
  /** Cheat-death successes in this encounter, each raising the difficulty by 5. */
  cheatedDeath: number;
}

/** The active combatant's turn budget (§2.3). */
export interface TurnState {
  actionsLeft: number;
  moved: boolean;
  stepped: boolean;
  /** Allies commanded this turn (once per target, R-T9). */
  commanded: string[];
  /** Allies holding an action granted by Command, not yet used. */
  commandTokens: string[];
  /** Allies who used their Move during this turn on a Command: Move is once per turn (§2.3). */
  alliesMoved: string[];
  /** The extended action in progress was continued or abandoned (R-T10). */
  extendedDecided: boolean;
  /** R-T1b: the instigator's first turn opens with the attack that started the fight. */
  openingAttack: boolean;
}

/** An attack that hit and waits for the target's defence choice (§2.4 step 7). */
export interface PendingAttack {
  attackerId: string;
  targetId: string;
  /** The test after the multiple attack penalty, and before it (R-T20). */
  total: number;
  unpenalised: number;
  crit: boolean;
  weapon: Weapon;
  /** Set when an ally intercepted: its one defensive action is a free reaction (R-T14). */
  freeReaction: boolean;
  interceptedFrom: string | null;
  /** A dodge was tried and failed; only block or parry may follow. */
  dodged: boolean;
  /** The target's allies the GM placed close enough to intercept; null: every ally (§2.3 Intercept). */
  interceptorIds: string[] | null;
}

export type Pending =
  | { kind: 'defence'; attack: PendingAttack }
  | { kind: 'consciousness'; id: string; missing: number }
  | { kind: 'death'; id: string; cause: string };

export interface TeamsContext {
  options: OptionValues;
  combatants: Record<string, TeamsCombatant>;
  /** Every combatant id in the order it was added. */
  roster: string[];
  teams: { key: string; label: string }[];
  /** Initiative: index 0 acts first (§2.2). */
  teamOrder: string[];
  /** Free text per team; the source's Objectives section is empty (R-T11). */
  objectives: Record<string, string>;
  instigator: { combatantId: string; attackedTeam: string } | null;
  /** R-T1b: the instigator's opening attack was offered (it happens once). */
  openingOffered: boolean;
  surpriseTeam: string | null;
  started: boolean;
  round: number;
  /** Round 0 with surprise: only the surprising team and the unsurprisable act (§2.2 rule 6). */
  surpriseRound: boolean;
  /** Index in teamOrder of the team whose go it is. */
  teamCursor: number;
  /** Who took a turn this round, in order. */
  roundTurns: string[];
  activeId: string | null;
  turn: TurnState | null;
  /** Decisions that block play, answered one at a time (RULES.md §6.8). */
  pending: Pending[];
  outcome: string | null;
}

export function initialContext(input: EncounterInput): TeamsContext {
  return {
    options: input.options,
    combatants: {},
    roster: [],
    teams: SIDES.map((s) => ({ ...s })),
    teamOrder: SIDES.map((s) => s.key),
    objectives: {},
    instigator: null,
    openingOffered: false,
    surpriseTeam: null,
    started: false,
    round: 0,
    surpriseRound: false,
    teamCursor: 0,
    roundTurns: [],
    activeId: null,
    turn: null,
    pending: [],
    outcome: null,
  };
}

// ---- combatants from seeds ----

const num = (sheet: CombatantSeed['sheet'], key: string, fallback: number) => (typeof sheet[key] === 'number' ? (sheet[key] as number) : fallback);
const flag = (sheet: CombatantSeed['sheet'], key: string) => sheet[key] === true;
const text = (sheet: CombatantSeed['sheet'], key: string, fallback: string) => (typeof sheet[key] === 'string' && sheet[key] !== '' ? (sheet[key] as string) : fallback);

/** Items with no listed durability: 10 if metal, 4 otherwise (§2.4 step 10). */
export const defaultDurability = (metal: boolean) => (metal ? 10 : 4);

export function sheetWeapon(sheet: CombatantSeed['sheet']): Weapon {
  const attributes = String(sheet['weaponAttributes'] ?? 'strengthOrDexterity');
  const proficiencies = String(sheet['weaponProficiencies'] ?? 'martialOrFinesse');
  return {
    name: text(sheet, 'weaponName', 'Weapon'),
    attributes: attributes === 'strength' ? ['strength'] : attributes === 'dexterity' ? ['dexterity'] : ['strength', 'dexterity'],
    proficiencies: proficiencies === 'martial' ? ['martial'] : proficiencies === 'finesse' ? ['finesse'] : proficiencies === 'none' ? [] : ['martial', 'finesse'],
    damage: num(sheet, 'weaponDamage', 4),
    critDamage: num(sheet, 'weaponCritDamage', 8),
    critThreshold: num(sheet, 'weaponCritThreshold', 20),
    damageType: (DAMAGE_TYPES as readonly string[]).includes(String(sheet['weaponDamageType'])) ? (sheet['weaponDamageType'] as DamageType) : 'piercing',
    delivery: sheet['weaponDelivery'] === 'thrown' || sheet['weaponDelivery'] === 'projectile' ? sheet['weaponDelivery'] : 'melee',
    nonlethal: flag(sheet, 'weaponNonlethal'),
  };
}

function sheetItems(sheet: CombatantSeed['sheet'], carried: TeamsCarried): TeamsCombatant['items'] {
  const weaponMetal = sheet['weaponMetal'] !== false;
  const weaponMax = num(sheet, 'weaponDurability', 0) || defaultDurability(weaponMetal);
  const weapon: Item = {
    name: text(sheet, 'weaponName', 'Weapon'), durabilityMax: weaponMax, metal: weaponMetal, blockValue: 0, parryValue: num(sheet, 'weaponParry', 0),
    durability: Math.min(weaponMax, carried.items?.weapon?.durability ?? weaponMax),
  };
  const shieldName = text(sheet, 'shieldName', '');
  if (shieldName === '') return { weapon, shield: null };
  const shieldMetal = flag(sheet, 'shieldMetal');
  const shieldMax = num(sheet, 'shieldDurability', 0) || defaultDurability(shieldMetal);
  const shield: Item = {
    name: shieldName, durabilityMax: shieldMax, metal: shieldMetal, blockValue: num(sheet, 'shieldBlock', 0), parryValue: num(sheet, 'shieldParry', 0),
    durability: Math.min(shieldMax, carried.items?.shield?.durability ?? shieldMax),
  };
  return { weapon, shield };
}

export function combatantFromSeed(seed: CombatantSeed): TeamsCombatant {
  const carried = (seed.carried ?? {}) as TeamsCarried;
  const s = seed.sheet;
  const enduranceMax = num(s, 'enduranceMax', 12);
  const healthMax = num(s, 'healthMax', 12);
  const staminaMax = num(s, 'staminaMax', 4);
  const focusMax = num(s, 'focusMax', 4);
  const clamp = (value: number, max: number) => Math.max(0, Math.min(max, value));
  const cheat = Math.max(num(s, 'cheatDeathDifficulty', CHEAT_DEATH_START), carried.cheatDeathDifficulty ?? 0);
  const health = clamp(carried.health ?? num(s, 'health', healthMax), healthMax);
  return {
    id: seed.id,
    name: seed.name,
    team: seed.side,
    seedSide: seed.side,
    characterId: seed.characterId,
    sheet: s,
    endurance: clamp(carried.endurance ?? num(s, 'endurance', enduranceMax), enduranceMax),
    enduranceMax,
    health,
    healthMax,
    constitution: num(s, 'constitution', 4),
    stamina: clamp(carried.stamina ?? num(s, 'stamina', staminaMax), staminaMax),
    staminaMax,
    focus: clamp(carried.focus ?? num(s, 'focus', focusMax), focusMax),
    focusMax,
    cheatDeathDifficulty: cheat,
    cheatDeathAtStart: cheat,
    luckDie: num(s, 'luckDie', 20),
    evasion: num(s, 'evasion', 6),
    physicalDeflection: num(s, 'physicalDeflection', 0),
    elementalDeflection: num(s, 'elementalDeflection', 0),
    size: num(s, 'size', 4),
    // A fight's carry says whether they are conscious: Resuscitate wakes someone at zero health ("return him to
    // consciousness ... give Roland the next turn"), and they stay awake at zero health until they take damage again.
    // Without a carried flag, a sheet at zero health is unconscious.
    conscious: carried.unconscious !== undefined ? !carried.unconscious : !flag(s, 'unconscious') && health > 0,
    dead: false,
    deathCause: null,
    removed: null,
    unsurprisable: flag(s, 'unsurprisable'),
    acted: false,
    reactionSpent: false,
    reactionUsedRound: false,
    waitExtra: false,
    attacksThisRound: 0,
    prone: false,
    guarding: false,
    inCover: false,
    readied: null,
    inProgress: null,
    nonlethalZeroed: false,
    weapon: sheetWeapon(s),
    items: sheetItems(s, carried),
    // Everyone comes in with weapon (and shield) in hand; Brandish and Drop Item change it.
    held: { weapon: true, shield: text(s, 'shieldName', '') !== '' },
    cheatedDeath: 0,
  };
}

// ---- small helpers ----

export const teamLabel = (ctx: TeamsContext, key: string | null | undefined): string => ctx.teams.find((t) => t.key === key)?.label ?? String(key ?? '');

/** In the fight: neither dead nor removed. */
export const inFight = (c: TeamsCombatant | undefined): c is TeamsCombatant => c !== undefined && !c.dead && c.removed === null;

export const membersOf = (ctx: TeamsContext, team: string): string[] => ctx.roster.filter((id) => ctx.combatants[id]?.team === team);

/** Surprised: round 0 of a surprise, not on the surprising team and able to be surprised (§2.2 rule 6). */
export const isSurprised = (ctx: TeamsContext, c: TeamsCombatant): boolean =>
  ctx.surpriseRound && ctx.surpriseTeam !== null && c.team !== ctx.surpriseTeam && !c.unsurprisable;

// ---- the order policy (§2.2 turn-selection rules) ----

/** Eligible: alive, conscious, has not acted this round; in the surprise round, not surprised (rules 2, 5, 6). */
export function eligible(ctx: TeamsContext, id: string): boolean {
  const c = ctx.combatants[id];
  return inFight(c) && c.conscious && !c.acted && !isSurprised(ctx, c);
}

export const eligibleMembers = (ctx: TeamsContext, team: string): string[] => membersOf(ctx, team).filter((id) => eligible(ctx, id));

/** eligibleMembers(ctx, team).length > 0, stopping at the first (the order policy asks it several times per event). */
const hasEligibleMember = (ctx: TeamsContext, team: string): boolean => ctx.roster.some((id) => ctx.combatants[id]?.team === team && eligible(ctx, id));

/** The team under the cursor or the next one with an eligible member, cyclic; null when every team is skipped (rule 3). */
export function nextTeamIndex(ctx: TeamsContext): number | null {
  const n = ctx.teamOrder.length;
  for (let i = 0; i < n; i += 1) {
    const index = (ctx.teamCursor + i) % n;
    if (hasEligibleMember(ctx, ctx.teamOrder[index]!)) return index;
  }
  return null;
}

export const currentTeam = (ctx: TeamsContext): string | null => (ctx.started ? ctx.teamOrder[ctx.teamCursor] ?? null : null);

/** Skips to the next team that can put a member forward (rule 3). */
export function skipToTeamWithMembers(ctx: TeamsContext): TeamsContext {
  const index = nextTeamIndex(ctx);
  return index === null || index === ctx.teamCursor ? ctx : { ...ctx, teamCursor: index };
}

/** Nobody at all can act (everyone down): the round cannot run; play waits for the GM. */
export const nobodyCanAct = (ctx: TeamsContext): boolean => nextTeamIndex(ctx) === null && ctx.roundTurns.length === 0;

/**
 * Opens a round. With surprise declared the first round is the surprise round 0 (rule 6); then rounds 1, 2...
 * R-T2: every round starts with the first team, unless the campaign carries the cycle on.
 */
export function openRound(ctx: TeamsContext): TeamsContext {
  const first = !ctx.started;
  const surpriseRound = first && ctx.surpriseTeam !== null;
  const round = first ? (surpriseRound ? 0 : 1) : ctx.round + 1;
  const combatants = eachCombatant(ctx.combatants, (c) => ({ ...c, acted: false, reactionUsedRound: false, attacksThisRound: 0 }));
  const carryOn = rulingsOf(ctx.options).roundStartTeam === 'continueCycle' && !first;
  return { ...ctx, started: true, round, surpriseRound, combatants, roundTurns: [], teamCursor: carryOn ? ctx.teamCursor : 0 };
}

/** R-T1b: the instigator's first turn opens with the triggering attack (once per encounter). */
const opensWithAttack = (ctx: TeamsContext, id: string) =>
  rulingsOf(ctx.options).prefillInstigatorAttack && !ctx.openingOffered && ctx.instigator?.combatantId === id;

/**
 * Turn start (§2.2 turnStart): three actions; the reaction refreshes (R-T6, not under 'strictPerRound'); the
 * owner's "until next turn" effects end: Guard, Seek Cover, Wait's extra reaction, an unfired Ready (R-T7).
 */
export function beginTurn(ctx: TeamsContext, id: string): TeamsContext {
  const c = ctx.combatants[id]!;
  const refresh = rulingsOf(ctx.options).reactionCap !== 'strictPerRound';
  const opening = opensWithAttack(ctx, id);
  const next = roster.update(ctx, id, {
    reactionSpent: refresh ? false : c.reactionSpent,
    waitExtra: false,
    guarding: false,
    inCover: false,
    readied: null,
  });
  return {
    ...next,
    activeId: id,
    openingOffered: next.openingOffered || opening,
    turn: { actionsLeft: ACTIONS_PER_TURN, moved: false, stepped: false, commanded: [], commandTokens: [], alliesMoved: [], extendedDecided: c.inProgress === null, openingAttack: opening },
  };
}

/** Turn end: the turn counts as taken and play passes to the next team in initiative (rule 1). */
export function endTurn(ctx: TeamsContext): TeamsContext {
  const id = ctx.activeId;
  if (id === null) return ctx;
  const c = ctx.combatants[id]!;
  const index = ctx.teamOrder.indexOf(c.team);
  const next = roster.update(ctx, id, { acted: true });
  return {
    ...next,
    activeId: null,
    turn: null,
    roundTurns: [...ctx.roundTurns, id],
    teamCursor: index === -1 ? ctx.teamCursor : (index + 1) % ctx.teamOrder.length,
  };
}

// ---- setup ----

const MAX_TEAMS = 12;

/** The shared roster rules (core/encounter/roster.ts): a seed's side is one of the encounter's teams. */
export const ROSTER: RosterSpec<TeamsContext, TeamsCombatant> = {
  max: 500,
  sideProblem: (ctx, seed) => (ctx.teams.some((t) => t.key === seed.side) ? null : `${seed.name} must join one of the teams: ${ctx.teams.map((t) => t.label).join(', ')}.`),
  fromSeed: (_ctx, seed) => combatantFromSeed(seed),
  hasLeft: (c) => c.removed !== null,
  // Dropping the instigator clears the instigator.
  afterDrop: (ctx, id) => ({ ...ctx, instigator: ctx.instigator?.combatantId === id ? null : ctx.instigator }),
};

export function addTeam(ctx: TeamsContext, key: string, label: string): TeamsContext {
  return { ...ctx, teams: [...ctx.teams, { key, label }], teamOrder: [...ctx.teamOrder, key] };
}

/** §2.2 initiative: the instigator's team first, the attacked team second, the others after in their current order. */
export function setInstigator(ctx: TeamsContext, combatantId: string | null, attackedTeam: string | null | undefined): TeamsContext {
  if (combatantId === null) return { ...ctx, instigator: null };
  const team = ctx.combatants[combatantId]!.team;
  const attacked = attackedTeam ?? ctx.teamOrder.find((t) => t !== team)!;
  const rest = ctx.teamOrder.filter((t) => t !== team && t !== attacked);
  return { ...ctx, instigator: { combatantId, attackedTeam: attacked }, teamOrder: [team, attacked, ...rest] };
}

export function setTeam(ctx: TeamsContext, id: string, team: string): TeamsContext {
  const next = roster.update(ctx, id, { team });
  // The instigator's team leads the order: moving the instigator moves the lead with it.
  if (ctx.instigator?.combatantId === id) return setInstigator(next, id, ctx.instigator.attackedTeam === team ? null : ctx.instigator.attackedTeam);
  return next;
}

export function checkAddTeam(ctx: TeamsContext, key: string, label: string): string | null {
  if (ctx.teams.length >= MAX_TEAMS) return `An encounter has at most ${MAX_TEAMS} teams.`;
  if (ctx.teams.some((t) => t.key === key)) return `There is already a team with the key "${key}".`;
  if (ctx.teams.some((t) => t.label.toLowerCase() === label.toLowerCase())) return `There is already a team called ${label}.`;
  return null;
}

export function checkSetTeam(ctx: TeamsContext, id: string, team: string): string | null {
  const c = ctx.combatants[id];
  if (!c) return 'That combatant is not in this encounter.';
  if (!ctx.teams.some((t) => t.key === team)) return 'That team is not in this encounter.';
  return null;
}

export function checkInstigator(ctx: TeamsContext, combatantId: string | null, attackedTeam: string | null | undefined): string | null {
  if (combatantId === null) return null;
  const c = ctx.combatants[combatantId];
  if (!c) return 'The instigator is not in this encounter.';
  if (attackedTeam === null || attackedTeam === undefined) {
    return ctx.teamOrder.length === 2 ? null : `Say which team ${c.name}'s action targets: there are ${ctx.teamOrder.length} teams.`;
  }
  if (!ctx.teams.some((t) => t.key === attackedTeam)) return 'The attacked team is not in this encounter.';
  if (attackedTeam === c.team) return `${c.name} cannot start the fight against their own team.`;
  return null;
}

/** R-T1: the GM may set the whole order; with an instigator it must keep the instigator's and the attacked team first. */
export function checkTeamOrder(ctx: TeamsContext, teams: string[]): string | null {
  const isPermutation = teams.length === ctx.teamOrder.length && new Set(teams).size === teams.length && teams.every((t) => ctx.teamOrder.includes(t));
  if (!isPermutation) return 'The team order must list every team exactly once.';
  if (ctx.instigator) {
    const lead = ctx.combatants[ctx.instigator.combatantId]!.team;
    if (teams[0] !== lead || teams[1] !== ctx.instigator.attackedTeam) {
      return `${teamLabel(ctx, lead)} started the fight against ${teamLabel(ctx, ctx.instigator.attackedTeam)}: those two go first and second. Clear the instigator to set another order (R-T1).`;
    }
  }
  return null;
}

export function checkSurprise(ctx: TeamsContext, team: string | null): string | null {
  if (team === null) return null;
  return ctx.teams.some((t) => t.key === team) ? null : 'That team is not in this encounter.';
}

export function checkStart(ctx: TeamsContext): string | null {
  const withMembers = ctx.teamOrder.filter((t) => membersOf(ctx, t).length > 0);
  if (withMembers.length < 2) return 'Put combatants on at least two teams before starting.';
  if (ctx.surpriseTeam !== null && membersOf(ctx, ctx.surpriseTeam).length === 0) return `${agrees(teamLabel(ctx, ctx.surpriseTeam), 'has', 'have')} surprise but no members.`;
  return null;
}

export function checkSelectMember(ctx: TeamsContext, id: string): string | null {
  const c = ctx.combatants[id];
  const team = currentTeam(ctx);
  if (!c) return 'That combatant is not in this encounter.';
  if (c.team !== team) return `It is ${possessive(teamLabel(ctx, team))} go: ${c.name} is on ${teamLabel(ctx, c.team)}.`;
  if (c.dead) return `${c.name} is dead.`;
  if (c.removed) return `${c.name} has left the fight.`;
  if (!c.conscious) return `${c.name} is unconscious and cannot take a turn.`;
  if (c.acted) return `${c.name} has already taken a turn this round.`;
  if (isSurprised(ctx, c)) return `${c.name} is surprised and cannot act in the surprise round.`;
  return null;
}

/** Running: the combatant leaves the fight; its pending decisions go with it. */
export function removeCombatant(ctx: TeamsContext, id: string, reason: string): TeamsContext {
  const next = roster.update(ctx, id, { removed: { reason, round: ctx.round } });
  return { ...next, pending: next.pending.filter((p) => (p.kind === 'defence' ? p.attack.targetId !== id && p.attack.attackerId !== id : p.id !== id)) };
}

/** R-T11: a team remains while one member is alive, conscious and still in the fight. */
export const teamsStanding = (ctx: TeamsContext): string[] =>
  ctx.teamOrder.filter((t) => membersOf(ctx, t).some((id) => inFight(ctx.combatants[id]) && ctx.combatants[id]!.conscious));
