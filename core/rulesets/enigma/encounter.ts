// Enigma's encounter rules as the kernel sees them: refusals, the log lines, the runner view and the rolls an event
// needs; the event schema is events.ts.
import * as z from 'zod';
import type { CombatantView, Consequences, EncounterInput, EncounterPrompt, EncounterRoster, EncounterRules, EncounterSnapshot, EncounterView, GmEvent, LogLine, RollRequest } from '../../encounter/types.ts';
import { eventRound } from '../../encounter/log-round.ts';
import { addedSentence, names, plural } from '../../encounter/roster.ts';
import { renameFields } from '../../encounter/upcast.ts';
import * as combat from './combat.ts';
import type { CombatEvent, Roll } from './combat.ts';
import { isActiveInjury, type Injury } from './injuries.ts';
import { eventSchema } from './events.ts';
import { enigmaMachine } from './machine.ts';
import * as rules from './rules.ts';
import type { EnigmaCombatant, EnigmaContext, EnigmaEvent } from './rules.ts';
import { CAPACITIES, type Capacity } from './sheet.ts';
import { counted } from '../../words.ts';
import { rulingsOf } from './options.ts';
import { joinRecords, recordsOf, type InjuryRecord } from '../../encounter/records.ts';

const contextOf = (snapshot: EncounterSnapshot) => snapshot.context as EnigmaContext;
/**
 * Where the machine rests: 'setup', 'ended', or the state inside 'active' it waits in ('turn', 'choosingNpc',
 * 'stalled'). Read off the state value, which is what `matches` compares, without its general path matching: the
 * rules ask this many times for every event.
 */
function restingIn(snapshot: EncounterSnapshot): string {
  const value = snapshot.value as string | { active: string };
  return typeof value === 'string' ? value : value.active;
}
const inSetup = (snapshot: EncounterSnapshot) => restingIn(snapshot) === 'setup';
const turnOpen = (snapshot: EncounterSnapshot) => restingIn(snapshot) === 'turn';
const SETUP_EVENTS = new Set(['ADD_COMBATANTS', 'SET_PARTY_ORDER', 'SET_GM_ORDER', 'SET_FIRST_SIDE', 'START']);
const COMBAT_EVENTS = new Set(['MOVE', 'ATTACK', 'HIDE', 'NOTICE', 'USE_ITEM', 'USE_POWER', 'USE_REACTION', 'CHECK', 'APPLY_DAMAGE', 'AREA_DAMAGE', 'HEAL', 'RESOLVE_PERIL', 'SET_CAN_ACT', 'OVERRIDE']);

function refusal(snapshot: EncounterSnapshot, raw: GmEvent): string | null {
  const event = raw as GmEvent & EnigmaEvent;
  const ctx = contextOf(snapshot);
  if (restingIn(snapshot) === 'ended') return 'This encounter has ended.';
  if (SETUP_EVENTS.has(event.type) && !inSetup(snapshot)) {
    return event.type === 'ADD_COMBATANTS' ? 'Combat has started: add newcomers as late arrivals.' : 'The order of battle is fixed once combat starts.';
  }
  if (!SETUP_EVENTS.has(event.type) && event.type !== 'REMOVE_COMBATANT' && inSetup(snapshot)) return 'Start combat first.';
  if (COMBAT_EVENTS.has(event.type)) return combat.combatRefusal(ctx, event as CombatEvent, turnOpen(snapshot));
  if (ctx.pendingPeril.length > 0) return `${rules.nameOf(ctx, ctx.pendingPeril[0])} is in Mortal Peril: choose Sacrifice or Survive first.`;
  if (restingIn(snapshot) === 'choosingNpc' && event.type === 'END_TURN') return 'Choose which enemy takes this GM slot first.';
  if (event.type === 'CHOOSE_NPC' && restingIn(snapshot) !== 'choosingNpc') return 'No GM slot is waiting for an enemy.';
  if (event.type === 'END_TURN' && restingIn(snapshot) === 'stalled') return 'Nobody is left who can act.';
  return rules.eventRefusal(ctx, event);
}

// ---- rolls an event needs (the app rolls them, or the GM types the faces) ----

