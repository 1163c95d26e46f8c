// Teams' turn economy and combat as pure functions (RULES.md §2.3–§2.5): three actions with the action table's
// costs and limits, free actions, extended actions, one reaction paid in stamina or focus, attacks with the
// multiple attack penalty, the luck die, advantage and size, Block and Parry with item durability, endurance then
// health, the consciousness check, the death risk and the killing strike. The machine applies these; the refusal
// sentences come from the same checks.
import { lastAnswer } from '../../encounter/last-answer.ts';
import { plural } from '../../encounter/roster.ts';
import {
  ACTIONS_PER_TURN, CHEAT_DEATH_STEP, damageClass, endTurn, inFight, isSurprised, nameOf, update,
  type Attribute, type DamageType, type Extended, type Item, type ItemSlot, type PendingAttack, type Proficiency, type Roll,
  type TeamsCombatant, type TeamsContext, type TurnState, type Weapon,
} from './rules.ts';

export type { Roll };

/** Dice and bonus of a test the chapter does not spell out (Resuscitate, Short Task, Resist...): set by the GM. */
export interface TestInput {
  dice?: number[] | null;
  bonus?: number | null;
}

export type ActionKind = 'brandish' | 'interact' | 'move' | 'sprint' | 'standUp' | 'seekCover' | 'guard' | 'wait' | 'ready' | 'command' | 'resuscitate' | 'shortTask' | 'other';
export type FreeActionKind = 'dropItem' | 'dropProne' | 'step';
export type ReactionKind = 'dodge' | 'fortify' | 'resist';

export type CombatEvent =
  | {
      type: 'ATTACK'; attackerId: string; targetId: string; attribute: Attribute; proficiency: Proficiency;
      via?: 'turn' | 'command' | 'readied'; weapon?: Weapon | null; sneak?: boolean; flanking?: boolean; advantage?: number;
      nearbyIds?: string[]; interceptorIds?: string[]; declaredParry?: ItemSlot | null;
      testRoll?: Roll | null; luckRoll?: Roll | null; strayRoll?: Roll | null; note?: string;
    }
  | ({
      type: 'ACTION'; kind: ActionKind; actorId?: string | null; targetId?: string | null; name?: string; cost?: number;
      hold?: HoldChoice | null; trigger?: string; readied?: string; difficulty?: number | null; testRoll?: Roll | null; luckRoll?: Roll | null; note?: string;
    } & TestInput)
  | {
      type: 'KILLING_STRIKE'; targetId: string; attribute: Attribute; proficiency: Proficiency; weapon?: Weapon | null;
      testRoll?: Roll | null; luckRoll?: Roll | null; sneakRoll?: Roll | null;
    }
  | { type: 'FREE_ACTION'; kind: FreeActionKind; item?: ItemSlot | null; note?: string }
  | { type: 'FIRE_READIED'; id: string; note?: string }
  | { type: 'EXTENDED'; id: 'continue' | 'abandon'; testRoll?: Roll | null; luckRoll?: Roll | null; sneakRoll?: Roll | null }
  | { type: 'OPENING_ATTACK'; id: 'waive' }
  | { type: 'DEFEND'; id: string; testRoll?: Roll | null; luckRoll?: Roll | null }
  | ({
      type: 'REACTION_TEST'; reactorId: string; reaction: ReactionKind; difficulty: number; against: string;
      testRoll?: Roll | null; luckRoll?: Roll | null;
    } & TestInput)
  | { type: 'CONSCIOUSNESS'; id: 'fortify' | 'unconscious'; testRoll?: Roll | null; luckRoll?: Roll | null }
  | { type: 'LUCK_TEST'; id: 'roll'; luckRoll?: Roll | null }
  | { type: 'APPLY_DAMAGE'; targetId: string; amount: number; source: string; damageType?: DamageType | null; nonlethal?: boolean }
  | { type: 'HEAL'; targetId: string; pool: HealedPool; amount: number; source: string }
  | { type: 'OVERRIDE'; targetId: string; field: OverrideField; value: number; note: string };

/** What Brandish leaves in the hands (§2.3: "choose what items you are holding in your hands"). */
export const HOLD_CHOICES = ['weaponAndShield', 'weapon', 'shield', 'nothing'] as const;
export type HoldChoice = (typeof HOLD_CHOICES)[number];
export const HEALED_POOLS = ['endurance', 'health'] as const;
export type HealedPool = (typeof HEALED_POOLS)[number];

export const OVERRIDE_FIELDS = ['endurance', 'health', 'stamina', 'focus', 'actionsLeft', 'cheatDeathDifficulty', 'weaponDurability', 'shieldDurability', 'conscious', 'dead', 'prone', 'reaction'] as const;
export type OverrideField = (typeof OVERRIDE_FIELDS)[number];

/** The action table (§2.3): anything costs 1 unless stated; Resuscitate 2, Short Task 3. */
export const ACTION_COSTS: Record<Exclude<ActionKind, 'other'>, number> = {
  brandish: 1, interact: 1, move: 1, sprint: 1, standUp: 1, seekCover: 1, guard: 1, wait: 1, ready: 1, command: 1, resuscitate: 2, shortTask: 3,
};
export const ACTION_LABELS: Record<ActionKind, string> = {
  brandish: 'Brandish', interact: 'Interact', move: 'Move', sprint: 'Sprint', standUp: 'Stand Up', seekCover: 'Seek Cover', guard: 'Guard',
  wait: 'Wait', ready: 'Ready an Action', command: 'Command', resuscitate: 'Resuscitate', shortTask: 'Short Task', other: 'Action',
};
/** Guard, Wait and Ready end the turn; remaining actions are lost (§2.3). */
export const ENDS_TURN: readonly ActionKind[] = ['guard', 'wait', 'ready'];
/** Actions that can be paid over several turns when they cost more than the actions left (R-T10). */
const EXTENDABLE: readonly ActionKind[] = ['resuscitate', 'shortTask', 'other'];
/** What a commanded ally may do with its one action (R-T9): a single action that does not end a turn. */
const COMMANDABLE: readonly ActionKind[] = ['brandish', 'interact', 'move', 'sprint', 'standUp', 'seekCover', 'other'];
export const KILLING_STRIKE_COST = 3;
const SPRINT_STAMINA = 1;
const COMMAND_FOCUS = 2;
const REACTION_COST = 1;
const MAP_STEP = 2;
const LUCKY_FACE = 20;
const LUCKY_BONUS = 4;

export const costOfAction = (e: { kind: ActionKind; cost?: number }): number => (e.kind === 'other' ? e.cost ?? 1 : ACTION_COSTS[e.kind]);

// ---- tests: which dice a test rolls, and its total (R-T17) ----

export interface TestSpec {
  label: string;
  /** Die sizes of one set, e.g. [6, 6] for strength d6 + combat skill d6. */
  dice: number[];
  bonus: number;
  /** Signed advantage level: 1 + |level| sets are rolled, the best (or worst) set is kept (R-T17). */
  level: number;
}

export const setsOf = (spec: TestSpec) => 1 + Math.abs(spec.level);
export const diceCountOf = (spec: TestSpec) => spec.dice.length * setsOf(spec);

/** Dice notation the server rolls: every die in order, set after set; the bonus only when one set is rolled. */
export function testNotation(spec: TestSpec): string {
  const one = spec.dice.map((d) => `1d${d}`).join('+');
  const all = Array.from({ length: setsOf(spec) }, () => one).join('+');
  if (setsOf(spec) > 1 || spec.bonus === 0) return all;
  return `${all}${spec.bonus > 0 ? '+' : ''}${spec.bonus}`;
}

export const describeDice = (spec: TestSpec) => `${spec.dice.map((d) => `d${d}`).join(' + ')}${spec.bonus ? ` ${spec.bonus > 0 ? '+' : '−'} ${Math.abs(spec.bonus)}` : ''}`;
export const levelNote = (level: number) =>
  level === 0 ? '' : ` with ${Math.abs(level) === 1 ? '' : Math.abs(level) === 2 ? 'double ' : `${Math.abs(level)}× `}${level > 0 ? 'advantage' : 'disadvantage'}`;

export function testProblem(spec: TestSpec, roll: Roll | null | undefined, who: string): string | null {
  if (!roll) return `${who}'s ${spec.label} roll is missing.`;
  const count = diceCountOf(spec);
  if (roll.faces.length !== count) {
    const sets = setsOf(spec) > 1 ? ` (${setsOf(spec)} sets${levelNote(spec.level)})` : '';
    return `${who}'s ${spec.label} needs ${count} dice: ${spec.dice.map((d) => `d${d}`).join(' + ')}${sets}; ${roll.faces.length} given.`;
  }
  for (let i = 0; i < roll.faces.length; i += 1) {
    const size = spec.dice[i % spec.dice.length]!;
    const face = roll.faces[i]!;
    if (!Number.isInteger(face) || face < 1 || face > size) return `${face} is not a face of ${who}'s d${size}.`;
  }
  return null;
}

export interface TestResult {
  sets: number[][];
  setTotals: number[];
  kept: number;
  /** Kept set + bonus (before any penalty or luck bonus). */
  total: number;
}

