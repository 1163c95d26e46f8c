// Once a fight has been carried onto a character, the campaign's stored condition is what the next fight starts
// from: a sheet field of the same name in the condition overrides the sheet (each ruleset's carriedIn). The editor
// says so under that field, with the value that counts.
import type { SheetField, SheetValues } from '../../../core/rulesets/sheet.ts';

/** "The campaign holds 6/10 from the last fight; this value is not used.", or null when the sheet's value counts. */
export function carriedNote(field: SheetField, fields: readonly SheetField[], sheet: SheetValues, condition: Record<string, unknown>): string | null {
  const held = condition[field.key];
  if (field.kind === 'integer' && typeof held === 'number') {
    const capKey = field.atMost;
    const cap = capKey === undefined ? undefined : typeof condition[capKey] === 'number' ? condition[capKey] : sheet[capKey];
    const shown = typeof cap === 'number' && fields.some((f) => f.key === capKey) ? `${held}/${cap}` : String(held);
    return `The campaign holds ${shown} from the last fight; this value is not used.`;
  }
  if (field.kind === 'flag' && typeof held === 'boolean') {
    return `The campaign holds "${held ? 'yes' : 'no'}" from the last fight; this box is not used.`;
  }
  return null;
}