function rollsFor(snapshot: EncounterSnapshot, raw: GmEvent): RollRequest[] {
  const ctx = contextOf(snapshot);
  const event = raw as GmEvent & EnigmaEvent;
  const request = (path: (string | number)[], who: string, spec: combat.DiceSpec): RollRequest => ({
    path, label: `${who}: ${spec.capacity[0]!.toUpperCase()}${spec.capacity.slice(1)}`, notation: spec.notation, count: spec.count, sides: spec.size,
  });
  const get = (id: string) => ctx.combatants[id];
  const active = get(rules.activeId(ctx) ?? '');
  try {
    switch (event.type) {
      case 'ATTACK': {
        if (!get(event.attackerId) || !get(event.targetId)) return [];
        const plan = combat.planAttack(ctx, event);
        if (plan.autoMiss) return [];
        return [request(['attackRoll'], get(event.attackerId)!.name, plan.attack!), request(['defenceRoll'], get(event.targetId)!.name, plan.defence!)];
      }
      case 'HIDE':
        if (!active) return [];
        return [
          request(['navigateRoll'], active.name, combat.diceSpec(active, 'navigate', 0, ctx.options)),
          ...event.observers.flatMap((o, i) => (get(o.observerId) ? [request(['observers', i, 'gleanRoll'], get(o.observerId)!.name, combat.diceSpec(get(o.observerId)!, 'glean', 0, ctx.options))] : [])),
        ];
      case 'NOTICE':
        if (!active || !get(event.targetId)) return [];
        return [request(['gleanRoll'], active.name, combat.diceSpec(active, 'glean', 0, ctx.options)), request(['navigateRoll'], get(event.targetId)!.name, combat.diceSpec(get(event.targetId)!, 'navigate', 0, ctx.options))];
      case 'CHECK':
        if (!get(event.actorId)) return [];
        return [request(['roll'], get(event.actorId)!.name, combat.checkSpec(ctx, event))];
      default:
        return [];
    }
  } catch {
    return [];
  }
}

// ---- the log ----

const sideLabel = (side: string) => (side === 'party' ? 'Party' : 'GM');
const faces = (roll: Roll | null | undefined) => (roll ? `[${roll.faces.join(', ')}]${roll.source === 'manual' ? ' (typed in)' : ''}` : '');
const stackNote = (net: number) => (net === 0 ? '' : ` with ${Math.abs(net)} ${net > 0 ? 'advantage' : 'disadvantage'}`);

