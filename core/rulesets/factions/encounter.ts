// Factions' encounter rules as the kernel sees them: the event schema, refusals, the log lines, the runner view, the
// rolls an event needs, and what the fight leaves on the campaign (gear, health, morale flags).
import * as z from 'zod';
import type { CombatantView, Consequences, EncounterPrompt, EncounterRules, EncounterSnapshot, EncounterView, GmEvent, LogLine, RollRequest } from '../../encounter/types.ts';
import * as roster from '../../encounter/roster.ts';
import { combatantSeedSchema, idSchema, nameSchema, shortTextSchema } from '../../encounter/schemas.ts';
import { COUNTER_PRESET_KEYS, REACTIONS } from './reactions.ts';
import { upcastFactionsEvent } from './upcast.ts';
import { agrees, possessive } from '../../words.ts';
import { nameOf } from '../../encounter/roster.ts';
import * as combat from './combat.ts';
import type { CombatEvent } from './combat.ts';
import { factionsActionForms } from './forms.ts';
import { factionsMachine, type FactionsEvent } from './machine.ts';
import * as rules from './rules.ts';
import * as turnOrder from './order.ts';
import * as setupRules from './setup.ts';
import type { FactionsContext, GearItem, GearState } from './rules.ts';
import { rulingsOf } from './options.ts';

// ---- the event schema ----

