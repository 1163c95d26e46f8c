// A campaign's own list of condition names: what the runner's condition form suggests at that table (issue 29,
// point 3). Every campaign starts from its ruleset's list (`EncounterRules.conditionNames`); the GM may replace it
// (`campaigns:setConditions`) and go back to the ruleset's (`names: null`). The list only suggests: a condition
// put on in a fight is free text either way (core/encounter/conditions.ts), so changing the list changes no fight.
import * as z from 'zod';

/** The most names one campaign's list holds. */
export const CONDITION_LIST_MAX = 60;
/** The longest name in the list (a condition put on in a fight may be longer: NAME_MAX). */
export const CONDITION_NAME_MAX = 40;

const quoted = (text: string) => `“${text.length > 50 ? `${text.slice(0, 49)}…` : text}”`;

export const conditionNameSchema = z
  .string({ error: 'A condition name must be text.' })
  .trim()
  .min(1, { error: 'A condition name cannot be empty: remove the blank entry.' })
  .max(CONDITION_NAME_MAX, {
    error: (issue) => `A condition name has at most ${CONDITION_NAME_MAX} characters; ${typeof issue.input === 'string' ? `${quoted(issue.input)} has ${issue.input.length}` : 'one is longer'}.`,
  });

/** A campaign's list: trimmed names, each once (case aside), at most CONDITION_LIST_MAX. An empty list is allowed. */
export const conditionListSchema = z
  .array(conditionNameSchema, { error: 'The conditions must be a list of names.' })
  .max(CONDITION_LIST_MAX, { error: `A campaign's list holds at most ${CONDITION_LIST_MAX} conditions.` })
  .superRefine((names, ctx) => {
    const seen = new Set<string>();
    for (const name of names) {
      const key = name.toLocaleLowerCase('en');
      if (seen.has(key)) {
        ctx.addIssue({ code: 'custom', message: `${quoted(name)} is in the list twice (names are compared without regard to case).` });
        return;
      }
      seen.add(key);
    }
  });

/** The list as stored on the campaign (`conditions_json`): null while the campaign uses its ruleset's list. */
export function readConditionList(json: string | null | undefined): string[] | null {
  if (json === null || json === undefined) return null;
  const parsed = conditionListSchema.safeParse(JSON.parse(json));
  // The column is written only through the schema above; anything else reads as the ruleset's list.
  return parsed.success ? parsed.data : null;
}

/** The names the campaign's fights suggest: its own list, else its ruleset's. */
export const effectiveConditions = (own: readonly string[] | null, ruleset: readonly string[] | undefined): readonly string[] => own ?? ruleset ?? [];
