// Thrum's encounter rules as the kernel sees them, put together from their files: the event schema (events.ts),
// refusals (refusals.ts), the log (log.ts), the view (view.ts) and its prompts (prompts.ts); here, the rolls an event
// needs and what the fight leaves on the campaign.
import * as z from 'zod';
import type { Consequences, EncounterRules, EncounterSnapshot, GmEvent, RollRequest } from '../../encounter/types.ts';
import { nameOf } from '../../encounter/roster.ts';
import { keyOf, type Square } from './grid.ts';
import { COMBAT_TYPES, thrumMachine, type ThrumEvent } from './machine.ts';
import * as rules from './rules.ts';
import { eventSchema } from './events.ts';
import { describe, signed } from './log.ts';
import { refusal } from './refusals.ts';
import { contextOf, stageOf } from './stages.ts';
import { upcastThrum } from './upcast.ts';
import { view } from './view.ts';
import { type SideDice, contestDice, contestRolled, defenceLabel, diceLabel } from './attack.ts';

// ---- rolls an event needs (the app rolls them, or the GM types the faces) ----

function rollsFor(snapshot: EncounterSnapshot, raw: GmEvent): RollRequest[] {
  const ctx = contextOf(snapshot);
  const event = raw as GmEvent & ThrumEvent;
  const request = (path: (string | number)[], label: string): RollRequest => ({ path, label, notation: '2d6', count: 2, sides: 6 });
  const c = 'combatantId' in event && typeof event.combatantId === 'string' ? ctx.combatants[event.combatantId] : undefined;
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
      const moverId = event.type === 'MOVE' ? rules.activeId(ctx) : event.combatantId;
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
      if (top?.kind !== 'attack' || (event.outcome ?? 'roll') !== 'roll') return [];
      const target = top.attack.targets[top.attack.current];
      if (!target?.defence || !contestRolled(ctx, target.defence)) return [];
      const dice = contestDice(ctx, top.attack, target);
      const side = (path: string, label: string, d: SideDice): RollRequest => ({ path: [path], label: `${label}, ${diceLabel(d)}`, notation: `${d.count}d6`, count: d.count, sides: 6 });
      return [
        side('attackRoll', `${nameOf(ctx, top.attack.attackerId)}: ${top.attack.ability} attack roll`, dice.attack),
        side('defenceRoll', `${nameOf(ctx, target.targetId)}: ${defenceLabel(target.defence)} roll`, dice.defence),
      ];
    }
    case 'ADD_LATE_COMBATANT':
      return stageOf(snapshot) === 'setup' ? [] : [request(['initiativeRoll'], `${event.combatant.name}: initiative, 2d6 ${signed(Number(event.combatant.sheet['initiativeModifier'] ?? 0))}`)];
    default:
      return [];
  }
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
  // Version 2: every field named for what it holds, no bare `id` (upcast.ts reads the version 1 shapes).
  rulesVersion: 2,
  upcast: upcastThrum,
};

export { COMBAT_TYPES, keyOf };
export type { Square };