// Built on first use, not as the module loads: a start (which reads no event) builds no ruleset's schema
// (docs/performance.md "Start"; server/start-schemas.test.ts).
const eventSchema = z.lazy(() => {
  const rollSchema = z.strictObject({
    faces: z.array(z.number().int().min(1).max(100)).max(12, { error: 'At most 12 dice in one roll.' }),
    source: z.enum(['app', 'manual']),
  });
  const optionalRoll = rollSchema.nullable().optional();
  const dieSchema = z.number({ error: 'A damage die is a d4, d6, d8, d10 or d12.' }).refine((n) => [4, 6, 8, 10, 12].includes(n), { message: 'A damage die is a d4, d6, d8, d10 or d12.' });
  const gearStateSchema = z.enum(['none', 'intact', 'damaged', 'destroyed']);
  const carriedSchema = z.strictObject({
    health: z.number().int().min(0).max(99).optional(),
    incapacitated: z.boolean().optional(),
    dying: z.boolean().optional(),
    moraleImmune: z.boolean().optional(),
    moraleFailed: z.boolean().optional(),
    gear: z.strictObject({ weapon: gearStateSchema.optional(), shield: gearStateSchema.optional(), armour: gearStateSchema.optional() }).optional(),
  });
  const seedSchema = combatantSeedSchema.extend({ carried: carriedSchema.optional() });
  const zoneSchema = z.string({ error: 'A zone is named in text.' }).trim().min(1, { error: 'Name the zone.' }).max(40, { error: 'A zone name is at most 40 characters.' });
  const keySchema = z.string().max(32, { error: 'A faction key is at most 32 characters.' });
  const attackFields = {
    kind: z.enum(['melee', 'ranged', 'indirect'], { error: 'An attack is melee, ranged or indirect.' }),
    blast: z.boolean().optional(),
    effect: z.enum(['damage', 'disarm', 'grapple'], { error: 'An attack deals damage, or tries to disarm or grapple.' }).optional(),
    weapon: z.enum(['weapon', 'unarmed', 'improvised', 'shield'], { error: 'Attack with the weapon, unarmed, an improvised weapon or the shield.' }).optional(),
    die: dieSchema.nullable().optional(),
    range: z.enum(['withinHalf', 'beyondHalf'], { error: 'The range is within or beyond half range.' }).optional(),
    unseen: z.boolean().optional(),
    moving: z.boolean().optional(),
    challenging: z.boolean().optional(),
    holdBack: z.boolean().optional(),
    concealment: z.boolean().optional(),
    enhanced: z.boolean().optional(),
    protection: z.enum(['none', 'cover', 'barrier'], { error: 'Protection is none, cover or a barrier.' }).optional(),
    pierces: z.boolean().optional(),
    border: z.boolean().optional(),
    attackRoll: optionalRoll,
  };
  const amountSchema = z.number({ error: 'An amount must be a number.' }).int({ error: 'An amount is a whole number.' }).min(1, { error: 'An amount is at least 1.' }).max(99, { error: 'An amount is at most 99.' });

  return z.discriminatedUnion('type', [
    // setup
    z.strictObject({ type: z.literal('ADD_COMBATANTS'), combatants: z.array(seedSchema).max(200, { error: 'Add at most 200 combatants at once.' }) }),
    z.strictObject({ type: z.literal('REMOVE_COMBATANT'), combatantId: idSchema, reason: shortTextSchema }),
    z.strictObject({ type: z.literal('ADD_FACTION'), key: keySchema, label: nameSchema }),
    z.strictObject({ type: z.literal('RENAME_FACTION'), key: keySchema, label: nameSchema }),
    z.strictObject({ type: z.literal('SET_FACTION'), combatantId: idSchema, faction: keySchema }),
    z.strictObject({
      type: z.literal('SET_FACTION_CYCLE'),
      // A form sends the cycle as text ("party, bandits, wolves"): split here, so the stored event holds the list.
      keys: z.preprocess((v) => (typeof v === 'string' ? v.split(/[,;>→]/).map((k) => k.trim()).filter(Boolean) : v), z.array(keySchema, { error: 'List the factions in cycle order, separated by commas.' }).max(12, { error: 'An encounter holds at most 12 factions.' })),
    }),
    z.strictObject({ type: z.literal('SET_GROUP'), groupId: idSchema.optional(), label: nameSchema, memberIds: z.array(idSchema).max(200) }),
    z.strictObject({ type: z.literal('SET_INITIATIVE'), faction: z.string().max(64), roll: optionalRoll }),
    z.strictObject({ type: z.literal('SET_CONCEALED'), combatantId: idSchema, concealed: z.boolean() }),
    z.strictObject({ type: z.literal('SET_ZONE'), combatantId: idSchema, zone: zoneSchema.nullable() }),
    z.strictObject({ type: z.literal('SET_OPTIONAL_RULES'), fastSlow: z.boolean(), chaos: z.boolean() }),
    z.strictObject({ type: z.literal('START') }),
    // the order
    z.strictObject({ type: z.literal('ROLL_FAT'), roll: optionalRoll }),
    z.strictObject({ type: z.literal('CHOOSE_FIRST_FACTION'), faction: keySchema }),
    // A faction's go: send one of its characters, or pass (the prompt's Pass button; PASS does the same).
    z.strictObject({ type: z.literal('SELECT_CHARACTER'), combatantId: idSchema.optional(), pass: z.literal(true).optional() }),
    z.strictObject({ type: z.literal('PASS') }),
    z.strictObject({ type: z.literal('END_TURN') }),
    z.strictObject({ type: z.literal('ADD_LATE_COMBATANT'), combatant: seedSchema, position: z.number().int().min(0).nullable().optional() }),
    z.strictObject({ type: z.literal('END_COMBAT'), outcome: shortTextSchema }),
    // a turn
    z.strictObject({
      type: z.literal('ATTACK'), attackerId: idSchema, targetIds: z.array(idSchema).max(100, { error: 'At most 100 targets.' }), ...attackFields,
      zone: zoneSchema.nullable().optional(), reaction: z.enum(['opportunity']).nullable().optional(), stunt: shortTextSchema.nullable().optional(),
      // A form sends the neighbouring zones as text ("hall, yard", or "none"): split here, so the stored event holds the list.
      neighbourZones: z.preprocess(
        (v) => (typeof v !== 'string' ? v : v.trim() === '' ? undefined : v.trim().toLowerCase() === 'none' ? [] : v.split(/[,;]/).map((z) => z.trim()).filter(Boolean)),
        z.array(zoneSchema, { error: 'List the neighbouring zones, separated by commas (or "none").' }).max(20, { error: 'At most 20 neighbouring zones.' }).nullable().optional(),
      ),
      deviationRoll: optionalRoll,
    }),
    z.strictObject({ type: z.literal('FINAL_BLOW'), attackerId: idSchema, targetId: idSchema, border: z.boolean().optional() }),
    z.strictObject({ type: z.literal('OFFER_STUNT'), text: shortTextSchema.pipe(z.string().min(1, { error: 'Describe the stunt.' })) }),
    z.strictObject({ type: z.literal('STUNT_ANSWER'), decision: z.enum(['accept', 'decline'], { error: 'The stunt is accepted or declined.' }) }),
    z.strictObject({
      type: z.literal('REACT'), reaction: z.enum(REACTIONS, { error: 'A reaction is none, dodge, counter, hideBehind or guard.' }),
      counterPreset: z.enum(COUNTER_PRESET_KEYS, { error: `A counter is one of ${COUNTER_PRESET_KEYS.join(', ')}.` }).optional(),
      behindId: idSchema.optional(), guardId: idSchema.optional(), roll: optionalRoll, counter: z.strictObject(attackFields).nullable().optional(),
    }),
    z.strictObject({ type: z.literal('RESOLVE_ATTACK'), damageRoll: optionalRoll, saveRoll: optionalRoll, counterDamageRoll: optionalRoll, counterSaveRoll: optionalRoll }),
    z.strictObject({ type: z.literal('MOVE_ZONE'), to: zoneSchema, sneaking: z.boolean().optional() }),
    z.strictObject({
      type: z.literal('BONUS_ACTION'), kind: z.enum(['pickUp', 'drop', 'equip', 'unequip', 'swap', 'consumable', 'interact', 'speak'], { error: 'Not a bonus action of this game.' }),
      item: z.enum(['weapon', 'shield', 'armour', 'other']).nullable().optional(), note: shortTextSchema.optional(),
    }),
    z.strictObject({ type: z.literal('MAIN_ACTION'), kind: z.enum(['interact', 'power', 'other']), note: shortTextSchema.optional() }),
    z.strictObject({ type: z.literal('SHOVE'), to: zoneSchema.nullable().optional(), hazard: shortTextSchema.nullable().optional() }),
    z.strictObject({ type: z.literal('SURRENDER') }),
    z.strictObject({ type: z.literal('DECLARATION_TIMEOUT') }),
    // any time
    z.strictObject({ type: z.literal('APPLY_DAMAGE'), targetId: idSchema, amount: amountSchema, source: shortTextSchema, byId: idSchema.nullable().optional() }),
    z.strictObject({ type: z.literal('HEAL'), targetId: idSchema, amount: amountSchema, source: shortTextSchema }),
    z.strictObject({ type: z.literal('SET_STATUS'), combatantId: idSchema, status: z.enum(['concealed', 'unaware', 'fearImmune']), on: z.boolean(), note: shortTextSchema.optional() }),
    z.strictObject({ type: z.literal('CHASE'), fleeingIds: z.array(idSchema).max(200), edge: z.enum(['none', 'fleeingFaster', 'pursuersFaster']), roll: optionalRoll }),
    z.strictObject({
      type: z.literal('OVERRIDE'), targetId: idSchema.nullable().optional(),
      field: z.enum(['health', 'incapacitated', 'dying', 'dead', 'acted', 'surrendered', 'concealed', 'unaware', 'moraleImmune', 'moraleFailed', 'disarmed', 'released', 'weapon', 'shield', 'armour', 'cancelAttack', 'skipMorale'], { error: 'Not something an override can change.' }),
      value: z.union([z.number().int().min(0).max(99), z.boolean(), z.string().max(20)]).nullable().optional(), note: shortTextSchema,
    }),
    // the morale phase and after the fight
    z.strictObject({ type: z.literal('MORALE_ROLL'), roll: optionalRoll }),
    z.strictObject({ type: z.literal('MORALE_OUTCOME'), outcome: z.enum(['surrender', 'retreat'], { error: 'Those who fail morale surrender or retreat.' }) }),
    z.strictObject({ type: z.literal('DURABILITY_RESULT'), result: z.enum(['ok', 'damaged'], { error: 'A durability result is ok or damaged.' }) }),
  ]);
});

