// Teams' encounter rules as the kernel sees them: the event schema, refusals, the log lines, the runner view, the
// rolls an event needs, and what the fight leaves on the campaign.
import { z } from 'zod';
import type { CombatantView, Consequences, EncounterPrompt, EncounterRules, EncounterSnapshot, EncounterView, GmEvent, LogLine, RollRequest } from '../../encounter/types.ts';
import { eventRound } from '../../encounter/log-round.ts';
import { combatantSeedSchema, idSchema, nameSchema, shortTextSchema } from '../../encounter/schemas.ts';
import * as combat from './combat.ts';
import type { CombatEvent, TestSpec } from './combat.ts';
import { teamsMachine, type TeamsEvent } from './machine.ts';
import { actionForms } from './forms.ts';
import * as rules from './rules.ts';
import type { PendingAttack, Roll, TeamsCombatant, TeamsContext } from './rules.ts';
import { agrees, counted, possessive } from '../../words.ts';

// ---- the event schema ----

const rollSchema = z.strictObject({
  faces: z.array(z.number().int().min(1, { error: 'A die face is at least 1.' }).max(100, { error: 'A die face is at most 100.' })).max(40, { error: 'At most 40 dice in one roll.' }),
  source: z.enum(['app', 'manual']),
});
const optionalRoll = rollSchema.nullable().optional();
const dieSizeSchema = z.union([z.literal(4), z.literal(6), z.literal(8), z.literal(10), z.literal(12), z.literal(20)], { error: 'A test die is d4, d6, d8, d10, d12 or d20.' });
const diceListSchema = z.array(dieSizeSchema).min(1, { error: 'A test rolls at least one die.' }).max(4, { error: 'A test rolls at most four dice.' });
/** Test dice as sizes ([6, 4]) or as typed in an action form ("d6+d4"); stored as sizes. */
const DICE_TEXT = /^d(4|6|8|10|12|20)(\s*\+\s*d(4|6|8|10|12|20)){0,3}$/i;
const testDiceSchema = z.unknown().transform((value, ctx) => {
  if (value === null || value === undefined) return value as null | undefined;
  if (typeof value === 'string' && !DICE_TEXT.test(value.trim())) {
    ctx.addIssue({ code: 'custom', message: 'Write the test dice like d6+d4 (up to four dice).' });
    return z.NEVER;
  }
  const sizes = typeof value === 'string' ? value.trim().toLowerCase().split('+').map((part) => Number(part.trim().slice(1))) : value;
  const parsed = diceListSchema.safeParse(sizes);
  if (!parsed.success) {
    ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'Write the test dice like d6+d4.' });
    return z.NEVER;
  }
  return parsed.data;
});
const bonusSchema = z.number().int({ error: 'A bonus is a whole number.' }).min(-20, { error: 'A bonus is at least −20.' }).max(20, { error: 'A bonus is at most 20.' }).nullable().optional();
const difficultySchema = z.number({ error: 'A difficulty must be a number.' }).int({ error: 'A difficulty is a whole number.' }).min(1, { error: 'A difficulty is at least 1.' }).max(99, { error: 'A difficulty is at most 99.' });
const attributeSchema = z.enum(['strength', 'dexterity'], { error: 'An attack uses strength or dexterity.' });
const proficiencySchema = z.enum(['martial', 'finesse', 'none'], { error: 'The proficiency is martial, finesse or none.' });
const damageTypeSchema = z.enum(rules.DAMAGE_TYPES as [string, ...string[]], { error: `A damage type is one of ${rules.DAMAGE_TYPES.join(', ')}.` });
const weaponSchema = z.strictObject({
  name: nameSchema,
  attributes: z.array(attributeSchema).min(1, { error: 'A weapon allows at least one attribute.' }).max(2),
  proficiencies: z.array(z.enum(['martial', 'finesse'])).max(2),
  damage: z.number().int().min(0).max(99),
  critDamage: z.number().int().min(0).max(99),
  critThreshold: z.number().int().min(2, { error: 'A critical threshold is at least 2.' }).max(99),
  damageType: damageTypeSchema,
  delivery: z.enum(['melee', 'thrown', 'projectile'], { error: 'A weapon is melee, thrown or projectile.' }),
  nonlethal: z.boolean(),
});
const keySchema = z.string({ error: 'A team key must be text.' }).regex(/^[a-z][a-z0-9-]{0,31}$/, { error: 'A team key is up to 32 lower-case letters, digits or dashes.' });
/** What a party member carries in from the campaign. */
const carriedSchema = z.strictObject({
  endurance: z.number().int().min(0).max(999).optional(),
  health: z.number().int().min(0).max(999).optional(),
  stamina: z.number().int().min(0).max(999).optional(),
  focus: z.number().int().min(0).max(999).optional(),
  cheatDeathDifficulty: z.number().int().min(1).max(999).optional(),
  unconscious: z.boolean().optional(),
  items: z.partialRecord(z.enum(['weapon', 'shield']), z.strictObject({ durability: z.number().int().min(0).max(999) })).optional(),
});
/** Team keys in initiative order, as a list or as typed in a form ("party, gm, town"); stored as a list. */
const teamListSchema = z.unknown().transform((value, ctx) => {
  const list = typeof value === 'string' ? value.split(/[\s,>→]+/).filter(Boolean) : value;
  const parsed = z.array(keySchema).max(12, { error: 'At most 12 teams.' }).safeParse(list);
  if (!parsed.success) {
    ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'List the team keys in order, like party, gm.' });
    return z.NEVER;
  }
  return parsed.data;
});
const seedSchema = combatantSeedSchema.extend({ side: keySchema, carried: carriedSchema.optional() });
const textSchema = shortTextSchema;
const itemSlotSchema = z.enum(['weapon', 'shield'], { error: 'The item is the weapon or the shield.' });
const amountSchema = z.number({ error: 'An amount must be a number.' }).int({ error: 'An amount is a whole number.' }).min(1, { error: 'An amount is at least 1.' }).max(999, { error: 'An amount is at most 999.' });
const advantageSchema = z.number().int().min(-3, { error: 'At most 3 levels of disadvantage.' }).max(3, { error: 'At most 3 levels of advantage.' });

const eventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ADD_COMBATANTS'), combatants: z.array(seedSchema).max(200, { error: 'Add at most 200 combatants at once.' }) }),
  z.strictObject({ type: z.literal('REMOVE_COMBATANT'), combatantId: idSchema, reason: textSchema }),
  z.strictObject({ type: z.literal('ADD_TEAM'), key: keySchema, label: nameSchema }),
  z.strictObject({ type: z.literal('SET_TEAM'), id: idSchema, team: keySchema }),
  z.strictObject({ type: z.literal('SET_INSTIGATOR'), combatantId: idSchema.nullable(), attackedTeam: keySchema.nullable().optional() }),
  z.strictObject({ type: z.literal('SET_TEAM_ORDER'), teams: teamListSchema }),
  z.strictObject({ type: z.literal('DECLARE_SURPRISE'), team: keySchema.nullable() }),
  z.strictObject({ type: z.literal('SET_UNSURPRISABLE'), id: idSchema, unsurprisable: z.boolean() }),
  z.strictObject({ type: z.literal('SET_OBJECTIVE'), team: keySchema, text: textSchema }),
  z.strictObject({ type: z.literal('START') }),
  z.strictObject({ type: z.literal('SELECT_MEMBER'), id: idSchema }),
  z.strictObject({ type: z.literal('END_TURN') }),
  z.strictObject({ type: z.literal('ADD_LATE_COMBATANT'), combatant: seedSchema, position: z.number().int().min(0).nullable().optional() }),
  z.strictObject({ type: z.literal('END_COMBAT'), outcome: textSchema }),
  z.strictObject({
    type: z.literal('ATTACK'), attackerId: idSchema, targetId: idSchema, attribute: attributeSchema, proficiency: proficiencySchema,
    via: z.enum(['turn', 'command', 'readied']).optional(), weapon: weaponSchema.nullable().optional(), sneak: z.boolean().optional(), flanking: z.boolean().optional(),
    advantage: advantageSchema.optional(), nearbyIds: z.array(idSchema).max(20).optional(), interceptorIds: z.array(idSchema).max(20).optional(),
    declaredParry: itemSlotSchema.nullable().optional(), testRoll: optionalRoll, luckRoll: optionalRoll, strayRoll: optionalRoll, note: textSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('ACTION'),
    kind: z.enum(['brandish', 'interact', 'move', 'sprint', 'standUp', 'seekCover', 'guard', 'wait', 'ready', 'command', 'resuscitate', 'shortTask', 'other'], { error: 'That is not an action of the action table.' }),
    actorId: idSchema.nullable().optional(), targetId: idSchema.nullable().optional(), name: textSchema.optional(),
    hold: z.enum(combat.HOLD_CHOICES, { error: 'Brandish leaves the weapon, the shield, both or nothing in hand.' }).nullable().optional(),
    cost: z.number().int().min(1, { error: 'An action costs at least 1.' }).max(30, { error: 'An action costs at most 30.' }).optional(),
    trigger: textSchema.optional(), readied: textSchema.optional(), difficulty: difficultySchema.nullable().optional(),
    dice: testDiceSchema.optional(), bonus: bonusSchema, testRoll: optionalRoll, luckRoll: optionalRoll, note: textSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('KILLING_STRIKE'), targetId: idSchema, attribute: attributeSchema, proficiency: proficiencySchema, weapon: weaponSchema.nullable().optional(),
    testRoll: optionalRoll, luckRoll: optionalRoll, sneakRoll: optionalRoll,
  }),
  z.strictObject({ type: z.literal('FREE_ACTION'), kind: z.enum(['dropItem', 'dropProne', 'step'], { error: 'A free action is Drop Item, Drop Prone or Step.' }), item: itemSlotSchema.nullable().optional(), note: textSchema.optional() }),
  z.strictObject({ type: z.literal('FIRE_READIED'), id: idSchema, note: textSchema.optional() }),
  z.strictObject({ type: z.literal('EXTENDED'), id: z.enum(['continue', 'abandon'], { error: 'Continue or abandon the extended action.' }), testRoll: optionalRoll, luckRoll: optionalRoll, sneakRoll: optionalRoll }),
  z.strictObject({ type: z.literal('OPENING_ATTACK'), id: z.literal('waive') }),
  z.strictObject({ type: z.literal('DEFEND'), id: z.string().min(1).max(80), testRoll: optionalRoll, luckRoll: optionalRoll }),
  z.strictObject({
    type: z.literal('REACTION_TEST'), reactorId: idSchema, reaction: z.enum(['dodge', 'fortify', 'resist'], { error: 'The reaction is Dodge, Fortify or Resist.' }),
    difficulty: difficultySchema, against: textSchema, dice: testDiceSchema.optional(), bonus: bonusSchema, testRoll: optionalRoll, luckRoll: optionalRoll,
  }),
  z.strictObject({ type: z.literal('CONSCIOUSNESS'), id: z.enum(['fortify', 'unconscious'], { error: 'Fortify or fall unconscious.' }), testRoll: optionalRoll, luckRoll: optionalRoll }),
  z.strictObject({ type: z.literal('LUCK_TEST'), id: z.literal('roll'), luckRoll: optionalRoll }),
  z.strictObject({
    type: z.literal('APPLY_DAMAGE'), targetId: idSchema,
    amount: amountSchema, source: textSchema, damageType: damageTypeSchema.nullable().optional(), nonlethal: z.boolean().optional(),
  }),
  z.strictObject({
    type: z.literal('HEAL'), targetId: idSchema, pool: z.enum(combat.HEALED_POOLS, { error: 'Healing restores endurance or health.' }), amount: amountSchema, source: textSchema,
  }),
  z.strictObject({
    type: z.literal('OVERRIDE'), targetId: idSchema, field: z.enum(combat.OVERRIDE_FIELDS, { error: 'That is not something an override can set.' }),
    value: z.number().int().min(0).max(999), note: textSchema,
  }),
]);

// ---- refusals ----

const contextOf = (snapshot: EncounterSnapshot) => snapshot.context as TeamsContext;
const inSetup = (snapshot: EncounterSnapshot) => snapshot.matches('setup');
const SETUP_EVENTS = new Set(['ADD_COMBATANTS', 'ADD_TEAM', 'SET_TEAM', 'SET_INSTIGATOR', 'SET_TEAM_ORDER', 'DECLARE_SURPRISE', 'SET_UNSURPRISABLE', 'START']);
const COMBAT_EVENTS = new Set(['ATTACK', 'ACTION', 'KILLING_STRIKE', 'FREE_ACTION', 'FIRE_READIED', 'EXTENDED', 'OPENING_ATTACK', 'DEFEND', 'REACTION_TEST', 'CONSCIOUSNESS', 'LUCK_TEST', 'APPLY_DAMAGE', 'HEAL', 'OVERRIDE']);

function refusal(snapshot: EncounterSnapshot, raw: GmEvent): string | null {
  const event = raw as GmEvent & TeamsEvent;
  const ctx = contextOf(snapshot);
  if (snapshot.matches('ended')) return 'This encounter has ended.';
  if (SETUP_EVENTS.has(event.type) && !inSetup(snapshot)) {
    return event.type === 'ADD_COMBATANTS' ? 'Combat has started: add newcomers as late arrivals.' : 'Teams, initiative and surprise are fixed once combat starts.';
  }
  if (inSetup(snapshot) && !SETUP_EVENTS.has(event.type) && event.type !== 'REMOVE_COMBATANT' && event.type !== 'SET_OBJECTIVE') return 'Start combat first.';
  if (COMBAT_EVENTS.has(event.type)) return combat.combatRefusal(ctx, event as CombatEvent);
  if (ctx.pending.length > 0 && !inSetup(snapshot) && event.type !== 'SET_OBJECTIVE') return combat.pendingSentence(ctx);
  switch (event.type) {
    case 'ADD_COMBATANTS': return rules.checkAddCombatants(ctx, event.combatants);
    case 'REMOVE_COMBATANT': return rules.checkRemove(ctx, event.combatantId);
    case 'ADD_TEAM': return rules.checkAddTeam(ctx, event.key, event.label);
    case 'SET_TEAM': return rules.checkSetTeam(ctx, event.id, event.team);
    case 'SET_INSTIGATOR': return rules.checkInstigator(ctx, event.combatantId, event.attackedTeam);
    case 'SET_TEAM_ORDER': return rules.checkTeamOrder(ctx, event.teams);
    case 'DECLARE_SURPRISE': return rules.checkSurprise(ctx, event.team);
    case 'SET_UNSURPRISABLE': return ctx.combatants[event.id] ? null : 'That combatant is not in this encounter.';
    case 'SET_OBJECTIVE': return ctx.teams.some((t) => t.key === event.team) ? null : 'That team is not in this encounter.';
    case 'START': return rules.checkStart(ctx);
    case 'ADD_LATE_COMBATANT': return rules.checkLateCombatant(ctx, event.combatant);
    case 'SELECT_MEMBER':
      if (ctx.activeId) return `${rules.nameOf(ctx, ctx.activeId)}'s turn is running: end it first.`;
      if (snapshot.matches({ running: 'stalled' })) return 'Nobody is able to take a turn.';
      return rules.checkSelectMember(ctx, event.id);
    case 'END_TURN': {
      if (!ctx.activeId || !ctx.turn) return snapshot.matches({ running: 'stalled' }) ? 'Nobody is able to take a turn.' : `No turn is running: ${agrees(rules.teamLabel(ctx, rules.currentTeam(ctx)), 'picks', 'pick')} a member first.`;
      const active = ctx.combatants[ctx.activeId]!;
      if (!ctx.turn.extendedDecided) return `${active.name} must first continue or abandon ${active.inProgress?.name ?? 'the extended action'} (R-T10).`;
      if (ctx.turn.openingAttack) return `${active.name}'s turn opens with the attack that started the fight (R-T1b): make it, or waive it first.`;
      return null;
    }
    default:
      return null;
  }
}

// ---- rolls an event needs (the app rolls them, or the GM types the faces) ----

const testRequest = (path: string[], who: string, spec: TestSpec): RollRequest => ({
  path,
  label: `${who}: ${spec.label} (${combat.describeDice(spec)}${combat.setsOf(spec) > 1 ? `, ${combat.setsOf(spec)} sets${combat.levelNote(spec.level)}` : ''})`,
  notation: combat.testNotation(spec),
  count: combat.diceCountOf(spec),
  sides: Math.max(...spec.dice),
});
const luckRequest = (path: string[], c: TeamsCombatant, what = 'luck die'): RollRequest => ({ path, label: `${c.name}: ${what}`, notation: `1d${c.luckDie}`, count: 1, sides: c.luckDie });

