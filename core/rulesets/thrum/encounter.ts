// Thrum's encounter rules as the kernel sees them: the event schema, refusals, the log lines, the runner view, the
// rolls an event needs, and what the fight leaves on the campaign.
import { z } from 'zod';
import type { CombatantView, Consequences, EncounterPrompt, EncounterRules, EncounterSnapshot, EncounterView, GmEvent, LogLine, RollRequest } from '../../encounter/types.ts';
import { eventRound } from '../../encounter/log-round.ts';
import { combatantSeedSchema, idSchema, shortTextSchema } from '../../encounter/schemas.ts';
import * as combat from './combat.ts';
import type { CombatEvent } from './combat.ts';
import { keyOf, parseSquareList, squareLabel, stepCost, type Square } from './grid.ts';
import { COMBAT_TYPES, delayRefusal, initiativeRefusal, isCombat, lateRefusal, removeRefusal, setupRefusal, thrumMachine, tieRefusal, type ThrumEvent } from './machine.ts';
import * as rules from './rules.ts';
import type { Frame, Roll, ThrumCombatant, ThrumContext } from './rules.ts';

// ---- the event schema ----

const rollSchema = z.strictObject({
  faces: z.array(z.number().int().min(1).max(100)).max(12, { error: 'At most 12 dice in one roll.' }),
  source: z.enum(['app', 'manual']),
});
const coordinate = z.number({ error: 'A square is given by whole numbers.' }).int({ error: 'A square is given by whole numbers.' }).min(0, { error: 'Squares start at 0.' }).max(199, { error: 'A map is at most 200 squares across.' });
const squareSchema = z.strictObject({ x: coordinate, y: coordinate });
/** An area's squares: a list, or typed in the runner's form as text ("2,1 2,2"), kept as the list it names. */
const areaSquaresSchema = z.preprocess(
  (value) => (typeof value === 'string' ? (parseSquareList(value) ?? value) : value),
  z.array(squareSchema, { error: 'Type the area\'s squares as "x,y" pairs separated by spaces, e.g. "2,1 2,2".' }).max(400, { error: 'An area is at most 400 squares.' }),
);
/** A drop rolled with dice (R-H11): the mover's Endurance or Reflex roll and the environment's, each 2d6. */
const dropDiceSchema = z.strictObject({
  roll: z.enum(['endurance', 'reflex'], { error: 'A drop roll is Endurance or Reflex.' }),
  dice: rollSchema.nullable().optional(), environment: rollSchema.nullable().optional(),
});
const sideSchema = z.enum(['party', 'foes'], { error: 'The side must be the party or the foes.' });
const loadAmount = z.number({ error: 'An amount must be a number.' }).int({ error: 'An amount is a whole number.' }).min(0, { error: 'An amount is at least 0.' }).max(20, { error: 'An amount is at most 20.' });
const stacksSchema = z.number({ error: 'Stacks must be a number.' }).int({ error: 'Stacks are a whole number.' }).min(1, { error: 'At least 1 stack.' }).max(10, { error: 'At most 10 stacks.' });
const countSchema = z.number().int().min(0, { error: 'A count is at least 0.' }).max(10, { error: 'A count is at most 10.' });
const nameText = (what: string) => shortTextSchema.pipe(z.string().min(1, { error: `Name the ${what}.` }).max(80, { error: `A ${what} name is at most 80 characters.` }));
const carriedSchema = z.strictObject({
  fatigueTolerance: z.number().int().min(0).max(30).optional(),
  stressTolerance: z.number().int().min(0).max(30).optional(),
  wounds: z.number().int().min(0).max(3).optional(),
  stillIncapacitated: z.boolean().optional(),
  outOfAction: z.boolean().optional(),
});
const seedSchema = combatantSeedSchema.extend({ carried: carriedSchema.optional() });
const mapSchema = z.strictObject({
  width: z.number().int().min(1, { error: 'A map is at least 1 square wide.' }).max(200, { error: 'A map is at most 200 squares across.' }),
  height: z.number().int().min(1, { error: 'A map is at least 1 square high.' }).max(200, { error: 'A map is at most 200 squares across.' }),
  elevation: z.record(z.string().regex(/^\d+,\d+$/, { error: 'Elevation is keyed by "x,y".' }), z.number().int().min(-20).max(20, { error: 'Elevation goes from −20 to +20.' })),
  difficult: z.array(z.string().regex(/^\d+,\d+$/, { error: 'Squares are written "x,y".' })).max(40000),
  startingArea: z.array(z.string().regex(/^\d+,\d+$/, { error: 'Squares are written "x,y".' })).max(40000),
});

const eventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ADD_COMBATANTS'), combatants: z.array(seedSchema).max(200, { error: 'Add at most 200 combatants at once.' }) }),
  z.strictObject({ type: z.literal('REMOVE_COMBATANT'), combatantId: idSchema, reason: shortTextSchema }),
  z.strictObject({ type: z.literal('SET_SIDE'), id: idSchema, side: sideSchema }),
  z.strictObject({ type: z.literal('SET_MAP'), map: mapSchema.nullable() }),
  z.strictObject({ type: z.literal('PLACE_NPC'), id: idSchema, square: squareSchema.nullable() }),
  z.strictObject({ type: z.literal('START') }),
  z.strictObject({ type: z.literal('SET_CONDITION'), kind: z.enum(['win', 'defeat'], { error: 'A condition is a Win Condition or a Defeat Condition.' }), text: nameText('condition').pipe(z.string().max(200)) }),
  z.strictObject({ type: z.literal('CONDITION_MET'), n: z.number({ error: 'Give the condition\'s number.' }).int({ error: 'Give the condition\'s number.' }).min(1, { error: 'Conditions are numbered from 1.' }).max(10, { error: 'An encounter has at most 10 conditions.' }) }),
  z.strictObject({ type: z.literal('ROLL_INITIATIVE'), id: idSchema, roll: rollSchema.nullable().optional() }),
  z.strictObject({ type: z.literal('BREAK_TIE'), id: idSchema }),
  z.strictObject({ type: z.literal('DELAY'), id: idSchema, afterId: idSchema.nullable() }),
  z.strictObject({ type: z.literal('END_TURN') }),
  z.strictObject({ type: z.literal('ADD_LATE_COMBATANT'), combatant: seedSchema, position: z.number().int().min(0).nullable().optional(), initiativeRoll: rollSchema.nullable().optional() }),
  z.strictObject({ type: z.literal('END_COMBAT'), outcome: shortTextSchema }),
  z.strictObject({ type: z.literal('PANIC_ROLL'), id: idSchema, roll: rollSchema.nullable().optional() }),
  z.strictObject({ type: z.literal('INCAPACITY_ROLL'), id: idSchema, roll: rollSchema.nullable().optional() }),
  z.strictObject({
    type: z.literal('MOVE'), squares: z.number().int().min(1, { error: 'Move at least 1 square.' }).max(60).nullable().optional(),
    path: z.array(squareSchema).max(60, { error: 'A path is at most 60 squares.' }).nullable().optional(),
    drops: z.array(z.union([z.enum(['pay', 'success', 'failure'], { error: 'A drop is paid, rolled (Endurance or Reflex), or its result given.' }), dropDiceSchema])).max(60).nullable().optional(), teleport: z.boolean().optional(), note: shortTextSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('FORCED_MOVE'), id: idSchema, squares: z.number().int().min(1, { error: 'Move at least 1 square.' }).max(60).nullable().optional(),
    path: z.array(squareSchema).max(60, { error: 'A path is at most 60 squares.' }).nullable().optional(),
    drops: z.array(z.union([z.enum(['success', 'failure'], { error: 'A drop roll is rolled (Endurance or Reflex), or succeeds or fails.' }), dropDiceSchema])).max(60).nullable().optional(),
    drop: z.enum(['none', 'endurance', 'reflex', 'success', 'failure'], { error: 'The drop roll is none, Endurance, Reflex, success or failure.' }).nullable().optional(),
    dropDice: rollSchema.nullable().optional(), environmentDice: rollSchema.nullable().optional(),
    levels: z.number().int().min(2, { error: 'A drop that calls for a roll is two or more levels.' }).max(40).nullable().optional(),
    source: shortTextSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('ATTACK'), attackerId: idSchema, ability: nameText('ability'), attackType: z.enum(['physical', 'mental'], { error: 'An attack is physical or mental.' }),
    art: z.number().int().min(-5).max(10).nullable().optional(),
    targets: z.array(z.strictObject({ targetId: idSchema, cover: z.boolean().nullable().optional() })).max(50, { error: 'At most 50 targets.' }),
    covered: z.array(idSchema).max(50).nullable().optional(),
    range: z.number().int().min(0).max(200).nullable().optional(), ranged: z.boolean().optional(), finisher: z.boolean().optional(), area: z.boolean().optional(),
    squares: areaSquaresSchema.nullable().optional(),
    adjacentEnemies: countSchema.nullable().optional(), overexert: z.number().int().min(0).max(10).nullable().optional(),
    fatigue: loadAmount, stress: loadAmount,
    statuses: z.array(z.strictObject({ status: nameText('status'), stacks: stacksSchema })).max(10).optional(),
    extraBoons: countSchema.optional(), extraBanes: countSchema.optional(), removesExhaustion: z.boolean().optional(), movesAfter: z.boolean().optional(),
    note: shortTextSchema.optional(),
  }),
  z.strictObject({ type: z.literal('DEFENSE_CHOICE'), id: z.enum(['resilience', 'evasion', 'resolve', 'alternative'], { error: 'The defence is Resilience, Evasion, Resolve or an alternative.' }) }),
  // The contest (R-H11): the attack roll and the defence roll, rolled by the app or typed (`id` roll or left out);
  // or the outcome tier the GM gives (R-H11's hand-over reading, an ability's alternative defence, older events).
  z.strictObject({
    type: z.literal('DEFENSE_RESULT'),
    id: z.enum(['critical', 'success', 'failure', 'roll'], { error: 'The outcome is critical, success or failure. To let the dice decide, send roll.' }).nullable().optional(),
    attackRoll: rollSchema.nullable().optional(), defenceRoll: rollSchema.nullable().optional(),
  }),
  z.strictObject({
    type: z.literal('USE_ABILITY'), ability: nameText('ability'), overexert: z.number().int().min(0).max(10).nullable().optional(),
    removesExhaustion: z.boolean().optional(), movesAfter: z.boolean().optional(), buffTargetId: idSchema.nullable().optional(), terrainEffect: z.boolean().optional(),
    note: shortTextSchema.optional(),
  }),
  z.strictObject({ type: z.literal('RESUSCITATE'), targetId: idSchema }),
  z.strictObject({ type: z.literal('BUFF_CHOICE'), id: z.enum(['keepOld', 'takeNew']) }),
  z.strictObject({ type: z.literal('SET_STANCE'), stance: nameText('stance') }),
  z.strictObject({ type: z.literal('POSITION'), square: squareSchema }),
  z.strictObject({
    type: z.literal('TRIGGER'), trigger: nameText('trigger'),
    effects: z.array(z.strictObject({ ownerId: idSchema, effect: nameText('effect').nullable().optional() })).max(50),
  }),
  z.strictObject({ type: z.literal('RESOLVE_TRIGGER'), id: idSchema }),
  z.strictObject({
    type: z.literal('APPLY_LOAD'), targetId: idSchema, load: z.enum(['fatigue', 'stress'], { error: 'The load is Fatigue or Stress.' }),
    amount: z.number().int({ error: 'An amount is a whole number.' }).min(-20, { error: 'An amount is at least −20.' }).max(20, { error: 'An amount is at most 20.' }), source: shortTextSchema,
  }),
  z.strictObject({ type: z.literal('APPLY_STATUS'), targetId: idSchema, status: nameText('status'), stacks: stacksSchema, ticks: z.boolean().nullable().optional(), source: shortTextSchema }),
  z.strictObject({ type: z.literal('CLEAR_STATUS'), targetId: idSchema, status: nameText('status'), stacks: stacksSchema.nullable().optional() }),
  z.strictObject({ type: z.literal('SET_POSITION'), id: idSchema, square: squareSchema.nullable(), note: shortTextSchema }),
  z.strictObject({
    type: z.literal('OVERRIDE'), targetId: idSchema,
    field: z.enum(['fatigueLoad', 'stressLoad', 'fatigueTolerance', 'stressTolerance', 'wounds', 'incapacitated', 'moved', 'acted', 'prompt']),
    value: z.number().int().min(0).max(60), note: shortTextSchema,
  }),
]);