// ---- refusals ----

const contextOf = (snapshot: EncounterSnapshot) => snapshot.context as FactionsContext;
const turnOpen = (snapshot: EncounterSnapshot) => snapshot.matches({ running: 'turn' });
const SETUP_EVENTS = new Set(['ADD_COMBATANTS', 'ADD_FACTION', 'RENAME_FACTION', 'SET_FACTION', 'SET_FACTION_CYCLE', 'SET_GROUP', 'SET_CONCEALED', 'SET_OPTIONAL_RULES', 'START']);
const COMBAT_EVENTS = new Set(['ATTACK', 'FINAL_BLOW', 'OFFER_STUNT', 'STUNT_ANSWER', 'REACT', 'RESOLVE_ATTACK', 'MOVE_ZONE', 'BONUS_ACTION', 'MAIN_ACTION', 'SHOVE', 'SURRENDER', 'DECLARATION_TIMEOUT', 'APPLY_DAMAGE', 'HEAL', 'SET_STATUS', 'SET_ZONE', 'CHASE', 'OVERRIDE']);

/** The events that answer the blocking question now (OVERRIDE always gets through). */
function answersNow(ctx: FactionsContext): string[] {
  if (ctx.pending?.stage === 'stunt') return ['STUNT_ANSWER'];
  if (ctx.pending?.stage === 'reaction') return ['REACT', 'OFFER_STUNT'];
  if (ctx.pending?.stage === 'resolve') return ['RESOLVE_ATTACK'];
  if (ctx.morale?.checks.length) return ['MORALE_ROLL'];
  if (ctx.morale?.failures.length) return ['MORALE_OUTCOME'];
  if (ctx.durability?.length) return ['DURABILITY_RESULT', 'CHASE'];
  return [];
}

function refusal(snapshot: EncounterSnapshot, raw: GmEvent): string | null {
  const event = raw as GmEvent & FactionsEvent;
  const ctx = contextOf(snapshot);
  // source: "Chases over long distances can be resolved with the fleeing character making a group AGI save": a chase
  // after the fight is still taken once it has ended; nothing else is.
  if (snapshot.matches('ended')) return event.type === 'CHASE' ? combat.combatRefusal(ctx, event as CombatEvent, false) : 'This encounter has ended.';
  const inSetup = snapshot.matches('setup');
  if (SETUP_EVENTS.has(event.type) && !inSetup) {
    if (event.type === 'ADD_COMBATANTS') return 'The fight has started: add newcomers as late arrivals.';
    if (event.type === 'SET_OPTIONAL_RULES') return 'The optional rules (fast and slow phases, the chaos of combat) are fixed once the fight starts.';
    return 'Factions, groups and ambushers are fixed once the fight starts.';
  }
  if (inSetup) {
    if (!SETUP_EVENTS.has(event.type) && !['REMOVE_COMBATANT', 'SET_ZONE', 'SET_INITIATIVE'].includes(event.type)) return 'Start the fight first.';
  } else if (event.type !== 'OVERRIDE') {
    const blocked = turnOrder.blockingReason(ctx);
    if (blocked && !answersNow(ctx).includes(event.type)) return blocked;
    if (snapshot.matches({ running: 'initiative' }) && event.type !== 'SET_INITIATIVE') return 'Say which faction started the fight (or roll for it) first: it holds the initiative.';
  }
  if (snapshot.matches('aftermath') && !['DURABILITY_RESULT', 'CHASE', 'OVERRIDE'].includes(event.type)) return 'The fight is over: give the durability results.';
  if (COMBAT_EVENTS.has(event.type)) return combat.combatRefusal(ctx, event as CombatEvent, turnOpen(snapshot));
  switch (event.type) {
    case 'ADD_COMBATANTS': return roster.checkAdd(setupRules.ROSTER, ctx, event.combatants);
    case 'REMOVE_COMBATANT': return roster.checkRemove(setupRules.ROSTER, ctx, event.combatantId);
    case 'ADD_FACTION': return setupRules.checkAddFaction(ctx, event.key, event.label);
    case 'RENAME_FACTION': return setupRules.checkRenameFaction(ctx, event.key, event.label);
    case 'SET_FACTION': return setupRules.checkSetFaction(ctx, event.combatantId, event.faction);
    case 'SET_FACTION_CYCLE': return setupRules.checkCycle(ctx, event.keys);
    case 'SET_GROUP': return setupRules.checkSetGroup(ctx, setupRules.groupIdOf(event.groupId, event.label), event.memberIds);
    case 'SET_CONCEALED': return setupRules.checkConcealed(ctx, event.combatantId);
    case 'START': return setupRules.checkStart(ctx);
    case 'SET_INITIATIVE':
      if (!inSetup && !snapshot.matches({ running: 'initiative' })) return `${agrees(rules.factionLabel(ctx, ctx.initiative), 'already holds', 'already hold')} the initiative.`;
      return setupRules.checkInitiative(ctx, event.faction, event.roll, !inSetup);
    case 'ROLL_FAT':
      if (!snapshot.matches({ running: 'awaitFat' })) return ctx.fastSlow ? 'The fast action threshold is rolled once, at the start of the round.' : 'Fast and slow activations are not in play in this fight.';
      return turnOrder.checkFat(event.roll);
    case 'CHOOSE_FIRST_FACTION':
      if (!snapshot.matches({ running: 'chooseFirst' })) return ctx.current ? `${agrees(rules.factionLabel(ctx, ctx.current), 'is', 'are')} already up: the first faction was chosen.` : 'The first faction is chosen at the start of the round or phase.';
      return turnOrder.checkChooseFirst(ctx, event.faction);
    case 'SELECT_CHARACTER':
    case 'PASS':
      if (turnOpen(snapshot)) return `${nameOf(ctx, ctx.activeId)} is taking a turn: end it first.`;
      if (snapshot.matches({ running: 'awaitFat' })) return 'Roll the fast action threshold first.';
      if (snapshot.matches({ running: 'chooseFirst' })) return `${agrees(rules.factionLabel(ctx, ctx.initiative), 'holds', 'hold')} the initiative: choose which faction acts first.`;
      if (!snapshot.matches({ running: 'factionTurn' })) return 'No faction is up right now.';
      return event.type === 'PASS' ? null : turnOrder.checkSelect(ctx, event);
    case 'END_TURN':
      return turnOpen(snapshot) ? null : 'Nobody is taking a turn.';
    case 'MORALE_ROLL': return combat.moraleRollProblem(ctx, event.roll);
    case 'MORALE_OUTCOME': return ctx.morale?.failures.length ? null : 'Nobody is waiting to surrender or retreat.';
    case 'DURABILITY_RESULT': return ctx.durability?.length ? null : 'No item is waiting for a durability result.';
    case 'ADD_LATE_COMBATANT': return turnOrder.checkLateCombatant(ctx, event.combatant);
    case 'END_COMBAT': return null;
  }
  return null;
}