export function testResult(spec: TestSpec, roll: Roll): TestResult {
  const n = spec.dice.length;
  const sets = Array.from({ length: setsOf(spec) }, (_, i) => roll.faces.slice(i * n, i * n + n));
  const setTotals = sets.map((set) => set.reduce((sum, f) => sum + f, 0));
  const kept = spec.level >= 0 ? Math.max(...setTotals) : Math.min(...setTotals);
  return { sets, setTotals, kept, total: kept + spec.bonus };
}

export function luckProblem(c: TeamsCombatant, roll: Roll | null | undefined): string | null {
  if (!roll) return `${c.name}'s luck die roll is missing.`;
  if (roll.faces.length !== 1) return `${c.name}'s luck roll is one d${c.luckDie}: ${roll.faces.length} given.`;
  const face = roll.faces[0]!;
  return Number.isInteger(face) && face >= 1 && face <= c.luckDie ? null : `${face} is not a face of ${c.name}'s luck die (d${c.luckDie}).`;
}

const luckOf = (roll: Roll) => roll.faces[0]!;
/** An ordinary test: a luck roll of 20 or more adds +4 (attacks use the luck die differently). */
export const luckBonus = (luck: number) => (luck >= LUCKY_FACE ? LUCKY_BONUS : 0);

const die = (c: TeamsCombatant, key: string, fallback: number) => (typeof c.sheet[key] === 'number' ? (c.sheet[key] as number) : fallback);

/** Guard: +1 to every defence and defensive test until the owner's next turn (R-T12). */
const guardBonus = (c: TeamsCombatant) => (c.guarding ? 1 : 0);

/** The defensive tests the chapter spells out: Fortify = strength + athletics + fortitude (the Boudica example). */
export function reactionSpec(c: TeamsCombatant, reaction: ReactionKind, input: TestInput = {}): TestSpec | null {
  const label = reaction === 'dodge' ? 'Dodge' : reaction === 'fortify' ? 'Fortify' : 'Resist';
  if (input.dice && input.dice.length) return { label, dice: input.dice, bonus: (input.bonus ?? 0) + guardBonus(c), level: 0 };
  if (reaction === 'fortify') return { label, dice: [die(c, 'strength', 6), die(c, 'athletics', 4)], bonus: die(c, 'fortitude', 0) + (input.bonus ?? 0) + guardBonus(c), level: 0 };
  // Dodge: the chapter names no dice; the app uses dexterity + athletics unless the GM gives others.
  if (reaction === 'dodge') return { label, dice: [die(c, 'dexterity', 6), die(c, 'athletics', 4)], bonus: (input.bonus ?? 0) + guardBonus(c), level: 0 };
  return null;
}

/** A GM-described test (Resuscitate, Short Task): the dice must be given. */
export function gmTestSpec(label: string, input: TestInput): TestSpec | null {
  return input.dice && input.dice.length ? { label, dice: input.dice, bonus: input.bonus ?? 0, level: 0 } : null;
}

// ---- reactions (R-T5, R-T6, R-T14) ----

/** Which reaction the combatant can use now: its normal one, Wait's extra one, or none. */
export function reactionAvailable(ctx: TeamsContext, c: TeamsCombatant): 'normal' | 'extra' | null {
  if (!inFight(c) || !c.conscious) return null;
  if (isSurprised(ctx, c) && ctx.options['surprisedCannotReact'] !== false) return null; // R-T5
  const cap = ctx.options['reactionCap'];
  const normal = cap === 'perTurnRefresh' ? !c.reactionSpent : cap === 'strictPerRound' ? !c.reactionUsedRound : !c.reactionSpent && !c.reactionUsedRound;
  if (normal) return 'normal';
  return c.waitExtra ? 'extra' : null;
}

function reactionRefusal(ctx: TeamsContext, c: TeamsCombatant, resource: 'stamina' | 'focus', free = false): string | null {
  if (c.dead || c.removed) return `${c.name} is not in the fight.`;
  if (!c.conscious) return `${c.name} is unconscious and cannot react.`;
  if (!free && reactionAvailable(ctx, c) === null) {
    if (isSurprised(ctx, c) && ctx.options['surprisedCannotReact'] !== false) return `${c.name} is surprised and cannot react until the surprise round ends (R-T5).`;
    return `${c.name} has no reaction left: one a round, refreshed at the start of their turn (R-T6).`;
  }
  const pays = !free || ctx.options['freeReactionsPayResources'] !== false;
  if (pays && c[resource] < REACTION_COST) return `${c.name} has no ${resource} left to react.`;
  return null;
}

/** Spends the reaction (the normal one first, then Wait's extra one) and its 1 stamina or focus (none for a readied action). */
function payReaction(ctx: TeamsContext, id: string, resource: 'stamina' | 'focus' | null, free = false): TeamsContext {
  const c = ctx.combatants[id]!;
  const pays = resource !== null && (!free || ctx.options['freeReactionsPayResources'] !== false);
  const change: Partial<TeamsCombatant> = pays ? { [resource]: c[resource] - REACTION_COST } : {};
  if (!free) {
    if (reactionAvailable(ctx, c) === 'normal') Object.assign(change, { reactionSpent: true, reactionUsedRound: true });
    else Object.assign(change, { waitExtra: false });
  }
  return update(ctx, id, change);
}

// ---- attacks (§2.4) ----

export interface AttackPlan {
  weapon: Weapon;
  spec: TestSpec;
  penalty: number;
  /** What made up the advantage level. */
  levelParts: string[];
  ranged: boolean;
}

export const isRanged = (weapon: Weapon) => weapon.delivery !== 'melee';

function attackSpec(c: TeamsCombatant, attribute: Attribute, proficiency: Proficiency, level: number, label = 'attack test'): TestSpec {
  const bonus = proficiency === 'none' ? 0 : die(c, proficiency, 0);
  return { label, dice: [die(c, attribute, 6), die(c, 'combatSkill', 6)], bonus, level };
}

/** R-T15: −2 for each attack this attacker made earlier this round. */
const penaltyOf = (c: TeamsCombatant) => MAP_STEP * c.attacksThisRound;

export function planAttack(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>): AttackPlan {
  const attacker = ctx.combatants[e.attackerId]!;
  const target = ctx.combatants[e.targetId]!;
  const weapon = e.weapon ?? attacker.weapon;
  const ranged = isRanged(weapon);
  const parts: string[] = [];
  let level = 0;
  if (e.sneak) { level += 1; parts.push('sneak attack'); }
  if (e.flanking) { level += 1; parts.push('flanking'); }
  if (target.prone) { level += ranged ? -1 : 1; parts.push(ranged ? 'prone target (ranged)' : 'prone target (melee)'); }
  if (target.inCover && ranged) { level -= 1; parts.push('target in cover'); }
  if (e.advantage) { level += e.advantage; parts.push(`GM ${e.advantage > 0 ? '+' : ''}${e.advantage}`); }
  return { weapon, spec: attackSpec(attacker, e.attribute, e.proficiency, level), penalty: penaltyOf(attacker), levelParts: parts, ranged };
}

/** Size (§2.4 step 5): a larger attacker raises the target's evasion and lowers its deflection by the difference. */
export const sizeShift = (attacker: TeamsCombatant, target: TeamsCombatant) => attacker.size - target.size;

export function evasionAgainst(attacker: TeamsCombatant, target: TeamsCombatant): number {
  return Math.max(0, target.evasion + sizeShift(attacker, target) + guardBonus(target));
}

/** Deflection against one damage class, with size, Guard (R-T12) and a parry (R-T21). Typeless is never reduced. */
export function deflectionAgainst(ctx: TeamsContext, attacker: TeamsCombatant | null, target: TeamsCombatant, type: DamageType, parry: number): number | null {
  const cls = damageClass(type);
  if (cls === 'typeless') return null;
  const base = cls === 'physical' ? target.physicalDeflection : target.elementalDeflection;
  const parries = cls === 'physical' || ctx.options['parryScope'] === 'allDeflection' ? parry : 0;
  return Math.max(0, base - (attacker ? sizeShift(attacker, target) : 0) + guardBonus(target) + parries);
}

export interface AttackOutcome extends AttackPlan {
  test: TestResult;
  /** After the multiple attack penalty, and before it. */
  total: number;
  unpenalised: number;
  luck: number;
  crit: boolean;
  /** Stray shot: the character hit instead (R-T16). */
  strayTo: string | null;
  targetId: string;
  evasion: number;
  hit: boolean;
  rulings: string[];
}

/** The characters a stray shot may hit: within 1 m of the target (the GM's list), never the attacker or the target (R-T16). */
export function strayPool(ctx: TeamsContext, e: { attackerId: string; targetId: string; nearbyIds?: string[] }): string[] {
  return [...new Set(e.nearbyIds ?? [])].filter((id) => id !== e.attackerId && id !== e.targetId && inFight(ctx.combatants[id]));
}

export function resolveAttack(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>): AttackOutcome {
  const plan = planAttack(ctx, e);
  const attacker = ctx.combatants[e.attackerId]!;
  const test = testResult(plan.spec, e.testRoll!);
  const total = test.total - plan.penalty;
  const luck = luckOf(e.luckRoll!);
  const crit = luck >= plan.weapon.critThreshold;
  const rulings = ['R-T17'];
  if (plan.penalty) rulings.push('R-T15');
  let targetId = e.targetId;
  let strayTo: string | null = null;
  const pool = strayPool(ctx, e);
  if (!crit && plan.ranged && luck <= 1 && pool.length > 0) {
    strayTo = pool.length === 1 ? pool[0]! : pool[(e.strayRoll?.faces[0] ?? 1) - 1]!;
    targetId = strayTo;
    rulings.push('R-T16');
  }
  const evasion = evasionAgainst(attacker, ctx.combatants[targetId]!);
  return { ...plan, test, total, unpenalised: test.total, luck, crit, strayTo, targetId, evasion, hit: crit || total >= evasion, rulings };
}