function rollsFor(snapshot: EncounterSnapshot, raw: GmEvent): RollRequest[] {
  const ctx = contextOf(snapshot);
  const event = raw as GmEvent & TeamsEvent;
  const get = (id: string | null | undefined) => (id ? ctx.combatants[id] : undefined);
  const active = get(ctx.activeId);
  const strikeRolls = (striker: TeamsCombatant, d: { attribute: rules.Attribute; proficiency: rules.Proficiency }) => [
    testRequest(['testRoll'], striker.name, combat.killingStrikeSpec(ctx, striker, d.attribute, d.proficiency)),
    luckRequest(['luckRoll'], striker),
    ...(combat.sneakNeedsOwnRoll(ctx) ? [testRequest(['sneakRoll'], striker.name, combat.sneakSpec(striker, d.attribute, d.proficiency))] : []),
  ];
  try {
    switch (event.type) {
      case 'ATTACK': {
        const attacker = get(event.attackerId);
        if (!attacker || !get(event.targetId)) return [];
        const plan = combat.planAttack(ctx, event);
        const pool = combat.strayPool(ctx, event);
        const stray = plan.ranged && pool.length > 1 ? [{ path: ['strayRoll'], label: `Stray shot: which of ${pool.length} nearby characters (used on a luck roll of 1)`, notation: `1d${pool.length}`, count: 1, sides: pool.length }] : [];
        return [testRequest(['testRoll'], attacker.name, plan.spec), luckRequest(['luckRoll'], attacker), ...stray];
      }
      case 'ACTION': {
        if (event.kind !== 'resuscitate' && event.kind !== 'shortTask') return [];
        const actor = get(event.actorId ?? ctx.activeId);
        const spec = combat.gmTestSpec(combat.ACTION_LABELS[event.kind], event);
        if (!actor || !spec || !combat.completesNow(ctx, combat.costOfAction(event))) return [];
        return [testRequest(['testRoll'], actor.name, spec), luckRequest(['luckRoll'], actor)];
      }
      case 'KILLING_STRIKE':
        if (!active || !combat.completesNow(ctx, combat.KILLING_STRIKE_COST)) return [];
        return strikeRolls(active, event);
      case 'EXTENDED': {
        if (event.id !== 'continue' || !active?.inProgress || !combat.continuationCompletes(ctx)) return [];
        const x = active.inProgress;
        if (x.kind === 'killingStrike') return strikeRolls(active, x.detail as { attribute: rules.Attribute; proficiency: rules.Proficiency });
        const spec = combat.extendedSpec(x);
        return (x.kind === 'resuscitate' || x.kind === 'shortTask') && spec ? [testRequest(['testRoll'], active.name, spec), luckRequest(['luckRoll'], active)] : [];
      }
      case 'DEFEND': {
        const head = ctx.pending[0];
        if (event.id !== 'dodge' || head?.kind !== 'defence') return [];
        const target = get(head.attack.targetId)!;
        return [testRequest(['testRoll'], target.name, combat.reactionSpec(target, 'dodge')!), luckRequest(['luckRoll'], target)];
      }
      case 'REACTION_TEST': {
        const c = get(event.reactorId);
        const spec = c ? combat.reactionSpec(c, event.reaction, event) : null;
        return c && spec ? [testRequest(['testRoll'], c.name, spec), luckRequest(['luckRoll'], c)] : [];
      }
      case 'CONSCIOUSNESS': {
        const head = ctx.pending[0];
        if (event.id !== 'fortify' || head?.kind !== 'consciousness') return [];
        const c = get(head.id)!;
        return [testRequest(['testRoll'], c.name, combat.reactionSpec(c, 'fortify')!), luckRequest(['luckRoll'], c)];
      }
      case 'LUCK_TEST': {
        const head = ctx.pending[0];
        if (head?.kind !== 'death') return [];
        const c = get(head.id)!;
        return [luckRequest(['luckRoll'], c, `luck test against death (${c.cheatDeathDifficulty}+)`)];
      }
      default:
        return [];
    }
  } catch {
    return [];
  }
}

// ---- the log ----

const faces = (roll: Roll | null | undefined) => (roll ? `[${roll.faces.join(', ')}]${roll.source === 'manual' ? ' (typed in)' : ''}` : '');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const signed = (n: number) => (n >= 0 ? `+ ${n}` : `− ${-n}`);
const ordinal = (n: number) => ['first', 'second', 'third', 'fourth', 'fifth'][n - 1] ?? `${n}th`;

function testText(spec: TestSpec, roll: Roll): string {
  const result = combat.testResult(spec, roll);
  const sets = combat.setsOf(spec) > 1 ? ` → sets ${result.setTotals.join(' / ')}, keeps ${result.kept}` : ` = ${result.kept}`;
  return `${combat.describeDice({ ...spec, bonus: 0 })}${combat.levelNote(spec.level)} ${faces(roll)}${sets}${spec.bonus ? ` ${signed(spec.bonus)}` : ''}`;
}

/** A whole test: dice, faces, kept set, bonus, +4 for a luck roll of 20 or more, and the total (no "= 7 = 7"). */
function testTotalText(spec: TestSpec, roll: Roll, luckRoll?: Roll | null): string {
  const luck = luckRoll ? combat.luckBonus(luckRoll.faces[0]!) : 0;
  const total = combat.testResult(spec, roll).total + luck;
  return `${testText(spec, roll)}${luck ? ' + 4 (luck 20+)' : ''}${spec.bonus || luck ? ` = ${total}` : ''}`;
}

/** Endurance and health before → after, and what changed in consciousness or life. */
function poolsText(before: TeamsContext, after: TeamsContext, id: string): string {
  const a = before.combatants[id]!;
  const b = after.combatants[id]!;
  const parts = [`endurance ${b.endurance}/${b.enduranceMax}`, `health ${b.health}/${b.healthMax}`];
  const statuses = [combat.isHarmed(b) ? 'harmed' : '', combat.isBloodied(b) ? 'bloodied' : ''].filter(Boolean);
  let text = `${parts.join(', ')}${statuses.length ? ` (${statuses.join(', ')})` : ''}`;
  if (a.conscious && !b.conscious && !b.dead) text += b.health === 0 ? ', unconscious at zero health' : ', falls unconscious (R-T23)';
  if (b.nonlethalZeroed && !a.nonlethalZeroed) text += '; nonlethal source: no death risk yet';
  return text;
}

function hitLine(before: TeamsContext, after: TeamsContext, pa: PendingAttack, defence: string): string {
  const result = combat.hitDamage(before, pa, defence);
  const target = before.combatants[pa.targetId]!;
  const dmg = pa.crit ? pa.weapon.critDamage : pa.weapon.damage;
  const test = before.options['damageUsesPenalisedTest'] === false ? pa.unpenalised : pa.total;
  const raw = `${Math.max(0, test)} + ${pa.crit ? 'critical damage ' : ''}${dmg} = ${result.raw} ${pa.weapon.damageType}`;
  if (result.blocked) {
    const b = result.blocked;
    const overflow = b.overflow ? `; ${b.overflow} too many for its durability: ${target.name} takes ${result.taken}${result.reduction === null ? ' (no second deflection, R-T22)' : ` after deflection ${result.reduction} (R-T22)`}, ${poolsText(before, after, pa.targetId)}` : `; ${target.name} takes nothing`;
    return `${target.name} blocks with ${b.item}: ${raw} − block ${target.items.shield!.blockValue} = ${b.itemDamage} to the item, durability ${b.durability}${b.durability === 0 ? ' (broken)' : ''}${overflow}.`;
  }
  const parried = result.parried ? ` ${target.name} parries with ${result.parried.item} (+${result.parried.value}${rules.damageClass(pa.weapon.damageType) === 'physical' || before.options['parryScope'] === 'allDeflection' ? '' : ', no effect on this damage type (R-T21)'}; durability −1).` : '';
  const reduction = result.reduction === null ? ' (typeless: not reduced)' : ` − deflection ${result.reduction}${result.raw - result.reduction < 1 ? ', minimum 1' : ''}`;
  return `${parried ? `${parried.trim()} ` : ''}Damage ${raw}${reduction} = ${result.taken}: ${target.name} ${poolsText(before, after, pa.targetId)}.`;
}

