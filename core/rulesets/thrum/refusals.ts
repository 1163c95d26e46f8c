// Why Thrum refuses a GM event now, in a sentence: the stage's own checks, then the combat rules'.
import type { EncounterSnapshot, GmEvent } from '../../encounter/types.ts';
import { nameOf } from '../../encounter/roster.ts';
import { delayRefusal, initiativeRefusal, isCombat, lateRefusal, removeRefusal, setupRefusal, tieRefusal, type ThrumEvent } from './machine.ts';
import * as rules from './rules.ts';
import type { ThrumContext } from './rules.ts';
import { contextOf, stageOf } from './stages.ts';
import { combatRefusal, frameQuestion } from './combat.ts';

const SETUP_EVENTS = new Set(['ADD_COMBATANTS', 'SET_SIDE', 'SET_MAP', 'PLACE_NPC', 'START', 'SET_CONDITION']);
const INITIATIVE_EVENTS = new Set(['ROLL_INITIATIVE', 'BREAK_TIE', 'REMOVE_COMBATANT', 'ADD_LATE_COMBATANT', 'END_COMBAT']);

const waitingFor = (ctx: ThrumContext) => (ctx.stack.length ? `Waiting for ${frameQuestion(ctx, ctx.stack.at(-1)!)}.` : null);

export function refusal(snapshot: EncounterSnapshot, raw: GmEvent): string | null {
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
      if (waiting.length) return `Roll initiative first: ${waiting.map((id) => nameOf(ctx, id)).join(', ')} still to roll.`;
      if (tie) return `The GM breaks the initiative tie first: ${tie.map((id) => nameOf(ctx, id)).join(', ')} (R-H1).`;
    }
    switch (event.type) {
      case 'ROLL_INITIATIVE': return initiativeRefusal(ctx, event.combatantId, event.roll);
      case 'BREAK_TIE': return tieRefusal(ctx, event.combatantId);
      case 'REMOVE_COMBATANT': return removeRefusal(ctx, event.combatantId);
      case 'ADD_LATE_COMBATANT': return lateRefusal(ctx, event.combatant, event.initiativeRoll, false);
      default: return null;
    }
  }
  switch (event.type) {
    case 'ROLL_INITIATIVE': return 'Initiative is rolled once, before Round Zero; a late arrival rolls as it joins.';
    case 'BREAK_TIE': return 'No initiative tie is waiting for the GM.';
    case 'DELAY': return delayRefusal(ctx, event.combatantId, event.afterId);
    case 'END_TURN':
      if (snapshot.matches({ rounds: 'stalled' })) return 'Nobody is left in the initiative order.';
      return waitingFor(ctx);
    case 'REMOVE_COMBATANT': return removeRefusal(ctx, event.combatantId);
    case 'ADD_LATE_COMBATANT': return lateRefusal(ctx, event.combatant, event.initiativeRoll, true);
    case 'END_COMBAT': return waitingFor(ctx) ? `${waitingFor(ctx)} The current action resolves before combat ends.` : null;
    default:
      return isCombat(event) ? combatRefusal(ctx, event, stage === 'roundZero' ? 'roundZero' : 'rounds') : null;
  }
}
