// Why Teams refuses an event now: setup and turn order here, combat in combat.ts.
import type { EncounterSnapshot, GmEvent } from '../../encounter/types.ts';
import * as combat from './combat.ts';
import { COMBAT_EVENTS, SETUP_EVENTS } from './events.ts';
import type { CombatEvent } from './combat.ts';
import { contextOf, type TeamsEvent } from './machine.ts';
import * as rules from './rules.ts';
import * as roster from '../../encounter/roster.ts';
import { nameOf } from '../../encounter/roster.ts';
import { agrees } from '../../words.ts';

const inSetup = (snapshot: EncounterSnapshot) => snapshot.matches('setup');

export function refusal(snapshot: EncounterSnapshot, raw: GmEvent): string | null {
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
    case 'ADD_COMBATANTS': return roster.checkAdd(rules.ROSTER, ctx, event.combatants);
    case 'REMOVE_COMBATANT': return roster.checkRemove(rules.ROSTER, ctx, event.combatantId);
    case 'ADD_TEAM': return rules.checkAddTeam(ctx, event.key, event.label);
    case 'SET_TEAM': return rules.checkSetTeam(ctx, event.combatantId, event.team);
    case 'SET_INSTIGATOR': return rules.checkInstigator(ctx, event.combatantId, event.attackedTeam);
    case 'SET_TEAM_ORDER': return rules.checkTeamOrder(ctx, event.teams);
    case 'DECLARE_SURPRISE': return rules.checkSurprise(ctx, event.team);
    case 'SET_UNSURPRISABLE': return ctx.combatants[event.combatantId] ? null : 'That combatant is not in this encounter.';
    case 'SET_OBJECTIVE': return ctx.teams.some((t) => t.key === event.team) ? null : 'That team is not in this encounter.';
    case 'START': return rules.checkStart(ctx);
    case 'ADD_LATE_COMBATANT': return roster.checkAdd(rules.ROSTER, ctx, [event.combatant]);
    case 'SELECT_MEMBER':
      if (ctx.activeId) return `${nameOf(ctx, ctx.activeId)}'s turn is running: end it first.`;
      if (snapshot.matches({ running: 'stalled' })) return 'Nobody is able to take a turn.';
      return rules.checkSelectMember(ctx, event.combatantId);
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