// ---- the defence window (§2.4 step 7) ----

export interface DefenceChoice {
  id: string;
  label: string;
}

/** The defensive reactions the target (or an interceptor) may take against a hit, besides taking it. */
export function defenceChoices(ctx: TeamsContext, pa: PendingAttack): DefenceChoice[] {
  const target = ctx.combatants[pa.targetId]!;
  const choices: DefenceChoice[] = [];
  if (reactionRefusal(ctx, target, 'stamina', pa.freeReaction) === null) {
    const shield = target.items.shield;
    // Only a wielded item blocks or parries (§2.4 Block, Parry); a broken one cannot.
    if (shield && target.held.shield && shield.blockValue > 0 && shield.durability > 0) choices.push({ id: 'block', label: `Block with ${shield.name} (block ${shield.blockValue}, 1 stamina)` });
    // R-T19 off: a parry is declared with the attack, before the hit is known, so the hit window offers none.
    if (ctx.options['parryAfterHit'] !== false) {
      for (const slot of ['weapon', 'shield'] as const) {
        const item = target.items[slot];
        if (item && target.held[slot] && item.durability > 0) choices.push({ id: `parry:${slot}`, label: `Parry with ${item.name} (+${item.parryValue || 1}, 1 stamina)` });
      }
    }
    if (!pa.crit && !pa.dodged) choices.push({ id: 'dodge', label: 'Dodge (test, 1 stamina)' });
  }
  if (pa.interceptedFrom === null && !pa.dodged) {
    for (const id of ctx.roster) {
      const ally = ctx.combatants[id]!;
      if (id === target.id || id === pa.attackerId || ally.team !== target.team) continue;
      if (pa.interceptorIds !== null && !pa.interceptorIds.includes(id)) continue; // the GM said who is close enough
      if (reactionRefusal(ctx, ally, 'stamina') === null) choices.push({ id: `intercept:${id}`, label: `${ally.name} intercepts (1 stamina)` });
    }
  }
  return choices;
}

export function defenceRefusal(ctx: TeamsContext, pa: PendingAttack, e: Extract<CombatEvent, { type: 'DEFEND' }>): string | null {
  if (e.id === 'none') return null;
  const target = ctx.combatants[pa.targetId]!;
  if (!defenceChoices(ctx, pa).some((c) => c.id === e.id)) {
    if (e.id === 'dodge' && pa.crit) return 'A critical hit cannot miss, so it cannot be dodged (R-T18).';
    if (e.id === 'block' && !target.items.shield?.blockValue) return `${target.name} wields nothing that can block.`;
    if (e.id === 'block' && !target.held.shield) return `${target.name} is not holding ${target.items.shield!.name}: only a wielded item can block.`;
    if (e.id.startsWith('parry:') && ctx.options['parryAfterHit'] === false) return 'In this campaign a parry is declared with the attack, before the hit is known (R-T19).';
    if (e.id.startsWith('parry:') && target.items[e.id.slice(6) as ItemSlot] && !target.held[e.id.slice(6) as ItemSlot]) {
      return `${target.name} is not holding ${target.items[e.id.slice(6) as ItemSlot]!.name}: only a wielded item can parry.`;
    }
    if (e.id.startsWith('intercept:') && pa.interceptorIds !== null && !pa.interceptorIds.includes(e.id.slice(10))) {
      return `${nameOf(ctx, e.id.slice(10))} is not close enough to intercept: the attack named who can.`;
    }
    if ((e.id === 'block' || e.id.startsWith('parry:')) && target.items[e.id === 'block' ? 'shield' : (e.id.slice(6) as ItemSlot)]?.durability === 0) {
      return 'A broken item cannot block or parry.';
    }
    const problem = e.id.startsWith('intercept:') ? reactionRefusal(ctx, ctx.combatants[e.id.slice(10)] ?? target, 'stamina') : reactionRefusal(ctx, target, 'stamina', pa.freeReaction);
    return problem ?? `${e.id} is not a defence ${target.name} can take against this attack.`;
  }
  if (e.id === 'dodge') {
    const spec = reactionSpec(target, 'dodge')!;
    return testProblem(spec, e.testRoll, target.name) ?? luckProblem(target, e.luckRoll);
  }
  return null;
}

interface HitResult {
  raw: number;
  taken: number;
  reduction: number | null;
  blocked: { item: string; itemDamage: number; durability: number; overflow: number } | null;
  parried: { item: string; value: number } | null;
}

/** Raw damage (R-T20), then block or deflection with the minimum of 1, parry wear, and the hit on the pools. */
export function hitDamage(ctx: TeamsContext, pa: PendingAttack, defence: string): HitResult {
  const attacker = ctx.combatants[pa.attackerId] ?? null;
  const target = ctx.combatants[pa.targetId]!;
  const test = ctx.options['damageUsesPenalisedTest'] === false ? pa.unpenalised : pa.total;
  const raw = Math.max(0, test) + (pa.crit ? pa.weapon.critDamage : pa.weapon.damage);
  if (defence === 'block') {
    const shield = target.items.shield!;
    const itemDamage = Math.max(1, raw - shield.blockValue);
    if (itemDamage <= shield.durability) return { raw, taken: 0, reduction: null, blocked: { item: shield.name, itemDamage, durability: shield.durability - itemDamage, overflow: 0 }, parried: null };
    const overflow = itemDamage - shield.durability;
    // R-T22: the excess hits as a normal hit without the character's deflection (unless the campaign applies it).
    const dr = ctx.options['blockOverflowDeflection'] === 'applied' ? deflectionAgainst(ctx, attacker, target, pa.weapon.damageType, 0) : null;
    const taken = dr === null ? overflow : Math.max(1, overflow - dr);
    return { raw, taken, reduction: dr, blocked: { item: shield.name, itemDamage, durability: 0, overflow }, parried: null };
  }
  const parrySlot = defence.startsWith('parry:') ? (defence.slice(6) as ItemSlot) : null;
  const parryItem = parrySlot ? target.items[parrySlot]! : null;
  const parry = parryItem ? parryItem.parryValue || 1 : 0;
  const dr = deflectionAgainst(ctx, attacker, target, pa.weapon.damageType, parry);
  const taken = dr === null ? raw : Math.max(1, raw - dr);
  return { raw, taken, reduction: dr, blocked: null, parried: parryItem ? { item: parryItem.name, value: parry } : null };
}

function setItem(ctx: TeamsContext, id: string, slot: ItemSlot, change: Partial<Item>): TeamsContext {
  const c = ctx.combatants[id]!;
  const item = c.items[slot];
  if (!item) return ctx;
  return update(ctx, id, { items: { ...c.items, [slot]: { ...item, ...change } } });
}

function applyHit(ctx: TeamsContext, pa: PendingAttack, defence: string): TeamsContext {
  const result = hitDamage(ctx, pa, defence);
  let next = ctx;
  if (result.blocked) next = setItem(next, pa.targetId, 'shield', { durability: result.blocked.durability });
  if (defence.startsWith('parry:')) {
    const slot = defence.slice(6) as ItemSlot;
    next = setItem(next, pa.targetId, slot, { durability: Math.max(0, next.combatants[pa.targetId]!.items[slot]!.durability - 1) });
  }
  return takeDamage(next, pa.targetId, result.taken, { nonlethal: pa.weapon.nonlethal, source: `${nameOf(ctx, pa.attackerId)}'s ${pa.weapon.name}` });
}

/** Opens the defence window when the target can do anything about the hit; otherwise the damage lands at once. */
function openDefence(ctx: TeamsContext, pa: PendingAttack): TeamsContext {
  if (defenceChoices(ctx, pa).length === 0) return applyHit(ctx, pa, 'none');
  return { ...ctx, pending: [{ kind: 'defence', attack: pa }, ...ctx.pending] };
}

function answerDefence(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'DEFEND' }>): TeamsContext {
  const head = ctx.pending[0]!;
  if (head.kind !== 'defence') return ctx;
  const pa = head.attack;
  const rest = { ...ctx, pending: ctx.pending.slice(1) };
  if (e.id === 'none') return applyHit(rest, pa, 'none');
  if (e.id.startsWith('intercept:')) {
    // Intercept: the ally pays, swaps places and becomes the target; the attack is checked against it (§2.3).
    const allyId = e.id.slice(10);
    const paid = payReaction(rest, allyId, 'stamina');
    const ally = paid.combatants[allyId]!;
    const attacker = paid.combatants[pa.attackerId];
    const hits = pa.crit || !attacker || pa.total >= evasionAgainst(attacker, ally);
    if (!hits) return paid;
    return openDefence(paid, { ...pa, targetId: allyId, freeReaction: true, interceptedFrom: pa.targetId });
  }
  const paid = payReaction(rest, pa.targetId, 'stamina', pa.freeReaction);
  if (e.id === 'dodge') {
    const target = paid.combatants[pa.targetId]!;
    const spec = reactionSpec(ctx.combatants[pa.targetId]!, 'dodge')!;
    const total = testResult(spec, e.testRoll!).total + luckBonus(luckOf(e.luckRoll!));
    if (dodgeBeats(ctx, total, pa.total)) return paid;
    // A failed dodge: the hit stands; another reaction (Wait's extra one) may still block or parry.
    const after = { ...pa, dodged: true, freeReaction: false };
    return reactionAvailable(paid, target) ? openDefence(paid, after) : applyHit(paid, after, 'none');
  }
  return applyHit(paid, pa, e.id);
}