// ---- rolls an event needs (the app rolls them, or the GM types the faces) ----

const d20 = (path: (string | number)[], label: string): RollRequest => ({ path, label, notation: '1d20', count: 1, sides: 20 });

function rollsFor(snapshot: EncounterSnapshot, raw: GmEvent): RollRequest[] {
  const ctx = contextOf(snapshot);
  const event = raw as GmEvent & FactionsEvent;
  try {
    switch (event.type) {
      case 'SET_INITIATIVE': {
        if (event.faction !== 'random' || snapshot.matches('setup')) return [];
        const n = setupRules.activeFactions(ctx).length;
        return [{ path: ['roll'], label: 'Initiative: which faction', notation: `1d${n}`, count: 1, sides: n }];
      }
      case 'ROLL_FAT': return [d20(['roll'], 'Fast action threshold')];
      case 'MORALE_ROLL': return ctx.morale?.checks.length ? [d20(['roll'], `Morale: ${ctx.morale.checks[0]!.label}`)] : [];
      case 'CHASE': return event.edge === 'none' ? [d20(['roll'], 'Chase: group AGI save')] : [];
      case 'ATTACK': {
        const attacker = ctx.combatants[event.attackerId];
        if (!attacker) return [];
        const spec = combat.normalizeSpec(event, attacker);
        const moving = event.reaction !== 'opportunity' && (spec.moving || (ctx.activeId === attacker.id && ctx.turn.moved));
        const requests: RollRequest[] = [];
        if (combat.saveReasons(spec, moving).length) requests.push(d20(['attackRoll'], `${attacker.name}: WIT save to hit`));
        const n = event.neighbourZones?.length ?? 0;
        if (spec.blast && spec.kind !== 'melee' && n > 0 && requests.length) requests.push({ path: ['deviationRoll'], label: 'Blast deviation (used on a miss)', notation: `1d${n}`, count: 1, sides: n });
        return requests;
      }
      case 'REACT': {
        const p = ctx.pending;
        if (!p || p.stage !== 'reaction') return [];
        const target = ctx.combatants[p.targets[p.cursor]!.id]!;
        if (event.reaction === 'dodge') return [d20(['roll'], `${target.name}: AGI save to dodge`)];
        const counter = event.reaction === 'counter' ? combat.counterInput(event) : null;
        if (counter && rulingsOf(ctx.options).counterMustBeLegal) {
          const spec = combat.normalizeSpec(counter, target);
          // R-F12: the counter's own WIT save, in its description when there is one, else in `roll` (a prompt button).
          return combat.saveReasons(spec, false).length ? [d20(event.counter ? ['counter', 'attackRoll'] : ['roll'], `${target.name}: WIT save to hit with the counter`)] : [];
        }
        return [];
      }
      case 'RESOLVE_ATTACK':
        return combat.resolveNeeds(ctx).map((need) => ({ path: [need.key], label: need.label, notation: need.notation, count: need.count, sides: need.sides }));
      default:
        return [];
    }
  } catch {
    return [];
  }
}

// ---- the log: the reducers wrote it, with the numbers they computed ----

function describe(_event: GmEvent, before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  return contextOf(after).log.slice(contextOf(before).log.length);
}

// ---- the runner's view ----

/** What is read of a row beyond its stats (`CombatantView.details`): the armour now, shield included, without cover. */
export type FactionsRowDetails = { armour: number };

/** The durability prompt's item (`EncounterPrompt.details` of the prompt of kind 'durability'). */
export type FactionsDurabilityDetails = { item: GearItem; state: GearState };

/** The durability prompt's details, as `promptOf` wrote them; null for any other prompt. */
export const durabilityDetailsOf = (prompt: EncounterPrompt): FactionsDurabilityDetails | null =>
  prompt.kind === 'durability' ? (prompt.details as FactionsDurabilityDetails) : null;