function attackLine(event: Extract<CombatEvent, { type: 'ATTACK' }>, before: TeamsContext, after: TeamsContext): LogLine {
  const outcome = combat.resolveAttack(before, event);
  const round = eventRound(before, after);
  const attacker = before.combatants[event.attackerId]!;
  const via = event.via === 'command' ? ' on a Command' : event.via === 'readied' ? ' with a readied action' : '';
  const rulings = [...outcome.rulings, ...(event.via === 'command' ? ['R-T9', 'R-T15'] : []), ...(event.via === 'readied' ? ['R-T7', 'R-T15'] : [])];
  const advantage = outcome.levelParts.length ? ` (${outcome.levelParts.join(', ')})` : '';
  const penalty = outcome.penalty ? ` − ${outcome.penalty} (${ordinal(attacker.attacksThisRound + 1)} attack this round) = ${outcome.total}` : '';
  const target = before.combatants[outcome.targetId]!;
  const shift = combat.sizeShift(attacker, target);
  const evasionNote = [shift ? `size ${signed(shift)}` : '', target.guarding ? 'guarding +1' : ''].filter(Boolean).join(', ');
  const stray = outcome.strayTo ? ` Luck ${outcome.luck}: the shot strays onto ${target.name}${event.strayRoll ? ` (d${combat.strayPool(before, event).length} ${faces(event.strayRoll)})` : ''}.` : '';
  const luck = outcome.crit ? `luck ${outcome.luck} ≥ ${outcome.weapon.critThreshold}: critical, cannot miss` : `luck ${outcome.luck}`;
  const result = outcome.crit ? 'critical hit' : outcome.hit ? 'hit' : 'miss';
  // R-T19 off: the target declared a parry before the roll; it is paid (and wears the item) whatever the roll.
  const parry = event.declaredParry ?? null;
  const parryTarget = before.combatants[event.targetId]!;
  const declared = parry ? ` ${parryTarget.name} parries before the roll with ${parryTarget.items[parry]!.name} (1 stamina, the reaction, R-T19).` : '';
  let text = `${attacker.name} attacks ${rules.nameOf(before, event.targetId)}${via} with ${outcome.weapon.name}${advantage}:${declared} ${testText(outcome.spec, event.testRoll!)}${penalty || !outcome.spec.bonus ? '' : ` = ${outcome.total}`}${penalty}; ${luck}.${stray} Against evasion ${outcome.evasion}${evasionNote ? ` (${evasionNote})` : ''}: ${result}.`;
  if (parry) rulings.push('R-T19');
  if (outcome.hit) {
    const waiting = after.pending[0]?.kind === 'defence' && after.pending[0].attack.attackerId === event.attackerId;
    if (!waiting) {
      const parried = parry && outcome.targetId === event.targetId;
      text += ` ${hitLine(before, after, combat.pendingFrom(event, outcome), parried ? `parry:${parry}` : 'none')}`;
      rulings.push('R-T20', ...(parried ? ['R-T21'] : []));
    }
  }
  return { round, kind: 'attack', actorId: attacker.id, rulings, text };
}