/** R-T18: the dodge test must reach the attack's total (meet-or-beat by default). */
export const dodgeBeats = (ctx: TeamsContext, dodge: number, attack: number) => (ctx.options['dodgeTarget'] === 'beat' ? dodge > attack : dodge >= attack);

// ---- health (§2.4 steps 11–14, §2.5) ----

export const isHarmed = (c: TeamsCombatant) => c.enduranceMax > 0 && c.endurance <= c.enduranceMax / 2;
export const isBloodied = (c: TeamsCombatant) => c.health < c.healthMax;
export const missingHealth = (c: TeamsCombatant) => c.healthMax - c.health;

/** Falling unconscious: the turn is lost (R-T3) and any extended action is abandoned (R-T10). */
export function fallUnconscious(ctx: TeamsContext, id: string): TeamsContext {
  return update(ctx, id, { conscious: false, inProgress: null, readied: null, guarding: false, inCover: false, waitExtra: false });
}

const queue = (ctx: TeamsContext, entry: TeamsContext['pending'][number]) => ({ ...ctx, pending: [...ctx.pending, entry] });
const hasDeathPending = (ctx: TeamsContext, id: string) => ctx.pending.some((p) => p.kind === 'death' && p.id === id);

/**
 * Damage taken (after reduction): endurance first, then health. Losing health past constitution calls for the
 * consciousness check (R-T23: without a reaction or stamina the character falls unconscious); zero health means
 * unconscious (R-T24) and, on overkill (R-T27) or any damage while already at zero, a luck test against death —
 * except overkill from a nonlethal source (§2.4 step 14).
 */
export function takeDamage(ctx: TeamsContext, id: string, amount: number, source: { nonlethal: boolean; source: string }): TeamsContext {
  const c = ctx.combatants[id]!;
  if (amount <= 0 || !inFight(c)) return ctx;
  const toEndurance = Math.min(c.endurance, amount);
  const spill = amount - toEndurance;
  let next = update(ctx, id, { endurance: c.endurance - toEndurance });
  if (c.health === 0) {
    // Any more damage while at zero health risks death, nonlethal included. Someone resuscitated at zero health is
    // knocked out again: source: "When a character is reduced to zero health, they immediately become unconscious."
    next = fallUnconscious(next, id);
    return hasDeathPending(next, id) ? next : queue(next, { kind: 'death', id, cause: source.source });
  }
  if (spill === 0) return next;
  const health = Math.max(0, c.health - spill);
  next = update(next, id, { health });
  if (health === 0) {
    next = fallUnconscious(next, id);
    const basis = ctx.options['overkillBasis'] === 'spilloverOnly' ? spill : amount;
    if (basis <= c.health) return next;
    if (source.nonlethal) return update(next, id, { nonlethalZeroed: true });
    return queue(next, { kind: 'death', id, cause: source.source });
  }
  const missing = c.healthMax - health;
  if (!c.conscious || missing <= c.constitution) return next;
  if (reactionRefusal(next, next.combatants[id]!, 'stamina') !== null) return fallUnconscious(next, id); // R-T23
  return queue(next, { kind: 'consciousness', id, missing });
}

function answerConsciousness(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'CONSCIOUSNESS' }>): TeamsContext {
  const head = ctx.pending[0]!;
  if (head.kind !== 'consciousness') return ctx;
  const rest = { ...ctx, pending: ctx.pending.slice(1) };
  if (e.id === 'unconscious') return fallUnconscious(rest, head.id);
  const total = consciousnessTotal(ctx.combatants[head.id]!, e);
  const paid = payReaction(rest, head.id, 'stamina');
  return total >= head.missing ? paid : fallUnconscious(paid, head.id);
}

/** Fortify against the missing health: strength + athletics + fortitude (+1 guarding, +4 on a luck roll of 20). */
export function consciousnessTotal(c: TeamsCombatant, e: { testRoll?: Roll | null; luckRoll?: Roll | null }): number {
  return testResult(reactionSpec(c, 'fortify')!, e.testRoll!).total + luckBonus(luckOf(e.luckRoll!));
}

/** Death risk (§2.4 step 13): a luck roll at or above the cheat-death difficulty survives and raises it by 5 for good. */
function answerDeath(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'LUCK_TEST' }>): TeamsContext {
  const head = ctx.pending[0]!;
  if (head.kind !== 'death') return ctx;
  const rest = { ...ctx, pending: ctx.pending.slice(1) };
  const c = ctx.combatants[head.id]!;
  if (luckOf(e.luckRoll!) >= c.cheatDeathDifficulty) {
    return update(rest, c.id, { cheatDeathDifficulty: c.cheatDeathDifficulty + CHEAT_DEATH_STEP, cheatedDeath: c.cheatedDeath + 1 });
  }
  return killed(rest, c.id, head.cause);
}

function killed(ctx: TeamsContext, id: string, cause: string): TeamsContext {
  const next = fallUnconscious(ctx, id);
  return { ...update(next, id, { dead: true, deathCause: cause }), pending: next.pending.filter((p) => p.kind === 'defence' || p.id !== id) };
}

// ---- the killing strike (§2.4 step 15) ----

export function killingStrikeSpec(ctx: TeamsContext, c: TeamsCombatant, attribute: Attribute, proficiency: Proficiency): TestSpec {
  // R-T15b: built like an attack test, with advantage; the literal reading rolls the combat skill only.
  if (ctx.options['killingStrikeTest'] === 'combatSkillOnly') return { label: 'killing strike', dice: [die(c, 'combatSkill', 6)], bonus: 0, level: 1 };
  return attackSpec(c, attribute, proficiency, 1, 'killing strike');
}

/** On a failed killing strike a sneak attack is made instead: the same test under R-T15b's default, its own roll otherwise. */
export const sneakSpec = (c: TeamsCombatant, attribute: Attribute, proficiency: Proficiency): TestSpec => attackSpec(c, attribute, proficiency, 1, 'sneak attack');
export const sneakNeedsOwnRoll = (ctx: TeamsContext) => ctx.options['killingStrikeTest'] === 'combatSkillOnly';

interface StrikeDetail {
  targetId: string;
  attribute: Attribute;
  proficiency: Proficiency;
  weapon: Weapon;
}

export interface StrikeOutcome {
  test: TestResult;
  total: number;
  constitution: number;
  killed: boolean;
  sneak: { total: number; evasion: number; crit: boolean; hit: boolean; damage: HitResult | null } | null;
}

export function resolveStrike(ctx: TeamsContext, strikerId: string, d: StrikeDetail, rolls: { testRoll?: Roll | null; luckRoll?: Roll | null; sneakRoll?: Roll | null }): StrikeOutcome {
  const striker = ctx.combatants[strikerId]!;
  const target = ctx.combatants[d.targetId]!;
  const spec = killingStrikeSpec(ctx, striker, d.attribute, d.proficiency);
  const test = testResult(spec, rolls.testRoll!);
  const penalty = penaltyOf(striker);
  const total = test.total - penalty;
  if (total >= target.constitution) return { test, total, constitution: target.constitution, killed: true, sneak: null };
  const sneakTest = sneakNeedsOwnRoll(ctx) ? testResult(sneakSpec(striker, d.attribute, d.proficiency), rolls.sneakRoll!).total - penalty : total;
  const crit = luckOf(rolls.luckRoll!) >= d.weapon.critThreshold;
  const evasion = evasionAgainst(striker, target);
  const hit = crit || sneakTest >= evasion;
  const pa: PendingAttack = { attackerId: strikerId, targetId: d.targetId, total: sneakTest, unpenalised: sneakTest + penalty, crit, weapon: d.weapon, freeReaction: false, interceptedFrom: null, dodged: false, interceptorIds: null };
  return { test, total, constitution: target.constitution, killed: false, sneak: { total: sneakTest, evasion, crit, hit, damage: hit ? hitDamage(ctx, pa, 'none') : null } };
}

function completeStrike(ctx: TeamsContext, strikerId: string, d: StrikeDetail, rolls: { testRoll?: Roll | null; luckRoll?: Roll | null; sneakRoll?: Roll | null }): TeamsContext {
  const outcome = resolveStrike(ctx, strikerId, d, rolls);
  const striker = ctx.combatants[strikerId]!;
  const counted = update(ctx, strikerId, { attacksThisRound: striker.attacksThisRound + 1 }); // R-T15
  if (outcome.killed) return killed(counted, d.targetId, `killing strike by ${striker.name}`);
  if (!outcome.sneak?.hit) return counted;
  return takeDamage(counted, d.targetId, outcome.sneak.damage!.taken, { nonlethal: d.weapon.nonlethal, source: `${striker.name}'s ${d.weapon.name}` });
}