const GEAR_WORDS: Record<GearItem, string> = { weapon: 'weapon', shield: 'shield', armour: 'armour' };

function tagsOf(ctx: FactionsContext, c: rules.FactionsCombatant): string[] {
  const tags: string[] = [];
  if (c.zone) tags.push(`zone ${c.zone}`);
  if (c.dead) tags.push('dead');
  else if (c.dying) tags.push('dying');
  else if (c.incapacitated) tags.push('incapacitated');
  if (!c.dead && c.health * 2 <= c.healthMax) tags.push('half health or less');
  if (c.concealed) tags.push('concealed');
  if (c.unaware) tags.push('unaware');
  if (c.surrendered) tags.push('surrendered');
  if (c.retreated) tags.push('retreated');
  if (c.moraleFailed) tags.push('morale failed');
  if (c.moraleImmune) tags.push('morale immune (stretch)');
  if (c.fearImmune) tags.push('immune to fear');
  if (c.grabbedBy) tags.push(`grabbed by ${nameOf(ctx, c.grabbedBy)}`);
  const held = rules.grabbing(ctx, c.id);
  if (held) tags.push(`holding ${nameOf(ctx, held)}`);
  if (c.disarmed) tags.push('disarmed');
  if (c.shieldDown && c.gear.shield !== 'none') tags.push('shield down');
  if (ctx.history.some((h) => h.round === ctx.round && h.id === c.id && h.kind === 'reaction')) tags.push('reacted this round');
  if (ctx.phase === 'fast' && ctx.fat !== null && !c.acted) tags.push(c.wit >= ctx.fat ? 'fast' : 'slow');
  for (const item of rules.GEAR_ITEMS) if (c.gear[item] === 'damaged' || c.gear[item] === 'destroyed') tags.push(`${GEAR_WORDS[item]} ${c.gear[item]}`);
  if (c.chase) tags.push(c.chase === 'escaped' ? 'escaped' : 'caught');
  return tags;
}

function statusOf(snapshot: EncounterSnapshot, ctx: FactionsContext, c: rules.FactionsCombatant): CombatantView['status'] {
  if (snapshot.matches('setup')) return 'waiting';
  if (rules.gone(c)) return 'removed';
  if (ctx.activeId === c.id) return 'active';
  if (c.acted) return 'acted';
  // Not able to take a turn in this phase (incapacitated, below the FAT, not an ambusher): shown apart.
  return ctx.phase && !turnOrder.couldActThisPhase(ctx, c) ? 'unplaced' : 'waiting';
}

function combatantView(snapshot: EncounterSnapshot, ctx: FactionsContext, id: string): CombatantView {
  const c = ctx.combatants[id]!;
  return {
    id,
    name: c.name,
    side: c.faction,
    sideLabel: rules.factionLabel(ctx, c.faction),
    status: statusOf(snapshot, ctx, c),
    slot: null,
    health: { label: 'Health', current: c.health, max: c.healthMax },
    tags: tagsOf(ctx, c),
    ...(c.removed ? { removedReason: c.removed.reason || 'left the fight' } : c.dead ? { removedReason: 'dead' } : c.retreated ? { removedReason: 'retreated' } : c.chase === 'escaped' ? { removedReason: 'escaped' } : {}),
    ...(c.dead ? { dead: true } : {}),
    stats: [
      { label: 'STR', value: String(c.str) }, { label: 'AGI', value: String(c.agi) }, { label: 'WIT', value: String(c.wit) },
      { label: 'Armour', value: String(combat.armourOf(c, false)) }, { label: 'Weapon', value: `d${c.weaponDie}` },
      ...(c.zone ? [{ label: 'Zone', value: String(c.zone) }] : []),
    ],
    details: { armour: combat.armourOf(c, false) } satisfies FactionsRowDetails,
  };
}

/** The reactions the rules allow now, each a button; its key (`counter:unarmed`, `guard:b`) names it in lists, its answer is what is sent. */
function reactionChoices(ctx: FactionsContext): EncounterPrompt['choices'] {
  const p = ctx.pending!;
  const t = p.targets[p.cursor]!;
  type React = Extract<CombatEvent, { type: 'REACT' }>;
  const ok = (answer: Omit<React, 'type'>, roll: Partial<React> = {}) => combat.reactProblem(ctx, { type: 'REACT', ...answer, ...roll }) === null;
  const aRoll = { roll: { faces: [1], source: 'manual' as const } };
  const choices: EncounterPrompt['choices'] = [{ id: 'none', label: 'No reaction', answer: { reaction: 'none' } }];
  if (ok({ reaction: 'dodge' }, aRoll)) choices.push({ id: 'dodge', label: 'Dodge (AGI save)', answer: { reaction: 'dodge' } });
  // Each legal counter is its own button (R-F12); the one that needs a WIT save gets it rolled with the answer.
  for (const preset of combat.COUNTER_PRESET_KEYS) {
    if (ok({ reaction: 'counter', counterPreset: preset }, aRoll)) choices.push({ id: preset === 'melee' ? 'counter' : `counter:${preset}`, label: combat.COUNTER_PRESETS[preset].label, answer: { reaction: 'counter', counterPreset: preset } });
  }
  for (const other of ctx.roster) {
    if (other === t.id) continue;
    if (ok({ reaction: 'hideBehind', behindId: other })) choices.push({ id: `hideBehind:${other}`, label: `Hide behind ${nameOf(ctx, other)}`, answer: { reaction: 'hideBehind', behindId: other } });
  }
  for (const other of ctx.roster) {
    if (other === t.id) continue;
    if (ok({ reaction: 'guard', guardId: other })) choices.push({ id: `guard:${other}`, label: `${nameOf(ctx, other)} guards`, answer: { reaction: 'guard', guardId: other } });
  }
  return choices;
}