// ---- stages ----

const contextOf = (snapshot: EncounterSnapshot) => snapshot.context as ThrumContext;
type Stage = 'setup' | 'initiative' | 'roundZero' | 'rounds' | 'ended';
function stageOf(snapshot: EncounterSnapshot): Stage {
  if (snapshot.matches('setup')) return 'setup';
  if (snapshot.matches('initiative')) return 'initiative';
  if (snapshot.matches('roundZero')) return 'roundZero';
  if (snapshot.matches('ended')) return 'ended';
  return 'rounds';
}
const turnOpen = (snapshot: EncounterSnapshot) => snapshot.matches({ roundZero: 'turn' }) || snapshot.matches({ rounds: 'turn' }) || snapshot.matches({ rounds: 'interrupts' });

const SETUP_EVENTS = new Set(['ADD_COMBATANTS', 'SET_SIDE', 'SET_MAP', 'PLACE_NPC', 'START', 'SET_CONDITION']);
const INITIATIVE_EVENTS = new Set(['ROLL_INITIATIVE', 'BREAK_TIE', 'REMOVE_COMBATANT', 'ADD_LATE_COMBATANT', 'END_COMBAT']);

const waitingFor = (ctx: ThrumContext) => (ctx.stack.length ? `Waiting for ${combat.frameQuestion(ctx, ctx.stack.at(-1)!)}.` : null);

function refusal(snapshot: EncounterSnapshot, raw: GmEvent): string | null {
  const event = raw as GmEvent & ThrumEvent;
  const ctx = contextOf(snapshot);
  const stage = stageOf(snapshot);
  if (stage === 'ended') return 'This encounter has ended.';
  if (stage === 'setup') {
    if (SETUP_EVENTS.has(event.type) || event.type === 'REMOVE_COMBATANT') return setupRefusal(ctx, event);
    return 'Start combat first.';
  }
  if (SETUP_EVENTS.has(event.type)) {
    if (event.type === 'ADD_COMBATANTS') return 'Combat has started: add newcomers as late arrivals.';
    if (event.type === 'PLACE_NPC') return 'NPCs are placed before initiative; later, use a GM placement (SET_POSITION).';
    if (event.type === 'SET_CONDITION') return 'Win and Defeat Conditions are set in prep, before combat starts.';
    return 'That is set before combat starts.';
  }
  if (event.type === 'CONDITION_MET') return stage === 'rounds' ? rules.checkConditionMet(ctx, event.n) : 'Win and Defeat Conditions are checked from round 1.';
  if (stage === 'initiative') {
    if (!INITIATIVE_EVENTS.has(event.type)) {
      const tie = rules.openTie(ctx);
      const waiting = rules.unrolled(ctx);
      if (waiting.length) return `Roll initiative first: ${waiting.map((id) => rules.nameOf(ctx, id)).join(', ')} still to roll.`;
      if (tie) return `The GM breaks the initiative tie first: ${tie.map((id) => rules.nameOf(ctx, id)).join(', ')} (R-H1).`;
    }
    switch (event.type) {
      case 'ROLL_INITIATIVE': return initiativeRefusal(ctx, event.id, event.roll);
      case 'BREAK_TIE': return tieRefusal(ctx, event.id);
      case 'REMOVE_COMBATANT': return removeRefusal(ctx, event.combatantId);
      case 'ADD_LATE_COMBATANT': return lateRefusal(ctx, event.combatant, event.initiativeRoll, false);
      default: return null;
    }
  }
  switch (event.type) {
    case 'ROLL_INITIATIVE': return 'Initiative is rolled once, before Round Zero; a late arrival rolls as it joins.';
    case 'BREAK_TIE': return 'No initiative tie is waiting for the GM.';
    case 'DELAY': return delayRefusal(ctx, event.id, event.afterId);
    case 'END_TURN':
      if (snapshot.matches({ rounds: 'stalled' })) return 'Nobody is left in the initiative order.';
      return waitingFor(ctx);
    case 'REMOVE_COMBATANT': return removeRefusal(ctx, event.combatantId);
    case 'ADD_LATE_COMBATANT': return lateRefusal(ctx, event.combatant, event.initiativeRoll, true);
    case 'END_COMBAT': return waitingFor(ctx) ? `${waitingFor(ctx)} The current action resolves before combat ends.` : null;
    default:
      return isCombat(event) ? combat.combatRefusal(ctx, event, stage === 'roundZero' ? 'roundZero' : 'rounds') : null;
  }
}

// ---- rolls an event needs (the app rolls them, or the GM types the faces) ----