// ---- completing actions ----

function completeAction(ctx: TeamsContext, actorId: string, x: Extended, rolls: { testRoll?: Roll | null; luckRoll?: Roll | null; sneakRoll?: Roll | null }): TeamsContext {
  switch (x.kind) {
    case 'resuscitate': {
      const total = actionTestTotal(x, rolls);
      const targetId = String(x.detail['targetId']);
      return total !== null && total >= Number(x.detail['difficulty']) && inFight(ctx.combatants[targetId]) ? update(ctx, targetId, { conscious: true }) : ctx;
    }
    case 'killingStrike':
      return completeStrike(ctx, actorId, x.detail as unknown as StrikeDetail, rolls);
    default:
      return ctx;
  }
}

/** Resuscitate and Short Task: the GM's dice + bonus, +4 on a luck roll of 20 or more. */
export function actionTestTotal(x: Extended, rolls: { testRoll?: Roll | null; luckRoll?: Roll | null }): number | null {
  const spec = extendedSpec(x);
  if (!spec || !rolls.testRoll || !rolls.luckRoll) return null;
  return testResult(spec, rolls.testRoll).total + luckBonus(luckOf(rolls.luckRoll));
}

/** The test an extended Resuscitate or Short Task rolls when it completes. */
export const extendedSpec = (x: Extended): TestSpec | null =>
  gmTestSpec(x.name, { dice: x.detail['dice'] as number[] | undefined, bonus: x.detail['bonus'] as number | undefined });

/** The action's difficulty: Resuscitate suggests the target's missing health unless the GM sets it (R-T13). */
export function actionDifficulty(ctx: TeamsContext, e: { kind: ActionKind; targetId?: string | null; difficulty?: number | null }): number | null {
  if (e.difficulty !== undefined && e.difficulty !== null) return e.difficulty;
  if (e.kind === 'resuscitate' && ctx.options['resuscitateDifficulty'] !== 'gmSets' && e.targetId && ctx.combatants[e.targetId]) {
    return Math.max(1, missingHealth(ctx.combatants[e.targetId]!));
  }
  return null;
}

function extendedFrom(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ACTION' }>): Extended {
  const kind = e.kind === 'resuscitate' || e.kind === 'shortTask' ? e.kind : 'other';
  return {
    kind,
    name: e.name?.trim() || ACTION_LABELS[e.kind],
    cost: costOfAction(e),
    paid: 0,
    detail: { targetId: e.targetId ?? null, difficulty: actionDifficulty(ctx, e), dice: e.dice ?? null, bonus: e.bonus ?? 0 },
  };
}

/** Whether the action would complete now (all of its cost is paid in this event). */
export const completesNow = (ctx: TeamsContext, cost: number) => (ctx.turn?.actionsLeft ?? 0) >= cost;

/** The extended action the active combatant continues: does this continuation complete it? */
export function continuationCompletes(ctx: TeamsContext): boolean {
  const c = ctx.combatants[ctx.activeId ?? ''];
  const x = c?.inProgress;
  return !!x && !!ctx.turn && x.cost - x.paid <= ctx.turn.actionsLeft;
}

// ---- refusals: a sentence when the rules forbid the event now ----

function needsActions(ctx: TeamsContext, name: string, cost: number): string | null {
  const left = ctx.turn?.actionsLeft ?? 0;
  if (cost <= left) return null;
  if (left === 0) return `${name} has no actions left this turn.`;
  return `${name} has ${plural(left, 'action')} left; this needs ${cost}.`;
}

/** The turn is open for ordinary actions: the extended choice (R-T10) and the opening attack (R-T1b) come first. */
function turnGate(ctx: TeamsContext, what: string): string | null {
  const active = ctx.combatants[ctx.activeId ?? ''];
  if (!active || !ctx.turn) return `${what} happens on a combatant's turn.`;
  if (!ctx.turn.extendedDecided) return `${active.name} must first continue or abandon ${active.inProgress?.name ?? 'the extended action'} (R-T10).`;
  return null;
}

function openingGate(ctx: TeamsContext): string | null {
  const active = ctx.combatants[ctx.activeId ?? ''];
  if (active && ctx.turn?.openingAttack) return `${active.name}'s turn opens with the attack that started the fight (R-T1b): make it, or waive it first.`;
  return null;
}

function attackRefusal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>): string | null {
  const attacker = ctx.combatants[e.attackerId];
  const target = ctx.combatants[e.targetId];
  if (!attacker || !inFight(attacker)) return 'The attacker is not in the fight.';
  if (!target || !inFight(target)) return 'The target is not in the fight.';
  if (attacker.id === target.id) return `${attacker.name} cannot attack themself.`;
  if (!attacker.conscious) return `${attacker.name} is unconscious.`;
  const via = e.via ?? 'turn';
  if (via === 'turn') {
    const gate = turnGate(ctx, 'An attack');
    if (gate) return gate;
    if (ctx.activeId !== attacker.id) {
      return ctx.turn?.commandTokens.includes(attacker.id)
        ? `${attacker.name} acts on ${nameOf(ctx, ctx.activeId)}'s Command: send the attack as a commanded one.`
        : `It is not ${attacker.name}'s turn: only a readied action or a Command lets them attack now.`;
    }
    const problem = needsActions(ctx, attacker.name, 1);
    if (problem) return problem;
  } else if (via === 'command') {
    const gate = turnGate(ctx, 'A commanded attack');
    if (gate) return gate;
    const opening = openingGate(ctx);
    if (opening) return opening;
    if (!ctx.turn!.commandTokens.includes(attacker.id)) return `${attacker.name} has no action from a Command this turn.`;
    // source: "the team with the benefit of surprise gets to take a whole round where only their team may take actions"
    if (isSurprised(ctx, attacker)) return surprisedCommandRefusal(attacker);
  } else {
    if (!attacker.readied) return `${attacker.name} has no readied action.`;
    if (ctx.options['readyUsesReaction'] !== false && reactionAvailable(ctx, attacker) === null) {
      return `${attacker.name}'s readied action cannot fire: no reaction is left (R-T7).`;
    }
  }
  const plan = planAttack(ctx, e);
  if (e.weapon === undefined || e.weapon === null) {
    if (!attacker.held.weapon) return `${attacker.name} is not holding ${plan.weapon.name}: Brandish it first, or name the weapon used.`;
    if (!plan.weapon.attributes.includes(e.attribute)) return `${plan.weapon.name} does not use ${e.attribute}.`;
    if (e.proficiency !== 'none' && !plan.weapon.proficiencies.includes(e.proficiency)) return `${plan.weapon.name} does not allow the ${e.proficiency} proficiency.`;
  }
  const around = interceptorsRefusal(ctx, e, target) ?? declaredParryRefusal(ctx, e, target);
  if (around) return around;
  const problem = testProblem(plan.spec, e.testRoll, attacker.name) ?? luckProblem(attacker, e.luckRoll);
  if (problem) return problem;
  const pool = strayPool(ctx, e);
  if (plan.ranged && luckOf(e.luckRoll!) <= 1 && pool.length > 1) {
    const stray = e.strayRoll?.faces;
    if (!stray || stray.length !== 1 || !Number.isInteger(stray[0]) || stray[0]! < 1 || stray[0]! > pool.length) {
      return `The stray shot picks one of ${pool.length} nearby characters: roll 1d${pool.length}.`;
    }
  }
  return null;
}

/** Who the GM placed close enough to intercept: the target's allies in the fight, never the attacker. */
function interceptorsRefusal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>, target: TeamsCombatant): string | null {
  for (const id of e.interceptorIds ?? []) {
    const c = ctx.combatants[id];
    if (!c || !inFight(c)) return 'Someone listed as able to intercept is not in the fight.';
    if (id === e.attackerId) return `${c.name} is the attacker and cannot intercept.`;
    if (id === target.id) return `${c.name} is the target: list the allies who could intercept for them.`;
    if (c.team !== target.team) return `${c.name} is not on ${target.name}'s team and cannot intercept for them.`;
  }
  return null;
}

/** R-T19 off: the target declares a parry with the attack, before the hit is known. */
function declaredParryRefusal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>, target: TeamsCombatant): string | null {
  const slot = e.declaredParry;
  if (!slot) return null;
  if (ctx.options['parryAfterHit'] !== false) return 'In this campaign a parry is chosen after the hit is known (R-T19): leave the declared parry empty and answer the defence prompt.';
  const item = target.items[slot];
  if (!item) return `${target.name} has no shield to parry with.`;
  if (!target.held[slot]) return `${target.name} is not holding ${item.name}: only a wielded item can parry.`;
  if (item.durability === 0) return 'A broken item cannot block or parry.';
  return reactionRefusal(ctx, target, 'stamina');
}