function promptOf(snapshot: EncounterSnapshot, ctx: FactionsContext): EncounterPrompt | null {
  const label = (key: string | null) => rules.factionLabel(ctx, key);
  if (snapshot.matches({ running: 'initiative' })) {
    return {
      kind: 'initiative', text: 'Which faction started the fight? It holds the initiative. If that is unclear, roll for it.', answer: 'SET_INITIATIVE',
      choices: [...ctx.cycle.map((key) => ({ id: key, label: label(key), answer: { faction: key } })), { id: 'random', label: 'Unclear: roll for it', answer: { faction: 'random' } }],
    };
  }
  if (snapshot.matches({ running: 'awaitFat' })) {
    return { kind: 'fat', text: `Round ${ctx.round}: roll the fast action threshold (a d20, in the open).`, answer: 'ROLL_FAT', choices: [{ id: 'roll', label: 'Roll the d20', answer: {} }] };
  }
  if (snapshot.matches({ running: 'chooseFirst' })) {
    const phase = ctx.phase === 'ambush' ? ' in the ambush bonus turn' : ctx.phase === 'fast' ? ' in the fast phase' : ctx.phase === 'slow' ? ' in the slow phase' : ` in round ${ctx.round}`;
    return { kind: 'firstFaction', text: `${agrees(label(ctx.initiative), 'holds', 'hold')} the initiative: which faction acts first${phase}?`, answer: 'CHOOSE_FIRST_FACTION', choices: ctx.cycle.map((key) => ({ id: key, label: label(key), answer: { faction: key } })) };
  }
  if (snapshot.matches({ running: 'factionTurn' })) {
    return {
      kind: 'factionTurn', text: `${possessive(label(ctx.current))} go: send a character or pass (${ctx.passStreak} of ${ctx.cycle.length} passes in a row).`, answer: 'SELECT_CHARACTER',
      choices: [...turnOrder.eligibleNow(ctx).map((id) => ({ id, label: nameOf(ctx, id), answer: { combatantId: id } })), { id: 'pass', label: 'Pass', answer: { pass: true } }],
    };
  }
  const p = ctx.pending;
  if (p?.stage === 'stunt') {
    const target = p.targets[0]!.id;
    return { kind: 'stunt', text: `${nameOf(ctx, p.attackerId)} offers ${nameOf(ctx, target)} a stunt instead of damage: ${p.stunt}. Accept, or resolve the attack as normal?`, answer: 'STUNT_ANSWER', subjectId: target, choices: [{ id: 'accept', label: 'Accept', answer: { decision: 'accept' } }, { id: 'decline', label: 'Decline', answer: { decision: 'decline' } }] };
  }
  if (p?.stage === 'reaction') {
    const target = p.targets[p.cursor]!.id;
    return {
      kind: 'reaction', text: `${nameOf(ctx, p.attackerId)} attacks ${nameOf(ctx, target)}. React (it takes this round's turn), or not?`, answer: 'REACT', subjectId: target,
      choices: reactionChoices(ctx),
    };
  }
  if (p?.stage === 'resolve') {
    const needs = combat.resolveNeeds(ctx);
    return { kind: 'damage', text: `Roll for the attack: ${needs.map((n) => `${n.label} (${n.notation})`).join(', ')}.`, answer: 'RESOLVE_ATTACK', choices: [{ id: 'roll', label: 'Roll', answer: {} }] };
  }
  if (ctx.morale?.checks.length) {
    const check = ctx.morale.checks[0]!;
    return {
      kind: 'morale',
      text: check.rollers.length === 1
        ? `Morale: ${check.label} must make a WIT save. One d20; ${nameOf(ctx, check.rollers[0]!)} holds on ${ctx.combatants[check.rollers[0]!]!.wit} or less.`
        : `Morale: ${check.label} must make a group WIT save. One d20; each holds on a roll of their WIT or less: ${check.rollers.map((id) => `${nameOf(ctx, id)} (WIT ${ctx.combatants[id]!.wit})`).join(', ')}.`,
      answer: 'MORALE_ROLL',
      choices: [{ id: 'roll', label: 'Roll the d20', answer: {} }],
    };
  }
  if (ctx.morale?.failures.length) {
    const id = ctx.morale.failures[0]!;
    const more = ctx.morale.failures.length - 1;
    return { kind: 'moraleOutcome', text: `${nameOf(ctx, id)} failed morale: surrender or retreat?${more ? ` (${more} more to decide after this one.)` : ''}`, answer: 'MORALE_OUTCOME', subjectId: id, choices: [{ id: 'surrender', label: 'Surrender', answer: { outcome: 'surrender' } }, { id: 'retreat', label: 'Retreat', answer: { outcome: 'retreat' } }] };
  }
  if (ctx.durability?.length) {
    const { combatantId, item } = ctx.durability[0]!;
    const state = ctx.combatants[combatantId]!.gear[item];
    return {
      kind: 'durability', text: `Durability roll for ${nameOf(ctx, combatantId)}'s ${item} (${state}): does it hold?`, answer: 'DURABILITY_RESULT', subjectId: combatantId,
      choices: [{ id: 'ok', label: 'It holds', answer: { result: 'ok' } }, { id: 'damaged', label: state === 'damaged' ? 'Fails again' : 'Damaged', answer: { result: 'damaged' } }], details: { item, state } satisfies FactionsDurabilityDetails,
    };
  }
  return null;
}

const ANYTIME_EVENTS = ['APPLY_DAMAGE', 'HEAL', 'SET_STATUS', 'SET_ZONE', 'CHASE', 'REMOVE_COMBATANT', 'ADD_LATE_COMBATANT', 'END_COMBAT', 'OVERRIDE'];