function rollsFor(snapshot: EncounterSnapshot, raw: GmEvent): RollRequest[] {
  const ctx = contextOf(snapshot);
  const event = raw as GmEvent & ThrumEvent;
  const request = (path: (string | number)[], label: string): RollRequest => ({ path, label, notation: '2d6', count: 2, sides: 6 });
  const c = 'id' in event && typeof event.id === 'string' ? ctx.combatants[event.id] : undefined;
  switch (event.type) {
    case 'ROLL_INITIATIVE':
      return c ? [request(['roll'], `${c.name}: initiative, 2d6 ${signed(c.initiativeModifier)}`)] : [];
    case 'PANIC_ROLL':
      return c ? [request(['roll'], `${c.name}: Panic Roll, 2d6 ${signed(c.resolve)} (Resolve) must exceed ${c.stressLoad}`)] : [];
    case 'INCAPACITY_ROLL':
      return c ? [request(['roll'], `${c.name}: Incapacity Roll, 2d6 ${signed(c.resilience)} (Resilience) must exceed ${c.fatigueLoad}`)] : [];
    case 'MOVE':
    case 'FORCED_MOVE': {
      // R-H11: each drop rolled with dice is the mover's 2d6 (Endurance or Reflex) against the environment's 2d6.
      const moverId = event.type === 'MOVE' ? rules.activeId(ctx) : event.id;
      const mover = moverId ? ctx.combatants[moverId] : undefined;
      if (!mover) return [];
      const stat = (roll: 'endurance' | 'reflex') => (roll === 'endurance' ? `Endurance, 2d6 ${signed(mover.resilience)}` : `Reflex, 2d6 ${signed(mover.evasion)}`);
      const requests: RollRequest[] = [];
      (event.drops ?? []).forEach((entry, i) => {
        if (typeof entry === 'string') return;
        requests.push(request(['drops', i, 'dice'], `${mover.name}: drop ${i + 1}, ${stat(entry.roll)}`));
        requests.push(request(['drops', i, 'environment'], `The environment: drop ${i + 1}, 2d6 + its height`));
      });
      if (event.type === 'FORCED_MOVE' && (event.drop === 'endurance' || event.drop === 'reflex')) {
        requests.push(request(['dropDice'], `${mover.name}: the drop, ${stat(event.drop)}`));
        requests.push(request(['environmentDice'], `The environment: 2d6 ${signed(event.levels ?? 0)} (the height)`));
      }
      return requests;
    }
    case 'DEFENSE_RESULT': {
      // R-H11: both sides of the contest, each 2d6 and a d6 more per net Boon or Bane.
      const top = ctx.stack.at(-1);
      if (top?.kind !== 'attack' || (event.id ?? 'roll') !== 'roll') return [];
      const target = top.attack.targets[top.attack.current];
      if (!target?.defence || !combat.contestRolled(ctx, target.defence)) return [];
      const dice = combat.contestDice(ctx, top.attack, target);
      const side = (path: string, label: string, d: combat.SideDice): RollRequest => ({ path: [path], label: `${label}, ${combat.diceLabel(d)}`, notation: `${d.count}d6`, count: d.count, sides: 6 });
      return [
        side('attackRoll', `${rules.nameOf(ctx, top.attack.attackerId)}: ${top.attack.ability} attack roll`, dice.attack),
        side('defenceRoll', `${rules.nameOf(ctx, target.targetId)}: ${combat.defenceLabel(target.defence)} roll`, dice.defence),
      ];
    }
    case 'ADD_LATE_COMBATANT':
      return stageOf(snapshot) === 'setup' ? [] : [request(['initiativeRoll'], `${event.combatant.name}: initiative, 2d6 ${signed(Number(event.combatant.sheet['initiativeModifier'] ?? 0))}`)];
    default:
      return [];
  }
}

// ---- the log ----

