// Enigma's encounter rules as the kernel sees them: the event schema, refusals, the log lines and the runner view.
import { z } from 'zod';
import type { CombatantView, EncounterRules, EncounterSnapshot, EncounterView, GmEvent, LogLine } from '../../encounter/types.ts';
import { combatantSeedSchema, idSchema, shortTextSchema } from '../../encounter/schemas.ts';
import { enigmaMachine } from './machine.ts';
import * as rules from './rules.ts';
import type { EnigmaContext, EnigmaEvent } from './rules.ts';

const sideSchema = z.enum(['party', 'gm'], { error: 'The side must be the party or the GM.' });

const eventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ADD_COMBATANTS'), combatants: z.array(combatantSeedSchema).max(200, { error: 'Add at most 200 combatants at once.' }) }),
  z.strictObject({ type: z.literal('REMOVE_COMBATANT'), id: idSchema, reason: shortTextSchema }),
  z.strictObject({ type: z.literal('SET_PARTY_ORDER'), ids: z.array(idSchema).max(500) }),
  z.strictObject({ type: z.literal('SET_GM_ORDER'), ids: z.array(idSchema).max(500).nullable() }),
  z.strictObject({ type: z.literal('SET_FIRST_SIDE'), side: sideSchema }),
  z.strictObject({ type: z.literal('START') }),
  z.strictObject({ type: z.literal('CHOOSE_NPC'), id: idSchema }),
  z.strictObject({ type: z.literal('END_TURN') }),
  z.strictObject({ type: z.literal('RAISE_ESCALATION'), by: z.number().int().min(1).max(10), source: shortTextSchema }),
  z.strictObject({ type: z.literal('ADD_LATE_COMBATANT'), combatant: combatantSeedSchema, position: z.number().int().min(0).nullable().optional() }),
  z.strictObject({ type: z.literal('END_COMBAT'), outcome: shortTextSchema }),
]);

const contextOf = (snapshot: EncounterSnapshot) => snapshot.context as EnigmaContext;
const inSetup = (snapshot: EncounterSnapshot) => snapshot.matches('setup');
const SETUP_EVENTS = new Set(['ADD_COMBATANTS', 'SET_PARTY_ORDER', 'SET_GM_ORDER', 'SET_FIRST_SIDE', 'START']);

function refusal(snapshot: EncounterSnapshot, raw: GmEvent): string | null {
  const event = raw as GmEvent & EnigmaEvent;
  const ctx = contextOf(snapshot);
  if (snapshot.matches('ended')) return 'This encounter has ended.';
  if (SETUP_EVENTS.has(event.type) && !inSetup(snapshot)) {
    return event.type === 'ADD_COMBATANTS'
      ? 'Combat has started: add newcomers as late arrivals.'
      : 'The order of battle is fixed once combat starts.';
  }
  if (!SETUP_EVENTS.has(event.type) && event.type !== 'REMOVE_COMBATANT' && inSetup(snapshot)) return 'Start combat first.';
  if (snapshot.matches({ active: 'choosingNpc' }) && event.type === 'END_TURN') {
    return 'Choose which enemy takes this GM slot first.';
  }
  if (event.type === 'CHOOSE_NPC' && !snapshot.matches({ active: 'choosingNpc' })) return 'No GM slot is waiting for an enemy.';
  if (event.type === 'END_TURN' && snapshot.matches({ active: 'stalled' })) return 'Nobody is left in the order of battle.';
  return rules.eventRefusal(ctx, event);
}

const sideLabel = (side: string) => (side === 'party' ? 'Party' : 'GM');
const names = (ctx: EnigmaContext, ids: string[]) => ids.map((id) => rules.nameOf(ctx, id)).join(', ');

