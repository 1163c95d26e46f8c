// What the campaign's lasting records are: harm (injuries and wounds) or marks that ride the same channel (a death,
// a cheated death, damaged gear), as each ruleset declares its record kinds (RulesetDefinition.records).
import type { RecordCategory } from '../rulesets/types.ts';

/**
 * Whether a record of `category` is harm, counted as an open injury or wound until it heals. A category its ruleset
 * does not declare counts as harm.
 */
export const isHarm = (categories: readonly RecordCategory[], category: string): boolean => categories.find((c) => c.key === category)?.harm ?? true;

/** What the character's history calls a category: the ruleset's label, else the key in words ("cheatDeath" → "Cheat Death"). */
export const recordLabel = (categories: readonly RecordCategory[], category: string): string =>
  categories.find((c) => c.key === category)?.label ?? category.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (first) => first.toUpperCase());
