// A combatant's main pool set before the fight (an NPC typed in place, or one copy of a template): every field the
// ruleset's sheet names in `mainPool` takes the number the GM typed, checked against the sheet's own limits. Shared by
// the handler (which decides) and the prepare screen (which says which field a refusal concerns).
import { DIE_SIZES, sheetValidator, type SheetSchema, type SheetValues } from './sheet.ts';

/** The pool's number as a sheet holds it: the first of the mainPool keys (Factions: STR, which is health under R-F20). */
export function poolOf(schema: SheetSchema, sheet: SheetValues): number | null {
  const key = schema.mainPool?.keys[0];
  const value = key === undefined ? undefined : sheet[key];
  return typeof value === 'number' ? value : null;
}

/**
 * `base` with its main pool set to `pool`, or the sentence that refuses it ("Goblin 2: 30 is not a possible HP: from
 * 0 to 20."). A ruleset whose sheet declares no main pool refuses any pool.
 */
export function withMainPool(schema: SheetSchema, rulesetName: string, base: SheetValues, name: string, pool: number): { sheet: SheetValues } | { refusal: string } {
  const mainPool = schema.mainPool;
  if (!mainPool) return { refusal: `${rulesetName} has no main pool to type: add the NPC from a template.` };
  const sheet = { ...base, ...Object.fromEntries(mainPool.keys.map((k) => [k, pool])) };
  const checked = sheetValidator(schema).safeParse(sheet);
  if (checked.success) return { sheet: checked.data };
  const issue = checked.error.issues[0]!;
  const field = schema.fields.find((f) => f.key === issue.path[0]);
  const sizes = field?.kind === 'die' ? (field.sizes ?? DIE_SIZES).map(String) : [];
  const limits = field?.kind === 'integer' ? `: from ${field.min ?? 0} to ${field.max ?? 999}` : sizes.length ? `: one of ${sizes.slice(0, -1).join(', ')} or ${sizes.at(-1)}` : '';
  return { refusal: `${name}: ${pool} is not a possible ${mainPool.label}${limits}.` };
}