function eventLine(event: GmEvent & EnigmaEvent, before: EnigmaContext, after: EnigmaContext): LogLine | null {
  const round = after.round;
  switch (event.type) {
    case 'ADD_COMBATANTS': {
      const bySide = (side: string) => event.combatants.filter((c) => c.side === side).map((c) => c.name);
      const parts = (['party', 'gm'] as const).filter((s) => bySide(s).length).map((s) => `${bySide(s).join(', ')} to the ${s === 'party' ? 'party' : 'GM side'}`);
      return { round, kind: 'setup', text: `Added ${parts.join('; ')}.` };
    }
    case 'REMOVE_COMBATANT': {
      const name = rules.nameOf(before, event.id);
      if (before.round === 0) return { round, kind: 'setup', text: `${name} was taken off the roster.` };
      const why = event.reason ? ` (${event.reason})` : '';
      return { round, kind: 'removal', actorId: event.id, text: `${name} left the order of battle${why}; everyone after slides up.`, rulings: ['R-E3'] };
    }
    case 'SET_PARTY_ORDER':
      return { round, kind: 'setup', text: `Party order: ${names(after, event.ids)}.` };
    case 'SET_GM_ORDER':
      return event.ids === null
        ? { round, kind: 'setup', text: 'The GM will pick an enemy at each GM slot.', rulings: ['R-E1'] }
        : { round, kind: 'setup', text: `GM order: ${names(after, event.ids)}.`, rulings: ['R-E1'] };
    case 'SET_FIRST_SIDE':
      return { round, kind: 'setup', text: event.side === 'party' ? 'The party takes the first slot.' : 'Ambush: the GM side takes the first slot.', rulings: event.side === 'gm' ? ['R-E2'] : [] };
    case 'START':
      return { round, kind: 'round', text: `Combat starts, ${after.firstSide === 'party' ? 'party' : 'GM side'} first.` };
    case 'CHOOSE_NPC':
      return { round, kind: 'order', actorId: event.id, text: `The GM sends ${rules.nameOf(after, event.id)} into slot ${after.order.length}.`, rulings: ['R-E1'] };
    case 'END_TURN': {
      const id = rules.activeId(before);
      return { round: before.round, kind: 'turn', actorId: id, text: `${rules.nameOf(before, id)} ends the turn.` };
    }
    case 'RAISE_ESCALATION':
      return { round, kind: 'escalation', text: `Escalation rises by ${event.by} to ${after.escalation}${event.source ? ` (${event.source})` : ''}.` };
    case 'ADD_LATE_COMBATANT': {
      const where = before.frozen ? `slot ${after.order.indexOf(event.combatant.id) + 1}` : `the ${event.combatant.side === 'party' ? 'party' : 'GM'} side for round 1`;
      return { round, kind: 'order', actorId: event.combatant.id, text: `${event.combatant.name} arrives late and joins ${where}.`, rulings: ['R-E4'] };
    }
    case 'END_COMBAT':
      return { round, kind: 'end', text: `Combat ends${event.outcome ? `: ${event.outcome}` : ''}.` };
  }
}

/** Lines every event may cause as a side effect: a new round, a new active combatant, a pending choice. */
function consequenceLines(before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  const a = contextOf(before);
  const b = contextOf(after);
  const lines: LogLine[] = [];
  if (after.matches('ended')) return lines;
  if (b.round !== a.round) {
    lines.push({ round: b.round, kind: 'round', text: `Round ${b.round} begins. Escalation ${b.escalation}.`, rulings: b.round === 1 ? ['R-E20'] : [] });
  }
  const wasActive = before.matches({ active: 'turn' }) ? rules.activeId(a) : null;
  const nowActive = after.matches({ active: 'turn' }) ? rules.activeId(b) : null;
  if (nowActive && (nowActive !== wasActive || b.round !== a.round || b.cursor !== a.cursor)) {
    lines.push({ round: b.round, kind: 'turn', actorId: nowActive, text: `${rules.nameOf(b, nowActive)}'s turn (slot ${b.cursor + 1}).` });
  }
  if (after.matches({ active: 'choosingNpc' }) && !before.matches({ active: 'choosingNpc' })) {
    lines.push({ round: b.round, kind: 'order', text: `GM slot ${b.order.length + 1}: the GM chooses an enemy.`, rulings: ['R-E1'] });
  }
  if (after.matches({ active: 'stalled' }) && !before.matches({ active: 'stalled' })) {
    lines.push({ round: b.round, kind: 'order', text: 'Nobody is left in the order of battle.' });
  }
  return lines;
}