function combatLine(event: CombatEvent, before: EnigmaContext, after: EnigmaContext): LogLine {
  const round = eventRound(before, after);
  const name = (id: string | null | undefined) => rules.nameOf(before, id);
  const actor = rules.activeId(before);
  const onTargets = (ids: readonly string[] | undefined) => (ids && ids.length ? ` on ${ids.map(name).join(', ')}` : '');
  /** R-E17: whom the user is revealed to, or that the power keeps it hidden; '' when it was hidden from nobody. */
  const revealed = (userId: string, targetIds: readonly string[], e: combat.Revealing): { text: string; rulings: string[] } => {
    const hidden = before.combatants[userId]?.hiddenFrom ?? [];
    if (hidden.length === 0 || targetIds.length === 0 || !rulingsOf(before.options).attackRevealsHidden) return { text: '', rulings: [] };
    if (e.staysHidden) return { text: ` ${name(userId)} stays hidden: the power says so (R-E17).`, rulings: ['R-E17'] };
    const seen = combat.revealedTo(before, userId, targetIds, e);
    const still = hidden.filter((id) => !seen.includes(id));
    if (seen.length === 0) return { text: ` ${name(userId)} stays hidden from ${still.map(name).join(', ')}, out of sight (R-E17).`, rulings: ['R-E17'] };
    return { text: ` ${name(userId)} is revealed${still.length ? ` to ${seen.map(name).join(', ')}; still hidden from ${still.map(name).join(', ')}, out of sight` : ''} (R-E17).`, rulings: ['R-E17'] };
  };
  switch (event.type) {
    case 'MOVE':
      return { round, kind: 'turn', actorId: actor, rulings: event.pauses ? ['R-E11'] : [], text: `${name(actor)} moves ${plural(event.spaces, 'space')}${event.pauses ? ` with ${plural(event.pauses, 'pause')}` : ''}${event.note ? ` (${event.note})` : ''}. ${plural(after.actionsLeft, 'action')} left.` };
    case 'ATTACK': {
      const outcome = combat.resolveAttack(before, event);
      const how = `${event.power ? `${event.power}: ` : ''}${name(event.attackerId)}${event.asReaction ? ' reacts and' : ''} attacks ${name(event.targetId)} (${event.mode}${event.mode === 'ranged' ? `, ${event.distance} spaces` : ''})`;
      const shown = revealed(event.attackerId, [event.targetId], event);
      if (outcome.autoMiss) return { round, kind: 'attack', actorId: event.attackerId, rulings: ['R-E12', ...shown.rulings], text: `${how}: beyond twice the Glean die, an automatic miss.${shown.text}` };
      const target = after.combatants[event.targetId]!;
      const attack = `Attack d${outcome.attack!.size}${stackNote(outcome.attack!.net)} ${faces(event.attackRoll)} → ${outcome.attackFace} + Escalation ${before.escalation} = ${outcome.attackTotal}`;
      const defence = `${outcome.defence!.capacity === 'endure' ? 'Endure' : 'Navigate'} d${outcome.defence!.size}${stackNote(outcome.defence!.net)} ${faces(event.defenceRoll)} → ${outcome.defenceFace}`;
      const result = outcome.hit
        ? `hit for ${outcome.damage} (${target.name} ${target.lp} LP${target.removed ? ', defeated' : after.pendingPeril.includes(target.id) ? ', in Mortal Peril' : ''})`
        : outcome.attackTotal === outcome.defenceFace ? 'a tie goes to the defender: miss' : 'miss';
      return { round, kind: 'attack', actorId: event.attackerId, rulings: [...outcome.rulings, ...shown.rulings], text: `${how}: ${attack} against ${defence}, ${result}.${shown.text}` };
    }
    case 'HIDE': {
      const hider = after.combatants[actor!]!;
      const from = event.observers.filter((o) => hider.hiddenFrom.includes(o.observerId)).map((o) => name(o.observerId));
      const seenBy = event.observers.filter((o) => !hider.hiddenFrom.includes(o.observerId)).map((o) => name(o.observerId));
      return { round, kind: 'turn', actorId: actor, rulings: ['R-E14'], text: `${name(actor)} hides: Navigate ${faces(event.navigateRoll)} against ${event.observers.map((o) => `${name(o.observerId)}'s Glean ${faces(o.gleanRoll)}`).join(', ')}. ${from.length ? `Hidden from ${from.join(', ')}` : 'Hidden from nobody'}${seenBy.length ? `; still seen by ${seenBy.join(', ')}` : ''}.` };
    }
    case 'NOTICE': {
      const found = !after.combatants[event.targetId]!.hiddenFrom.includes(actor!);
      return { round, kind: 'turn', actorId: actor, rulings: ['R-E14'], text: `${name(actor)} searches for ${name(event.targetId)}: Glean ${faces(event.gleanRoll)} against Navigate ${faces(event.navigateRoll)}, ${found ? 'noticed' : 'not found'}.` };
    }
    case 'USE_ITEM':
      return { round, kind: 'turn', actorId: actor, text: `${name(actor)} uses ${event.item}${event.note ? ` (${event.note})` : ''}.` };
    case 'USE_POWER': {
      const shown = revealed(actor!, event.targetIds ?? [], event);
      return { round, kind: 'turn', actorId: actor, rulings: [...(event.fullAction ? ['R-E7'] : []), ...shown.rulings], text: `${name(actor)} activates ${event.power}${onTargets(event.targetIds)}${event.fullAction ? ' (a full action)' : ''}, ${plural(before.actionsLeft - after.actionsLeft, 'action')}${event.note ? `: ${event.note}` : ''}.${shown.text}` };
    }
    case 'USE_REACTION': {
      const shown = revealed(event.reactorId, event.targetIds ?? [], event);
      return { round, kind: 'turn', actorId: event.reactorId, rulings: ['R-E6', ...shown.rulings], text: `${name(event.reactorId)} reacts with ${event.power}${onTargets(event.targetIds)}${event.note ? ` (${event.note})` : ''}: one action less next turn.${shown.text}` };
    }
    case 'CHECK': {
      const spec = combat.checkSpec(before, event);
      const kept = combat.keptFace(spec, event.roll);
      const success = combat.meets(kept, event.difficulty, before);
      return { round, kind: 'decision', actorId: event.actorId, rulings: ['R-E18'], text: `${name(event.actorId)}: ${event.description || 'check'}${onTargets(event.targetId ? [event.targetId] : [])}${event.targetId && event.sight === 'unseen' ? (event.needsNoSight ? ' (not seen; the power needs no line of sight)' : ' (not seen)') : ''} — ${event.capacity[0]!.toUpperCase()}${event.capacity.slice(1)} d${spec.size}${stackNote(spec.net)} ${faces(event.roll)} → ${kept} against difficulty ${event.difficulty}: ${success ? 'success' : 'failure'}${event.cost ? ` (${plural(event.cost, 'action')})` : ''}.` };
    }
    case 'APPLY_DAMAGE': {
      const target = after.combatants[event.targetId]!;
      return { round, kind: 'damage', actorId: event.targetId, text: `${name(event.targetId)} takes ${event.amount} damage${event.source ? ` from ${event.source}` : ''}: ${target.lp} LP${target.removed ? ', defeated' : after.pendingPeril.includes(target.id) ? ', in Mortal Peril' : ''}.` };
    }
    case 'AREA_DAMAGE': {
      const hits = event.targets.map((t) => {
        const c = after.combatants[t.targetId]!;
        return `${c.name} ${t.amount} (${c.lp} LP${c.removed ? ', defeated' : after.pendingPeril.includes(c.id) ? ', in Mortal Peril' : ''})`;
      });
      return { round, kind: 'damage', text: `${event.source || 'Area damage'} hits ${hits.join(', ')}.`, rulings: after.pendingPeril.length > 1 ? ['R-E9'] : [] };
    }
    case 'HEAL':
      return { round, kind: 'damage', actorId: event.targetId, text: `${name(event.targetId)} is healed ${event.amount} by ${event.kind === 'fix' ? 'a Fix' : event.kind === 'magic' ? 'healing magic' : 'other means'}${event.source ? ` (${event.source})` : ''}: ${after.combatants[event.targetId]!.lp} LP.` };
    case 'RESOLVE_PERIL': {
      const c = after.combatants[event.combatantId]!;
      if (event.choice === 'sacrifice') return { round, kind: 'decision', actorId: event.combatantId, text: `Mortal Peril: ${c.name} chooses Sacrifice and dies. Legacy: ${event.costText || '—'}.` };
      const injury = c.injuries.find((i) => i.gainedHere && (event.injury?.mode === 'extend' ? i.id === event.injury.injuryId : i.id === c.injuries.at(-1)?.id));
      const injuryText = event.injury && injury ? ` ${event.injury.mode === 'extend' ? 'Extends' : 'Injury'}: ${injury.name} (${injury.category}), ${injury.baseRoll} × ${injury.multiplier} = ${counted(injury.restsRemaining, 'rest')}.` : '';
      return { round, kind: 'decision', actorId: event.combatantId, rulings: ['R-E22', ...(event.injury ? ['R-E23', 'R-E25'] : [])], text: `Mortal Peril: ${c.name} chooses Survive (Survive ${c.survivals} this encounter) at a cost: ${event.costText || '—'}. LP ${c.lp}.${event.healingRestriction ? ' From now on no healing magic but Fixes.' : ''}${injuryText}` };
    }
    case 'SET_CAN_ACT':
      return { round, kind: 'decision', actorId: event.combatantId, rulings: ['R-E5'], text: `${name(event.combatantId)} ${event.canAct ? 'can act again' : 'cannot act: its turns are skipped'}${event.note ? ` (${event.note})` : ''}.` };
    case 'OVERRIDE':
      return { round, kind: 'decision', actorId: event.targetId, text: `GM override: ${name(event.targetId)}'s ${event.field === 'die' ? `${event.capacity} die` : event.field === 'lp' ? 'LP' : event.field === 'actionsLeft' ? 'actions left' : 'reaction debt'} set to ${event.field === 'die' ? `d${event.value}` : event.value}${event.note ? ` (${event.note})` : ''}.` };
  }
}

function eventLine(event: GmEvent & EnigmaEvent, before: EnigmaContext, after: EnigmaContext): LogLine | null {
  const round = eventRound(before, after);
  if (COMBAT_EVENTS.has(event.type)) return combatLine(event as CombatEvent, before, after);
  switch (event.type) {
    case 'ADD_COMBATANTS': {
      return { round, kind: 'setup', text: addedSentence(event.combatants, [{ key: 'party', label: 'the party' }, { key: 'gm', label: 'the GM side' }]) };
    }
    case 'REMOVE_COMBATANT': {
      const name = rules.nameOf(before, event.combatantId);
      if (before.round === 0) return { round, kind: 'setup', text: `${name} was taken off the roster.` };
      const why = event.reason ? ` (${event.reason})` : '';
      return { round, kind: 'removal', actorId: event.combatantId, text: `${name} left the order of battle${why}; everyone after slides up.`, rulings: ['R-E3'] };
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
      return { round, kind: 'order', actorId: event.combatantId, text: `The GM sends ${rules.nameOf(after, event.combatantId)} into slot ${after.order.indexOf(event.combatantId) + 1}.`, rulings: ['R-E1'] };
    case 'END_TURN': {
      const id = rules.activeId(before);
      return { round: before.round, kind: 'turn', actorId: id, text: `${rules.nameOf(before, id)} ends the turn${before.actionsLeft ? ` with ${plural(before.actionsLeft, 'action')} unused` : ''}.` };
    }
    case 'RAISE_ESCALATION':
      return { round, kind: 'escalation', text: `Escalation rises by ${event.by} to ${after.escalation}${event.source ? ` (${event.source})` : ''}.` };
    case 'ADD_LATE_COMBATANT': {
      const where = before.frozen ? `slot ${after.order.indexOf(event.combatant.id) + 1}` : `the ${event.combatant.side === 'party' ? 'party' : 'GM'} side for round 1`;
      return { round, kind: 'order', actorId: event.combatant.id, text: `${event.combatant.name} arrives late and joins ${where}.`, rulings: ['R-E4'] };
    }
    case 'END_COMBAT':
      return { round, kind: 'end', text: `Combat ends${event.outcome ? `: ${event.outcome}` : ''}. Escalation stays at ${after.escalation} until a Breather or Rest; reaction debt is dropped.`, rulings: ['R-E6', 'R-E20'] };
  }
  return null;
}

/** Lines for the turns in `ids` that passed without anyone acting: skipped (R-E5) or lost to reaction debt (R-E6). */
function passedLines(a: EnigmaContext, b: EnigmaContext, ids: readonly string[], round: number): LogLine[] {
  const lines: LogLine[] = [];
  for (const id of ids) {
    const c = b.combatants[id];
    if (!c) continue;
    if (!c.canAct) lines.push({ round, kind: 'turn', actorId: id, rulings: ['R-E5'], text: `${c.name} cannot act: turn skipped.` });
    else if (a.combatants[id]?.reactionDebt === 2 && c.reactionDebt === 0) lines.push({ round, kind: 'turn', actorId: id, rulings: ['R-E6'], text: `${c.name} pays two reactions and has no actions this turn.` });
  }
  return lines;
}

/**
 * Turns the cursor passed over in the round that was running before the event and ended with it (the slots after
 * the one that acted, up to the end of the order): "Using a reaction will subtract one action from the
 * character's next turn" holds for the last slot of a round too, and its turn is logged as taken.
 */
function passedTurnsOfEndedRound(before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  const a = contextOf(before);
  const b = contextOf(after);
  if (a.round === 0 || b.round === a.round) return [];
  // Round 1 builds the order as it goes: the slots placed in this step are in the order after it.
  const order = a.frozen ? a.order : b.order;
  return passedLines(a, b, order.slice(a.cursor + (turnOpen(before) ? 1 : 0)), a.round);
}

/** Turns the cursor passed over in the round running after the event. */
function passedTurns(before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  const a = contextOf(before);
  const b = contextOf(after);
  if (b.round === 0) return [];
  const start = b.round === a.round ? a.cursor + (turnOpen(before) ? 1 : 0) : 0;
  const end = turnOpen(after) ? b.cursor : b.order.length;
  return passedLines(a, b, b.order.slice(Math.max(0, start), Math.max(0, end)), b.round);
}

/** Lines every event may cause as a side effect: a new round, a new active combatant, a pending choice. */
function consequenceLines(before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  const a = contextOf(before);
  const b = contextOf(after);
  const lines: LogLine[] = [];
  if (restingIn(after) === 'ended') return lines;
  lines.push(...passedTurnsOfEndedRound(before, after));
  if (b.round !== a.round) {
    lines.push({ round: b.round, kind: 'round', text: `Round ${b.round} begins. Escalation ${b.escalation}.`, rulings: b.round === 1 ? ['R-E20'] : [] });
  }
  lines.push(...passedTurns(before, after));
  for (const id of b.pendingPeril) {
    if (!a.pendingPeril.includes(id)) lines.push({ round: b.round, kind: 'decision', actorId: id, rulings: b.pendingPeril.length > 1 ? ['R-E9'] : [], text: `${rules.nameOf(b, id)} falls to 0 LP: Mortal Peril. Sacrifice or Survive?` });
  }
  const wasActive = turnOpen(before) ? rules.activeId(a) : null;
  const nowActive = turnOpen(after) ? rules.activeId(b) : null;
  if (nowActive && (nowActive !== wasActive || b.round !== a.round || b.cursor !== a.cursor)) {
    const debt = a.combatants[nowActive]?.reactionDebt ?? 0;
    lines.push({ round: b.round, kind: 'turn', actorId: nowActive, rulings: debt ? ['R-E6'] : [], text: `${rules.nameOf(b, nowActive)}'s turn (slot ${b.cursor + 1}): ${plural(b.actionsLeft, 'action')}${debt ? `, ${debt} paid to earlier reactions` : ''}.` });
  }
  if (restingIn(after) === 'choosingNpc' && restingIn(before) !== 'choosingNpc') {
    lines.push({ round: b.round, kind: 'order', text: `GM slot ${b.order.length + 1}: the GM chooses an enemy.`, rulings: ['R-E1'] });
  }
  if (restingIn(after) === 'stalled' && restingIn(before) !== 'stalled') {
    lines.push({ round: b.round, kind: 'order', text: 'Nobody is left who can act.' });
  }
  return lines;
}

function describe(raw: GmEvent, before: EncounterSnapshot, after: EncounterSnapshot): LogLine[] {
  const line = eventLine(raw as GmEvent & EnigmaEvent, contextOf(before), contextOf(after));
  return [...(line ? [line] : []), ...consequenceLines(before, after)];
}

// ---- the runner's view ----

/** What Enigma's own components (renderer/src/rulesets/enigma) read of a row: `CombatantView.details`. */
export type EnigmaRowDetails = {
  speed: number;
  reactionDebt: number;
  hiddenFrom: string[];
  dice: Record<Capacity, number>;
  disadvantage: Record<Capacity, number>;
  injuries: { id: string; name: string; category: string; restsRemaining: number; permanent: boolean; gainedHere: boolean }[];
  survivals: number;
};

/** What the Mortal Peril prompt's form needs: `EncounterPrompt.details` of the prompt of kind 'mortalPeril'. */
export type PerilDetails = {
  npc: boolean;
  /** This Survive's number in the fight: it multiplies a new injury's rests (RULES.md §1.6). */
  survivalNumber: number;
  /** R-E27: what a 10 on the Manifest list of names does. */
  manifestRollOfTen: string;
  /** This fight's injuries a Survive may extend instead of taking a new one. */
  extendable: { id: string; label: string }[];
};

/** A row's details as Enigma's view wrote them (EnigmaRowDetails); undefined for no row. */
export const enigmaRowDetailsOf = (row: CombatantView | null | undefined): EnigmaRowDetails | undefined => row?.details as EnigmaRowDetails | undefined;

/** The Mortal Peril prompt's details as Enigma's view wrote them (PerilDetails); null for any other prompt. */
export const perilDetailsOf = (prompt: EncounterPrompt | null | undefined): PerilDetails | null =>
  prompt?.kind === 'mortalPeril' ? (prompt.details as PerilDetails) : null;

/**
 * What a combatant's row shows besides its place (health, tags, details, why it left), kept per combatant record
 * with the last row made from it. These depend only on the record (replaced whenever it changes, never changed in
 * place), whether it waits for Mortal Peril, and the encounter's options: the names a row quotes ("hidden from ...")
 * never change once combatants are added, and nobody leaves the roster once combat has started (before it, nobody is
 * hidden). So a view after an event rebuilds only the rows of the combatants the event touched, and a row that only
 * moved (a new status or slot) reuses what it shows.
 */
interface RowParts {
  peril: boolean;
  options: EnigmaContext['options'];
  health: NonNullable<CombatantView['health']>;
  tags: string[];
  /** Running injuries as chips, and Mortal Peril as an alert (absent when none). */
  shown: Pick<CombatantView, 'marks' | 'alertTags'>;
  details: EnigmaRowDetails;
  removed: { removedReason?: string; dead?: boolean; defeated?: boolean };
  row: CombatantView | null;
  /** The last row made for it while unplaced in round 1, with the slot it is planned for. */
  unplaced: CombatantView | null;
}
const rowParts = new WeakMap<EnigmaCombatant, RowParts>();

function partsFor(ctx: EnigmaContext, id: string): RowParts {
  const c = ctx.combatants[id]!;
  const peril = ctx.pendingPeril.includes(id);
  let parts = rowParts.get(c);
  if (!parts || parts.peril !== peril || parts.options !== ctx.options) rowParts.set(c, (parts = partsOf(ctx, c, peril)));
  return parts;
}

function combatantView(ctx: EnigmaContext, id: string, status: CombatantView['status'], slot: number | null): CombatantView {
  const parts = partsFor(ctx, id);
  if (parts.row && parts.row.status === status && parts.row.slot === slot) return parts.row;
  const c = ctx.combatants[id]!;
  parts.row = { id, name: c.name, side: c.side, sideLabel: sideLabel(c.side), status, slot, health: parts.health, tags: parts.tags, ...parts.shown, details: parts.details, ...parts.removed };
  return parts.row;
}

/** A round-1 combatant not yet placed, with the slot it is planned for (or null): the same row while that holds. */
function unplacedView(ctx: EnigmaContext, id: string, plannedSlot: number | null): CombatantView {
  const parts = partsFor(ctx, id);
  if (parts.unplaced && parts.unplaced.plannedSlot === plannedSlot) return parts.unplaced;
  parts.unplaced = { ...combatantView(ctx, id, 'unplaced', null), plannedSlot };
  return parts.unplaced;
}

function partsOf(ctx: EnigmaContext, c: EnigmaCombatant, peril: boolean): RowParts {
  const effects = combat.effectsOf(c, ctx);
  const running = c.injuries.filter(isActiveInjury);
  const tags: string[] = [];
  if (c.reactionDebt) tags.push(`owes ${plural(c.reactionDebt, 'action')}`);
  if (c.hiddenFrom.length) tags.push(`hidden from ${names(ctx, c.hiddenFrom)}`);
  if (!c.canAct) tags.push('cannot act');
  if (peril) tags.push('Mortal Peril');
  if (c.healingRestriction === 'fixesOnly') tags.push('Fixes only');
  for (const capacity of CAPACITIES) if (c.dice[capacity] < c.base[capacity]) tags.push(`${capacity} d${c.dice[capacity]} (base d${c.base[capacity]})`);
  return {
    peril,
    options: ctx.options,
    health: { label: 'LP', current: c.lp, max: rules.lpMaxOf(c, ctx.options) },
    tags,
    shown: {
      ...(running.length ? { marks: running.map((i) => ({ id: i.id, text: `${i.name} · ${i.permanent ? 'permanent' : counted(i.restsRemaining, 'rest')}`, title: `${i.category} injury` })) } : {}),
      ...(peril ? { alertTags: ['Mortal Peril'] } : {}),
    },
    details: {
      speed: combat.speedOf(c, ctx),
      reactionDebt: c.reactionDebt,
      hiddenFrom: c.hiddenFrom,
      dice: c.dice,
      disadvantage: effects.disadvantage,
      injuries: running.map((i) => ({ id: i.id, name: i.name, category: i.category, restsRemaining: i.restsRemaining, permanent: i.permanent, gainedHere: Boolean(i.gainedHere) })),
      survivals: c.survivals,
    },
    removed: c.removed ? (c.removed.kind === 'dead' ? { removedReason: `died (Sacrifice)${c.legacy ? `: ${c.legacy}` : ''}`, dead: true } : { removedReason: c.removed.reason, ...(c.removed.kind === 'defeated' ? { defeated: true } : {}) }) : {},
    row: null,
    unplaced: null,
  };
}

function allowedEvents(snapshot: EncounterSnapshot): string[] {
  const ctx = contextOf(snapshot);
  if (restingIn(snapshot) === 'setup') {
    // R-E2 off: the party always takes the first slot, so there is no first side to choose.
    const firstSide = rulingsOf(ctx.options).ambushStartsWithGm ? ['SET_FIRST_SIDE'] : [];
    return ['ADD_COMBATANTS', 'REMOVE_COMBATANT', 'SET_PARTY_ORDER', 'SET_GM_ORDER', ...firstSide, 'START'];
  }
  if (restingIn(snapshot) === 'ended') return [];
  if (ctx.pendingPeril.length) return ['RESOLVE_PERIL', 'OVERRIDE'];
  const anytime = ['REMOVE_COMBATANT', 'RAISE_ESCALATION', 'ADD_LATE_COMBATANT', 'END_COMBAT', 'APPLY_DAMAGE', 'AREA_DAMAGE', 'HEAL', 'SET_CAN_ACT', 'OVERRIDE'];
  if (turnOpen(snapshot)) {
    const turn = ['END_TURN', 'USE_REACTION', 'ATTACK', 'CHECK'];
    if (ctx.actionsLeft > 0) turn.push('MOVE', 'HIDE', 'NOTICE', 'USE_ITEM', 'USE_POWER');
    return [...turn, ...anytime];
  }
  if (restingIn(snapshot) === 'choosingNpc') return ['CHOOSE_NPC', ...anytime];
  return anytime;
}

function phaseOf(snapshot: EncounterSnapshot): EncounterView['phase'] {
  const state = restingIn(snapshot);
  return state === 'setup' || state === 'ended' ? state : 'running';
}

/** The order of battle as the runner lists it: placed slots, then those not placed yet, then the removed. */
function orderOf(ctx: EnigmaContext, phase: EncounterView['phase'], active: string | null): CombatantView[] {
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
    // Once the order is frozen everyone is placed.
    if (!ctx.frozen) {
      const projected = rules.projectRoundOne(ctx);
      const planned = new Map<string, number>();
      projected.forEach((slot, i) => slot.id && planned.set(slot.id, ctx.order.length + i + 1));
      for (const side of ['party', 'gm'] as const) {
        for (const id of rules.unplaced(ctx, side)) order.push(unplacedView(ctx, id, planned.get(id) ?? null));
      }
    }
    for (const id of ctx.roster) if (ctx.combatants[id]?.removed) order.push(combatantView(ctx, id, 'removed', null));
  }
  return order;
}

/** What the export summary follows from event to event: the view's phase, round, order and awaited answer. */
function roster(snapshot: EncounterSnapshot): EncounterRoster {
  const ctx = contextOf(snapshot);
  const phase = phaseOf(snapshot);
  const order = orderOf(ctx, phase, turnOpen(snapshot) ? rules.activeId(ctx) : null);
  const awaiting = ctx.pendingPeril[0] ? 'RESOLVE_PERIL' : restingIn(snapshot) === 'choosingNpc' ? 'CHOOSE_NPC' : null;
  return { phase, round: ctx.round, order, awaiting };
}

function view(snapshot: EncounterSnapshot): EncounterView {
  const ctx = contextOf(snapshot);
  const phase = phaseOf(snapshot);
  const active = turnOpen(snapshot) ? rules.activeId(ctx) : null;
  const order = orderOf(ctx, phase, active);
  const perilId = ctx.pendingPeril[0];
  let prompt: EncounterView['prompt'] = null;
  if (perilId) {
    const c = ctx.combatants[perilId]!;
    prompt = {
      kind: 'mortalPeril',
      text: `${c.name} is at 0 LP: Mortal Peril. Sacrifice or Survive?`,
      answer: 'RESOLVE_PERIL',
      subjectId: perilId,
      choices: [{ id: 'sacrifice', label: 'Sacrifice', answer: { combatantId: perilId, choice: 'sacrifice' } }, { id: 'survive', label: 'Survive', answer: { combatantId: perilId, choice: 'survive' } }],
      // R-E27 travels with the prompt, so its d10 name roll follows the campaign's ruling.
      details: { npc: c.side !== 'party', survivalNumber: combat.survivalNumber(c, ctx.options), manifestRollOfTen: rulingsOf(ctx.options).manifestRollOfTen, extendable: c.injuries.filter((i) => i.gainedHere).map((i) => ({ id: i.id, label: `${i.name} (${counted(i.restsRemaining, 'rest')})` })) } satisfies PerilDetails,
    };
  } else if (restingIn(snapshot) === 'choosingNpc') {
    prompt = {
      kind: 'chooseNpc',
      text: `GM slot ${ctx.order.length + 1}: which enemy acts next?`,
      answer: 'CHOOSE_NPC',
      choices: rules.unplaced(ctx, 'gm').map((id) => ({ id, label: rules.nameOf(ctx, id), answer: { combatantId: id } })),
    };
  }
  return {
    phase,
    round: ctx.round,
    counters: phase === 'setup' ? [] : [{ key: 'escalation', label: 'Escalation', value: ctx.escalation }],
    order,
    activeId: active,
    turn: active ? { actionsLeft: ctx.actionsLeft, actionsPerTurn: 2 } : null,
    prompt,
    allowed: allowedEvents(snapshot),
    // R-E10: the party's order of battle doubles as a spotlight order for exploration and conversation.
    ...(rulingsOf(ctx.options).spotlightOrder && phase !== 'setup'
      ? { aside: [{ title: 'Spotlight order (R-E10)', text: [...ctx.order, ...rules.unplaced(ctx, 'party')].filter((id) => ctx.combatants[id]?.side === 'party' && !ctx.combatants[id]?.removed).map((id) => rules.nameOf(ctx, id)).join(' → ') }] }
      : {}),
    setup: { partyOrder: ctx.partyOrder, gmOrder: ctx.gmOrder, firstSide: ctx.firstSide, sides: rules.SIDES.map((s) => ({ ...s })) },
    ...(ctx.outcome !== null ? { outcome: ctx.outcome } : {}),
  };
}

// ---- what the fight leaves behind (§1.6) ----

/**
 * The campaign's characters on the party's side, per roster list: a roster is replaced only when someone joins or
 * leaves it (and a combatant's side and character never change), while every event asks (a roster of 200 ids).
 */
const pcIdsOf = new WeakMap<readonly string[], readonly string[]>();

function pcIds(ctx: EnigmaContext): readonly string[] {
  let ids = pcIdsOf.get(ctx.roster);
  if (!ids) {
    ids = ctx.roster.filter((id) => ctx.combatants[id]?.side === 'party' && ctx.combatants[id]?.characterId !== null);
    pcIdsOf.set(ctx.roster, ids);
  }
  return ids;
}

/** A PC's records of the injuries it gained in this fight. */
function gainedRecords(c: EnigmaCombatant): readonly InjuryRecord[] {
  return recordsOf(c.injuries, `${c.id} ${c.characterId}`, ({ gainedHere, ...injury }) =>
    gainedHere ? { key: injury.id, characterId: c.characterId!, name: injury.name, category: injury.category, data: { ...injury } } : null);
}

function consequences(snapshot: EncounterSnapshot): Consequences {
  const ctx = contextOf(snapshot);
  const pcs = pcIds(ctx).map((id) => ctx.combatants[id]!);
  const injuries = joinRecords(ctx.roster, pcs.map(gainedRecords));
  if (restingIn(snapshot) !== 'ended') return { injuries, carry: null, party: null };
  return {
    injuries,
    // LP is carried over as it stands, with the current dice and any healing restriction (§1.6 end of combat).
    carry: pcs.map((c) => ({
      characterId: c.characterId!,
      state: { lp: c.lp, dice: c.dice, healingRestriction: c.healingRestriction, ...(c.removed?.kind === 'dead' ? { dead: true, legacy: c.legacy } : {}) },
    })),
    // Escalation is not reset by the end of combat: only a Breather or a Rest resets it (R-E20).
    party: { escalation: ctx.escalation },
  };
}

/** A fight starts at the party's Escalation, left by the last fight and reset by a Breather or a Rest (R-E20). */
function carriedFromParty(party: Record<string, unknown>): EncounterInput['carried'] {
  const escalation = party['escalation'];
  return { escalation: typeof escalation === 'number' ? escalation : null };
}

function carriedIn(state: Record<string, unknown>, injuries: Record<string, unknown>[]): Record<string, unknown> {
  const carried: Record<string, unknown> = {};
  if (typeof state['lp'] === 'number') carried['lp'] = state['lp'];
  if (state['dice'] && typeof state['dice'] === 'object') carried['dice'] = state['dice'];
  if (state['healingRestriction'] === 'fixesOnly') carried['healingRestriction'] = 'fixesOnly';
  if (injuries.length) carried['injuries'] = injuries;
  return carried;
}

export const enigmaEncounter: EncounterRules = {
  // RULES.md §1.5: statuses the GM follows by hand beside those the rules keep.
  conditionNames: ['Hidden', 'Diminished', 'Advantage', 'Disadvantage', 'Cursed', 'Blinded', 'Restrained'],
  machine: enigmaMachine,
  eventSchema: eventSchema as unknown as z.ZodType<GmEvent>,
  sides: rules.SIDES,
  refusal,
  describe,
  view,
  roster,
  rollsFor,
  consequences,
  carriedFromParty,
  carriedIn,
  // Before one name for one thing: these three named their combatant `id`.
  upcast: (stored) => renameFields(stored, { CHOOSE_NPC: { id: 'combatantId' }, RESOLVE_PERIL: { id: 'combatantId' }, SET_CAN_ACT: { id: 'combatantId' } }),
};
