// Thrum's recovery between fights (RULES.md §5.6, R-H9, R-H17). Loads reset at the end of every combat, so only
// lowered tolerances and Wounds need recovery, and only Downtime (or a very powerful item, or a story objective)
// gives it. Pure: each function takes a character's condition and returns a new one with a log sentence, or throws
// RecoveryRefusal (changing nothing).
import type { OptionValues } from '../options.ts';
import { rulingsOf } from './options.ts';

/** A refusal a GM can read ("Ana has nothing for Downtime to restore."). Nothing was changed. */
export class RecoveryRefusal extends Error {
  override name = 'RecoveryRefusal';
}

function refuse(message: string): never {
  throw new RecoveryRefusal(message);
}

/** What the campaign keeps on a Thrum character between fights (§5.6 "Persistent fields"). */
export interface ThrumCondition {
  fatigueTolerance: number;
  stressTolerance: number;
  baseFatigueTolerance: number;
  baseStressTolerance: number;
  wounds: number;
  /** R-H9: Fatigue Tolerance was 0 when the last combat ended. */
  stillIncapacitated: boolean;
  /** Three Wounds: out of normal campaign play until the table decides otherwise. */
  outOfAction: boolean;
}

export interface RecoveryResult {
  condition: ThrumCondition;
  text: string;
  rulings: string[];
}

export const MAX_WOUNDS = 3;
const MAX_DAYS = 365;

/** The condition from a stored sheet and state (state wins: it holds what the last fight left). */
export function conditionOf(sheet: Record<string, unknown>, state: Record<string, unknown> = {}): ThrumCondition {
  const n = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
  const baseFatigueTolerance = n(sheet['baseFatigueTolerance'], 5);
  const baseStressTolerance = n(sheet['baseStressTolerance'], 5);
  const wounds = n(state['wounds'], n(sheet['wounds'], 0));
  return {
    fatigueTolerance: n(state['fatigueTolerance'], n(sheet['fatigueTolerance'], baseFatigueTolerance)),
    stressTolerance: n(state['stressTolerance'], n(sheet['stressTolerance'], baseStressTolerance)),
    baseFatigueTolerance,
    baseStressTolerance,
    wounds,
    // The stored condition wins over the sheet once recovery or a fight has written it.
    stillIncapacitated: typeof state['stillIncapacitated'] === 'boolean' ? state['stillIncapacitated'] : sheet['stillIncapacitated'] === true,
    outOfAction: state['outOfAction'] === true || wounds >= MAX_WOUNDS,
  };
}

/** After any restoration: Fatigue Tolerance above 0 ends R-H9's lingering incapacity; fewer than three Wounds return the character to play. */
function settle(c: ThrumCondition): ThrumCondition {
  return { ...c, stillIncapacitated: c.stillIncapacitated && c.fatigueTolerance === 0, outOfAction: c.wounds >= MAX_WOUNDS };
}

function changes(name: string, before: ThrumCondition, after: ThrumCondition): string[] {
  const parts: string[] = [];
  if (after.fatigueTolerance !== before.fatigueTolerance) parts.push(`Fatigue Tolerance ${before.fatigueTolerance} → ${after.fatigueTolerance}`);
  if (after.stressTolerance !== before.stressTolerance) parts.push(`Stress Tolerance ${before.stressTolerance} → ${after.stressTolerance}`);
  if (after.wounds !== before.wounds) parts.push(`Wounds ${before.wounds} → ${after.wounds}`);
  if (before.stillIncapacitated && !after.stillIncapacitated) parts.push(`${name} is no longer Incapacitated`);
  if (before.outOfAction && !after.outOfAction) parts.push(`${name} can return to play if the table agrees`);
  return parts;
}

/**
 * Downtime (R-H17). Default `baseAndOneWound`: both tolerances back to base and one Wound healed;
 * `baseAndAllWounds`: every Wound healed too; `onePointPerDay`: each day restores one point of each lowered
 * tolerance, and the Downtime heals one Wound.
 */
export function downtime(name: string, condition: ThrumCondition, options: OptionValues, days = 1): RecoveryResult {
  if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS) refuse(`Downtime lasts 1 to ${MAX_DAYS} days.`);
  const mode = rulingsOf(options).downtimeRestores;
  const lowered = condition.fatigueTolerance < condition.baseFatigueTolerance || condition.stressTolerance < condition.baseStressTolerance;
  if (!lowered && condition.wounds === 0) refuse(`${name} has nothing for Downtime to restore: tolerances at base and no Wounds.`);
  let next: ThrumCondition;
  if (mode === 'onePointPerDay') {
    next = {
      ...condition,
      fatigueTolerance: Math.min(condition.baseFatigueTolerance, Math.max(condition.fatigueTolerance, condition.fatigueTolerance + days)),
      stressTolerance: Math.min(condition.baseStressTolerance, Math.max(condition.stressTolerance, condition.stressTolerance + days)),
      wounds: Math.max(0, condition.wounds - 1),
    };
  } else {
    next = {
      ...condition,
      fatigueTolerance: Math.max(condition.fatigueTolerance, condition.baseFatigueTolerance),
      stressTolerance: Math.max(condition.stressTolerance, condition.baseStressTolerance),
      wounds: mode === 'baseAndAllWounds' ? 0 : Math.max(0, condition.wounds - 1),
    };
  }
  next = settle(next);
  const parts = changes(name, condition, next);
  return { condition: next, rulings: ['R-H17', ...(condition.stillIncapacitated ? ['R-H9'] : [])], text: `${name} spends ${days === 1 ? 'a day' : `${days} days`} of Downtime: ${parts.join('; ')}.` };
}

/** A very powerful item or a story objective restores tolerance points or heals Wounds, as the GM says. */
export function restore(name: string, condition: ThrumCondition, change: { fatigue?: number; stress?: number; wounds?: number }, source: string): RecoveryResult {
  const amounts = [change.fatigue ?? 0, change.stress ?? 0, change.wounds ?? 0];
  if (amounts.some((a) => !Number.isInteger(a) || a < 0 || a > 30)) refuse('Restore 0 to 30 points at a time.');
  if (amounts.every((a) => a === 0)) refuse('Say what is restored: Fatigue Tolerance, Stress Tolerance or Wounds.');
  if (!source.trim()) refuse('Name the item or story objective that restores it.');
  const next = settle({
    ...condition,
    fatigueTolerance: Math.min(condition.baseFatigueTolerance, condition.fatigueTolerance + (change.fatigue ?? 0)),
    stressTolerance: Math.min(condition.baseStressTolerance, condition.stressTolerance + (change.stress ?? 0)),
    wounds: Math.max(0, condition.wounds - (change.wounds ?? 0)),
  });
  const parts = changes(name, condition, next);
  if (parts.length === 0) refuse(`${name} has nothing of that to restore.`);
  return { condition: next, rulings: [], text: `${source.trim()} restores ${name}: ${parts.join('; ')}.` };
}

/** The state to store back on the character (the fields the encounter's carry-over writes). */
export function stateOf(condition: ThrumCondition): Record<string, unknown> {
  return {
    fatigueTolerance: condition.fatigueTolerance,
    stressTolerance: condition.stressTolerance,
    wounds: condition.wounds,
    stillIncapacitated: condition.stillIncapacitated,
    outOfAction: condition.outOfAction,
  };
}