function describe(raw: GmEvent, before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  const line = eventLine(raw as GmEvent & EnigmaEvent, contextOf(before), contextOf(after));
  return [...(line ? [line] : []), ...consequenceLines(before, after)];
}

function combatantView(ctx: EnigmaContext, id: string, status: CombatantView['status'], slot: number | null): CombatantView {
  const c = ctx.combatants[id]!;
  return {
    id,
    name: c.name,
    side: c.side,
    sideLabel: sideLabel(c.side),
    status,
    slot,
    health: { label: 'LP', current: c.lp, max: c.lpMax },
    tags: [],
    ...(c.removed ? { removedReason: c.removed.reason } : {}),
  };
}

function allowedEvents(snapshot: EncounterSnapshot): string[] {
  if (snapshot.matches('setup')) return ['ADD_COMBATANTS', 'REMOVE_COMBATANT', 'SET_PARTY_ORDER', 'SET_GM_ORDER', 'SET_FIRST_SIDE', 'START'];
  if (snapshot.matches('ended')) return [];
  const common = ['REMOVE_COMBATANT', 'RAISE_ESCALATION', 'ADD_LATE_COMBATANT', 'END_COMBAT'];
  if (snapshot.matches({ active: 'turn' })) return ['END_TURN', ...common];
  if (snapshot.matches({ active: 'choosingNpc' })) return ['CHOOSE_NPC', ...common];
  return common;
}

function view(snapshot: EncounterSnapshot): EncounterView {
  const ctx = contextOf(snapshot);
  const phase = snapshot.matches('setup') ? 'setup' : snapshot.matches('ended') ? 'ended' : 'running';
  const turnOpen = snapshot.matches({ active: 'turn' });
  const active = turnOpen ? rules.activeId(ctx) : null;
  let order: CombatantView[];
  if (phase === 'setup') {
    const party = ctx.partyOrder.map((id) => combatantView(ctx, id, 'waiting', null));
    const gm = (ctx.gmOrder ?? ctx.roster.filter((id) => ctx.combatants[id]?.side === 'gm')).map((id) => combatantView(ctx, id, 'waiting', null));
    order = [...party, ...gm];
  } else {
    order = ctx.order.map((id, index) =>
      combatantView(ctx, id, index < ctx.cursor ? 'acted' : index === ctx.cursor && id === active ? 'active' : 'waiting', index + 1),
    );
    // Round 1: the party's coming slots are known in advance; GM slots are known only with an up-front order.
    const projected = rules.projectRoundOne(ctx);
    const planned = new Map(projected.flatMap((slot, i) => (slot.id ? [[slot.id, ctx.order.length + i + 1] as const] : [])));
    for (const side of ['party', 'gm'] as const) {
      for (const id of rules.unplaced(ctx, side)) order.push({ ...combatantView(ctx, id, 'unplaced', null), plannedSlot: planned.get(id) ?? null });
    }
    for (const id of ctx.roster) if (ctx.combatants[id]?.removed) order.push(combatantView(ctx, id, 'removed', null));
  }
  const prompt = snapshot.matches({ active: 'choosingNpc' })
    ? {
        kind: 'chooseNpc',
        text: `GM slot ${ctx.order.length + 1}: which enemy acts next?`,
        answer: 'CHOOSE_NPC',
        choices: rules.unplaced(ctx, 'gm').map((id) => ({ id, label: rules.nameOf(ctx, id) })),
      }
    : null;
  return {
    phase,
    round: ctx.round,
    counters: phase === 'setup' ? [] : [{ key: 'escalation', label: 'Escalation', value: ctx.escalation }],
    order,
    activeId: active,
    prompt,
    allowed: allowedEvents(snapshot),
    setup: { partyOrder: ctx.partyOrder, gmOrder: ctx.gmOrder, firstSide: ctx.firstSide, sides: rules.SIDES.map((s) => ({ ...s })) },
    ...(ctx.outcome !== null ? { outcome: ctx.outcome } : {}),
  };
}

export const enigmaEncounter: EncounterRules = {
  machine: enigmaMachine,
  eventSchema: eventSchema as unknown as z.ZodType<GmEvent>,
  sides: rules.SIDES,
  refusal,
  describe,
  view,
};