function actionRefusal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ACTION' }>): string | null {
  const label = ACTION_LABELS[e.kind];
  const gate = turnGate(ctx, label) ?? openingGate(ctx);
  if (gate) return gate;
  const active = ctx.combatants[ctx.activeId!]!;
  const actorId = e.actorId ?? active.id;
  const actor = ctx.combatants[actorId];
  if (!actor || !inFight(actor)) return 'That combatant is not in the fight.';
  if (!actor.conscious) return `${actor.name} is unconscious.`;
  const cost = costOfAction(e);
  if (e.kind === 'other' && !e.name?.trim()) return 'Name the action (for example "Reload").';
  if (actorId !== active.id) {
    // R-T9: an ally acting on a Command takes one single action and spends none of its own.
    if (!ctx.turn!.commandTokens.includes(actorId)) return `It is not ${actor.name}'s turn: only a Command lets them act now.`;
    if (isSurprised(ctx, actor)) return surprisedCommandRefusal(actor); // source: "only their team may take actions"
    if (!COMMANDABLE.includes(e.kind) || cost !== 1) return `A Command gives ${actor.name} one single action: ${label} is not one.`;
    // A commanded Move is the ally's Move for this turn (§2.3: once per turn); Sprint would need a Move first.
    const moved = ctx.turn!.alliesMoved.includes(actorId);
    if (e.kind === 'move' && moved) return `${actor.name} has already moved this turn: Move is once per turn.`;
    if (e.kind === 'sprint') {
      if (!moved) return `${actor.name} has not moved this turn: Sprint needs a Move first, and a Command gives one action.`;
      if (actor.stamina < SPRINT_STAMINA) return `${actor.name} has no stamina left to Sprint.`;
    }
    if (e.kind === 'standUp' && !actor.prone) return `${actor.name} is not prone.`;
    if (e.kind === 'brandish') return holdRefusal(actor, e.hold);
    return null;
  }
  if (ctx.turn!.actionsLeft === 0) return `${actor.name} has no actions left this turn.`;
  if (cost > ctx.turn!.actionsLeft && !EXTENDABLE.includes(e.kind)) return needsActions(ctx, actor.name, cost);
  if (cost > ctx.turn!.actionsLeft && actor.inProgress) return `${actor.name} is already in the middle of ${actor.inProgress.name}.`;
  const stepRule = ctx.options['stepExcludesMove'] !== false;
  switch (e.kind) {
    case 'move':
      if (ctx.turn!.moved) return `${actor.name} has already moved this turn: Sprint for another move (1 stamina).`;
      if (stepRule && ctx.turn!.stepped) return `${actor.name} took a Step instead of a Move this turn (R-T8).`;
      return null;
    case 'sprint':
      if (!ctx.turn!.moved && !(ctx.turn!.stepped && !stepRule)) return `${actor.name} must Move before Sprinting${stepRule && ctx.turn!.stepped ? ': a Step does not count (R-T8)' : ''}.`;
      if (actor.stamina < SPRINT_STAMINA) return `${actor.name} has no stamina left to Sprint.`;
      return null;
    case 'standUp':
      return actor.prone ? null : `${actor.name} is not prone.`;
    case 'brandish':
      return holdRefusal(actor, e.hold);
    case 'ready':
      if (!e.trigger?.trim() || !e.readied?.trim()) return 'Ready an Action needs a trigger and the action it fires.';
      return null;
    case 'command': {
      const ally = ctx.combatants[e.targetId ?? ''];
      if (!ally || !inFight(ally)) return 'Choose an ally in the fight to command.';
      if (ally.id === actor.id) return `${actor.name} cannot command themself.`;
      if (ally.team !== actor.team) return `${ally.name} is not on ${actor.name}'s team.`;
      if (!ally.conscious) return `${ally.name} is unconscious and cannot be commanded (R-T9).`;
      if (isSurprised(ctx, ally)) return surprisedCommandRefusal(ally); // source: "only their team may take actions"
      if (ctx.turn!.commanded.includes(ally.id)) return `${actor.name} has already commanded ${ally.name} this turn: once per target.`;
      if (actor.focus < COMMAND_FOCUS) return `${actor.name} needs 2 focus to Command; ${plural(actor.focus, 'focus')} left.`.replace('focuss', 'focus');
      return null;
    }
    case 'resuscitate': {
      const target = ctx.combatants[e.targetId ?? ''];
      if (!target || !inFight(target)) return 'Choose someone in the fight to resuscitate.';
      if (target.conscious) return `${target.name} is conscious.`;
      if (actionDifficulty(ctx, e) === null) return 'Set the Resuscitate difficulty (R-T13).';
      return completionRefusal(ctx, actor, e, cost);
    }
    case 'shortTask':
      if (e.difficulty === undefined || e.difficulty === null) return 'Set the Short Task difficulty.';
      return completionRefusal(ctx, actor, e, cost);
    default:
      return null;
  }
}

/** The surprise round: a Command cannot lend an action to someone who is surprised. */
const surprisedCommandRefusal = (c: TeamsCombatant): string =>
  `${c.name} is surprised and cannot act in the surprise round, not even on a Command.`;

/** Brandish: only items the combatant has can be held; without `hold` it is about items the app does not track. */
function holdRefusal(actor: TeamsCombatant, hold: HoldChoice | null | undefined): string | null {
  if (!hold) return null;
  if ((hold === 'shield' || hold === 'weaponAndShield') && !actor.items.shield) return `${actor.name} has no shield to hold.`;
  return null;
}

/** The hands after a Brandish. */
export const heldAfter = (hold: HoldChoice): Record<ItemSlot, boolean> => ({
  weapon: hold === 'weapon' || hold === 'weaponAndShield',
  shield: hold === 'shield' || hold === 'weaponAndShield',
});

function completionRefusal(ctx: TeamsContext, actor: TeamsCombatant, e: Extract<CombatEvent, { type: 'ACTION' }>, cost: number): string | null {
  const spec = gmTestSpec(ACTION_LABELS[e.kind], e);
  if (!spec) return `Say which dice the ${ACTION_LABELS[e.kind]} test rolls.`;
  if (!completesNow(ctx, cost)) return null; // started now, tested when the last action is paid
  return testProblem(spec, e.testRoll, actor.name) ?? luckProblem(actor, e.luckRoll);
}

function strikeRefusal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'KILLING_STRIKE' }>): string | null {
  const gate = turnGate(ctx, 'A killing strike') ?? openingGate(ctx);
  if (gate) return gate;
  const striker = ctx.combatants[ctx.activeId!]!;
  const target = ctx.combatants[e.targetId];
  if (!target || !inFight(target)) return 'The target is not in the fight.';
  if (target.id === striker.id) return `${striker.name} cannot strike themself.`;
  if (target.conscious) return `${target.name} is conscious: a killing strike needs an unconscious target.`;
  if (ctx.turn!.actionsLeft === 0) return `${striker.name} has no actions left this turn.`;
  if (striker.inProgress) return `${striker.name} is already in the middle of ${striker.inProgress.name}.`;
  const weapon = e.weapon ?? striker.weapon;
  if (!e.weapon && !striker.held.weapon) return `${striker.name} is not holding ${weapon.name}: Brandish it first, or name the weapon used.`;
  const rule = ctx.options['killingStrikeWeapons'];
  if (rule === 'lethalOnly' && weapon.nonlethal) return `This campaign allows killing strikes with lethal weapons only (R-T25): ${weapon.name} is nonlethal.`;
  if (rule === 'nonlethalOnly' && !weapon.nonlethal) return `This campaign follows the literal text (R-T25): a killing strike needs a nonlethal weapon.`;
  if (!completesNow(ctx, KILLING_STRIKE_COST)) return null;
  return strikeRollsRefusal(ctx, striker, { targetId: e.targetId, attribute: e.attribute, proficiency: e.proficiency, weapon }, e);
}

function strikeRollsRefusal(ctx: TeamsContext, striker: TeamsCombatant, d: StrikeDetail, rolls: { testRoll?: Roll | null; luckRoll?: Roll | null; sneakRoll?: Roll | null }): string | null {
  return testProblem(killingStrikeSpec(ctx, striker, d.attribute, d.proficiency), rolls.testRoll, striker.name)
    ?? luckProblem(striker, rolls.luckRoll)
    ?? (sneakNeedsOwnRoll(ctx) ? testProblem(sneakSpec(striker, d.attribute, d.proficiency), rolls.sneakRoll, striker.name) : null);
}

function extendedRefusal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'EXTENDED' }>): string | null {
  const active = ctx.combatants[ctx.activeId ?? ''];
  if (!active || !ctx.turn) return 'Extended actions are continued or abandoned on their owner\'s turn.';
  const x = active.inProgress;
  if (!x) return `${active.name} has no extended action in progress.`;
  if (e.id === 'abandon') return null;
  if (ctx.turn.extendedDecided) return `${active.name} has already continued ${x.name} this turn.`;
  if (!continuationCompletes(ctx)) return null;
  if (x.kind === 'killingStrike') return strikeRollsRefusal(ctx, active, x.detail as unknown as StrikeDetail, e);
  if (x.kind === 'resuscitate' || x.kind === 'shortTask') {
    return testProblem(extendedSpec(x)!, e.testRoll, active.name) ?? luckProblem(active, e.luckRoll);
  }
  return null;
}

function overrideRefusal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'OVERRIDE' }>): string | null {
  const c = ctx.combatants[e.targetId];
  if (!c || c.removed) return 'That combatant is not in the fight.';
  if (e.field === 'actionsLeft' && ctx.activeId !== c.id) return `${c.name} is not acting now.`;
  if (e.field === 'actionsLeft' && e.value > ACTIONS_PER_TURN) return `A turn has at most ${ACTIONS_PER_TURN} actions.`;
  if (['conscious', 'dead', 'prone', 'reaction'].includes(e.field) && e.value > 1) return 'Use 1 for yes and 0 for no.';
  if (e.field === 'shieldDurability' && !c.items.shield) return `${c.name} wields no shield.`;
  if (e.field === 'conscious' && e.value === 1 && c.dead) return `${c.name} is dead: override death first.`;
  return null;
}