const signed = (n: number) => (n < 0 ? `− ${-n}` : `+ ${n}`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const faces = (roll: Roll | null | undefined) => (roll ? `[${roll.faces.join(', ')}]${roll.source === 'manual' ? ' (typed in)' : ''}` : '');
const possessive = (name: string) => `${name}'${name.endsWith('s') ? '' : 's'}`;
const names = (ctx: ThrumContext, ids: string[]) => ids.map((id) => rules.nameOf(ctx, id)).join(', ');
const loads = (c: ThrumCombatant) =>
  `Fatigue ${c.fatigueLoad}/${c.fatigueTolerance}, Stress ${c.stressLoad}/${c.stressTolerance}${rules.isExhausted(c) ? ', Exhausted' : ''}${rules.isFrayed(c) ? ', Frayed' : ''}`;
const orderText = (ctx: ThrumContext) =>
  ctx.order.map((id) => `${rules.nameOf(ctx, id)} ${ctx.combatants[id]!.initiative?.total ?? '—'}`).join(', ');

function rollLine(kind: 'panic' | 'incapacity', event: { id: string; roll?: Roll | null }, before: ThrumContext, after: ThrumContext, reason: string | null): LogLine {
  const b = before.combatants[event.id]!;
  const a = after.combatants[event.id]!;
  const modifier = kind === 'panic' ? b.resolve : b.resilience;
  const total = combat.sumFaces(event.roll!) + modifier;
  const against = kind === 'panic' ? b.stressLoad : b.fatigueLoad;
  const head = `${possessive(b.name)} ${kind === 'panic' ? 'Panic' : 'Incapacity'} Roll${reason ? ` (${reason})` : ''}: ${faces(event.roll)} ${signed(modifier)} ${kind === 'panic' ? 'Resolve' : 'Resilience'} = ${total} against ${kind === 'panic' ? 'Stress' : 'Fatigue'} Load ${against}`;
  if (total > against) return { round: eventRound(before, after), kind: 'decision', actorId: b.id, text: `${head}: it must exceed the load and does. ${kind === 'panic' ? 'Holds their nerve.' : 'Stays on their feet.'}` };
  if (kind === 'panic') {
    const stunned = after.options['stunned'] === 'gmAdjudicates' ? 'Stunned (the GM applies it)' : 'Stunned (skips the next Action)';
    return {
      round: eventRound(before, after), kind: 'decision', actorId: b.id, rulings: ['R-H5', 'R-H6', 'R-H8'],
      text: `${head}: ${total === against ? 'a tie fails' : 'fails'}. ${stunned}; Stress Load ${b.stressLoad} added to Fatigue Load (now ${a.fatigueLoad}) and reset to 0; Stress Tolerance ${b.stressTolerance} → ${a.stressTolerance}.`,
    };
  }
  return {
    round: eventRound(before, after), kind: 'decision', actorId: b.id, rulings: ['R-H8'],
    text: `${head}: ${total === against ? 'a tie fails' : 'fails'}. ${b.name} is Incapacitated${b.stance ? `; the stance ${b.stance} ends` : ''}; Fatigue Tolerance ${b.fatigueTolerance} → ${a.fatigueTolerance}, Fatigue Load ${b.fatigueLoad} → ${a.fatigueLoad}${a.incapacitated ? '' : ' — Fatigue Load 0, so it ends at once'}.`,
  };
}

/** A drop rolled with dice, for the log: "Reflex [4, 5] + 1 = 10 against the environment [2, 3] + 3 = 8". */
const dropRollText = (d: combat.DropRolled) =>
  `${d.stat} [${d.mover.faces.join(', ')}] ${signed(d.mover.modifier)} = ${d.mover.total} against the environment [${d.environment.faces.join(', ')}] + ${d.environment.levels} = ${d.environment.total}:`;

const ROLL_REASON: Record<string, string> = { startOfTurn: 'start of turn', afterAction: 'Exhausted after acting', finisher: 'Finisher' };

function combatLine(event: CombatEvent, before: ThrumContext, after: ThrumContext): LogLine | null {
  const round = eventRound(before, after);
  const name = (id: string | null | undefined) => rules.nameOf(before, id);
  const actor = rules.activeId(before);
  const top = before.stack.at(-1);
  switch (event.type) {
    case 'PANIC_ROLL':
    case 'INCAPACITY_ROLL':
      return rollLine(event.type === 'PANIC_ROLL' ? 'panic' : 'incapacity', event, before, after, top?.kind === 'roll' ? ROLL_REASON[top.reason] ?? null : null);
    case 'MOVE': {
      const a = after.combatants[actor!]!;
      const b = before.combatants[actor!]!;
      const cost = after.turn.moved - before.turn.moved;
      const where = event.path?.length ? ` to ${squareLabel(event.path.at(-1)!)}` : '';
      const extras: string[] = [];
      if (!event.teleport && event.path?.length && before.board && b.position) {
        // Each drop of two or more levels and how the mover took it (§5.3): paid for, or rolled.
        let from = b.position;
        let n = 0;
        for (const square of event.path) {
          const step = stepCost(before.board, from, square);
          if (step.drop !== null) {
            const entry = event.drops?.[n] ?? 'pay';
            n += 1;
            const head = `drops ${step.drop} levels into ${squareLabel(square)}`;
            const rolled = typeof entry === 'string' ? null : combat.dropRollOf(before, b, entry, step.drop);
            const choice = rolled?.result ?? entry;
            if (choice === 'pay') extras.push(`${head} and pays ${plural(step.cost - step.dropCost!, 'extra square')}`);
            else extras.push(`${head}: ${rolled ? dropRollText(rolled) : `Endurance or Reflex against ${step.drop}`} ${choice === 'success' ? 'succeeds, base cost only' : 'fails, base cost only, +1 Slowed'}`);
          }
          from = square;
        }
      }
      const slowed = rules.stacksOf(a, 'Slowed') - rules.stacksOf(b, 'Slowed');
      if (rules.stacksOf(a, 'Dazed') > rules.stacksOf(b, 'Dazed')) extras.push(`movement spent reaches the lowered Speed ${combat.speedOf(a, after)}: +1 Dazed and movement stops`);
      const left = Math.max(0, combat.speedOf(a, after) - after.turn.moved);
      const verb = event.teleport ? `teleports ${plural(cost, 'square')}${where}, crossing nothing between (no terrain or elevation costs)` : `moves ${plural(cost, 'square')}${where}`;
      return {
        round, kind: 'turn', actorId: actor, rulings: slowed ? ['R-H12'] : [],
        text: `${name(actor)} ${verb}${event.note ? ` (${event.note})` : ''}${extras.length ? `; ${extras.join('; ')}` : ''}. ${plural(left, 'square')} of movement left.`,
      };
    }
    case 'FORCED_MOVE': {
      const plan = combat.planForcedMove(before, event);
      const a = after.combatants[event.id]!;
      const distance = event.path?.length ?? event.squares ?? 0;
      const where = event.path?.length ? ` to ${squareLabel(event.path.at(-1)!)}` : '';
      const drops = plan.drops.map((d) => {
        const levels = d.levels === null ? 'two or more levels' : `${d.levels} levels`;
        const against = d.levels === null ? 'the height difference' : String(d.levels);
        return `drops ${levels}${d.at ? ` into ${squareLabel(d.at)}` : ''}: ${d.rolled ? dropRollText(d.rolled) : `Endurance or Reflex against ${against}`} ${d.result === 'success' ? 'succeeds' : 'fails, +1 Slowed'}`;
      });
      if (plan.dazed) drops.push(`movement spent this turn reaches the lowered Speed ${combat.speedOf(a, after)}: +${plan.dazed} Dazed${rules.activeId(after) === a.id ? ' and no further movement' : ''}`);
      return {
        round, kind: 'damage', actorId: a.id, rulings: plan.slowed ? ['R-H11', 'R-H12'] : plan.drops.length ? ['R-H11'] : [],
        text: `${a.name} is moved ${plural(distance, 'square')}${where}${event.source ? ` by ${event.source}` : ''}${drops.length ? `; ${drops.join('; ')}` : ''}.`,
      };
    }
    case 'ATTACK': {
      const attack = (after.stack.find((f) => f.kind === 'attack' && f.attack.attackerId === event.attackerId && f.attack.ability === event.ability) as Extract<Frame, { kind: 'attack' }> | undefined)?.attack
        ?? combat.planAttack(before, event, top?.kind === 'trigger');
      const tags = [event.attackType, event.ranged ? 'Ranged' : null, event.finisher ? 'Finisher' : null, combat.isAreaAttack(event) ? 'area' : null].filter(Boolean).join(', ');
      const covered = attack.targets.filter((t) => t.cover).map((t) => name(t.targetId));
      const parts = [`${name(event.attackerId)}${top?.kind === 'trigger' ? ' (triggered effect)' : ''} uses ${event.ability} (${tags})${event.squares?.length ? ` on the area ${event.squares.map(squareLabel).join(' ')}` : ''} on ${names(before, attack.targets.map((t) => t.targetId))}, Art ${signed(attack.artModifier)}${event.art === null || event.art === undefined ? ' (highest Art, a Basic Attack)' : ''}`];
      if (event.overexert) parts.push(`Overexert: takes ${event.overexert} Stress before any roll (now ${after.combatants[event.attackerId]!.stressLoad})`);
      if (attack.ranged && attack.adjacentEnemies) parts.push(`+${attack.adjacentEnemies} Bane for adjacent enemies`);
      if (covered.length) parts.push(`cover on ${covered.join(', ')}: +1 Bane`);
      const effect = [event.fatigue ? `${event.fatigue} Fatigue` : null, event.stress ? `${event.stress} Stress` : null, ...(event.statuses ?? []).map((s) => `${s.stacks} ${combat.statusName(s.status)}`)].filter(Boolean).join(', ');
      const allies = combat.isAreaAttack(event) ? attack.targets.map((t) => before.combatants[t.targetId]!).filter((t) => t.side === before.combatants[event.attackerId]!.side) : [];
      const undefended = attack.targets.filter((t) => t.undefended).map((t) => name(t.targetId));
      if (undefended.length) parts.push(`${undefended.join(', ')} ${undefended.length === 1 ? 'is' : 'are'} Incapacitated and do${undefended.length === 1 ? 'es' : ''} not defend under this campaign's ruling: the effect lands`);
      if (allies.length) parts.push(`the area hits allies too (${names(before, allies.map((c) => c.id))})`);
      const boardCover = Boolean(before.board && before.combatants[event.attackerId]!.position);
      const rulings = ['R-H11', 'R-H12b', ...(covered.length && boardCover ? ['R-H13', 'R-H14'] : []), ...(allies.length ? ['R-H10'] : []), ...(undefended.length ? ['R-H16'] : [])];
      return { round, kind: 'attack', actorId: event.attackerId, rulings, text: `${parts.join('; ')}. Effect: ${effect}.` };
    }
    case 'DEFENSE_CHOICE': {
      const attack = (top as Extract<Frame, { kind: 'attack' }>).attack;
      const target = attack.targets[attack.current]!;
      const defender = before.combatants[target.targetId]!;
      const counts = combat.rollCounts(before, attack, { ...target, defence: event.id });
      const boons = counts.defenceBoons.length ? `, +${counts.defenceBoons.length} Boon (${counts.defenceBoons.join(', ')})` : '';
      const banes = counts.defenceBanes.length ? `, +${counts.defenceBanes.length} Bane (${counts.defenceBanes.join(', ')})` : '';
      return { round, kind: 'decision', actorId: defender.id, rulings: defender.incapacitated ? ['R-H16'] : [], text: `${defender.incapacitated ? 'Though Incapacitated, ' : ''}${defender.name} defends with ${combat.defenceLabel(event.id)} (${signed(combat.defenceModifier(defender, event.id))}${boons}${banes}), chosen before the attack is rolled.` };
    }
    case 'DEFENSE_RESULT': {
      const attack = (top as Extract<Frame, { kind: 'attack' }>).attack;
      const target = attack.targets[attack.current]!;
      const counts = combat.rollCounts(before, attack, target);
      const a = after.combatants[target.targetId]!;
      const tier = combat.contestTier(before, attack, target, event);
      const { takes, vulnerable } = combat.outcomeOf(target.defence, tier);
      const result = `${tier}: ${takes ? `takes the effect (${loads(a)})` : 'avoids the effect'}${vulnerable ? ', +1 Vulnerable' : ''}`;
      if ((event.id ?? 'roll') === 'roll') {
        // R-H11: the two rolls, the faces kept, the totals and what decided the outcome (a tie, a Critical: R-H11's contestTies and criticalMargin).
        const contest = combat.contestOf(before, attack, target, event.attackRoll!, event.defenceRoll!);
        const sideText = (who: string, roll: Roll, side: combat.Contest['attack']) => {
          const dropped = side.dice.keep === 'both' ? '' : ` keeps the ${side.dice.keep} ${side.kept.join(', ')}`;
          return `${who} ${faces(roll)}${dropped} ${signed(side.dice.modifier)} = ${side.total}`;
        };
        const rulings = ['R-H11', ...(takes ? ['R-H12b'] : [])];
        const decided = contest.margin === 0
          ? `a tie, ${tier === 'failure' ? 'which goes to the attack' : 'and the attack must exceed the defence'}`
          : contest.margin > 0 ? `the defence is ${contest.margin} higher` : `the attack is ${-contest.margin} higher`;
        const critical = contest.attackCritical ? `; an attack Critical (${Number(before.options['criticalMargin'] ?? 5)} or more above the defence) for an ability with a Critical effect` : '';
        return {
          round, kind: 'attack', actorId: a.id, rulings,
          text: `${sideText(`${possessive(name(attack.attackerId))} ${attack.ability}`, event.attackRoll!, contest.attack)} against ${sideText(`${possessive(a.name)} ${combat.defenceLabel(target.defence!)}`, event.defenceRoll!, contest.defence)}: ${decided}${critical} — ${result}.`,
        };
      }
      const attackSide = `Attack Art ${signed(counts.attackModifier)}${counts.attackBanes.length ? ` with ${plural(counts.attackBanes.length, 'Bane')} (${counts.attackBanes.join(', ')})` : ''}${counts.attackBoons ? ` and ${plural(counts.attackBoons, 'Boon')}` : ''}`;
      const defenceSide = `${possessive(a.name)} ${combat.defenceLabel(target.defence!)} ${signed(counts.defenceModifier)}${counts.defenceBoons.length ? ` with ${plural(counts.defenceBoons.length, 'Boon')}` : ''}${counts.defenceBanes.length ? ` with ${plural(counts.defenceBanes.length, 'Bane')}` : ''}`;
      return { round, kind: 'attack', actorId: a.id, rulings: ['R-H11', ...(takes ? ['R-H12b'] : [])], text: `${attackSide} against ${defenceSide}: ${result}.` };
    }
    case 'USE_ABILITY': {
      const extras: string[] = [];
      if (event.overexert) extras.push(`Overexert: takes ${event.overexert} Stress first`);
      if (event.terrainEffect) extras.push(`places a Terrain Effect${before.combatants[actor!]!.terrainEffect ? `, ending ${before.combatants[actor!]!.terrainEffect}` : ''}`);
      if (event.buffTargetId) {
        const target = after.combatants[event.buffTargetId]!;
        extras.push(target.buff?.name === event.ability && target.buff.fromId === actor ? `buff on ${target.name}` : `${target.name} already has a buff and chooses`);
      }
      return { round, kind: 'turn', actorId: actor, text: `${name(actor)} uses ${event.ability}${event.note ? `: ${event.note}` : ''}${extras.length ? ` (${extras.join('; ')})` : ''}.` };
    }
    case 'RESUSCITATE':
      return { round, kind: 'turn', actorId: actor, text: `${name(actor)} uses Resuscitate on ${name(event.targetId)}: no longer Incapacitated.` };
    case 'BUFF_CHOICE': {
      const frame = top as Extract<Frame, { kind: 'buff' }>;
      const old = before.combatants[frame.targetId]!.buff?.name ?? 'the old buff';
      return { round, kind: 'decision', actorId: frame.targetId, text: event.id === 'takeNew' ? `${name(frame.targetId)} takes ${frame.name}, ending ${old}.` : `${name(frame.targetId)} keeps ${old} and declines ${frame.name}.` };
    }
    case 'SET_STANCE': {
      const old = before.combatants[actor!]!.stance;
      return { round, kind: 'turn', actorId: actor, text: `${name(actor)} takes the stance ${event.stance}${old && old !== event.stance ? `, ending ${old}` : ''}.` };
    }
    case 'POSITION':
      return { round, kind: 'turn', actorId: actor, text: `${name(actor)} takes a starting square at ${squareLabel(event.square)}.` };
    case 'TRIGGER': {
      const queued = after.stack.slice(before.stack.length).reverse() as Extract<Frame, { kind: 'trigger' }>[];
      const interrupted = before.stack.at(-1);
      return {
        round, kind: 'decision',
        text: `Trigger: ${event.trigger}. ${queued.length > 1 ? 'In initiative order: ' : ''}${queued.map((f) => `${name(f.ownerId)} (${f.effect})`).join(', ')}${interrupted ? `, before ${combat.stackEntry(before, interrupted)} (last in, first out)` : ''}.`,
      };
    }
    case 'RESOLVE_TRIGGER': {
      const frame = top as Extract<Frame, { kind: 'trigger' }>;
      return { round, kind: 'decision', actorId: frame.ownerId, text: `${possessive(name(frame.ownerId))} triggered effect resolves: ${frame.effect}.` };
    }
    case 'APPLY_LOAD': {
      const a = after.combatants[event.targetId]!;
      const b = before.combatants[event.targetId]!;
      const floored = (event.load === 'fatigue' ? b.fatigueLoad : b.stressLoad) + event.amount < 0;
      const load = event.load === 'fatigue' ? 'Fatigue' : 'Stress';
      const recovered = b.incapacitated && !a.incapacitated ? ' Fatigue Load 0: no longer Incapacitated.' : '';
      return { round, kind: 'damage', actorId: a.id, rulings: floored ? ['R-H8'] : [], text: `${a.name} ${event.amount > 0 ? `takes ${event.amount} ${load}` : `sheds ${-event.amount} ${load}`}${event.source ? ` (${event.source})` : ''}: ${loads(a)}.${recovered}` };
    }
    case 'APPLY_STATUS': {
      const status = combat.statusName(event.status);
      const s = after.combatants[event.targetId]!.statuses[status]!;
      return { round, kind: 'damage', actorId: event.targetId, rulings: ['R-H15'], text: `${name(event.targetId)} gains ${event.stacks} ${status} (${s.stacks} in all, ${s.ticks ? 'counts down at the end of its turns' : 'does not count down'})${event.source ? ` from ${event.source}` : ''}.` };
    }
    case 'CLEAR_STATUS':
      return { round, kind: 'damage', actorId: event.targetId, text: `${name(event.targetId)} loses ${event.stacks ? `${event.stacks} ` : 'all '}${combat.statusName(event.status)}.` };
    case 'SET_POSITION':
      return { round, kind: 'decision', actorId: event.id, text: `GM placement: ${name(event.id)} ${event.square ? `to ${squareLabel(event.square)}` : 'off the map'}${event.note ? ` (${event.note})` : ''}.` };
    case 'OVERRIDE':
      return {
        round, kind: 'decision', actorId: event.targetId,
        text: event.field === 'prompt'
          ? `GM override: ${top ? frameQuestionText(before, top) : 'the pending question'} is set aside${event.note ? ` (${event.note})` : ''}.`
          : `GM override: ${possessive(name(event.targetId))} ${OVERRIDE_LABEL[event.field]} set to ${event.value}${event.note ? ` (${event.note})` : ''}.`,
      };
  }
}

const frameQuestionText = (ctx: ThrumContext, frame: Frame) => combat.frameQuestion(ctx, frame);
const OVERRIDE_LABEL: Record<combat.OverrideField, string> = {
  fatigueLoad: 'Fatigue Load', stressLoad: 'Stress Load', fatigueTolerance: 'Fatigue Tolerance', stressTolerance: 'Stress Tolerance', wounds: 'Wounds',
  incapacitated: 'Incapacitated (1 yes, 0 no)', moved: 'movement spent', acted: 'Action taken (1 yes, 0 no)', prompt: 'pending question',
};

function endTurnLine(before: ThrumContext, after: ThrumContext, roundZero: boolean): LogLine {
  const id = rules.activeId(before)!;
  const b = before.combatants[id]!;
  const a = after.combatants[id]!;
  const rulings: string[] = [];
  const notes: string[] = [];
  if (!roundZero) {
    const ticked = Object.entries(b.statuses).filter(([, s]) => s.ticks).map(([n, s]) => `${n} ${s.stacks} → ${a.statuses[n]?.stacks ?? 0}`);
    if (ticked.length) {
      notes.push(`count-down: ${ticked.join(', ')}`);
      rulings.push('R-H15');
    }
    if (b.incapacitated) {
      rulings.push('R-H7', 'R-H8');
      notes.push(`Incapacitated: Fatigue Tolerance ${b.fatigueTolerance} → ${a.fatigueTolerance}, Fatigue Load ${b.fatigueLoad} → ${a.fatigueLoad}`);
      if (!a.incapacitated) notes.push('Fatigue Load 0: Incapacitated ends');
      if (a.wounds > b.wounds) notes.push(`ends the turn Incapacitated at Fatigue Tolerance 0: a Wound (${a.wounds} of 3)`);
      if (a.removed?.kind === 'wounds') notes.push('three Wounds: removed from combat and from normal campaign play');
    }
    if (!before.turn.acted && !b.incapacitated && rules.stacksOf(b, 'Stunned') > 0 && before.options['stunned'] !== 'gmAdjudicates') {
      notes.push('the Action was skipped (Stunned)');
      rulings.push('R-H6');
    }
  }
  return { round: before.round, kind: 'turn', actorId: id, rulings, text: `${b.name} ends the turn${b.stance && !roundZero ? ` in ${b.stance}` : ''}${notes.length ? `; ${notes.join('; ')}` : ''}.` };
}

function eventLine(event: GmEvent & ThrumEvent, before: EncounterSnapshot, after: EncounterSnapshot): LogLine | null {
  // An event that ends the combat is told as it left the combatants; the end's reset of the loads has its own line.
  const ended = contextOf(after);
  const a = ended.closedFrom && !before.matches('ended') ? { ...ended, combatants: ended.closedFrom } : ended;
  const b = contextOf(before);
  const round = a.round;
  if (isCombat(event)) return combatLine(event, b, a);
  switch (event.type) {
    case 'ADD_COMBATANTS': {
      const bySide = (side: string) => event.combatants.filter((c) => c.side === side).map((c) => c.name);
      const parts = (['party', 'foes'] as const).filter((s) => bySide(s).length).map((s) => `${bySide(s).join(', ')} to the ${s === 'party' ? 'party' : 'foes'}`);
      return { round, kind: 'setup', text: `Added ${parts.join('; ')}.` };
    }
    case 'REMOVE_COMBATANT': {
      const who = rules.nameOf(b, event.combatantId);
      if (before.matches('setup')) return { round, kind: 'setup', text: `${who} was taken off the roster.` };
      return { round, kind: 'removal', actorId: event.combatantId, rulings: ['R-H4'], text: `${who} leaves the fight${event.reason ? ` (${event.reason})` : ''}; everyone after slides up.` };
    }
    case 'SET_SIDE':
      return { round, kind: 'setup', text: `${rules.nameOf(b, event.id)} fights with the ${event.side === 'party' ? 'party' : 'foes'}.` };
    case 'SET_MAP':
      return event.map
        ? { round, kind: 'setup', text: `Map: ${event.map.width}×${event.map.height} squares, ${plural(Object.keys(event.map.elevation).length, 'square')} off Elevation 0, ${event.map.difficult.length} of Difficult Terrain, a Starting Area of ${plural(event.map.startingArea.length, 'square')}.` }
        : { round, kind: 'setup', text: 'No map: the GM gives range, cover and adjacent enemies for each attack.' };
    case 'PLACE_NPC':
      return { round, kind: 'setup', text: `The GM places ${rules.nameOf(b, event.id)}${event.square ? ` at ${squareLabel(event.square)}` : ' off the map'}.` };
    case 'START':
      return { round, kind: 'round', text: 'Combat starts: every combatant rolls initiative (2d6 + Initiative modifier).' };
    case 'ROLL_INITIATIVE': {
      const c = a.combatants[event.id]!;
      return { round, kind: 'order', actorId: c.id, text: `${c.name} rolls initiative: ${faces(event.roll)} ${signed(c.initiativeModifier)} = ${c.initiative!.total}.` };
    }
    case 'BREAK_TIE':
      return { round, kind: 'order', actorId: event.id, rulings: ['R-H1'], text: `The GM breaks the tie: ${rules.nameOf(b, event.id)} goes first among ${names(b, rules.openTie(b) ?? [event.id])}.` };
    case 'DELAY':
      return {
        round, kind: 'order', actorId: event.id, rulings: ['R-H3'],
        text: `${rules.nameOf(b, event.id)} delays ${event.afterId ? `until after ${rules.nameOf(b, event.afterId)}` : 'to the end of the round'}, and keeps that place for the rest of the combat. Order: ${names(a, a.order)}.`,
      };
    case 'END_TURN':
      return endTurnLine(b, a, before.matches('roundZero'));
    case 'ADD_LATE_COMBATANT': {
      const c = a.combatants[event.combatant.id]!;
      const roll = c.initiative ? ` Initiative ${faces(event.initiativeRoll)} ${signed(c.initiativeModifier)} = ${c.initiative.total}` : '';
      const slot = a.order.indexOf(c.id);
      return { round, kind: 'order', actorId: c.id, text: `${c.name} arrives late and joins the ${c.side === 'party' ? 'party' : 'foes'}.${roll}${slot === -1 ? '' : `, slot ${slot + 1}`}.` };
    }
    case 'SET_CONDITION': {
      const condition = a.conditions.at(-1)!;
      return { round, kind: 'setup', text: `${rules.conditionLabel(condition)} ${a.conditions.length}: ${condition.text}.` };
    }
    case 'CONDITION_MET': {
      const condition = a.conditions[event.n - 1]!;
      const pending = a.outcome === null && (a.stack.length > 0 || a.action !== null);
      return { round, kind: 'round', text: `The GM marks the ${rules.conditionLabel(condition)} met: ${condition.text.replace(/\.$/, '')}.${pending ? ' Combat ends once the triggers and the action under way resolve.' : ''}` };
    }
    case 'END_COMBAT':
      return null; // the end-of-combat line comes from consequenceLines
  }
  return null;
}

function endLines(before: ThrumContext, after: ThrumContext): LogLine[] {
  const lines: LogLine[] = [{ round: eventRound(before, after), kind: 'end', text: `Combat ends: ${(after.outcome || 'no outcome given').replace(/\.$/, '')}. Fatigue and Stress Loads reset to 0; buffs, stances and terrain effects end.` }];
  for (const id of after.roster) {
    const b = before.combatants[id]!;
    const a = after.combatants[id]!;
    if (!a.pc) continue;
    const parts = [`Fatigue Tolerance ${a.fatigueTolerance}/${a.baseFatigueTolerance}`, `Stress Tolerance ${a.stressTolerance}/${a.baseStressTolerance}`, `Wounds ${a.wounds}`];
    let rulings: string[] = [];
    let status = '';
    if (a.removed?.kind === 'wounds') status = ' Out of action (three Wounds).';
    else if (b.incapacitated && a.incapacitated) {
      status = ' Stays Incapacitated until Downtime restores some Fatigue Tolerance.';
      rulings = ['R-H9'];
    } else if (b.incapacitated) status = ' Recovers from Incapacitated.';
    lines.push({ round: eventRound(before, after), kind: 'end', actorId: id, rulings, text: `${a.name}: ${parts.join(', ')} recorded.${status}` });
  }
  return lines;
}

/** Lines every event may cause as a side effect: the order, a new round, a new turn, a pending question, the end. */
function consequenceLines(before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  const a = contextOf(before);
  const b = contextOf(after);
  const lines: LogLine[] = [];
  if (after.matches('ended')) return before.matches('ended') ? lines : endLines(a, b);
  if (after.matches('roundZero') && !before.matches('roundZero')) {
    const tied = rules.tiedGroups(b).length > 0 || b.roster.some((id, _i, all) => all.some((other) => other !== id && b.combatants[other]!.initiative?.total === b.combatants[id]!.initiative?.total));
    lines.push({ round: 0, kind: 'order', rulings: tied ? ['R-H1'] : [], text: `Initiative order: ${orderText(b)}.` });
    lines.push({ round: 0, kind: 'round', rulings: ['R-H2'], text: 'Round Zero: in initiative order, PCs take a starting square in the Starting Area and everyone a first stance. No actions.' });
  }
  if (b.round !== a.round && b.round >= 1) lines.push({ round: b.round, kind: 'round', text: `Round ${b.round} begins. Order: ${names(b, b.order)}.` });
  const wasActive = turnOpen(before) ? rules.activeId(a) : null;
  const nowActive = turnOpen(after) ? rules.activeId(b) : null;
  if (nowActive && (nowActive !== wasActive || b.round !== a.round || b.cursor !== a.cursor)) {
    const c = b.combatants[nowActive]!;
    const state = [c.incapacitated ? 'Incapacitated: start and end of turn only (R-H4)' : null, rules.isFrayed(c) ? 'Frayed' : null, rules.isExhausted(c) ? 'Exhausted' : null].filter(Boolean);
    lines.push({ round: b.round, kind: 'turn', actorId: nowActive, rulings: c.incapacitated ? ['R-H4'] : [], text: `${possessive(c.name)} turn (initiative ${c.initiative?.total ?? '—'})${state.length ? `: ${state.join(', ')}` : ''}.` });
  }
  for (const frame of b.stack) {
    if (a.stack.includes(frame)) continue;
    if (frame.kind === 'roll') {
      const c = b.combatants[frame.id]!;
      lines.push({
        round: b.round, kind: 'decision', actorId: c.id,
        text: frame.roll === 'panic'
          ? `${c.name} is Frayed (Stress ${c.stressLoad} over Tolerance ${c.stressTolerance}): a Panic Roll is due.`
          : `${c.name} is Exhausted (Fatigue ${c.fatigueLoad} over Tolerance ${c.fatigueTolerance}): an Incapacity Roll is due (${ROLL_REASON[frame.reason]}).`,
      });
    }
  }
  return lines;
}

function describe(raw: GmEvent, before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  const line = eventLine(raw as GmEvent & ThrumEvent, before, after);
  return [...(line ? [line] : []), ...consequenceLines(before, after)];
}

// ---- the runner's view ----

function combatantView(ctx: ThrumContext, id: string, status: CombatantView['status'], slot: number | null): CombatantView {
  const c = ctx.combatants[id]!;
  const tags: string[] = [];
  if (c.incapacitated) tags.push('Incapacitated');
  // Derived from the loads, never stored (§5.5): the tag says why.
  if (rules.isFrayed(c)) tags.push(`Frayed (Stress ${c.stressLoad} > ${c.stressTolerance})`);
  if (rules.isExhausted(c)) tags.push(`Exhausted (Fatigue ${c.fatigueLoad} > ${c.fatigueTolerance})`);
  for (const [name, s] of Object.entries(c.statuses)) tags.push(`${name} ${s.stacks}`);
  if (c.stance) tags.push(`Stance: ${c.stance}`);
  if (c.buff) tags.push(`Buff: ${c.buff.name}`);
  if (c.wounds) tags.push(`Wounds ${c.wounds}/3`);
  if (c.delayedThisRound) tags.push('Delayed this round');
  else if (c.hasDelayed) tags.push('Delayed earlier: keeps the later slot');
  if (c.fatigueTolerance < c.baseFatigueTolerance) tags.push(`Fatigue Tolerance ${c.fatigueTolerance} (base ${c.baseFatigueTolerance})`);
  if (c.stressTolerance < c.baseStressTolerance) tags.push(`Stress Tolerance ${c.stressTolerance} (base ${c.baseStressTolerance})`);
  return {
    id,
    name: c.name,
    side: c.side,
    sideLabel: c.side === 'party' ? 'Party' : 'Foes',
    status,
    slot,
    health: { label: 'Fatigue', current: c.fatigueLoad, max: c.fatigueTolerance, rising: true },
    tags,
    stats: [
      { label: 'Stress', value: `${c.stressLoad}/${c.stressTolerance}` },
      { label: 'Wounds', value: `${c.wounds}/3` },
      { label: 'Speed', value: String(combat.speedOf(c, ctx)) },
      ...(c.initiative ? [{ label: 'Initiative', value: String(c.initiative.total) }] : []),
    ],
    details: {
      initiative: c.initiative?.total ?? null,
      initiativeFaces: c.initiative?.faces ?? null,
      initiativeModifier: c.initiativeModifier,
      speed: combat.speedOf(c, ctx),
      fatigueLoad: c.fatigueLoad,
      fatigueTolerance: c.fatigueTolerance,
      baseFatigueTolerance: c.baseFatigueTolerance,
      stressLoad: c.stressLoad,
      stressTolerance: c.stressTolerance,
      baseStressTolerance: c.baseStressTolerance,
      frayed: rules.isFrayed(c),
      exhausted: rules.isExhausted(c),
      incapacitated: c.incapacitated,
      wounds: c.wounds,
      stance: c.stance,
      statuses: c.statuses,
      buff: c.buff,
      terrainEffect: c.terrainEffect,
      position: c.position,
      delayedThisRound: c.delayedThisRound,
      hasDelayed: c.hasDelayed,
      resilience: c.resilience,
      evasion: c.evasion,
      resolve: c.resolve,
      highestArt: c.highestArt,
    },
    ...(c.removed ? (c.removed.kind === 'wounds' ? { removedReason: 'three Wounds: out of action', defeated: true } : { removedReason: c.removed.reason }) : {}),
  };
}

function framePrompt(ctx: ThrumContext, frame: Frame): EncounterPrompt {
  switch (frame.kind) {
    case 'attack': {
      const attack = frame.attack;
      const target = attack.targets[attack.current]!;
      const defender = ctx.combatants[target.targetId]!;
      const attacker = rules.nameOf(ctx, attack.attackerId);
      if (target.defence === null) {
        const choices = combat.defenceChoices(attack.attackType).map((d) => {
          const boon = d === 'evasion' && rules.stacksOf(defender, 'Vulnerable') === 0 ? ', +1 Boon' : '';
          return { id: d, label: d === 'alternative' ? 'An ability\'s defence' : `${combat.defenceLabel(d)} ${signed(combat.defenceModifier(defender, d))}${boon}` };
        });
        return {
          kind: 'defenceChoice', answer: 'DEFENSE_CHOICE', subjectId: defender.id, choices,
          text: `${attacker} attacks ${defender.name} with ${attack.ability} (${attack.attackType}). ${defender.name} chooses a defence before the roll.`,
          details: { attackerId: attack.attackerId, ability: attack.ability, attackType: attack.attackType, target: attack.current + 1, targets: attack.targets.length },
        };
      }
      const counts = combat.rollCounts(ctx, attack, target);
      const tierLabel: Record<string, string> = {
        critical: 'Critical: avoids the effect',
        success: target.defence === 'evasion' ? 'Success: avoids it, +1 Vulnerable' : 'Success: avoids the effect',
        failure: target.defence === 'evasion' ? 'Failure: takes it, +1 Vulnerable' : 'Failure: takes the effect',
      };
      if (combat.contestRolled(ctx, target.defence)) {
        // R-H11: the app rolls both sides (or the GM types physical dice in the Contested roll form).
        const dice = combat.contestDice(ctx, attack, target);
        const boonsBanes = (boons: number, banes: number) => [boons ? plural(boons, 'Boon') : null, banes ? plural(banes, 'Bane') : null].filter(Boolean).join(', ');
        const attackCounts = boonsBanes(counts.attackBoons, counts.attackBanes.length);
        const defenceCounts = boonsBanes(counts.defenceBoons.length, counts.defenceBanes.length);
        return {
          kind: 'defenceResult', answer: 'DEFENSE_RESULT', subjectId: defender.id,
          text: `Contested roll: ${possessive(attacker)} ${attack.ability}, ${combat.diceLabel(dice.attack)}${attackCounts ? ` (${attackCounts})` : ''}, against ${possessive(defender.name)} ${combat.defenceLabel(target.defence)}, ${combat.diceLabel(dice.defence)}${defenceCounts ? ` (${defenceCounts})` : ''}. ${ctx.options['contestTies'] === 'attackWins' ? 'A tie goes to the attack (R-H11 ties).' : 'The attack must exceed the defence (R-H11 ties).'}`,
          choices: [{ id: 'roll', label: `Roll ${combat.diceLabel(dice.attack)} against ${combat.diceLabel(dice.defence)}` }],
          details: { ...counts, attackDice: dice.attack.count, defenceDice: dice.defence.count },
        };
      }
      return {
        kind: 'defenceResult', answer: 'DEFENSE_RESULT', subjectId: defender.id,
        text: `Roll ${possessive(attacker)} ${attack.ability}: Art ${signed(counts.attackModifier)}, ${plural(counts.attackBanes.length, 'Bane')}${counts.attackBoons ? `, ${plural(counts.attackBoons, 'Boon')}` : ''} — against ${possessive(defender.name)} ${combat.defenceLabel(target.defence)} ${signed(counts.defenceModifier)}, ${plural(counts.defenceBoons.length, 'Boon')}, ${plural(counts.defenceBanes.length, 'Bane')}. The defender's outcome?`,
        choices: combat.tiersFor(target.defence).map((t) => ({ id: t, label: tierLabel[t]! })),
        details: { ...counts },
      };
    }
    case 'roll': {
      const c = ctx.combatants[frame.id]!;
      const panic = frame.roll === 'panic';
      return {
        kind: panic ? 'panicRoll' : 'incapacityRoll', answer: panic ? 'PANIC_ROLL' : 'INCAPACITY_ROLL', subjectId: c.id,
        text: panic
          ? `${c.name} is Frayed (Stress ${c.stressLoad} over Tolerance ${c.stressTolerance}): Panic Roll, 2d6 ${signed(c.resolve)} must exceed ${c.stressLoad}.`
          : `${c.name} is Exhausted (Fatigue ${c.fatigueLoad} over Tolerance ${c.fatigueTolerance}): Incapacity Roll (${ROLL_REASON[frame.reason]}), 2d6 ${signed(c.resilience)} must exceed ${c.fatigueLoad}.`,
        choices: [{ id: c.id, label: `Roll 2d6 ${signed(panic ? c.resolve : c.resilience)}` }],
        details: { notation: '2d6', modifier: panic ? c.resolve : c.resilience, mustExceed: panic ? c.stressLoad : c.fatigueLoad, reason: frame.reason },
      };
    }
    case 'trigger': {
      // The whole stack, top first: what resolves now, then what waits under it (last in, first out, §5.2 rule 6).
      const stack = [...ctx.stack].reverse().map((f) => combat.stackEntry(ctx, f));
      const waiting = stack.slice(1);
      return {
        kind: 'trigger', answer: 'RESOLVE_TRIGGER', subjectId: frame.ownerId,
        text: `Trigger (${frame.trigger}): resolve ${possessive(rules.nameOf(ctx, frame.ownerId))} ${frame.effect}, then confirm.${waiting.length ? ` Then, last in first out: ${waiting.map((w, i) => `${i + 2}. ${w}`).join('; ')}.` : ''}`,
        choices: [{ id: frame.ownerId, label: `${rules.nameOf(ctx, frame.ownerId)}: resolved` }],
        details: { pending: ctx.stack.filter((f) => f.kind === 'trigger').length, stack },
      };
    }
    case 'buff': {
      const target = ctx.combatants[frame.targetId]!;
      return {
        kind: 'buffChoice', answer: 'BUFF_CHOICE', subjectId: target.id,
        text: `${target.name} already benefits from ${target.buff?.name ?? 'a buff'}; one buff per target. Keep it, or take ${frame.name} from ${rules.nameOf(ctx, frame.fromId)}?`,
        choices: [{ id: 'keepOld', label: `Keep ${target.buff?.name ?? 'the old buff'}` }, { id: 'takeNew', label: `Take ${frame.name}` }],
      };
    }
  }
}

function prompt(snapshot: EncounterSnapshot): EncounterPrompt | null {
  const ctx = contextOf(snapshot);
  if (snapshot.matches('initiative')) {
    const waiting = rules.unrolled(ctx);
    if (waiting.length) {
      return {
        kind: 'initiative', answer: 'ROLL_INITIATIVE', text: 'Every combatant rolls initiative: 2d6 + Initiative modifier.',
        choices: waiting.map((id) => ({ id, label: `${rules.nameOf(ctx, id)} (2d6 ${signed(ctx.combatants[id]!.initiativeModifier)})` })),
      };
    }
    const tie = rules.openTie(ctx);
    if (tie) {
      return {
        kind: 'initiativeTie', answer: 'BREAK_TIE', text: `Initiative tie the rules cannot break (R-H1): who goes first? ${names(ctx, tie)} (${ctx.combatants[tie[0]!]!.initiative!.total}).`,
        choices: tie.map((id) => ({ id, label: rules.nameOf(ctx, id) })),
      };
    }
  }
  const top = ctx.stack.at(-1);
  return top ? framePrompt(ctx, top) : null;
}

function allowedEvents(snapshot: EncounterSnapshot): string[] {
  const ctx = contextOf(snapshot);
  const stage = stageOf(snapshot);
  if (stage === 'setup') return ['ADD_COMBATANTS', 'REMOVE_COMBATANT', 'SET_SIDE', 'SET_MAP', 'PLACE_NPC', 'START', 'SET_CONDITION'];
  if (stage === 'ended') return [];
  if (stage === 'initiative') return [rules.unrolled(ctx).length ? 'ROLL_INITIATIVE' : 'BREAK_TIE', 'REMOVE_COMBATANT', 'ADD_LATE_COMBATANT', 'END_COMBAT'];
  const event = (type: string, extra: Record<string, unknown> = {}) => ({ type, ...extra }) as unknown as GmEvent;
  const active = rules.activeId(ctx);
  const top = ctx.stack.at(-1);
  const conditionOpen = stage === 'rounds' && (ctx.conditions ?? []).some((c) => !c.met) ? ['CONDITION_MET'] : [];
  if (top) {
    const answers: Record<Frame['kind'], string[]> = {
      attack: top.kind === 'attack' && top.attack.targets[top.attack.current]?.defence === null ? ['DEFENSE_CHOICE', 'TRIGGER'] : ['DEFENSE_RESULT', 'TRIGGER'],
      roll: [top.kind === 'roll' && top.roll === 'panic' ? 'PANIC_ROLL' : 'INCAPACITY_ROLL'],
      buff: ['BUFF_CHOICE'],
      trigger: ['RESOLVE_TRIGGER', 'TRIGGER', 'ATTACK', 'APPLY_LOAD', 'APPLY_STATUS', 'CLEAR_STATUS', 'SET_POSITION', 'FORCED_MOVE'],
    };
    const delay = active && delayRefusal(ctx, active, null) === null && ctx.order.length > 1 ? ['DELAY'] : [];
    return [...answers[top.kind], ...delay, 'OVERRIDE', ...conditionOpen];
  }
  const list: string[] = [];
  if (active && delayRefusal(ctx, active, null) === null) list.push('DELAY');
  const zero = stage === 'roundZero' ? 'roundZero' : 'rounds';
  const probe = (type: string, payload: Record<string, unknown>) => combat.combatRefusal(ctx, event(type, payload) as unknown as CombatEvent, zero) === null;
  if (active) {
    const c = ctx.combatants[active]!;
    if (stage === 'roundZero') {
      if (ctx.board && (c.pc || ctx.options['roundZeroNpcs'] === 'positionToo')) list.push('POSITION');
    } else {
      if (!c.incapacitated && !ctx.turn.movementClosed && !ctx.turn.stanceTaken) list.push('MOVE');
      if (probe('USE_ABILITY', { ability: 'x' })) list.push('ATTACK', 'USE_ABILITY', 'RESUSCITATE');
    }
    if (!c.incapacitated && !ctx.turn.stanceTaken) list.push('SET_STANCE');
    list.push('END_TURN');
  }
  const anytime = ['REMOVE_COMBATANT', 'ADD_LATE_COMBATANT', 'END_COMBAT', 'APPLY_LOAD', 'APPLY_STATUS', 'CLEAR_STATUS', 'SET_POSITION', 'OVERRIDE'];
  if (stage === 'rounds') anytime.push('TRIGGER', 'FORCED_MOVE', ...conditionOpen);
  return [...list, ...anytime];
}

function view(snapshot: EncounterSnapshot): EncounterView {
  const ctx = contextOf(snapshot);
  const stage = stageOf(snapshot);
  const phase = stage === 'setup' ? 'setup' : stage === 'ended' ? 'ended' : 'running';
  const active = turnOpen(snapshot) ? rules.activeId(ctx) : null;
  let order: CombatantView[];
  if (stage === 'setup') order = ctx.roster.map((id) => combatantView(ctx, id, 'waiting', null));
  else if (stage === 'initiative') {
    const rolled = rules.initiativeOrder(ctx);
    order = [
      ...rolled.map((id, i) => combatantView(ctx, id, 'waiting', i + 1)),
      ...rules.unrolled(ctx).map((id) => combatantView(ctx, id, 'unplaced', null)),
    ];
  } else {
    order = ctx.order.map((id, index) => combatantView(ctx, id, index < ctx.cursor ? 'acted' : index === ctx.cursor && id === active ? 'active' : 'waiting', index + 1));
  }
  if (stage !== 'setup') for (const id of ctx.roster) if (ctx.combatants[id]?.removed) order.push(combatantView(ctx, id, 'removed', null));
  const counters: EncounterView['counters'] = [];
  if (stage === 'initiative') counters.push({ key: 'stage', label: 'Stage', value: 'Initiative' });
  if (stage === 'roundZero') counters.push({ key: 'stage', label: 'Stage', value: 'Round Zero' });
  if (active && stage === 'rounds') {
    const c = ctx.combatants[active]!;
    counters.push({ key: 'movement', label: 'Movement left', value: Math.max(0, combat.speedOf(c, ctx) - ctx.turn.moved) });
  }
  const triggers = ctx.stack.filter((f) => f.kind === 'trigger').length;
  if (triggers) counters.push({ key: 'triggers', label: 'Triggered effects waiting', value: triggers });
  const aside: NonNullable<EncounterView['aside']> = [];
  if (stage === 'roundZero' || stage === 'rounds') {
    // The order as it stands, with each initiative total and who has moved it by a Delay (§5.2 rule 3).
    const entry = (id: string) => {
      const c = ctx.combatants[id]!;
      const delayed = c.delayedThisRound ? ', delayed this round' : c.hasDelayed ? ', delayed' : '';
      return `${c.name} ${c.initiative?.total ?? '—'}${delayed}`;
    };
    aside.push({ title: 'Initiative order', text: ctx.order.map(entry).join(' · ') || 'nobody left' });
  }
  if (ctx.board) {
    const placed = ctx.roster.filter((id) => ctx.combatants[id]!.position);
    aside.push({ title: 'Map', text: `${ctx.board.width}×${ctx.board.height}; positions: ${placed.map((id) => `${rules.nameOf(ctx, id)} ${squareLabel(ctx.combatants[id]!.position!)}`).join(', ') || 'none yet'}` });
  }
  const conditions = ctx.conditions ?? [];
  if (conditions.length) {
    // The numbers the GM gives CONDITION_MET.
    aside.push({ title: 'Win and Defeat Conditions', text: conditions.map((c, i) => `${i + 1}. ${c.kind === 'win' ? 'Win' : 'Defeat'}: ${c.text}${c.met ? ' (met)' : ''}`).join('; ') });
  }
  return {
    phase,
    round: ctx.round,
    counters,
    order,
    activeId: active,
    turn: active ? { actionsLeft: ctx.turn.acted || stage === 'roundZero' ? 0 : 1, actionsPerTurn: stage === 'roundZero' ? 0 : 1 } : null,
    prompt: prompt(snapshot),
    allowed: allowedEvents(snapshot),
    ...(aside.length ? { aside } : {}),
    board: ctx.board
      ? {
          ...ctx.board,
          pieces: ctx.roster.flatMap((id) => {
            const c = ctx.combatants[id]!;
            return c.position && !c.removed ? [{ id, name: c.name, side: c.side, x: c.position.x, y: c.position.y }] : [];
          }),
          cover: { characterHeight: Number(ctx.options['characterCoverHeight'] ?? 2), onLineGivesCover: ctx.options['dividingLineCover'] === 'cover' },
        }
      : null,
    setup: {
      partyOrder: ctx.roster.filter((id) => ctx.combatants[id]?.side === 'party'),
      gmOrder: null,
      firstSide: 'party',
      sides: rules.SIDES.map((s) => ({ ...s })),
    },
    ...(ctx.outcome !== null ? { outcome: ctx.outcome } : {}),
  };
}

// ---- what the fight leaves behind (§5.6) ----

function consequences(snapshot: EncounterSnapshot): Consequences {
  const ctx = contextOf(snapshot);
  const pcs = ctx.roster.map((id) => ctx.combatants[id]!).filter((c) => c.pc && c.characterId !== null);
  // Each Wound is recorded the moment it is taken, linked to the event that caused it.
  const injuries = pcs.flatMap((c) =>
    c.woundsHere.map((w) => ({
      key: `${c.id}.wound${w.n}`, characterId: c.characterId!, name: `Wound ${w.n} of 3`, category: 'wound',
      data: { kind: 'wound', number: w.n, round: w.round, outOfAction: w.n >= 3 },
    })),
  );
  if (!snapshot.matches('ended')) return { injuries, carry: null, party: null };
  return {
    injuries,
    // Tolerances at their present values carry into the next fight; loads do not (§5.6).
    carry: pcs.map((c) => ({
      characterId: c.characterId!,
      state: {
        fatigueTolerance: c.fatigueTolerance,
        stressTolerance: c.stressTolerance,
        wounds: c.wounds,
        stillIncapacitated: c.incapacitated,
        outOfAction: c.wounds >= 3,
      },
    })),
    party: {},
  };
}

function carriedIn(state: Record<string, unknown>, injuries: Record<string, unknown>[]): Record<string, unknown> {
  const carried: Record<string, unknown> = {};
  const int = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (int(state['fatigueTolerance'])) carried['fatigueTolerance'] = Math.min(30, state['fatigueTolerance'] as number);
  if (int(state['stressTolerance'])) carried['stressTolerance'] = Math.min(30, state['stressTolerance'] as number);
  const woundRecords = injuries.filter((i) => i['kind'] === 'wound').length;
  if (int(state['wounds'])) carried['wounds'] = Math.min(3, state['wounds'] as number);
  else if (woundRecords) carried['wounds'] = Math.min(3, woundRecords);
  if (state['stillIncapacitated'] === true) carried['stillIncapacitated'] = true;
  if (state['outOfAction'] === true) carried['outOfAction'] = true;
  return carried;
}

export const thrumEncounter: EncounterRules = {
  // Narrative conditions: Slowed, Dazed and Stunned are the rules' own statuses (the Status form), with stacks.
  conditionNames: ['Prone', 'Hidden', 'Blinded', 'Grappled', 'Marked', 'Burning'],
  machine: thrumMachine,
  eventSchema: eventSchema as unknown as z.ZodType<GmEvent>,
  sides: rules.SIDES,
  refusal,
  describe,
  view,
  rollsFor,
  consequences,
  carriedIn,
};

export { COMBAT_TYPES, keyOf };
export type { Square };