function defendLine(event: Extract<CombatEvent, { type: 'DEFEND' }>, before: TeamsContext, after: TeamsContext): LogLine {
  const head = before.pending[0] as Extract<TeamsContext['pending'][number], { kind: 'defence' }>;
  const pa = head.attack;
  const round = eventRound(before, after);
  const target = before.combatants[pa.targetId]!;
  const free = pa.freeReaction ? ' as a free reaction (R-T14)' : '';
  if (event.id === 'none') return { round, kind: 'damage', actorId: pa.targetId, rulings: ['R-T20'], text: `${target.name} takes the hit. ${hitLine(before, after, pa, 'none')}` };
  if (event.id.startsWith('intercept:')) {
    const ally = before.combatants[event.id.slice(10)]!;
    const stillHit = after.pending[0]?.kind === 'defence' || after.combatants[ally.id]!.endurance !== ally.endurance || after.combatants[ally.id]!.health !== ally.health;
    return { round, kind: 'decision', actorId: ally.id, rulings: ['R-T6'], text: `${ally.name} intercepts (1 stamina), displacing ${target.name} and becoming the target${stillHit ? '' : `: the attack (${pa.total}) misses ${ally.name}'s evasion`}.` };
  }
  if (event.id === 'dodge') {
    const spec = combat.reactionSpec(target, 'dodge')!;
    const total = combat.testResult(spec, event.testRoll!).total + combat.luckBonus(event.luckRoll!.faces[0]!);
    const success = combat.dodgeBeats(before, total, pa.total);
    const lucky = combat.luckBonus(event.luckRoll!.faces[0]!) ? ' + 4 (luck 20+)' : '';
    const rest = success ? 'the attack misses' : after.pending[0]?.kind === 'defence' ? 'still hit' : `still hit. ${hitLine(before, after, { ...pa, dodged: true }, 'none')}`;
    return { round, kind: 'damage', actorId: target.id, rulings: ['R-T18', ...(target.guarding ? ['R-T12'] : [])], text: `${target.name} dodges${free} (1 stamina): ${testText(spec, event.testRoll!)}${lucky} = ${total} against the attack's ${pa.total}: ${rest}` + (success ? '.' : '') };
  }
  return { round, kind: 'damage', actorId: target.id, rulings: ['R-T20', ...(event.id === 'block' ? ['R-T22'] : ['R-T19', 'R-T21'])], text: `${target.name} reacts${free} (1 stamina). ${hitLine(before, after, pa, event.id)}` };
}

function combatLine(event: CombatEvent, before: TeamsContext, after: TeamsContext): LogLine {
  const round = eventRound(before, after);
  const name = (id: string | null | undefined) => rules.nameOf(before, id);
  const actor = before.activeId;
  const left = () => (after.turn ? ` ${plural(after.turn.actionsLeft, 'action')} left.` : '');
  switch (event.type) {
    case 'ATTACK':
      return attackLine(event, before, after);
    case 'ACTION': {
      const actorId = event.actorId ?? actor;
      const who = name(actorId);
      const commanded = actorId !== actor ? ` on ${name(actor)}'s Command` : '';
      const label = event.kind === 'other' ? event.name!.trim() : combat.ACTION_LABELS[event.kind];
      const note = event.note ? ` (${event.note})` : '';
      const started = after.combatants[actorId!]?.inProgress && !before.combatants[actorId!]?.inProgress;
      if (started) {
        const x = after.combatants[actorId!]!.inProgress!;
        return { round, kind: 'turn', actorId, rulings: ['R-T10'], text: `${who} starts ${x.name}${note}: ${x.paid} of ${x.cost} actions paid; it finishes on a later turn.` };
      }
      switch (event.kind) {
        case 'guard': return { round, kind: 'turn', actorId, rulings: ['R-T12'], text: `${who} guards: +1 to every defence and defensive test until their next turn. The turn ends.` };
        case 'wait': return { round, kind: 'turn', actorId, rulings: ['R-T6'], text: `${who} waits: an extra reaction until their next turn. The turn ends.` };
        case 'ready': return { round, kind: 'turn', actorId, rulings: ['R-T7'], text: `${who} readies "${event.readied}" for when ${event.trigger}. The turn ends.` };
        case 'sprint': return { round, kind: 'turn', actorId, text: `${who}${commanded} sprints (1 stamina, ${after.combatants[actorId!]!.stamina} left).${left()}` };
        case 'move': return { round, kind: 'turn', actorId, rulings: commanded ? ['R-T9'] : before.options['stepExcludesMove'] !== false ? ['R-T8'] : [], text: `${who}${commanded}: Move${commanded ? ' (their Move this turn)' : ''}${note}.${left()}` };
        case 'brandish': return { round, kind: 'turn', actorId, text: `${who}${commanded} brandishes${event.hold ? `: now holding ${holdingText(after.combatants[actorId!]!)}` : ' (weapon and shield stay as they were)'}${note}.${left()}` };
        case 'command': return { round, kind: 'turn', actorId, rulings: ['R-T9'], text: `${who} commands ${name(event.targetId)} (2 focus): ${name(event.targetId)} may take one action now.${left()}` };
        case 'resuscitate': {
          const difficulty = combat.actionDifficulty(before, event)!;
          const woke = after.combatants[event.targetId!]!.conscious;
          return { round, kind: 'turn', actorId, rulings: event.difficulty === undefined || event.difficulty === null ? ['R-T13'] : [], text: `${who} goes prone and tries to resuscitate ${name(event.targetId)}: ${testTotalText(combat.gmTestSpec('Resuscitate', event)!, event.testRoll!, event.luckRoll)} against ${difficulty}: ${woke ? `${name(event.targetId)} is conscious again` : 'no response'}.${left()}` };
        }
        case 'shortTask': {
          const total = combat.actionTestTotal({ kind: 'shortTask', name: 'Short Task', cost: 3, paid: 3, detail: { dice: event.dice, bonus: event.bonus } }, event)!;
          return { round, kind: 'turn', actorId, text: `${who} performs a short task${event.name ? ` (${event.name})` : ''}: ${testTotalText(combat.gmTestSpec('Short Task', event)!, event.testRoll!, event.luckRoll)} against ${event.difficulty}: ${total >= event.difficulty! ? 'success' : 'failure'}.${left()}` };
        }
        default:
          return { round, kind: 'turn', actorId, text: `${who}${commanded}: ${label}${note}.${left()}` };
      }
    }
    case 'KILLING_STRIKE': {
      if (after.combatants[actor!]!.inProgress) return { round, kind: 'turn', actorId: actor, rulings: ['R-T10', 'R-T25'], text: `${name(actor)} starts a killing strike on ${name(event.targetId)}: ${after.combatants[actor!]!.inProgress!.paid} of 3 actions paid.` };
      return strikeLine(before, after, actor!, { targetId: event.targetId, attribute: event.attribute, proficiency: event.proficiency, weapon: event.weapon ?? before.combatants[actor!]!.weapon }, event, round);
    }
    case 'FREE_ACTION': {
      // An item named with a Step or Drop Prone (a form left filled in) means nothing and names nothing.
      const dropped = (event.kind === 'dropItem' && event.item && before.combatants[actor!]!.items[event.item]?.name) || 'an item';
      const what = event.kind === 'step' ? 'takes a 1 m Step instead of a Move' : event.kind === 'dropProne' ? 'drops prone' : `drops ${dropped}`;
      return { round, kind: 'turn', actorId: actor, rulings: event.kind === 'step' ? ['R-T8'] : [], text: `${name(actor)} ${what}${event.note ? ` (${event.note})` : ''} (free).` };
    }
    case 'FIRE_READIED': {
      const c = before.combatants[event.id]!;
      return { round, kind: 'decision', actorId: event.id, rulings: ['R-T7'], text: `${c.name}'s readied action fires: ${c.readied!.action}${event.note ? ` (${event.note})` : ''}.` };
    }
    case 'EXTENDED': {
      const x = before.combatants[actor!]!.inProgress!;
      if (event.id === 'abandon') return { round, kind: 'turn', actorId: actor, rulings: ['R-T10'], text: `${name(actor)} abandons ${x.name} at no cost (${x.paid} of ${x.cost} actions spent).${left()}` };
      const still = after.combatants[actor!]!.inProgress;
      if (still) return { round, kind: 'turn', actorId: actor, rulings: ['R-T10'], text: `${name(actor)} continues ${x.name}: ${still.paid} of ${still.cost} actions paid.` };
      if (x.kind === 'killingStrike') return strikeLine(before, after, actor!, x.detail as never, event, round);
      let result = '';
      if (x.kind === 'resuscitate' || x.kind === 'shortTask') {
        const total = combat.actionTestTotal(x, event)!;
        const target = x.detail['targetId'] as string | null;
        result = `: ${testTotalText(combat.extendedSpec(x)!, event.testRoll!, event.luckRoll)} against ${x.detail['difficulty']}, ${x.kind === 'resuscitate' ? (after.combatants[target!]?.conscious ? `${name(target)} is conscious again` : 'no response') : total >= Number(x.detail['difficulty']) ? 'success' : 'failure'}`;
      }
      return { round, kind: 'turn', actorId: actor, rulings: ['R-T10'], text: `${name(actor)} finishes ${x.name} (${counted(x.cost - x.paid, 'more action', 'more actions')})${result}.${left()}` };
    }
    case 'OPENING_ATTACK':
      return { round, kind: 'decision', actorId: actor, rulings: ['R-T1b'], text: `The GM waives ${name(actor)}'s opening attack.` };
    case 'DEFEND':
      return defendLine(event, before, after);
    case 'REACTION_TEST': {
      const o = combat.reactionTestOutcome(before, event);
      const label = event.reaction === 'dodge' ? 'Dodge' : event.reaction === 'fortify' ? 'Fortify' : 'Resist';
      return { round, kind: 'decision', actorId: event.reactorId, rulings: ['R-T6'], text: `${name(event.reactorId)}: ${label} against ${event.against || 'an effect'} (1 ${event.reaction === 'resist' ? 'focus' : 'stamina'}): ${testTotalText(o.spec, event.testRoll!, event.luckRoll)} against ${event.difficulty}: ${o.success ? 'success' : 'failure'}.` };
    }
    case 'CONSCIOUSNESS': {
      const head = before.pending[0] as Extract<TeamsContext['pending'][number], { kind: 'consciousness' }>;
      const c = before.combatants[head.id]!;
      if (event.id === 'unconscious') return { round, kind: 'decision', actorId: c.id, text: `${c.name} falls unconscious.` };
      const spec = combat.reactionSpec(c, 'fortify')!;
      const kept = after.combatants[c.id]!.conscious;
      return { round, kind: 'decision', actorId: c.id, rulings: ['R-T6'], text: `${c.name} fortifies (1 stamina, the reaction): ${testTotalText(spec, event.testRoll!, event.luckRoll)} against missing health ${head.missing}: ${kept ? 'stays conscious' : 'falls unconscious'}.` };
    }
    case 'LUCK_TEST': {
      const head = before.pending[0] as Extract<TeamsContext['pending'][number], { kind: 'death' }>;
      const c = before.combatants[head.id]!;
      const d = after.combatants[head.id]!;
      const face = event.luckRoll!.faces[0]!;
      return d.dead
        ? { round, kind: 'decision', actorId: c.id, text: `${c.name} risks death: luck d${c.luckDie} ${faces(event.luckRoll)} = ${face} against ${c.cheatDeathDifficulty}: fails and dies.` }
        : { round, kind: 'decision', actorId: c.id, text: `${c.name} risks death: luck d${c.luckDie} ${faces(event.luckRoll)} = ${face} against ${c.cheatDeathDifficulty}: cheats death, unconscious at zero health. Cheat-death difficulty is now ${d.cheatDeathDifficulty} for good.` };
    }
    case 'APPLY_DAMAGE': {
      const { taken, reduction } = combat.externalDamage(before, event);
      const reduced = reduction === null ? '' : ` ${event.damageType} − deflection ${reduction}${event.amount - reduction < 1 ? ', minimum 1' : ''} = ${taken}`;
      return { round, kind: 'damage', actorId: event.targetId, text: `${name(event.targetId)} takes ${event.amount}${reduced}${event.nonlethal ? ' nonlethal' : ''} damage${event.source ? ` from ${event.source}` : ''}: ${poolsText(before, after, event.targetId)}.` };
    }
    case 'HEAL': {
      const c = before.combatants[event.targetId]!;
      const gain = combat.healed(c, event);
      const [from, max] = event.pool === 'endurance' ? [c.endurance, c.enduranceMax] : [c.health, c.healthMax];
      const capped = gain < event.amount ? ` (capped at the maximum ${max})` : '';
      const asleep = !c.conscious ? `; still unconscious: Resuscitate wakes them` : '';
      return { round, kind: 'damage', actorId: c.id, text: `${c.name} heals ${event.amount} ${event.pool}${event.source ? ` from ${event.source}` : ''}: ${event.pool} ${from} → ${from + gain}${capped}, ${poolsText(before, after, c.id)}${asleep}.` };
    }
    case 'OVERRIDE':
      return { round, kind: 'decision', actorId: event.targetId, text: `GM override: ${name(event.targetId)}'s ${event.field} set to ${event.value}${event.note ? ` (${event.note})` : ''}.` };
  }
}

/** What a combatant has in hand, for the log and the runner. */
function holdingText(c: TeamsCombatant): string {
  const items = (['weapon', 'shield'] as const).filter((slot) => c.items[slot] && c.held[slot]).map((slot) => c.items[slot]!.name);
  return items.length ? items.join(' and ') : 'nothing';
}

function strikeLine(before: TeamsContext, after: TeamsContext, strikerId: string, d: { targetId: string; attribute: rules.Attribute; proficiency: rules.Proficiency; weapon: rules.Weapon }, rolls: { testRoll?: Roll | null; luckRoll?: Roll | null; sneakRoll?: Roll | null }, round: number): LogLine {
  const o = combat.resolveStrike(before, strikerId, d, rolls);
  const striker = before.combatants[strikerId]!;
  const target = before.combatants[d.targetId]!;
  const spec = combat.killingStrikeSpec(before, striker, d.attribute, d.proficiency);
  const head = `${striker.name} makes a killing strike on ${target.name} with ${d.weapon.name}: ${testText(spec, rolls.testRoll!)}${o.total !== o.test.total ? ` − ${o.test.total - o.total} (multiple attack penalty)` : ''} = ${o.total} against constitution ${o.constitution}`;
  const rulings = ['R-T15', 'R-T15b', 'R-T25'];
  if (o.killed) return { round, kind: 'attack', actorId: strikerId, rulings, text: `${head}: ${target.name} dies.` };
  const s = o.sneak!;
  const sneak = `: it fails, so a sneak attack is made instead: ${s.total} against evasion ${s.evasion}${s.crit ? ' (critical)' : ''}, ${s.hit ? `hit for ${s.damage!.raw}${s.damage!.reduction === null ? '' : ` − ${s.damage!.reduction}`} = ${s.damage!.taken}: ${poolsText(before, after, d.targetId)}` : 'miss'}.`;
  return { round, kind: 'attack', actorId: strikerId, rulings, text: `${head}${sneak}` };
}

function eventLine(event: GmEvent & TeamsEvent, before: TeamsContext, after: TeamsContext): LogLine | null {
  const round = eventRound(before, after);
  if (COMBAT_EVENTS.has(event.type)) return combatLine(event as CombatEvent, before, after);
  switch (event.type) {
    case 'ADD_COMBATANTS': {
      const byTeam = after.teams.map((t) => ({ t, names: event.combatants.filter((c) => c.side === t.key).map((c) => c.name) })).filter((x) => x.names.length);
      return { round, kind: 'setup', text: `Added ${byTeam.map((x) => `${x.names.join(', ')} to ${x.t.label}`).join('; ')}.` };
    }
    case 'REMOVE_COMBATANT': {
      const name = rules.nameOf(before, event.combatantId);
      if (!before.started) return { round, kind: 'setup', text: `${name} was taken off the roster.` };
      return { round, kind: 'removal', actorId: event.combatantId, text: `${name} leaves the fight${event.reason ? ` (${event.reason})` : ''}.` };
    }
    case 'ADD_TEAM':
      return { round, kind: 'setup', text: `New team: ${event.label}, last in initiative for now.` };
    case 'SET_TEAM':
      return { round, kind: 'setup', text: `${rules.nameOf(after, event.id)} joins ${rules.teamLabel(after, event.team)}.` };
    case 'SET_INSTIGATOR':
      return event.combatantId === null
        ? { round, kind: 'setup', text: 'No instigator: the GM sets the team order.', rulings: ['R-T1'] }
        : { round, kind: 'setup', text: `${rules.nameOf(after, event.combatantId)} starts the fight against ${rules.teamLabel(after, after.instigator!.attackedTeam)}: initiative ${after.teamOrder.map((t) => rules.teamLabel(after, t)).join(' → ')}.` };
    case 'SET_TEAM_ORDER':
      return { round, kind: 'setup', text: `Team order: ${after.teamOrder.map((t) => rules.teamLabel(after, t)).join(' → ')}.`, rulings: ['R-T1'] };
    case 'DECLARE_SURPRISE':
      return { round, kind: 'setup', text: event.team === null ? 'No surprise.' : `${agrees(rules.teamLabel(after, event.team), 'has', 'have')} surprise: a surprise round where only they (and those who cannot be surprised) act.` };
    case 'SET_UNSURPRISABLE':
      return { round, kind: 'setup', text: `${rules.nameOf(after, event.id)} ${event.unsurprisable ? 'cannot' : 'can'} be surprised.` };
    case 'SET_OBJECTIVE':
      return { round, kind: 'setup', rulings: ['R-T11'], text: `${possessive(rules.teamLabel(after, event.team))} objective: ${event.text || '—'}.` };
    case 'START':
      return { round, kind: 'round', text: `Combat starts. Initiative: ${after.teamOrder.map((t) => rules.teamLabel(after, t)).join(' → ')}.` };
    case 'SELECT_MEMBER':
      return null; // the turn line below says it
    case 'END_TURN': {
      const id = before.activeId;
      return { round: before.round, kind: 'turn', actorId: id, text: `${rules.nameOf(before, id)} ends the turn${before.turn?.actionsLeft ? ` with ${plural(before.turn.actionsLeft, 'action')} unused` : ''}.` };
    }
    case 'ADD_LATE_COMBATANT': {
      // source: "the team with the benefit of surprise gets to take a whole round where only their team may take
      // actions": an arrival on another team during that round waits for round 1 like the rest of its team.
      const arrival = after.combatants[event.combatant.id]!;
      const when = rules.isSurprised(after, arrival)
        ? `it is the surprise round, so they act from round 1${after.options['surprisedCannotReact'] !== false ? ' and cannot react until then (R-T5)' : ''}`
        : 'they may be picked at its next go';
      return { round, kind: 'order', actorId: event.combatant.id, text: `${event.combatant.name} arrives late and joins ${rules.teamLabel(after, event.combatant.side)}; ${when}.` };
    }
    case 'END_COMBAT':
      return { round, kind: 'end', rulings: ['R-T11', 'R-T26'], text: `Combat ends${event.outcome ? `: ${event.outcome}` : ''}. ${after.options['poolsAfterCombat'] === 'reset' ? 'Pools return to their maximum.' : 'Endurance, health, stamina and focus stay as they are.'}` };
  }
  return null;
}

/** Lines every event may cause as a side effect: a new round, skipped teams, a new turn, decisions, deaths. */
function consequenceLines(before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  const a = contextOf(before);
  const b = contextOf(after);
  const lines: LogLine[] = [];
  if (after.matches('ended')) return lines;
  // Turns that ended without END_TURN: lost to unconsciousness or removal (R-T3).
  if (a.activeId && b.activeId !== a.activeId && !before.matches('setup')) {
    const c = b.combatants[a.activeId]!;
    if (!c.conscious || c.dead || c.removed) lines.push({ round: a.round, kind: 'turn', actorId: c.id, rulings: ['R-T3'], text: `${c.name}'s turn ends at once and counts as taken.` });
  }
  for (const id of b.roster) {
    const x = a.combatants[id];
    const y = b.combatants[id]!;
    if (x && x.inProgress && !y.inProgress && !y.conscious && x.conscious) lines.push({ round: b.round, kind: 'turn', actorId: id, rulings: ['R-T10'], text: `${y.name} loses consciousness: ${x.inProgress.name} is abandoned.` });
  }
  if (b.round !== a.round || (b.started && !a.started)) {
    lines.push(b.surpriseRound
      ? { round: b.round, kind: 'round', rulings: ['R-T5'], text: `Surprise round: only ${agrees(rules.teamLabel(b, b.surpriseTeam), 'acts', 'act')}, with anyone who cannot be surprised; the surprised cannot react.` }
      : { round: b.round, kind: 'round', rulings: ['R-T2'], text: `Round ${b.round} begins: ${rules.teamLabel(b, b.teamOrder[b.teamCursor])} first.` });
  }
  const picking = after.matches({ running: 'teamPick' });
  if (picking && (!before.matches({ running: 'teamPick' }) || a.teamCursor !== b.teamCursor)) {
    const skipped: string[] = [];
    if (b.round === a.round && a.activeId && !b.activeId) {
      const n = b.teamOrder.length;
      const activeTeam = a.combatants[a.activeId]!.team;
      for (let i = (b.teamOrder.indexOf(activeTeam) + 1) % n; i !== b.teamCursor; i = (i + 1) % n) skipped.push(b.teamOrder[i]!);
    }
    const team = rules.teamLabel(b, b.teamOrder[b.teamCursor]);
    const skipNames = skipped.map((t) => rules.teamLabel(b, t));
    const skip = skipped.length ? `${skipped.length === 1 ? agrees(skipNames[0]!, 'has', 'have') : `${skipNames.join(', ')} have`} nobody left to act this round. ` : '';
    lines.push({ round: b.round, kind: 'order', text: `${skip}${agrees(team, 'picks', 'pick')} a member to act.` });
  }
  if (b.activeId && (b.activeId !== a.activeId || b.round !== a.round)) {
    const c = b.combatants[b.activeId]!;
    const reaction = combat.reactionAvailable(b, c) ? 'reaction ready' : 'no reaction';
    const extra = b.turn?.openingAttack ? ' It opens with the attack that started the fight.' : !b.turn?.extendedDecided ? ` ${c.inProgress!.name} is in progress: continue or abandon it.` : '';
    lines.push({ round: b.round, kind: 'turn', actorId: c.id, rulings: b.turn?.openingAttack ? ['R-T1b'] : !b.turn?.extendedDecided ? ['R-T10'] : [], text: `${c.name}'s turn (${rules.teamLabel(b, c.team)}): 3 actions, ${reaction}.${extra}` });
  }
  for (const p of b.pending) {
    const known = a.pending.some((q) => JSON.stringify(q) === JSON.stringify(p));
    if (known) continue;
    if (p.kind === 'consciousness') lines.push({ round: b.round, kind: 'decision', actorId: p.id, rulings: ['R-T23'], text: `${rules.nameOf(b, p.id)} is missing ${p.missing} health, more than their constitution ${b.combatants[p.id]!.constitution}: Fortify (against ${p.missing}) or fall unconscious?` });
    if (p.kind === 'death') lines.push({ round: b.round, kind: 'decision', actorId: p.id, rulings: ['R-T24', 'R-T27'], text: `${rules.nameOf(b, p.id)} is at zero health and risks death: luck test against ${b.combatants[p.id]!.cheatDeathDifficulty}.` });
    if (p.kind === 'defence') lines.push({ round: b.round, kind: 'decision', actorId: p.attack.targetId, rulings: ['R-T19'], text: `${rules.nameOf(b, p.attack.targetId)} is hit${p.attack.crit ? ' critically' : ''}: block, parry, dodge, intercept, or take it?` });
  }
  const standing = rules.teamsStanding(b);
  if (b.started && standing.length <= 1 && rules.teamsStanding(a).length > 1) {
    lines.push({ round: b.round, kind: 'decision', rulings: ['R-T11'], text: standing.length === 1 ? `Only ${agrees(rules.teamLabel(b, standing[0]), 'is', 'are')} left standing: the GM may end combat.` : 'No team is left standing: the GM may end combat.' });
  }
  if (after.matches({ running: 'stalled' }) && !before.matches({ running: 'stalled' })) lines.push({ round: b.round, kind: 'order', text: 'Nobody is able to take a turn.' });
  return lines;
}

function describe(raw: GmEvent, before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  const line = eventLine(raw as GmEvent & TeamsEvent, contextOf(before), contextOf(after));
  return [...(line ? [line] : []), ...consequenceLines(before, after)];
}

// ---- the runner's view ----

function combatantTags(ctx: TeamsContext, c: TeamsCombatant): string[] {
  const tags: string[] = [];
  if (c.dead) tags.push('dead');
  else if (!c.conscious) tags.push('unconscious');
  if (combat.isHarmed(c)) tags.push('harmed');
  if (combat.isBloodied(c)) tags.push('bloodied');
  if (c.prone) tags.push('prone');
  if (c.guarding) tags.push('guarding');
  if (c.inCover) tags.push('in cover');
  if (c.waitExtra) tags.push('waiting: +1 reaction');
  if (c.readied) tags.push(`readied: ${c.readied.action} (when ${c.readied.trigger})`);
  if (rules.isSurprised(ctx, c)) tags.push('surprised');
  if (c.unsurprisable) tags.push('cannot be surprised');
  if (c.inProgress) tags.push(`${c.inProgress.name} ${c.inProgress.paid}/${c.inProgress.cost}`);
  // What the turn has used up: the active one's Move or Step, an ally's Move on a Command, a Command's action to take.
  if (ctx.turn && ((ctx.activeId === c.id && ctx.turn.moved) || ctx.turn.alliesMoved.includes(c.id))) tags.push('moved');
  if (ctx.turn && ctx.activeId === c.id && ctx.turn.stepped) tags.push('stepped');
  if (ctx.turn?.commandTokens.includes(c.id)) tags.push('commanded: 1 action');
  if (c.nonlethalZeroed && c.health === 0) tags.push('nonlethal grace');
  if (ctx.instigator?.combatantId === c.id) tags.push('instigator');
  for (const item of [c.items.weapon, c.items.shield]) if (item && item.durability === 0) tags.push(`${item.name} broken`);
  if (ctx.started && !c.dead && c.removed === null) tags.push(combat.reactionAvailable(ctx, c) ? (combat.reactionAvailable(ctx, c) === 'extra' ? 'extra reaction' : 'reaction ready') : 'reaction spent');
  return tags;
}

function combatantView(ctx: TeamsContext, id: string, status: CombatantView['status'], slot: number | null): CombatantView {
  const c = ctx.combatants[id]!;
  return {
    id,
    name: c.name,
    side: c.team,
    sideLabel: rules.teamLabel(ctx, c.team),
    status,
    slot,
    health: { label: 'Health', current: c.health, max: c.healthMax },
    tags: combatantTags(ctx, c),
    ...(c.removed ? { removedReason: c.removed.reason || 'left the fight' } : c.dead ? { removedReason: `dead${c.deathCause ? ` (${c.deathCause})` : ''}` } : {}),
    ...(c.dead ? { dead: true } : {}),
    stats: [
      { label: 'Endurance', value: `${c.endurance}/${c.enduranceMax}` },
      { label: 'Stamina', value: `${c.stamina}/${c.staminaMax}` },
      { label: 'Focus', value: `${c.focus}/${c.focusMax}` },
      { label: 'Cheat death', value: `DC ${c.cheatDeathDifficulty}` },
      { label: 'Holding', value: holdingText(c) },
      ...(c.inProgress ? [{ label: c.inProgress.name, value: `${c.inProgress.paid}/${c.inProgress.cost} actions` }] : []),
    ],
    details: {
      team: c.team,
      endurance: c.endurance,
      enduranceMax: c.enduranceMax,
      stamina: c.stamina,
      staminaMax: c.staminaMax,
      focus: c.focus,
      focusMax: c.focusMax,
      constitution: c.constitution,
      evasion: c.evasion,
      cheatDeathDifficulty: c.cheatDeathDifficulty,
      harmed: combat.isHarmed(c),
      bloodied: combat.isBloodied(c),
      conscious: c.conscious,
      reaction: combat.reactionAvailable(ctx, c),
      attacksThisRound: c.attacksThisRound,
      inProgress: c.inProgress ? { name: c.inProgress.name, paid: c.inProgress.paid, cost: c.inProgress.cost } : null,
      items: c.items,
      held: c.held,
    },
  };
}

function prompt(snapshot: EncounterSnapshot, ctx: TeamsContext): EncounterPrompt | null {
  const head = ctx.pending[0];
  if (head?.kind === 'defence') {
    const pa = head.attack;
    const target = ctx.combatants[pa.targetId]!;
    return {
      kind: 'defence', answer: 'DEFEND', subjectId: target.id,
      text: `${rules.nameOf(ctx, pa.attackerId)} ${pa.crit ? 'critically hits' : 'hits'} ${target.name} (attack ${pa.total}, ${pa.weapon.damageType}). Defend?`,
      choices: [{ id: 'none', label: 'Take the hit' }, ...combat.defenceChoices(ctx, pa)],
      details: { attackTotal: pa.total, crit: pa.crit, freeReaction: pa.freeReaction, damageType: pa.weapon.damageType },
    };
  }
  if (head?.kind === 'consciousness') {
    const c = ctx.combatants[head.id]!;
    return {
      kind: 'consciousness', answer: 'CONSCIOUSNESS', subjectId: c.id,
      text: `${c.name} is missing ${head.missing} health (constitution ${c.constitution}): Fortify against ${head.missing} (1 stamina, the reaction) or fall unconscious?`,
      choices: [{ id: 'fortify', label: `Fortify (${combat.describeDice(combat.reactionSpec(c, 'fortify')!)})` }, { id: 'unconscious', label: 'Fall unconscious' }],
      details: { difficulty: head.missing },
    };
  }
  if (head?.kind === 'death') {
    const c = ctx.combatants[head.id]!;
    return {
      kind: 'death', answer: 'LUCK_TEST', subjectId: c.id,
      text: `${c.name} is at zero health and risks death: luck test, d${c.luckDie} against ${c.cheatDeathDifficulty}.`,
      choices: [{ id: 'roll', label: `Roll the luck die (${c.cheatDeathDifficulty}+)` }],
      details: { difficulty: c.cheatDeathDifficulty },
    };
  }
  if (snapshot.matches({ running: 'teamPick' })) {
    const team = rules.currentTeam(ctx)!;
    return {
      kind: 'selectMember', answer: 'SELECT_MEMBER',
      text: `${rules.teamLabel(ctx, team)}: who takes the next turn?`,
      choices: rules.eligibleMembers(ctx, team).map((id) => ({ id, label: rules.nameOf(ctx, id) })),
      details: { team },
    };
  }
  const active = ctx.combatants[ctx.activeId ?? ''];
  if (active && ctx.turn && !ctx.turn.extendedDecided && active.inProgress) {
    const x = active.inProgress;
    return {
      kind: 'extended', answer: 'EXTENDED', subjectId: active.id,
      text: `${active.name} is in the middle of ${x.name} (${x.paid} of ${x.cost} actions): continue or abandon it?`,
      choices: [{ id: 'continue', label: `Continue (${counted(Math.min(x.cost - x.paid, ctx.turn.actionsLeft), 'action')})` }, { id: 'abandon', label: 'Abandon (free)' }],
    };
  }
  if (active && ctx.turn?.openingAttack) {
    return {
      kind: 'openingAttack', answer: 'OPENING_ATTACK', subjectId: active.id,
      text: `${active.name} started the fight: their turn opens with that attack on ${rules.teamLabel(ctx, ctx.instigator?.attackedTeam)}.`,
      choices: [{ id: 'waive', label: 'Waive it' }],
      details: { attackedTeam: ctx.instigator?.attackedTeam },
    };
  }
  return null;
}

function allowedEvents(snapshot: EncounterSnapshot, ctx: TeamsContext): string[] {
  if (snapshot.matches('setup')) return ['ADD_COMBATANTS', 'REMOVE_COMBATANT', 'ADD_TEAM', 'SET_TEAM', 'SET_INSTIGATOR', 'SET_TEAM_ORDER', 'DECLARE_SURPRISE', 'SET_UNSURPRISABLE', 'SET_OBJECTIVE', 'START'];
  if (snapshot.matches('ended')) return [];
  const head = ctx.pending[0];
  if (head) return [{ defence: 'DEFEND', consciousness: 'CONSCIOUSNESS', death: 'LUCK_TEST' }[head.kind], 'OVERRIDE'];
  const anytime = ['REMOVE_COMBATANT', 'ADD_LATE_COMBATANT', 'END_COMBAT', 'APPLY_DAMAGE', 'HEAL', 'OVERRIDE', 'SET_OBJECTIVE', 'REACTION_TEST'];
  if (Object.values(ctx.combatants).some((c) => c.readied)) anytime.push('FIRE_READIED', 'ATTACK');
  if (snapshot.matches({ running: 'teamPick' })) return ['SELECT_MEMBER', ...anytime];
  if (snapshot.matches({ running: 'extendedChoice' })) return ['EXTENDED', ...anytime];
  if (snapshot.matches({ running: 'turn' }) && ctx.turn) {
    if (ctx.turn.openingAttack) return ['ATTACK', 'OPENING_ATTACK', 'FREE_ACTION', ...anytime];
    const turn = ['END_TURN', 'FREE_ACTION'];
    if (ctx.turn.actionsLeft > 0) turn.push('ATTACK', 'ACTION', 'KILLING_STRIKE');
    else if (ctx.turn.commandTokens.length) turn.push('ATTACK', 'ACTION');
    if (ctx.combatants[ctx.activeId!]?.inProgress) turn.push('EXTENDED');
    return [...new Set([...turn, ...anytime])];
  }
  return anytime;
}

/** Acted in this round's order, then the active one, then who is still to act by team, then the fallen. */
function view(snapshot: EncounterSnapshot): EncounterView {
  const ctx = contextOf(snapshot);
  const phase = snapshot.matches('setup') ? 'setup' : snapshot.matches('ended') ? 'ended' : 'running';
  const out = (id: string) => ctx.combatants[id]!.removed !== null || ctx.combatants[id]!.dead;
  let order: CombatantView[];
  if (phase === 'setup') {
    order = ctx.teamOrder.flatMap((t) => rules.membersOf(ctx, t).map((id) => combatantView(ctx, id, 'waiting', null)));
  } else {
    const acted = ctx.roundTurns.filter((id) => !out(id)).map((id) => combatantView(ctx, id, 'acted', ctx.roundTurns.indexOf(id) + 1));
    const active = ctx.activeId && !out(ctx.activeId) ? [combatantView(ctx, ctx.activeId, 'active', ctx.roundTurns.length + 1)] : [];
    const shown = new Set([...ctx.roundTurns, ...(ctx.activeId ? [ctx.activeId] : [])]);
    const rest = ctx.teamOrder.flatMap((t) => rules.membersOf(ctx, t).filter((id) => !shown.has(id) && !out(id)).map((id) => combatantView(ctx, id, ctx.combatants[id]!.acted ? 'acted' : 'waiting', null)));
    const fallen = ctx.roster.filter(out).map((id) => combatantView(ctx, id, 'removed', null));
    order = [...acted, ...active, ...rest, ...fallen];
  }
  const team = rules.currentTeam(ctx);
  const counters: EncounterView['counters'] = phase === 'running'
    ? [
        { key: 'teamCycle', label: 'Team cycle', value: ctx.teamOrder.map((t) => (t === (ctx.activeId ? ctx.combatants[ctx.activeId]!.team : team) ? `[${rules.teamLabel(ctx, t)}]` : rules.teamLabel(ctx, t))).join(' → ') },
        ...(ctx.surpriseRound ? [{ key: 'surprise', label: 'Surprise round', value: rules.teamLabel(ctx, ctx.surpriseTeam) }] : []),
        { key: 'teamsStanding', label: 'Teams standing', value: rules.teamsStanding(ctx).length },
      ]
    : [];
  const activeId = snapshot.matches({ running: 'turn' }) || snapshot.matches({ running: 'extendedChoice' }) || (ctx.activeId && snapshot.matches({ running: 'interrupts' })) ? ctx.activeId : null;
  return {
    phase,
    round: ctx.round,
    counters,
    order,
    activeId,
    turn: activeId && ctx.turn ? { actionsLeft: ctx.turn.actionsLeft, actionsPerTurn: rules.ACTIONS_PER_TURN } : null,
    prompt: phase === 'running' ? prompt(snapshot, ctx) : null,
    allowed: allowedEvents(snapshot, ctx),
    setup: {
      partyOrder: rules.membersOf(ctx, ctx.teamOrder[0] ?? 'party'),
      gmOrder: null,
      firstSide: ctx.teamOrder[0] ?? 'party',
      sides: ctx.teamOrder.map((t) => ({ key: t, label: rules.teamLabel(ctx, t) })),
    },
    ...(phase === 'running' && asides(ctx).length ? { aside: asides(ctx) } : {}),
    ...(ctx.outcome !== null ? { outcome: ctx.outcome } : {}),
  };
}

/** Notes beside the fight: the end of combat when one team is left (R-T11, no prompt: the GM decides), and objectives. */
function asides(ctx: TeamsContext): { title: string; text: string }[] {
  const notes: { title: string; text: string }[] = [];
  const standing = rules.teamsStanding(ctx);
  if (standing.length <= 1) notes.push({ title: 'End of combat (R-T11)', text: standing.length === 1 ? `Only ${rules.teamLabel(ctx, standing[0])} is left standing: end combat?` : 'No team is left standing: end combat?' });
  const objectives = ctx.teamOrder.filter((t) => ctx.objectives[t]?.trim()).map((t) => `${rules.teamLabel(ctx, t)}: ${ctx.objectives[t]!.trim()}`);
  if (objectives.length) notes.push({ title: 'Objectives (R-T11)', text: objectives.join('\n') });
  return notes;
}

// ---- what the fight leaves behind (§2.6) ----

/** Party members with a character: the only ones who carry results back (NPC seeds point at templates). */
const carriers = (ctx: TeamsContext) => ctx.roster.map((id) => ctx.combatants[id]!).filter((c) => c.seedSide === rules.SIDES[0]!.key && c.characterId !== null);

function consequences(snapshot: EncounterSnapshot): Consequences {
  const ctx = contextOf(snapshot);
  const pcs = carriers(ctx);
  // Lasting records, written the moment they happen and undone with their event: each cheat-death success raises
  // the difficulty by 5 for good, and a death.
  const injuries: Consequences['injuries'] = pcs.flatMap((c) => [
    ...Array.from({ length: c.cheatedDeath }, (_, i) => {
      const before = c.cheatDeathAtStart + i * 5;
      return { key: `${c.id}.cheatDeath${i + 1}`, characterId: c.characterId!, name: `Cheated death (difficulty ${before} → ${before + 5})`, category: 'cheatDeath', data: { kind: 'cheatDeath', before, after: before + 5 } };
    }),
    ...(c.dead ? [{ key: `${c.id}.death`, characterId: c.characterId!, name: 'Died', category: 'death', data: { kind: 'death', cause: c.deathCause ?? '' } }] : []),
  ]);
  if (!snapshot.matches('ended')) return { injuries, carry: null, party: null };
  const reset = ctx.options['poolsAfterCombat'] === 'reset'; // R-T26
  return {
    injuries,
    carry: pcs.map((c) => ({
      characterId: c.characterId!,
      state: {
        endurance: reset && !c.dead ? c.enduranceMax : c.endurance,
        health: reset && !c.dead ? c.healthMax : c.health,
        stamina: reset && !c.dead ? c.staminaMax : c.stamina,
        focus: reset && !c.dead ? c.focusMax : c.focus,
        unconscious: reset && !c.dead ? false : !c.conscious,
        cheatDeathDifficulty: c.cheatDeathDifficulty,
        items: { weapon: { durability: c.items.weapon.durability }, ...(c.items.shield ? { shield: { durability: c.items.shield.durability } } : {}) },
        ...(c.dead ? { dead: true } : {}),
      },
    })),
    party: {},
  };
}

function carriedIn(state: Record<string, unknown>, injuries: Record<string, unknown>[]): Record<string, unknown> {
  const carried: Record<string, unknown> = {};
  for (const key of ['endurance', 'health', 'stamina', 'focus'] as const) if (typeof state[key] === 'number') carried[key] = state[key];
  if (typeof state['unconscious'] === 'boolean') carried['unconscious'] = state['unconscious'];
  // The cheat-death difficulty: the carried value, or higher if a success was recorded in a fight that never ended.
  const recorded = injuries.filter((i) => i['kind'] === 'cheatDeath' && typeof i['after'] === 'number').map((i) => i['after'] as number);
  const difficulty = Math.max(typeof state['cheatDeathDifficulty'] === 'number' ? state['cheatDeathDifficulty'] : 0, ...recorded);
  if (difficulty > 0) carried['cheatDeathDifficulty'] = difficulty;
  const items = state['items'];
  if (items && typeof items === 'object') {
    const picked: Record<string, { durability: number }> = {};
    for (const slot of ['weapon', 'shield'] as const) {
      const d = (items as Record<string, { durability?: unknown } | undefined>)[slot]?.durability;
      if (typeof d === 'number') picked[slot] = { durability: d };
    }
    if (Object.keys(picked).length) carried['items'] = picked;
  }
  return carried;
}

export const teamsEncounter: EncounterRules = {
  // RULES.md §2.5: the statuses that last "until the owner's next turn" and the others.
  conditionNames: ['Prone', 'Guarding', 'In cover', 'Waiting', 'Readied', 'Surprised', 'Harmed'],
  machine: teamsMachine,
  eventSchema: eventSchema as unknown as z.ZodType<GmEvent>,
  sides: rules.SIDES,
  refusal,
  describe,
  view,
  rollsFor,
  consequences,
  actionForms,
  carriedIn,
};