/** Why the rules refuse a combat event now, or null; asked several times per event (core/encounter/last-answer.ts). */
export const combatRefusal = lastAnswer((ctx: TeamsContext, e: CombatEvent): string | null => refusalNow(ctx, e));

function refusalNow(ctx: TeamsContext, e: CombatEvent): string | null {
  const head = ctx.pending[0];
  const answers = { defence: 'DEFEND', consciousness: 'CONSCIOUSNESS', death: 'LUCK_TEST' } as const;
  if (head && e.type !== 'OVERRIDE' && e.type !== answers[head.kind]) return pendingSentence(ctx);
  if (!head && (e.type === 'DEFEND' || e.type === 'CONSCIOUSNESS' || e.type === 'LUCK_TEST')) return 'Nothing is waiting for that answer.';
  switch (e.type) {
    case 'ATTACK':
      return attackRefusal(ctx, e);
    case 'ACTION':
      return actionRefusal(ctx, e);
    case 'KILLING_STRIKE':
      return strikeRefusal(ctx, e);
    case 'FREE_ACTION': {
      const gate = turnGate(ctx, 'A free action');
      if (gate) return gate;
      const actor = ctx.combatants[ctx.activeId!]!;
      if (e.kind === 'step') {
        if (ctx.turn!.stepped) return `${actor.name} has already taken a Step this turn.`;
        if (ctx.turn!.moved && ctx.options['stepExcludesMove'] !== false) return `${actor.name} has moved this turn: a Step is instead of a Move (R-T8).`;
      }
      if (e.kind === 'dropProne' && actor.prone) return `${actor.name} is already prone.`;
      if (e.kind === 'dropItem' && e.item) {
        const item = actor.items[e.item];
        if (!item) return `${actor.name} has no shield.`;
        if (!actor.held[e.item]) return `${actor.name} is not holding ${item.name}.`;
      }
      return null;
    }
    case 'FIRE_READIED': {
      const c = ctx.combatants[e.id];
      if (!c || !inFight(c)) return 'That combatant is not in the fight.';
      if (!c.readied) return `${c.name} has no readied action.`;
      if (ctx.options['readyUsesReaction'] !== false && reactionAvailable(ctx, c) === null) return `${c.name}'s readied action cannot fire: no reaction is left (R-T7).`;
      return c.conscious ? null : `${c.name} is unconscious.`;
    }
    case 'EXTENDED':
      return extendedRefusal(ctx, e);
    case 'OPENING_ATTACK':
      return ctx.turn?.openingAttack ? null : 'No opening attack is waiting.';
    case 'DEFEND':
      if (head!.kind !== 'defence') return pendingSentence(ctx);
      return defenceRefusal(ctx, head!.attack, e);
    case 'REACTION_TEST': {
      const c = ctx.combatants[e.reactorId];
      if (!c) return 'That combatant is not in the fight.';
      const problem = reactionRefusal(ctx, c, e.reaction === 'resist' ? 'focus' : 'stamina');
      if (problem) return problem;
      const spec = reactionSpec(c, e.reaction, e);
      if (!spec) return 'Say which dice the Resist test rolls.';
      return testProblem(spec, e.testRoll, c.name) ?? luckProblem(c, e.luckRoll);
    }
    case 'CONSCIOUSNESS': {
      if (head!.kind !== 'consciousness') return pendingSentence(ctx);
      if (e.id === 'unconscious') return null;
      const c = ctx.combatants[head!.id]!;
      return testProblem(reactionSpec(c, 'fortify')!, e.testRoll, c.name) ?? luckProblem(c, e.luckRoll);
    }
    case 'LUCK_TEST':
      if (head!.kind !== 'death') return pendingSentence(ctx);
      return luckProblem(ctx.combatants[head!.id]!, e.luckRoll);
    case 'APPLY_DAMAGE': {
      const target = ctx.combatants[e.targetId];
      return target && inFight(target) ? null : 'That combatant is not in the fight.';
    }
    case 'HEAL':
      return healRefusal(ctx, e);
    case 'OVERRIDE':
      return overrideRefusal(ctx, e);
  }
}

/** The sentence for whatever blocks play now. */
export function pendingSentence(ctx: TeamsContext): string {
  const head = ctx.pending[0];
  if (!head) return '';
  if (head.kind === 'defence') return `${nameOf(ctx, head.attack.targetId)} is hit: choose a defence (or none) first.`;
  if (head.kind === 'consciousness') return `${nameOf(ctx, head.id)} must Fortify or fall unconscious first.`;
  return `${nameOf(ctx, head.id)} risks death: make the luck test first.`;
}

// ---- reducers: the new context after an accepted event ----

function spend(ctx: TeamsContext, cost: number, change: Partial<TurnState> = {}): TeamsContext {
  return { ...ctx, turn: { ...ctx.turn!, actionsLeft: ctx.turn!.actionsLeft - cost, ...change } };
}

function applyAttack(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ATTACK' }>): TeamsContext {
  const outcome = resolveAttack(ctx, e);
  const via = e.via ?? 'turn';
  let next = ctx;
  if (via === 'turn') next = spend(next, 1, { openingAttack: false });
  else if (via === 'command') next = { ...next, turn: { ...next.turn!, commandTokens: next.turn!.commandTokens.filter((id) => id !== e.attackerId) } };
  else {
    // R-T7: the readied action fires as a reaction and spends it (no stamina: it is not a defensive reaction).
    if (ctx.options['readyUsesReaction'] !== false) next = payReaction(next, e.attackerId, null);
    next = update(next, e.attackerId, { readied: null });
  }
  const counts = via === 'turn' || ctx.options['multipleAttackPenaltyScope'] !== 'ownTurnOnly';
  if (counts) next = update(next, e.attackerId, { attacksThisRound: next.combatants[e.attackerId]!.attacksThisRound + 1 });
  // R-T19 off: the parry declared before the roll is paid whatever happens; the item wears when it parries.
  const parry = e.declaredParry ?? null;
  if (parry) next = payReaction(next, e.targetId, 'stamina');
  if (!outcome.hit || (parry && outcome.targetId !== e.targetId)) {
    if (parry) next = setItem(next, e.targetId, parry, { durability: Math.max(0, next.combatants[e.targetId]!.items[parry]!.durability - 1) });
    if (!outcome.hit) return next;
  }
  const pa = pendingFrom(e, outcome);
  if (parry && outcome.targetId === e.targetId) return applyHit(next, pa, `parry:${parry}`);
  return openDefence(next, pa);
}

/** The hit waiting for its defence, with who the GM said can intercept (none listed: every ally). */
export function pendingFrom(e: Extract<CombatEvent, { type: 'ATTACK' }>, outcome: AttackOutcome): PendingAttack {
  return {
    attackerId: e.attackerId, targetId: outcome.targetId, total: outcome.total, unpenalised: outcome.unpenalised, crit: outcome.crit,
    weapon: outcome.weapon, freeReaction: false, interceptedFrom: null, dodged: false,
    interceptorIds: e.interceptorIds?.length ? [...new Set(e.interceptorIds)] : null,
  };
}

function applyAction(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'ACTION' }>): TeamsContext {
  const active = ctx.activeId!;
  const actorId = e.actorId ?? active;
  if (actorId !== active) {
    const next = { ...ctx, turn: { ...ctx.turn!, commandTokens: ctx.turn!.commandTokens.filter((id) => id !== actorId) } };
    const ally = ctx.combatants[actorId]!;
    if (e.kind === 'move') return { ...next, turn: { ...next.turn, alliesMoved: [...next.turn.alliesMoved, actorId] } };
    if (e.kind === 'sprint') return update(next, actorId, { stamina: ally.stamina - SPRINT_STAMINA });
    if (e.kind === 'brandish' && e.hold) return update(next, actorId, { held: heldAfter(e.hold) });
    if (e.kind === 'standUp') return update(next, actorId, { prone: false });
    if (e.kind === 'seekCover') return update(next, actorId, { inCover: true });
    return next;
  }
  const cost = costOfAction(e);
  const actor = ctx.combatants[active]!;
  if (cost > ctx.turn!.actionsLeft) {
    // R-T10: started now with the actions left; the effect waits for the last action on a later turn.
    const x = extendedFrom(ctx, e);
    const started = update(ctx, active, { inProgress: { ...x, paid: ctx.turn!.actionsLeft }, ...(e.kind === 'resuscitate' ? { prone: true } : {}) });
    return spend(started, ctx.turn!.actionsLeft);
  }
  let next = spend(ctx, cost);
  switch (e.kind) {
    case 'move':
      return { ...next, turn: { ...next.turn!, moved: true } };
    case 'sprint':
      return update({ ...next, turn: { ...next.turn!, moved: true } }, active, { stamina: actor.stamina - SPRINT_STAMINA });
    case 'standUp':
      return update(next, active, { prone: false });
    case 'brandish':
      return e.hold ? update(next, active, { held: heldAfter(e.hold) }) : next;
    case 'seekCover':
      return update(next, active, { inCover: true });
    case 'guard':
      return endTurn(update(next, active, { guarding: true }));
    case 'wait':
      return endTurn(update(next, active, { waitExtra: true }));
    case 'ready':
      return endTurn(update(next, active, { readied: { trigger: e.trigger!.trim(), action: e.readied!.trim() } }));
    case 'command':
      next = update(next, active, { focus: actor.focus - COMMAND_FOCUS });
      return { ...next, turn: { ...next.turn!, commanded: [...next.turn!.commanded, e.targetId!], commandTokens: [...next.turn!.commandTokens, e.targetId!] } };
    case 'resuscitate':
      next = update(next, active, { prone: true }); // "Go prone, then make a test"
      return completeAction(next, active, extendedFrom(ctx, e), e);
    default:
      return next;
  }
}

