// Cairn-Errant's GM events and the checks for those outside the fight's moments (setup, declarations, order).
// The combat events and their checks live in combat.ts.
import type { AddCombatantsEvent, AddLateCombatantEvent, EndCombatEvent, RemoveCombatantEvent } from '../../encounter/roster-machine.ts';
import type { GmEvent } from '../../encounter/types.ts';
import * as combat from './combat.ts';
import type { CombatEvent, Roll } from './combat.ts';
import * as rules from './rules.ts';
import * as declarations from './declarations.ts';
import * as order from './order.ts';
import * as roster from './roster.ts';
import type { CairnContext, Tier } from './rules.ts';
import type { IntentInput } from './declarations.ts';

export type CairnEvent =
  | CombatEvent
  | AddCombatantsEvent
  | RemoveCombatantEvent
  | { type: 'START' }
  | ({ type: 'DECLARE_INTENT' } & IntentInput)
  | ({ type: 'SET_NPC_INTENT' } & IntentInput)
  | { type: 'TELEGRAPH'; id: string; text: string }
  | { type: 'CONFIRM_TIER'; id: string; tier: Tier }
  | { type: 'LOCK_INTENTS' }
  | { type: 'DEX_SAVE'; id: string; roll?: Roll | null }
  | { type: 'END_TURN' }
  | AddLateCombatantEvent
  | EndCombatEvent;

/** Every check for a non-combat event; the machine's guards use the same answers. */
export function eventRefusal(ctx: CairnContext, event: CairnEvent | (GmEvent & CairnEvent)): string | null {
  // A follow-up question (a save, a critical roll...) blocks everything but its answer and OVERRIDE.
  if (ctx.phase !== 'setup' && ctx.moment.pending.length) return combat.stepQuestion(ctx, ctx.moment.pending[0]!);
  switch (event.type) {
    case 'ADD_COMBATANTS': return roster.checkAddCombatants(ctx, event.combatants);
    case 'REMOVE_COMBATANT': return roster.checkRemove(ctx, event.combatantId);
    case 'START': return roster.checkStart(ctx);
    case 'DECLARE_INTENT': return declarations.checkIntent(ctx, event, 'pc');
    case 'SET_NPC_INTENT': return declarations.checkIntent(ctx, event, 'npc');
    case 'TELEGRAPH': {
      if (ctx.phase !== 'declare') return 'The Warden telegraphs while intents are being declared.';
      const c = ctx.combatants[event.id];
      if (!c || c.side !== 'enemies') return 'Only an enemy\'s intent is telegraphed.';
      return rules.present(c) ? null : `${c.name} is no longer in the fight.`;
    }
    case 'CONFIRM_TIER': {
      if (ctx.phase !== 'declare') return 'Turns are classified before the intents are locked.';
      return ctx.intents[event.id] ? null : `${rules.nameOf(ctx, event.id)} has not declared an intent yet.`;
    }
    case 'LOCK_INTENTS': return declarations.checkLock(ctx);
    case 'DEX_SAVE': return order.checkDexSave(ctx, event.id, event.roll?.faces ?? null);
    case 'ADD_LATE_COMBATANT': return roster.checkAddCombatants(ctx, [event.combatant]);
    default: return null;
  }
}
