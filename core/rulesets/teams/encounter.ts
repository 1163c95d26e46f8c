// Teams' encounter rules as the kernel sees them: the event schema (events.ts), refusals (refusals.ts), the log
// lines (log.ts), the runner view (view.ts, prompts.ts), the rolls an event needs (rolls.ts), and what the fight
// leaves on the campaign (here).
import type { z } from 'zod';
import type { Consequences, EncounterRules, EncounterSnapshot, GmEvent } from '../../encounter/types.ts';
import { eventSchema } from './events.ts';
import { TEAMS_RULES_VERSION, upcastTeams } from './upcast.ts';
import { refusal } from './refusals.ts';
import { rollsFor } from './rolls.ts';
import { describe } from './log.ts';
import { view } from './view.ts';
import { contextOf, teamsMachine } from './machine.ts';
import { actionForms } from './forms.ts';
import * as rules from './rules.ts';
import type { TeamsContext } from './rules.ts';
import { rulingsOf } from './options.ts';

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
  const reset = rulingsOf(ctx.options).poolsAfterCombat === 'reset'; // R-T26
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
  rulesVersion: TEAMS_RULES_VERSION,
  upcast: upcastTeams,
  sides: rules.SIDES,
  refusal,
  describe,
  view,
  rollsFor,
  consequences,
  actionForms,
  carriedIn,
};