function applyExtended(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'EXTENDED' }>): TeamsContext {
  const id = ctx.activeId!;
  const x = ctx.combatants[id]!.inProgress!;
  if (e.id === 'abandon') return { ...update(ctx, id, { inProgress: null }), turn: { ...ctx.turn!, extendedDecided: true } };
  const pay = Math.min(x.cost - x.paid, ctx.turn!.actionsLeft);
  const paid = x.paid + pay;
  const next = spend(ctx, pay, { extendedDecided: true });
  if (paid < x.cost) return update(next, id, { inProgress: { ...x, paid } });
  return completeAction(update(next, id, { inProgress: null }), id, x, e);
}

function applyStrike(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'KILLING_STRIKE' }>): TeamsContext {
  const id = ctx.activeId!;
  const striker = ctx.combatants[id]!;
  const detail: StrikeDetail = { targetId: e.targetId, attribute: e.attribute, proficiency: e.proficiency, weapon: e.weapon ?? striker.weapon };
  if (!completesNow(ctx, KILLING_STRIKE_COST)) {
    const x: Extended = { kind: 'killingStrike', name: 'Killing strike', cost: KILLING_STRIKE_COST, paid: ctx.turn!.actionsLeft, detail: detail as unknown as Record<string, unknown> };
    return spend(update(ctx, id, { inProgress: x }), ctx.turn!.actionsLeft);
  }
  return completeStrike(spend(ctx, KILLING_STRIKE_COST), id, detail, e);
}

/** Damage from outside an attack (a trap, a spell): deflection reduces physical and elemental damage, minimum 1. */
export function externalDamage(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'APPLY_DAMAGE' }>): { taken: number; reduction: number | null } {
  const target = ctx.combatants[e.targetId]!;
  const reduction = e.damageType ? deflectionAgainst(ctx, null, target, e.damageType, 0) : null;
  return { taken: reduction === null ? e.amount : Math.max(1, e.amount - reduction), reduction };
}

// ---- healing (the chapter has no healing rules: the GM says how much, the pools' maxima are the limit) ----

function healRefusal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'HEAL' }>): string | null {
  const c = ctx.combatants[e.targetId];
  if (!c || c.removed) return 'That combatant is not in the fight.';
  if (c.dead) return `${c.name} is dead: healing cannot bring them back.`;
  const [current, max] = e.pool === 'endurance' ? [c.endurance, c.enduranceMax] : [c.health, c.healthMax];
  if (current >= max) return `${c.name}'s ${e.pool} is already full (${current}/${max}).`;
  return null;
}

/** What a heal restores: the amount, capped at the pool's maximum. */
export const healed = (c: TeamsCombatant, e: { pool: HealedPool; amount: number }): number =>
  Math.min(e.amount, e.pool === 'endurance' ? c.enduranceMax - c.endurance : c.healthMax - c.health);

/**
 * Endurance or health back, up to its maximum. Healing does not wake anyone: the chapter returns someone to
 * consciousness by Resuscitate. Health above zero ends the nonlethal grace (§2.4 step 14: that was "at zero health").
 */
function heal(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'HEAL' }>): TeamsContext {
  const c = ctx.combatants[e.targetId]!;
  const gain = healed(c, e);
  if (e.pool === 'endurance') return update(ctx, c.id, { endurance: c.endurance + gain });
  return update(ctx, c.id, { health: c.health + gain, nonlethalZeroed: false });
}

function applyOverride(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'OVERRIDE' }>): TeamsContext {
  const c = ctx.combatants[e.targetId]!;
  // An override is the way out of a blocking decision about this combatant (RULES.md §6.8).
  const next = { ...ctx, pending: ctx.pending.filter((p) => (p.kind === 'defence' ? p.attack.targetId !== c.id : p.id !== c.id)) };
  const clamp = (value: number, max: number) => Math.max(0, Math.min(max, value));
  switch (e.field) {
    case 'endurance': return update(next, c.id, { endurance: clamp(e.value, c.enduranceMax) });
    case 'health': {
      const health = clamp(e.value, c.healthMax);
      return update(next, c.id, { health, nonlethalZeroed: health === 0 && c.nonlethalZeroed, ...(health === 0 ? { conscious: false } : {}) });
    }
    case 'stamina': return update(next, c.id, { stamina: clamp(e.value, c.staminaMax) });
    case 'focus': return update(next, c.id, { focus: clamp(e.value, c.focusMax) });
    case 'actionsLeft': return { ...next, turn: { ...next.turn!, actionsLeft: e.value } };
    case 'cheatDeathDifficulty': return update(next, c.id, { cheatDeathDifficulty: Math.max(1, e.value) });
    case 'weaponDurability': return setItem(next, c.id, 'weapon', { durability: clamp(e.value, c.items.weapon.durabilityMax) });
    case 'shieldDurability': return setItem(next, c.id, 'shield', { durability: clamp(e.value, c.items.shield!.durabilityMax) });
    case 'conscious': return e.value === 1 ? update(next, c.id, { conscious: true }) : fallUnconscious(next, c.id);
    case 'dead': return e.value === 1 ? killed(next, c.id, 'GM override') : update(next, c.id, { dead: false, deathCause: null });
    case 'prone': return update(next, c.id, { prone: e.value === 1 });
    case 'reaction': return update(next, c.id, e.value === 1 ? { reactionSpent: false, reactionUsedRound: false } : { reactionSpent: true, reactionUsedRound: true });
  }
}

export function applyCombat(ctx: TeamsContext, e: CombatEvent): TeamsContext {
  switch (e.type) {
    case 'ATTACK':
      return applyAttack(ctx, e);
    case 'ACTION':
      return applyAction(ctx, e);
    case 'KILLING_STRIKE':
      return applyStrike(ctx, e);
    case 'FREE_ACTION': {
      const id = ctx.activeId!;
      if (e.kind === 'step') return { ...ctx, turn: { ...ctx.turn!, stepped: true } };
      if (e.kind === 'dropProne') return update(ctx, id, { prone: true });
      if (e.item) return update(ctx, id, { held: { ...ctx.combatants[id]!.held, [e.item]: false } });
      return ctx;
    }
    case 'FIRE_READIED': {
      const next = ctx.options['readyUsesReaction'] !== false ? payReaction(ctx, e.id, null) : ctx; // R-T7
      return update(next, e.id, { readied: null });
    }
    case 'EXTENDED':
      return applyExtended(ctx, e);
    case 'OPENING_ATTACK':
      return { ...ctx, turn: { ...ctx.turn!, openingAttack: false } };
    case 'DEFEND':
      return answerDefence(ctx, e);
    case 'REACTION_TEST':
      return payReaction(ctx, e.reactorId, e.reaction === 'resist' ? 'focus' : 'stamina');
    case 'CONSCIOUSNESS':
      return answerConsciousness(ctx, e);
    case 'LUCK_TEST':
      return answerDeath(ctx, e);
    case 'APPLY_DAMAGE':
      return takeDamage(ctx, e.targetId, externalDamage(ctx, e).taken, { nonlethal: Boolean(e.nonlethal), source: e.source || 'damage' });
    case 'HEAL':
      return heal(ctx, e);
    case 'OVERRIDE':
      return applyOverride(ctx, e);
  }
}

/** A reaction test's total against its difficulty (meet-or-beat), with +4 on a luck roll of 20 or more. */
export function reactionTestOutcome(ctx: TeamsContext, e: Extract<CombatEvent, { type: 'REACTION_TEST' }>): { spec: TestSpec; test: TestResult; luck: number; total: number; success: boolean } {
  const c = ctx.combatants[e.reactorId]!;
  const spec = reactionSpec(c, e.reaction, e)!;
  const test = testResult(spec, e.testRoll!);
  const luck = luckOf(e.luckRoll!);
  const total = test.total + luckBonus(luck);
  return { spec, test, luck, total, success: total >= e.difficulty };
}

/** The active combatant is down or gone: its turn ends at once and counts as taken (R-T3). */
export function activeIsDown(ctx: TeamsContext): boolean {
  const c = ctx.combatants[ctx.activeId ?? ''];
  return ctx.activeId !== null && (!c || !inFight(c) || !c.conscious);
}

/** End of combat: "until next turn" effects, readied and extended actions lapse. */
export function closeCombat(ctx: TeamsContext): TeamsContext {
  const combatants = Object.fromEntries(
    Object.entries(ctx.combatants).map(([id, c]) => [id, { ...c, guarding: false, inCover: false, waitExtra: false, readied: null, inProgress: null }]),
  );
  return { ...ctx, combatants, activeId: null, turn: null };
}