function allowedEvents(snapshot: EncounterSnapshot): string[] {
  const ctx = contextOf(snapshot);
  if (snapshot.matches('setup')) return ['ADD_COMBATANTS', 'REMOVE_COMBATANT', 'ADD_FACTION', 'RENAME_FACTION', 'SET_FACTION', 'SET_FACTION_CYCLE', 'SET_GROUP', 'SET_INITIATIVE', 'SET_CONCEALED', 'SET_ZONE', 'SET_OPTIONAL_RULES', 'START'];
  if (snapshot.matches('ended')) return ['CHASE'];
  const answers = answersNow(ctx);
  if (answers.length) return [...answers, 'OVERRIDE'];
  if (snapshot.matches({ running: 'initiative' })) return ['SET_INITIATIVE', 'OVERRIDE'];
  if (snapshot.matches({ running: 'awaitFat' })) return ['ROLL_FAT', ...ANYTIME_EVENTS];
  if (snapshot.matches({ running: 'chooseFirst' })) return ['CHOOSE_FIRST_FACTION', ...ANYTIME_EVENTS];
  if (snapshot.matches({ running: 'factionTurn' })) return ['SELECT_CHARACTER', 'PASS', ...ANYTIME_EVENTS];
  if (turnOpen(snapshot)) {
    const turn = ['END_TURN'];
    if (!combat.mainProblem(ctx)) turn.push('ATTACK', 'FINAL_BLOW', 'MAIN_ACTION', ...(rules.grabbing(ctx, ctx.activeId!) ? ['SHOVE'] : []));
    else turn.push('ATTACK'); // an opportunity attack from someone else
    if (combat.actionsLeft(ctx) > 0) turn.push('BONUS_ACTION');
    if (!ctx.turn.moved && !ctx.turn.stillShot) turn.push('MOVE_ZONE');
    if (!ctx.turn.bonusUsed && !ctx.turn.mainUsed && !ctx.turn.moved) turn.push('SURRENDER', ...(turnOrder.declarationTimed(ctx) ? ['DECLARATION_TIMEOUT'] : []));
    return [...new Set(turn), ...ANYTIME_EVENTS];
  }
  return ANYTIME_EVENTS;
}

/** What the active character may still do this turn (§3.3): the bonus action, the main action or a second bonus, the zone move. */
function turnLeft(ctx: FactionsContext): string {
  const left: string[] = [];
  const { bonusUsed, mainUsed, moved, stillShot } = ctx.turn;
  if (bonusUsed === 0 && !mainUsed) left.push('bonus action', 'main action (or a 2nd bonus)');
  else if (bonusUsed === 0) left.push('bonus action');
  else if (bonusUsed === 1 && !mainUsed) left.push('main action or a 2nd bonus');
  if (!moved && !stillShot) left.push('zone move');
  return left.length ? left.join(' · ') : 'nothing: end the turn';
}

function view(snapshot: EncounterSnapshot): EncounterView {
  const ctx = contextOf(snapshot);
  const phase = snapshot.matches('setup') ? 'setup' : snapshot.matches('ended') ? 'ended' : 'running';
  const byCycle = ctx.cycle.flatMap((key) => ctx.roster.filter((id) => ctx.combatants[id]!.faction === key));
  const others = ctx.roster.filter((id) => !byCycle.includes(id));
  const order = [...byCycle, ...others].map((id) => combatantView(snapshot, ctx, id));
  const counters: EncounterView['counters'] = [];
  if (phase === 'running') {
    const phaseLabel = snapshot.matches('aftermath') ? 'after the fight' : ctx.phase === 'ambush' ? 'ambush bonus turn' : ctx.phase === 'fast' ? 'fast' : ctx.phase === 'slow' ? 'slow' : snapshot.matches({ running: 'morale' }) ? 'morale' : 'round';
    counters.push({ key: 'phase', label: 'Phase', value: phaseLabel });
    counters.push({ key: 'faction', label: 'Faction up', value: rules.factionLabel(ctx, ctx.current) });
    counters.push({ key: 'passes', label: 'Passes in a row', value: `${ctx.passStreak} / ${ctx.cycle.length}` });
    counters.push({ key: 'initiative', label: 'Initiative', value: rules.factionLabel(ctx, ctx.initiative) });
    if (ctx.fastSlow) counters.push({ key: 'fat', label: 'FAT', value: ctx.fat ?? '—' });
    if (ctx.activeId && turnOpen(snapshot)) counters.push({ key: 'turnLeft', label: 'May still', value: turnLeft(ctx) });
    // Chaos of combat: "Each Player has 15 seconds to declare ... otherwise they do nothing". Only a PC's turn is
    // timed; with `chaosTimeoutAtZero` (default on) the countdown sends the timeout itself when it reaches zero.
    if (ctx.activeId && turnOrder.declarationTimed(ctx) && !ctx.turn.bonusUsed && !ctx.turn.mainUsed && !ctx.turn.moved) {
      counters.push({ key: 'chaos', label: 'Declare within', value: '15 s', countdown: 15, ...(rulingsOf(ctx.options).chaosTimeoutAtZero ? { atZero: { type: 'DECLARATION_TIMEOUT' } } : {}) });
    }
  }
  const party = ctx.roster.filter((id) => ctx.combatants[id]!.pc);
  return {
    phase,
    round: ctx.round,
    counters,
    order,
    activeId: ctx.activeId,
    turn: ctx.activeId ? { actionsLeft: combat.actionsLeft(ctx), actionsPerTurn: 2 } : null,
    prompt: promptOf(snapshot, ctx),
    allowed: allowedEvents(snapshot),
    setup: { partyOrder: party, gmOrder: null, firstSide: ctx.initiative ?? '', sides: ctx.cycle.map((key) => ({ key, label: rules.factionLabel(ctx, key) })) },
    ...(ctx.outcome !== null ? { outcome: ctx.outcome } : {}),
  };
}

