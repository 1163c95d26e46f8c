// Stored events of an older shape, read in today's (EncounterRules.upcast; docs/rulesets/adding-a-ruleset.md,
// "One name for one thing"). Most changes are a field renamed for one event type; a table says which.

/** Event type → { old field name: today's name }. */
export type FieldRenames = Readonly<Record<string, Readonly<Record<string, string>>>>;

/**
 * The stored event with its old field names replaced by today's, per `renames`; anything else as it was. A field
 * already under today's name is left alone (an event written after the change).
 */
export function renameFields(stored: unknown, renames: FieldRenames): unknown {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return stored;
  const event = stored as Record<string, unknown>;
  const table = typeof event['type'] === 'string' && Object.hasOwn(renames, event['type']) ? renames[event['type']] : undefined;
  if (!table) return stored;
  let out: Record<string, unknown> | null = null;
  for (const [from, to] of Object.entries(table)) {
    if (!(from in event) || to in event) continue;
    out ??= { ...event };
    out[to] = out[from];
    delete out[from];
  }
  return out ?? stored;
}