// ---- what the fight leaves behind (§3.6, RULES.md §6.5) ----

const SEVERITY: Record<GearState, number> = { none: 0, intact: 0, damaged: 1, destroyed: 2 };

function consequences(snapshot: EncounterSnapshot): Consequences {
  const ctx = contextOf(snapshot);
  const pcs = ctx.roster.map((id) => ctx.combatants[id]!).filter((c) => c.pc && c.characterId !== null);
  // Gear damage is Factions' lasting record (RULES.md §6.1): written as it happens, gone if its event is undone.
  const injuries = pcs.flatMap((c) =>
    rules.GEAR_ITEMS.filter((item) => SEVERITY[c.gear[item]] > SEVERITY[c.gearAtStart[item]]).map((item) => ({
      key: `${c.id}.${item}`,
      characterId: c.characterId!,
      name: `${item[0]!.toUpperCase()}${item.slice(1)} ${c.gear[item]}`,
      category: 'gear',
      data: { kind: 'gear', item, state: c.gear[item] },
    })),
  );
  if (!snapshot.matches('ended')) return { injuries, carry: null, party: null };
  return {
    injuries,
    carry: pcs.map((c) => ({
      characterId: c.characterId!,
      state: {
        health: c.health, incapacitated: c.incapacitated, dying: c.dying, moraleImmune: c.moraleImmune, moraleFailed: c.moraleFailed, gear: c.gear,
        ...(c.dead ? { dead: true } : {}),
      },
    })),
    party: npcImmunity(ctx),
  };
}

// ---- NPC morale immunity across fights (R-F8) ----
//
// "those who pass aren't subject to morale for the remainder of the stretch". A PC carries it on its character; an
// NPC is a copy of a template, made fresh each fight, with numbered names that need not match between fights. So the
// campaign keeps it per template, in its party values: `party[templateId] = { moraleImmune: 'Bandit 1, Bandit 3' }`,
// the names of that template's NPCs that ended a fight immune and alive. Every NPC made from that template later in
// the stretch starts immune; the end of the stretch (the ledger's END_STRETCH) clears every such entry. An entry per
// template, not one list, because an ended fight's party values are laid over the campaign's (db/consequences.ts
// applyCarry): a fight writes only the templates it has and never takes away one an earlier fight of the stretch
// wrote. Keyed by the template's id alone, so a campaign export renumbers it with the template.

/** The NPC templates immune to morale until the stretch ends, with the names that passed: `[templateId, names]`. */
export const npcImmunityEntries = (party: Record<string, unknown>): [string, string][] =>
  Object.entries(party).flatMap(([templateId, value]) => {
    const names = value && typeof value === 'object' ? (value as Record<string, unknown>)['moraleImmune'] : undefined;
    return typeof names === 'string' && names !== '' ? [[templateId, names] as [string, string]] : [];
  });

function npcImmunity(ctx: FactionsContext): Record<string, { moraleImmune: string }> {
  const names = new Map<string, string[]>();
  for (const c of ctx.roster.map((id) => ctx.combatants[id]!)) {
    if (c.pc || c.characterId === null || !c.moraleImmune || c.dead) continue;
    names.set(c.characterId, [...(names.get(c.characterId) ?? []), c.name]);
  }
  return Object.fromEntries([...names].map(([templateId, list]) => [templateId, { moraleImmune: list.join(', ') }]));
}

function npcCarriedIn(party: Record<string, unknown>, templateId: string): Record<string, unknown> {
  return npcImmunityEntries(party).some(([id]) => id === templateId) ? { moraleImmune: true } : {};
}

function carriedIn(state: Record<string, unknown>, injuries: Record<string, unknown>[]): Record<string, unknown> {
  const carried: Record<string, unknown> = {};
  if (typeof state['health'] === 'number') carried['health'] = state['health'];
  for (const flag of ['incapacitated', 'dying', 'moraleImmune', 'moraleFailed'] as const) if (typeof state[flag] === 'boolean') carried[flag] = state[flag];
  const gear: Partial<Record<GearItem, GearState>> = {};
  const stored = state['gear'] && typeof state['gear'] === 'object' ? (state['gear'] as Record<string, unknown>) : {};
  const worse = (item: GearItem, value: unknown) => {
    if (value !== 'intact' && value !== 'damaged' && value !== 'destroyed') return;
    if (!gear[item] || SEVERITY[value] > SEVERITY[gear[item]!]) gear[item] = value;
  };
  for (const item of rules.GEAR_ITEMS) worse(item, stored[item]);
  for (const record of injuries) if (record['kind'] === 'gear' && rules.GEAR_ITEMS.includes(record['item'] as GearItem)) worse(record['item'] as GearItem, record['state']);
  if (Object.keys(gear).length) carried['gear'] = gear;
  return carried;
}

export const factionsEncounter: EncounterRules = {
  // RULES.md §3.5: statuses the tool does not keep itself.
  conditionNames: ['Grabbed', 'Entangled', 'Grabbing', 'Retreating', 'Revealed', 'Surrendered'],
  machine: factionsMachine,
  eventSchema: eventSchema as unknown as z.ZodType<GmEvent>,
  sides: rules.SIDES,
  refusal,
  describe,
  view,
  rollsFor,
  consequences,
  actionForms: factionsActionForms,
  carriedIn,
  npcCarriedIn,
  // 2: structured answers and one vocabulary (combatantId, faction, reaction with behindId/guardId, attackRoll...).
  rulesVersion: 2,
  upcast: upcastFactionsEvent,
};
